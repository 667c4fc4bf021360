"""rulebook games from Python, OpenSpiel-shaped.

    import rulebook
    game = rulebook.load_game("kuhn-poker", players=2)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

The names follow OpenSpiel's pyspiel (current_player, legal_actions,
apply_action, returns, information_state_string, clone, ...), with
CHANCE, SIMULTANEOUS and TERMINAL as the special players. See
docs/python.md; rulebook.aec has a PettingZoo-AEC-shaped environment.
"""
from ._rulebook import (  # noqa: F401
    CHANCE,
    INVALID,
    INVALID_ACTION,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    ScriptError,
    SetupError,
    State,
    list_games,
    load_game,
)

__all__ = [
    "CHANCE", "INVALID", "INVALID_ACTION", "SIMULTANEOUS", "TERMINAL", "Game", "ScriptError",
    "SetupError", "State", "list_games", "load_game", "aec",
]


def __getattr__(name):
    # rulebook.aec on first use, so that `import rulebook` stays light.
    if name == "aec":
        import importlib
        return importlib.import_module(".aec", __name__)
    raise AttributeError(f"module 'rulebook' has no attribute {name!r}")
