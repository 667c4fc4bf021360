#!/usr/bin/env python3
"""Exact outcome of OpenSpiel's kuhn_poker (2 to 4 players) under uniformly
random play: every legal action equally likely (pass, bet), as rulebook's
`random` agent plays. Transcribes open_spiel/games/kuhn_poker/kuhn_poker.cc:
N players, cards 0..N, each dealt one card uniformly from those left; in
seat order each passes or bets 1 (ante 1); after the first bet (by seat f)
the game ends after N + f actions: the players after f, then those before
it, each pass (fold) or bet (call). The winner is the highest card among
the bettors, or the highest card dealt when nobody bet; the winner's return
is the pot less what it paid, everybody else's minus what they paid.
Enumerates every deal and every action sequence (exact fractions).

Usage: python3 bench/kuhn_exact.py [--json]          (well under a second)
       python3 bench/kuhn_exact.py --check RULEBOOK GAME_DIR [--games N]
  --check runs `RULEBOOK simulate GAME_DIR --players P --games N --json`
  for P = 2, 3, 4 and fails (exit 1) unless every seat's exact mean return
  lies within its simulated mean +- 3.29 standard errors (99.9%), and the
  simulated game lengths (turns) pass a chi-square test against the exact
  distribution at the 0.1% level.
"""
import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction


def outcome(cards, actions):
    """Returns (returns by seat, finished) of a deal and an action prefix."""
    n = len(cards)
    first = next((i for i, a in enumerate(actions[:n]) if a == 1), None)
    if first is None:
        if len(actions) < n:
            return None
        winner = max(range(n), key=lambda s: cards[s])
        bet = [False] * n
    else:
        if len(actions) < n + first:
            return None
        bet = [False] * n
        for s in range(n):
            if s == first:
                bet[s] = True
            elif s > first:
                bet[s] = actions[s] == 1
            else:
                bet[s] = actions[n + s] == 1
        winner = max((s for s in range(n) if bet[s]), key=lambda s: cards[s])
    paid = [2 if b else 1 for b in bet]
    pot = sum(paid)
    return [pot - paid[s] if s == winner else -paid[s] for s in range(n)]


def solve(n):
    """Exact expected returns by seat and the distribution of game lengths."""
    deals = list(itertools.permutations(range(n + 1), n))
    returns = [Fraction(0)] * n
    lengths = {}
    for cards in deals:
        p_deal = Fraction(1, len(deals))

        def walk(actions, p):
            r = outcome(cards, actions)
            if r is not None:
                for s in range(n):
                    returns[s] += p * r[s]
                lengths[len(actions)] = lengths.get(len(actions), Fraction(0)) + p
                return
            for a in (0, 1):
                walk(actions + [a], p / 2)

        walk([], p_deal)
    return returns, lengths


def chi_square_p(statistic, df):
    """Upper tail of the chi-square distribution (series of the regularized gamma)."""
    if df <= 0:
        return 1.0
    a, x = df / 2.0, statistic / 2.0
    if x <= 0:
        return 1.0
    term = total = 1.0 / a
    k = 1
    while term > total * 1e-15 and k < 10000:
        term *= x / (a + k)
        total += term
        k += 1
    lower = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    return max(0.0, 1.0 - lower)


def check(rulebook, game, games):
    failures = []
    for n in (2, 3, 4):
        exact, lengths = solve(n)
        run = subprocess.run([rulebook, "simulate", game, "--players", str(n), "--games", str(games), "--seed", "1",
                              "--json"], capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"{n} players: simulate exited {run.returncode}: {run.stderr}")
            continue
        j = json.loads(run.stdout)
        for s, seat in enumerate(j["returns"]["by_seat"]):
            half = 3.29 * seat["sd"] / math.sqrt(seat["games"])
            ok = abs(seat["mean"] - float(exact[s])) <= half
            print(f"{n} players, seat {s}: exact {float(exact[s]):+.5f}, simulated {seat['mean']:+.5f} "
                  f"(95% {seat['low']:+.5f}..{seat['high']:+.5f}; 99.9% +-{half:.5f}) {'ok' if ok else 'FAIL'}")
            if not ok:
                failures.append(f"{n} players, seat {s}: exact {float(exact[s])} outside {seat['mean']} +- {half}")
        observed = {}
        for bin_ in j["turns"]["histogram"]:
            if bin_["from"] != bin_["to"]:
                failures.append(f"{n} players: the turns histogram bins several lengths")
            observed[bin_["from"]] = bin_["games"]
        statistic = 0.0
        for length, p in lengths.items():
            expected = float(p) * j["games"]
            statistic += (observed.get(length, 0) - expected) ** 2 / expected
        unexpected = sum(g for length, g in observed.items() if length not in lengths)
        p_value = chi_square_p(statistic, len(lengths) - 1)
        print(f"{n} players, game lengths: chi-square {statistic:.2f} on {len(lengths) - 1} df, p = {p_value:.4f}"
              f"{'' if unexpected == 0 else f', {unexpected} games of impossible length'}")
        if unexpected or p_value < 0.001:
            failures.append(f"{n} players: game lengths differ (p = {p_value}, impossible: {unexpected})")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    if "--check" in argv:
        at = argv.index("--check")
        games = int(argv[argv.index("--games") + 1]) if "--games" in argv else 20000
        return check(argv[at + 1], argv[at + 2], games)
    table = {}
    for n in (2, 3, 4):
        returns, lengths = solve(n)
        table[n] = {"returns": [float(r) for r in returns],
                    "returns_exact": [str(r) for r in returns],
                    "lengths": {str(k): float(v) for k, v in sorted(lengths.items())}}
        if "--json" not in argv:
            print(f"{n} players: returns by seat " + ", ".join(f"{r} ({float(r):+.5f})" for r in returns))
            print("  game length (actions): " + ", ".join(f"{k}: {v} ({float(v):.4f})" for k, v in sorted(lengths.items())))
    if "--json" in argv:
        print(json.dumps(table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
