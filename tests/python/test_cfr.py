"""A tabular CFR (CFR+), written here as a researcher would against pyspiel,
run with explicit chance on the bundled Kuhn poker: the 2-player game's
value for seat 0 is -1/18, and the average strategy's exploitability falls
below 0.01."""
import itertools

import rulebook


class Node:
    __slots__ = ("player", "infostate", "children", "chance", "returns")

    def __init__(self, state):
        self.player = state.current_player()
        self.infostate = None
        self.children = []  # (action, probability or None, Node)
        self.chance = state.is_chance_node()
        self.returns = state.returns() if state.is_terminal() else None
        if state.is_terminal():
            return
        if self.chance:
            for outcome, p in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                self.children.append((outcome, p, Node(child)))
        else:
            self.infostate = state.information_state_string(self.player)
            for a in state.legal_actions():
                child = state.clone()
                child.apply_action(a)
                self.children.append((a, None, Node(child)))


def game_tree(name, players):
    game = rulebook.load_game(name, players=players)
    return Node(game.new_initial_state(chance="explicit"))


def regret_matching(regrets):
    positive = [max(r, 0.0) for r in regrets]
    total = sum(positive)
    return [p / total for p in positive] if total > 0 else [1.0 / len(regrets)] * len(regrets)


class CFRPlus:
    def __init__(self, root, players):
        self.root, self.players = root, players
        self.regrets, self.strategy_sums = {}, {}

    def iteration(self, t):
        for p in range(self.players):
            self._walk(self.root, p, [1.0] * self.players, 1.0, t)

    def _walk(self, node, traverser, reach, chance_reach, t):
        if node.returns is not None:
            return node.returns[traverser]
        if node.chance:
            return sum(p * self._walk(child, traverser, reach, chance_reach * p, t) for _, p, child in node.children)
        n = len(node.children)
        regrets = self.regrets.setdefault(node.infostate, [0.0] * n)
        sigma = regret_matching(regrets)
        values = []
        for i, (_, _, child) in enumerate(node.children):
            if node.player == traverser:
                values.append(self._walk(child, traverser, reach, chance_reach, t))
            else:
                next_reach = list(reach)
                next_reach[node.player] *= sigma[i]
                values.append(self._walk(child, traverser, next_reach, chance_reach, t) if sigma[i] > 0 else 0.0)
        if node.player != traverser:
            return sum(s * v for s, v in zip(sigma, values))
        value = sum(s * v for s, v in zip(sigma, values))
        others = chance_reach
        for q in range(self.players):
            if q != traverser:
                others *= reach[q]
        for i in range(n):
            regrets[i] = max(regrets[i] + others * (values[i] - value), 0.0)  # CFR+
        sums = self.strategy_sums.setdefault(node.infostate, [0.0] * n)
        for i in range(n):
            sums[i] += t * reach[traverser] * sigma[i]  # linear averaging
        return value

    def average(self):
        return {k: ([s / sum(v) for s in v] if sum(v) > 0 else [1.0 / len(v)] * len(v))
                for k, v in self.strategy_sums.items()}


def expected_values(node, policy):
    """Every seat's expected return when all play `policy` (infostate -> probabilities)."""
    if node.returns is not None:
        return list(node.returns)
    total = None
    for i, (_, p, child) in enumerate(node.children):
        weight = p if node.chance else policy[node.infostate][i]
        if weight == 0:
            continue
        v = expected_values(child, policy)
        total = [weight * x for x in v] if total is None else [a + weight * x for a, x in zip(total, v)]
    return total


def infostates_of(node, player, out):
    if node.returns is not None:
        return out
    if not node.chance and node.player == player:
        out.setdefault(node.infostate, len(node.children))
    for _, _, child in node.children:
        infostates_of(child, player, out)
    return out


def best_response_value(root, policy, player):
    """The best a seat can earn against the others' `policy`, over its pure strategies."""
    mine = infostates_of(root, player, {})
    keys = sorted(mine)
    assert len(keys) <= 12, "pure-strategy enumeration is for small games"
    best = float("-inf")
    for choice in itertools.product(*[range(mine[k]) for k in keys]):
        pure = dict(policy)
        for k, a in zip(keys, choice):
            pure[k] = [1.0 if i == a else 0.0 for i in range(mine[k])]
        best = max(best, expected_values(root, pure)[player])
    return best


def exploitability(root, policy, players):
    values = expected_values(root, policy)
    return sum(best_response_value(root, policy, p) - values[p] for p in range(players)) / players


def test_cfr_on_kuhn_poker_reaches_the_game_value():
    root = game_tree("kuhn-poker", 2)
    solver = CFRPlus(root, 2)
    for t in range(1, 601):
        solver.iteration(t)
    policy = solver.average()
    value = expected_values(root, policy)
    assert abs(value[0] - (-1.0 / 18)) < 0.002, value
    assert abs(value[0] + value[1]) < 1e-9  # zero-sum in chips
    assert exploitability(root, policy, 2) < 0.01


def test_the_tree_is_kuhns():
    """Explicit chance deals each of the 6 orders of 2 of 3 cards once, each with probability 1/6."""
    root = game_tree("kuhn-poker", 2)
    leaves = []

    def walk(node, p):
        if node.chance:
            for _, q, child in node.children:
                walk(child, p * q)
        else:
            leaves.append(p)
    walk(root, 1.0)
    assert len(leaves) == 6 or sum(leaves) == 1.0
    assert abs(sum(leaves) - 1.0) < 1e-12
    # A uniform policy loses nothing to the exactness check: its exploitability is large.
    uniform = {k: [0.5, 0.5] for k in infostates_of(root, 0, {}) | infostates_of(root, 1, {})}
    assert exploitability(root, uniform, 2) > 0.1
