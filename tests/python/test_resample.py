"""state.resample_from_infostate(player, seed): a state the player cannot
tell apart, drawn by the bots' sampler; it never depends on what the player
did not see ("same view, same sample")."""
import os
import random
import tempfile

import pytest

import rulebook

# Sealed bids as private numbers: seat 0 then seat 1 bids privately, and only
# who took the prize is said. Seat 1's first bid is hidden from seat 0 except
# for what the outcome narrows.
SEALED = """
local rules = {}
function rules.setup(game) end
function rules.play(game)
  local won = {0, 0}
  for round = 1, 3 do
    local a = game:choose(0, "Bid", {1, 2, 3, 4}, {private = true})
    local b = game:choose(1, "Bid", {1, 2, 3, 4}, {private = true})
    if a > b then won[1] = won[1] + 1; game:say("Ann takes the prize")
    elseif b > a then won[2] = won[2] + 1; game:say("Bob takes the prize")
    else game:say("a tie") end
  end
  if won[1] > won[2] then game:finish{winners = {0}}
  elseif won[2] > won[1] then game:finish{winners = {1}}
  else game:finish{winners = {0, 1}} end
end
return rules
"""


@pytest.fixture(scope="module")
def sealed():
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "sealed")
        os.makedirs(folder)
        with open(os.path.join(folder, "game.yaml"), "w") as f:
            f.write("name: sealed\ntitle: Sealed bids\nplayers: {min: 2, max: 2}\nscript: rules.lua\n")
        with open(os.path.join(folder, "rules.lua"), "w") as f:
            f.write(SEALED)
        yield rulebook.load_game(folder)


def test_same_view_same_sample(sealed):
    # Two games where Bob's first bid differs (2 or 3) but Ann's view is the
    # same: Ann bid 4 and took the prize either way.
    worlds = []
    for bob in (1, 2):
        state = sealed.new_initial_state(seed=1)
        state.apply_action(3)    # Ann bids 4
        state.apply_action(bob)  # Bob bids 2 or 3
        assert state.current_player() == 0
        worlds.append(state)
    assert worlds[0].information_state_string(0) == worlds[1].information_state_string(0)
    assert worlds[0].history() != worlds[1].history()
    for seed in range(20):
        a = worlds[0].resample_from_infostate(0, seed)
        b = worlds[1].resample_from_infostate(0, seed)
        assert a.history() == b.history(), seed
        assert a.information_state_string(0) == worlds[0].information_state_string(0)
        assert a.is_resampled() and a.current_player() == 0


def test_the_sample_is_spread_over_what_the_player_cannot_tell(sealed):
    state = sealed.new_initial_state(seed=1)
    state.apply_action(3)
    state.apply_action(1)
    bobs = {state.resample_from_infostate(0, seed).history()[1] for seed in range(60)}
    # Ann bid 4 and won: Bob bid 1, 2 or 3, each possible; 4 would have tied.
    assert bobs == {0, 1, 2}


def test_a_sample_plays_on_like_a_state(sealed):
    state = sealed.new_initial_state(seed=3)
    state.apply_action(0)
    state.apply_action(3)
    world = state.resample_from_infostate(0, 7)
    copy = world.clone()
    rng = random.Random(1)
    while not world.is_terminal():
        world.apply_action(rng.choice(world.legal_actions()))
    assert copy.history() == state.history()[:0] + copy.history() and not copy.is_terminal()
    with pytest.raises(ValueError, match="resampled"):
        world.serialize()


def test_resampling_a_card_game_keeps_the_players_own_hand():
    game = rulebook.load_game("old-maid", players=3)
    state = game.new_initial_state(seed=5)
    rng = random.Random(2)
    while state.current_player() != 0:
        state.apply_action(rng.choice(state.legal_actions()))
    mine = state.observation_string(0)
    for seed in range(5):
        world = state.resample_from_infostate(0, seed)
        assert world.observation_string(0) == mine
        assert world.information_state_string(0) == state.information_state_string(0)


def test_resample_where_the_sampler_does_not_work_says_so(sealed):
    state = sealed.new_initial_state(seed=1)
    with pytest.raises(ValueError, match="decision of player 1"):
        state.resample_from_infostate(1, 0)
    explicit = rulebook.load_game("liars-dice").new_initial_state(chance="explicit")
    with pytest.raises(ValueError, match="sampled"):
        explicit.resample_from_infostate(0, 0)
