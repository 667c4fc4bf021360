#!/usr/bin/env python3
"""What each call of the Python door costs: microseconds per apply_action,
per clone and per legal_actions, on every bundled game (medians of rounds).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_costs.py [--rounds 5] [--games 20]

Each round plays --games random games of each bundled game through Python,
timing every call; a round's figure is the mean over its calls, and the
table shows the median round with the lowest and highest. `clone` is timed
at every decision of the first games of a round (a clone is a replay of the
game so far, so its cost grows along a game: the mean is over all positions).
"""
import argparse
import random
import statistics
import time

import rulebook


def round_costs(name, games, rng):
    game = rulebook.load_game(name)
    apply_t, legal_t, clone_t = [], [], []
    for g in range(games):
        state = game.new_initial_state(seed=rng.randrange(1 << 62))
        while not state.is_terminal():
            t0 = time.perf_counter()
            if state.is_simultaneous_node():
                actions = {p: state.legal_actions(p) for p in state.deciding_players()}
            else:
                actions = state.legal_actions()
            t1 = time.perf_counter()
            legal_t.append(t1 - t0)
            if g < 3:
                t0 = time.perf_counter()
                copy = state.clone()
                clone_t.append(time.perf_counter() - t0)
                del copy
            if state.is_simultaneous_node():
                joint = [rulebook.INVALID_ACTION] * state.num_players()
                for p, legal in actions.items():
                    joint[p] = rng.choice(legal)
                t0 = time.perf_counter()
                state.apply_actions(joint)
            else:
                a = rng.choice(actions)
                t0 = time.perf_counter()
                state.apply_action(a)
            apply_t.append(time.perf_counter() - t0)
    mean = lambda xs: 1e6 * sum(xs) / len(xs)
    return mean(apply_t), mean(legal_t), mean(clone_t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args()
    names = args.only or rulebook.list_games()
    print("| game | apply_action µs | legal_actions µs | clone µs |")
    print("| --- | --- | --- | --- |")
    for name in names:
        rounds = [round_costs(name, args.games, random.Random(r)) for r in range(args.rounds)]
        cells = []
        for i in range(3):
            xs = [r[i] for r in rounds]
            cells.append(f"{statistics.median(xs):.1f} ({min(xs):.1f}-{max(xs):.1f})")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
