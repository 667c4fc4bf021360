#!/usr/bin/env python3
"""rules/hanabi-small against the independent port of the Hanabi Learning
Environment (bench/hanabi_small_reference.py), under uniformly random play.

For each player count, `rulebook simulate hanabi-small --export F.jsonl`
plays GAMES games and the port plays REF_GAMES more; then:
- the distributions of the game's length (player moves) are compared with a
  chi-square test of homogeneity (bins with few games merged);
- the mean fireworks (the sum of the fireworks, lives or not) and the mean
  score are compared with a two-sample z test.
Any p-value below ALPHA fails (exit 1). Both sides use fixed seeds, so the
verdict is the same on every run; a rule played differently (a discard
allowed at full tokens, a clue without a token, one turn too many at the
end) moves the length distribution far beyond that.

Usage: bench/hanabi_small_compare.py --rulebook build/cli/rulebook [--rules rules/hanabi-small]
       [--games 20000] [--ref-games 40000] [--players 2,3,5]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hanabi_small_reference as reference  # noqa: E402

ALPHA = 1e-4


def upper_gamma_q(a, x):
    """Regularized upper incomplete gamma Q(a, x) (Numerical Recipes' gser/gcf)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return 1.0 - total * math.exp(-x + a * math.log(x) - gln)
    b = x + 1 - a
    c = 1e300
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi_square_homogeneity(a, b):
    """p-value that two samples of integers come from one distribution."""
    keys = sorted(set(a) | set(b))
    na, nb = sum(a.values()), sum(b.values())
    bins, current = [], [0, 0]
    for k in keys:  # merge neighbouring values until every expected count is at least 5
        current[0] += a.get(k, 0)
        current[1] += b.get(k, 0)
        total = current[0] + current[1]
        if total * min(na, nb) / (na + nb) >= 5:
            bins.append(current)
            current = [0, 0]
    if current[0] + current[1] > 0:
        if bins:
            bins[-1][0] += current[0]
            bins[-1][1] += current[1]
        else:
            bins.append(current)
    stat = 0.0
    for x, y in bins:
        total = x + y
        ea, eb = total * na / (na + nb), total * nb / (na + nb)
        stat += (x - ea) ** 2 / ea + (y - eb) ** 2 / eb
    dof = len(bins) - 1
    return (upper_gamma_q(dof / 2, stat / 2) if dof > 0 else 1.0), stat, dof


def z_test(mean_a, sd_a, n_a, mean_b, sd_b, n_b):
    se = math.sqrt(sd_a ** 2 / n_a + sd_b ** 2 / n_b)
    if se == 0:
        return (1.0 if mean_a == mean_b else 0.0), 0.0
    z = (mean_a - mean_b) / se
    return math.erfc(abs(z) / math.sqrt(2)), z


def moments(values):
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0


def counts(values):
    out = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulebook", required=True)
    parser.add_argument("--rules", default=os.path.join(here, "..", "rules", "hanabi-small"))
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--ref-games", type=int, default=40000)
    parser.add_argument("--players", default="2,3,5")
    args = parser.parse_args()
    failed = False
    for players in [int(p) for p in args.players.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            export = os.path.join(tmp, "games.jsonl")
            subprocess.run([args.rulebook, "simulate", args.rules, "--players", str(players), "--games",
                            str(args.games), "--seed", "1", "--jobs", "2", "--export", export],
                           check=True, stdout=subprocess.DEVNULL)
            with open(export) as f:
                rows = [json.loads(line) for line in f if line.strip()]
        ours = {"length": [r["turns"] for r in rows], "score": [r["stats"]["score"] for r in rows],
                "fireworks": [r["stats"]["fireworks"] for r in rows]}
        rng = reference.random.Random(1000 + players)
        theirs = {"length": [], "score": [], "fireworks": []}
        for _ in range(args.ref_games):
            score, length, fireworks = reference.play_one(rng, players, with_fireworks=True)
            theirs["length"].append(length)
            theirs["score"].append(score)
            theirs["fireworks"].append(fireworks)
        p, stat, dof = chi_square_homogeneity(counts(ours["length"]), counts(theirs["length"]))
        lines = [f"{players} players: length chi-square {stat:.1f} on {dof} df, p = {p:.3g}"]
        worst = p
        for key in ("length", "fireworks", "score"):
            ma, sa = moments(ours[key])
            mb, sb = moments(theirs[key])
            pz, z = z_test(ma, sa, len(ours[key]), mb, sb, len(theirs[key]))
            worst = min(worst, pz)
            lines.append(f"  mean {key}: rulebook {ma:.4f}, reference {mb:.4f} (z = {z:.2f}, p = {pz:.3g})")
        verdict = "ok" if worst >= ALPHA else "DIFFERENT"
        failed = failed or worst < ALPHA
        print("\n".join(lines) + f"\n  {verdict} (each p-value must be at least {ALPHA:g})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
