"""Random play through Python gives the same distributions as
`rulebook simulate` on every bundled game: who wins, and how many decisions
a game takes (chi-square tests of homogeneity on the two samples)."""
import csv
import math
import os
import random
import re
import subprocess
import tempfile
from collections import Counter

import pytest

import rulebook

BINARY = os.environ.get("RULEBOOK_BINARY", "rulebook")
GAMES = int(os.environ.get("RULEBOOK_PY_GAMES", "300"))


def chi_square_sf(x, k):
    """P(X >= x) for a chi-square variable with k degrees of freedom (regularised upper gamma)."""
    if x <= 0:
        return 1.0
    a, z = k / 2.0, x / 2.0
    if z < a + 1:  # series for the lower gamma
        term = total = 1.0 / a
        n = a
        for _ in range(10000):
            n += 1
            term *= z / n
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # continued fraction for the upper gamma (Lentz)
    b, c, d = z + 1 - a, 1e300, 1 / (z + 1 - a)
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
    return math.exp(-z + a * math.log(z) - math.lgamma(a)) * h


def homogeneity_p(first, second, min_expected=5):
    """Chi-square test that two samples of categories come from one distribution;
    categories too rare for the test are pooled."""
    n1, n2 = sum(first.values()), sum(second.values())
    cats = sorted(set(first) | set(second), key=lambda c: -(first[c] + second[c]))
    pooled, rare = [], (0, 0)
    for c in cats:
        a, b = first[c], second[c]
        if (a + b) * min(n1, n2) / (n1 + n2) < min_expected:
            rare = (rare[0] + a, rare[1] + b)
        else:
            pooled.append((a, b))
    if sum(rare):
        pooled.append(rare)
    if len(pooled) < 2:
        return 1.0
    stat = 0.0
    for a, b in pooled:
        tot = a + b
        for observed, n in ((a, n1), (b, n2)):
            expected = tot * n / (n1 + n2)
            stat += (observed - expected) ** 2 / expected
    return chi_square_sf(stat, len(pooled) - 1)


def length_bins(lengths, edges):
    return Counter(sum(1 for e in edges if x > e) for x in lengths)


def quantile_edges(values, parts=6):
    ordered = sorted(values)
    return sorted(set(ordered[len(ordered) * i // parts] for i in range(1, parts)))


def python_sample(name, games, seed):
    game = rulebook.load_game(name)
    rng = random.Random(seed)
    winners, lengths = Counter(), []
    for i in range(games):
        state = game.new_initial_state(seed=rng.randrange(1 << 62))
        decisions = 0
        while not state.is_terminal():
            if state.is_simultaneous_node():
                joint = [rulebook.INVALID_ACTION] * state.num_players()
                for p in state.deciding_players():
                    joint[p] = rng.choice(state.legal_actions(p))
                    decisions += 1
                state.apply_actions(joint)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        returns = state.returns()
        winners[",".join(str(s) for s, r in enumerate(returns) if r > 0) or "none"] += 1
        lengths.append(decisions)
    return winners, lengths


def simulate_sample(name, games, seed):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.csv")
        out = subprocess.run([BINARY, "simulate", name, "--games", str(games), "--seed", str(seed), "--export", path],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        winners, lengths = Counter(), []
        with open(path) as f:
            for row in csv.DictReader(f):
                winners[",".join(re.findall(r"\d+", row["winners"])) or "none"] += 1
                lengths.append(int(row["decisions"]))
        return winners, lengths


@pytest.mark.parametrize("name", rulebook.list_games())
def test_random_play_matches_simulate(name):
    py_winners, py_lengths = python_sample(name, GAMES, seed=12345)
    cli_winners, cli_lengths = simulate_sample(name, GAMES, seed=54321)
    p_winners = homogeneity_p(py_winners, cli_winners)
    edges = quantile_edges(py_lengths + cli_lengths)
    p_lengths = homogeneity_p(length_bins(py_lengths, edges), length_bins(cli_lengths, edges))
    # Two tests a game, each at 0.1 %: a real difference in how Python plays
    # (a biased action, a decision counted twice) shows far below that.
    assert p_winners > 0.001, (py_winners, cli_winners)
    assert p_lengths > 0.001, (sorted(Counter(py_lengths).items()), sorted(Counter(cli_lengths).items()))


def test_the_test_sees_a_difference():
    """The same test rejects a sample whose winner is biased: it can fail."""
    fair = Counter({"0": 150, "1": 150})
    biased = Counter({"0": 200, "1": 100})
    assert homogeneity_p(fair, fair) > 0.5
    assert homogeneity_p(fair, biased) < 0.001
    # and the chi-square tail is right: P(X >= 3.841) = 0.05 at 1 degree of freedom
    assert abs(chi_square_sf(3.841458820694124, 1) - 0.05) < 1e-6
    assert abs(chi_square_sf(11.070497693516351, 5) - 0.05) < 1e-6
