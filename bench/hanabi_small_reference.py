#!/usr/bin/env python3
"""An independent port of the Hanabi Learning Environment's rules
(deepmind/hanabi-learning-environment, hanabi_lib/hanabi_game.cc and
hanabi_state.cc) for uniformly random play of its "Hanabi-Small"
configuration (rl_env.py: colors 2, ranks 5, hand_size 2,
max_information_tokens 3, max_life_tokens 1), written from that source,
not from rules/hanabi-small/rules.lua:

- the deck: three 1s, two each of 2 to 4, one 5 per colour (NumberCardInstances);
- chance deals a uniformly random card of the deck to the first hand
  short of hand_size (PlayerToDeal), appended to it (AddCard);
- the current player's legal moves, in move-uid order (MoveIsLegal):
  discard i (only below the most information tokens), play i, reveal a
  colour / a rank present in another player's hand (a token needed);
- ApplyMove: with the deck empty, turns_to_play drops by one on every move;
  discard: +1 token (capped); play: the next rank of its colour scores
  (a completed firework: +1 token, capped), else a life is lost;
- the game ends with no life left (score 0), every firework complete, or
  turns_to_play at 0 (EndOfGameStatus, Score).

Random play, as rl_env's random agent and rulebook's `random` agent: every
legal move equally likely. Prints, as JSON, the games, the mean score and
length (player moves) with their standard deviations, and the distributions.

Usage: python3 bench/hanabi_small_reference.py [--players N] [--games N] [--seed S]
The CTest test `reference.hanabi-small` (tests/bench/hanabi_small_reference_test.py)
compares it with `rulebook simulate hanabi-small`.
"""
import argparse
import json
import math
import random

COLORS, RANKS = 2, 5


def instances(rank):
    return 3 if rank == 0 else (1 if rank == RANKS - 1 else 2)


def play_one(rng, players, hand_size=2, max_info=3, max_life=1, with_fireworks=False):
    """One game: (score, player moves), and the sum of the fireworks with_fireworks."""
    deck = [(c, r) for c in range(COLORS) for r in range(RANKS) for _ in range(instances(r))]
    hands = [[] for _ in range(players)]
    info, life = max_info, max_life
    fireworks = [0] * COLORS
    turns_to_play = players

    def deal():
        # PlayerToDeal: the first hand short of hand_size; a uniformly random card.
        while deck:
            short = next((p for p in range(players) if len(hands[p]) < hand_size), -1)
            if short < 0:
                return
            hands[short].append(deck.pop(rng.randrange(len(deck))))

    def score():
        return 0 if life <= 0 else sum(fireworks)

    deal()
    cur = 0
    moves_made = 0
    while True:
        hand = hands[cur]
        legal = []
        if info < max_info:
            legal += [("discard", i) for i in range(len(hand))]
        legal += [("play", i) for i in range(len(hand))]
        if info > 0:
            for offset in range(1, players):
                target = hands[(cur + offset) % players]
                legal += [("color", c) for c in range(COLORS) if any(card[0] == c for card in target)]
            for offset in range(1, players):
                target = hands[(cur + offset) % players]
                legal += [("rank", r) for r in range(RANKS) if any(card[1] == r for card in target)]
        kind, arg = legal[rng.randrange(len(legal))]
        if not deck:
            turns_to_play -= 1
        moves_made += 1
        if kind == "discard":
            hand.pop(arg)
            info = min(info + 1, max_info)
        elif kind == "play":
            color, rank = hand.pop(arg)
            if fireworks[color] == rank:
                fireworks[color] += 1
                if fireworks[color] == RANKS and info < max_info:
                    info += 1
            else:
                life -= 1
        else:
            info -= 1
        deal()
        if life < 1 or score() >= COLORS * RANKS or turns_to_play <= 0:
            return (score(), moves_made, sum(fireworks)) if with_fireworks else (score(), moves_made)
        cur = (cur + 1) % players


def summary(values):
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return {"mean": mean, "sd": sd, "counts": {str(k): counts[k] for k in sorted(counts)}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    scores, lengths = [], []
    for _ in range(args.games):
        s, n = play_one(rng, args.players)
        scores.append(s)
        lengths.append(n)
    print(json.dumps({"players": args.players, "games": args.games, "score": summary(scores),
                      "length": summary(lengths)}, indent=1))


if __name__ == "__main__":
    main()
