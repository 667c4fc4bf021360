"""rulebook.aec: the PettingZoo-AEC-shaped loop over a sequential game and a
game of simultaneous decisions."""
import json
import random

import pytest

import rulebook
from rulebook import aec


def play(env, seed, rng):
    env.reset(seed=seed)
    steps, seen = 0, []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        mask = list(observation["action_mask"])
        legal = [a for a, ok in enumerate(mask) if ok]
        assert legal == info["legal_actions"] and len(info["action_labels"]) == len(legal)
        assert isinstance(observation["observation"], str)
        seen.append(agent)
        env.step(rng.choice(legal))
        steps += 1
    return steps, seen


def test_a_whole_game_through_the_loop():
    env = aec.env("pass-the-pandas", players=3)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    steps, seen = play(env, 7, random.Random(1))
    assert steps > 0 and set(seen) <= set(env.possible_agents)
    assert env.agents == []  # every agent stepped out after the end
    assert env.state.is_terminal()
    returns = env.state.returns()
    assert sum(returns) == pytest.approx(1.0)


def test_the_loop_plays_the_same_game_as_the_state():
    """The AEC loop with the same seed and actions gives the state's game."""
    env = aec.env("hai-noon", players=2)
    rng = random.Random(3)
    play(env, 11, rng)
    state = env.game.new_initial_state(seed=11)
    for a in env.state.history():
        state.apply_action(a)
    assert state.is_terminal() and state.returns() == env.state.returns()


def test_rewards_arrive_at_the_end():
    env = aec.env("liars-dice", players=2)
    env.reset(seed=2)
    rng = random.Random(2)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        total[agent] += reward
        if termination:
            env.step(None)
        else:
            env.step(rng.choice(info["legal_actions"]))
    assert sorted(total.values()) == [0.0, 1.0]


def test_simultaneous_decisions_step_seat_by_seat():
    env = aec.env("goofspiel", players=2)
    env.reset(seed=5)
    rng = random.Random(5)
    first_decision = None
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination:
            env.step(None)
            continue
        if first_decision is None:
            first_decision = (agent, env.state.deciding_players())
            assert env.state.is_simultaneous_node()
        env.step(rng.choice(info["legal_actions"]))
    assert first_decision[1] == [0, 1]
    assert env.state.is_terminal()


def test_an_illegal_action_is_refused():
    env = aec.env("liars-dice", players=2)
    env.reset(seed=1)
    with pytest.raises(ValueError):
        env.step(999)
    with pytest.raises(ValueError):
        env.step(None)


def test_a_decision_larger_than_the_space_says_so():
    env = aec.env("old-maid", players=2, max_actions=1)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="max_actions"):
        env.last()
