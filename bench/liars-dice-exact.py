#!/usr/bin/env python3
"""Exact outcome of OpenSpiel's liars_dice (two players) under uniformly
random play: every legal action equally likely, as rulebook's `random`
agent plays. Transcribes open_spiel/games/liars_dice/liars_dice.cc:
bids ranked 0..N-1 (N = all dice x sides; UnrankBid for reset-face and
reset-quantity), "Liar" legal once a bid was made, a die matches the face
bid or the wild highest face, the bidder wins when matches >= quantity.
Enumerates every roll and every bid sequence (exact fractions).
Compare: rulebook simulate liars-dice --games 200000 (rules/liars-dice/README.md).
Usage: python3 bench/liars-dice-exact.py   (a few seconds)
"""
import itertools
from functools import lru_cache
from fractions import Fraction

def solve(numdice=1, sides=6, rule="reset-face", wild=True):
    total = 2 * numdice
    N = total * sides
    def unrank(b):
        if rule == "reset-face": return b // sides + 1, b % sides + 1
        return b % total + 1, b // total + 1
    p0win = Fraction(0); turns = Fraction(0); stands = Fraction(0)
    rolls = list(itertools.product(range(1, sides + 1), repeat=numdice))
    for d0 in rolls:
        for d1 in rolls:
            dice = d0 + d1
            def matches(face):
                return sum(1 for x in dice if x == face or (wild and x == sides))
            @lru_cache(None)
            def value(last, player, bidder):
                # returns (P(p0 wins), expected remaining turns)
                acts = list(range(last + 1, N)) + (["liar"] if last >= 0 else [])
                pw = Fraction(0); t = Fraction(0); ps = Fraction(0)
                for a in acts:
                    if a == "liar":
                        q, f = unrank(last)
                        winner = bidder if matches(f) >= q else player
                        w, tt = Fraction(1 if winner == 0 else 0), Fraction(0)
                        st = Fraction(1 if matches(f) >= q else 0)
                    else:
                        w, tt, st = value(a, 1 - player, player)
                    pw += w; t += tt + 1; ps += st
                return pw / len(acts), t / len(acts), ps / len(acts)
            w, t, st = value(-1, 0, -1)
            p0win += w; turns += t; stands += st
    n = len(rolls) ** 2
    return p0win / n, turns / n, stands / n

if __name__ == "__main__":
    for args in [(1, 6, "reset-face"), (1, 6, "reset-quantity"), (2, 6, "reset-face"), (1, 4, "reset-face"), (1,6,"reset-face",False)]:
        w, t, st = solve(*args)
        print(args, "P(seat 0 wins) = %.4f  mean turns = %.4f  P(bid stands) = %.4f" % (w, t, st))
