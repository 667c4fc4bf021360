"""The Python door's API on the bundled games: pyspiel's names, what each
returns, errors in Python's words, clone, serialize."""
import json
import math
import os
import random
import subprocess
import tempfile

import pytest

import rulebook

GAMES = rulebook.list_games()
BINARY = os.environ.get("RULEBOOK_BINARY", "rulebook")


def random_playout(state, rng):
    """Plays to the end with uniformly random actions; returns the number of steps."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            joint = [rulebook.INVALID_ACTION] * state.num_players()
            for p in state.deciding_players():
                joint[p] = rng.choice(state.legal_actions(p))
            state.apply_actions(joint)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def test_special_players_are_openspiels():
    assert (rulebook.CHANCE, rulebook.SIMULTANEOUS, rulebook.INVALID, rulebook.TERMINAL) == (-1, -2, -3, -4)


def test_the_bundled_games_are_listed():
    for name in ["pass-the-pandas", "hai-noon", "hao-hao", "old-maid", "liars-dice", "goofspiel"]:
        assert name in GAMES


@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_plays_to_its_end(name):
    game = rulebook.load_game(name)
    assert game.num_players() >= game.min_players()
    state = game.new_initial_state(seed=3)
    assert not state.is_terminal()
    random_playout(state, random.Random(5))
    assert state.current_player() == rulebook.TERMINAL
    returns = state.returns()
    assert len(returns) == game.num_players()
    assert all(math.isfinite(r) for r in returns)  # shares of the win, or the game's own returns (chips can be negative)
    assert state.legal_actions() == []
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)


def test_a_state_says_who_moves_and_what_they_may_do():
    game = rulebook.load_game("pass-the-pandas", players=3)
    state = game.new_initial_state(seed=11)
    player = state.current_player()
    assert 0 <= player < 3
    actions = state.legal_actions()
    assert actions == list(range(len(actions))) and actions
    assert state.legal_actions(player) == actions
    other = (player + 1) % 3
    assert state.legal_actions(other) == []
    labels = [state.action_to_string(player, a) for a in actions]
    assert all(isinstance(label, str) and label for label in labels)
    assert state.action_to_string(actions[0]) == labels[0]
    assert state.prompt(player)
    before = state.history()
    state.apply_action(actions[-1])
    assert state.history() == before + [actions[-1]]


def test_a_bad_action_is_a_value_error_and_changes_nothing():
    state = rulebook.load_game("liars-dice", players=2).new_initial_state(seed=2)
    history, view = state.history(), state.observation_string(0)
    for bad in [-1, 999]:
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(bad)
    assert state.history() == history and state.observation_string(0) == view
    with pytest.raises(ValueError, match="not a seat"):
        state.legal_actions(7)
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()


def test_a_missing_game_or_a_bad_option_is_a_setup_error():
    with pytest.raises(rulebook.SetupError, match="no-such-game"):
        rulebook.load_game("no-such-game")
    with pytest.raises(rulebook.SetupError):
        rulebook.load_game("pass-the-pandas", options={"no_such_option": 3})
    with pytest.raises(ValueError, match="players"):
        rulebook.load_game("pass-the-pandas", players=99)
    assert issubclass(rulebook.SetupError, ValueError)


def write_game(folder, rules):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "game.yaml"), "w") as f:
        f.write("name: broken\ntitle: Broken\nplayers: {min: 2, max: 2}\nscript: rules.lua\n")
    with open(os.path.join(folder, "rules.lua"), "w") as f:
        f.write(rules)


def test_a_rules_error_is_a_script_error_naming_file_and_line_and_the_state_survives():
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "broken")
        write_game(folder, "\n".join([
            "local rules = {}",
            "function rules.setup(game) end",
            "function rules.play(game)",
            "  local a = game:choose(0, 'Pick', {'fine', 'boom'})",
            "  if a == 'boom' then error('the rules broke') end",
            "  game:finish{winners = {0}}",
            "end",
            "return rules",
        ]) + "\n")
        game = rulebook.load_game(folder)
        state = game.new_initial_state(seed=1)
        assert state.legal_actions() == [0, 1]
        with pytest.raises(rulebook.ScriptError, match=r"rules.lua:5: .*the rules broke"):
            state.apply_action(1)
        # The state is where it was: the other option still plays.
        assert state.history() == [] and state.legal_actions() == [0, 1]
        state.apply_action(0)
        assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_a_runaway_rule_is_stopped_by_its_budget_not_the_interpreter():
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "loop")
        write_game(folder, "local rules = {}\nfunction rules.setup(game) end\n"
                           "function rules.play(game)\n  game:choose(0, 'Go', {'a', 'b'})\n  while true do end\nend\n"
                           "return rules\n")
        state = rulebook.load_game(folder, max_seconds=0.3).new_initial_state()
        with pytest.raises(rulebook.ScriptError, match="rules.lua:5"):
            state.apply_action(0)


def test_clone_then_different_actions_leave_the_original_untouched():
    game = rulebook.load_game("hai-noon", players=2)
    state = game.new_initial_state(seed=4)
    rng = random.Random(1)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    snapshot = (state.history(), state.observation_string(0), state.observation_string(1),
                state.information_state_string(0), state.information_state_string(1), str(state))
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.information_state_string(1) == state.information_state_string(1)
    random_playout(copy, random.Random(2))
    assert copy.is_terminal()
    assert (state.history(), state.observation_string(0), state.observation_string(1),
            state.information_state_string(0), state.information_state_string(1), str(state)) == snapshot
    # The original plays on as if never copied: the same as a fresh game with the same steps.
    again = game.new_initial_state(seed=4)
    for a in state.history():
        again.apply_action(a)
    random_playout(state, random.Random(9))
    random_playout(again, random.Random(9))
    assert state.history() == again.history() and state.returns() == again.returns()


def test_serialize_round_trips_and_is_a_replay_log():
    game = rulebook.load_game("liars-dice", players=2)
    state = game.new_initial_state(seed=8)
    random_playout(state, random.Random(3))
    text = state.serialize()
    log = json.loads(text)
    assert log["format"] == "rulebook-log" and log["seed"] == 8 and "result" in log
    back = game.deserialize_state(text)
    assert back.history() == state.history() and back.returns() == state.returns()
    assert back.serialize() == text
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run([BINARY, "replay", f.name], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
    finally:
        os.unlink(f.name)
    # Mid-game: a log without a result, read back to the same decision.
    mid = game.new_initial_state(seed=8)
    mid.apply_action(mid.legal_actions()[0])
    back = game.deserialize_state(mid.serialize())
    assert back.history() == mid.history() and back.current_player() == mid.current_player()
    assert back.information_state_string(0) == mid.information_state_string(0)
    with pytest.raises(ValueError, match="not a rulebook log"):
        game.deserialize_state("{}")
    other = rulebook.load_game("liars-dice", players=3)
    with pytest.raises(ValueError, match="2-player"):
        other.deserialize_state(text)


def test_information_state_is_a_seats_own_and_observation_is_its_view():
    game = rulebook.load_game("liars-dice", players=2)
    a, b = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    # Different dice under the cups: each seat sees its own, not the other's.
    view0 = json.loads(a.observation_string(0))
    assert isinstance(view0, dict)
    assert a.information_state_string(0).startswith("seat 0\n")
    assert a.information_state_string(0) != a.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0) or \
        a.observation_string(0) == b.observation_string(0)
    with pytest.raises(ValueError):
        a.information_state_string(rulebook.CHANCE)


def test_explicit_chance_stops_at_every_roll():
    game = rulebook.load_game("pass-the-pandas", players=2)
    state = game.new_initial_state(seed=1, chance="explicit")
    assert state.chance_mode() == "explicit"
    seen_chance = 0
    rng = random.Random(4)
    while not state.is_terminal() and seen_chance < 40:
        if state.is_chance_node():
            assert state.current_player() == rulebook.CHANCE
            outcomes = state.chance_outcomes()
            assert len(outcomes) >= 2
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
            assert state.legal_actions(rulebook.CHANCE) == [o for o, _ in outcomes]
            labels = [state.action_to_string(rulebook.CHANCE, o) for o, _ in outcomes]
            assert all(labels)
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            seen_chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen_chance >= 5
    # The same steps give the same game; a clone and a deserialized state agree.
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    back = game.deserialize_state(state.serialize())
    assert back.history() == state.history() and str(back) == str(state)
    assert json.loads(state.serialize())["chance"]


def test_explicit_chance_forces_the_dice():
    """Forcing every outcome to the same face gives that face on every die rolled."""
    game = rulebook.load_game("liars-dice", players=2)
    state = game.new_initial_state(seed=1, chance="explicit")
    assert state.is_chance_node()
    faces = [state.action_to_string(rulebook.CHANCE, o) for o, _ in state.chance_outcomes()]
    assert len(faces) == 6
    while state.is_chance_node():
        state.apply_action(2)
    view = json.loads(str(state))
    assert faces[2] in json.dumps(view)


def test_explicit_chance_presents_a_shuffle_as_draws():
    """A shuffle of n components is n-1 chance nodes of n, n-1, ..., 2 outcomes."""
    game = rulebook.load_game("old-maid", players=2)
    state = game.new_initial_state(seed=1, chance="explicit")
    sizes = []
    while state.is_chance_node() and len(sizes) < 200:
        n = len(state.chance_outcomes())
        sizes.append(n)
        state.apply_action(n - 1)
    assert sizes[:3] == [sizes[0], sizes[0] - 1, sizes[0] - 2]
    assert sizes[0] >= 10


def test_seeds_reproduce_and_differ():
    game = rulebook.load_game("hao-hao", players=2)
    runs = []
    for seed in [5, 5, 6]:
        state = game.new_initial_state(seed=seed)
        random_playout(state, random.Random(0))
        runs.append((state.history(), state.returns()))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_a_log_with_explicit_chance_replays_with_its_outcomes():
    game = rulebook.load_game("liars-dice", players=2)
    state = game.new_initial_state(seed=3, chance="explicit")
    random_playout(state, random.Random(8))
    log = json.loads(state.serialize())
    assert log["chance"] and "result" in log

    def replay(text):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write(text)
        try:
            return subprocess.run([BINARY, "replay", f.name], capture_output=True, text=True)
        finally:
            os.unlink(f.name)

    assert replay(json.dumps(log)).returncode == 0
    # Other outcomes are another game: the replay names the difference.
    log["chance"] = [(o + 1) % 6 for o in log["chance"]]
    out = replay(json.dumps(log))
    assert out.returncode != 0
    log["chance"] = log["chance"][:1]
    out = replay(json.dumps(log))
    assert out.returncode != 0 and "run out" in out.stdout + out.stderr


def test_returns_are_the_games_own_where_it_gives_them():
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "chips")
        write_game(folder, "local rules = {}\nfunction rules.setup(game) end\n"
                           "function rules.play(game)\n  local bet = game:choose(0, 'Bet', {1, 2, 3})\n"
                           "  game:finish{winners = {1}, returns = {-bet, bet * 1.5}}\nend\nreturn rules\n")
        game = rulebook.load_game(folder)
        state = game.new_initial_state()
        state.apply_action(2)
        assert state.returns() == [-3.0, 4.5]
        assert json.loads(state.serialize())["result"]["returns"] == [-3, 4.5]
