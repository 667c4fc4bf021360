"""A PettingZoo-AEC-shaped environment over any rulebook game.

    from rulebook import aec
    env = aec.env("hai-noon", players=2)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = info["legal_actions"][0]   # or sample by observation["action_mask"]
        env.step(action)

It follows PettingZoo's AEC API (reset, agent_iter, last, step, observe,
rewards, terminations, truncations, infos, action masks) and needs no
PettingZoo installed; where PettingZoo is installed, the class derives from
pettingzoo.AECEnv, and where gymnasium is, action_space and
observation_space are gymnasium spaces.

A decision's options are the actions 0..n-1; the action space is
Discrete(max_actions) and the mask says which are the decision's. At a
simultaneous decision each deciding seat steps in turn and the game goes on
once the last has (no seat sees another's answer before). Chance is drawn
from the seed given to reset().
"""
import random

from . import _rulebook

try:  # PettingZoo's base class, when it is installed
    from pettingzoo import AECEnv as _Base
except ImportError:  # pragma: no cover - PettingZoo is optional
    _Base = object

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is optional
    _np = None

try:
    from gymnasium import spaces as _spaces
except ImportError:  # pragma: no cover - gymnasium is optional
    _spaces = None


def env(game, players=0, variants=(), options=None, max_actions=64, render_mode=None, **kwargs):
    """A rulebook game as an AEC environment (see RulebookAECEnv)."""
    return RulebookAECEnv(game, players=players, variants=variants, options=options, max_actions=max_actions,
                          render_mode=render_mode, **kwargs)


class RulebookAECEnv(_Base):
    metadata = {"name": "rulebook_aec_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game, players=0, variants=(), options=None, max_actions=64, render_mode=None, **kwargs):
        if isinstance(game, _rulebook.Game):
            self.game = game
        else:
            self.game = _rulebook.load_game(game, players=players, variants=list(variants), options=options or {},
                                            **kwargs)
        self.max_actions = int(max_actions)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players())]
        self._seat = {name: i for i, name in enumerate(self.possible_agents)}
        self.agents = []
        self.state = None
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}
        self.agent_selection = None
        self._pending = {}  # a simultaneous decision's answers so far, by seat
        self._queue = []    # the seats still to step at this decision

    # PettingZoo's properties
    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    def action_space(self, agent):
        if _spaces is None:
            raise RuntimeError("action_space needs gymnasium; the actions are 0..max_actions-1 "
                               "(observation['action_mask'] says which are legal)")
        return _spaces.Discrete(self.max_actions)

    def observation_space(self, agent):
        if _spaces is None:
            raise RuntimeError("observation_space needs gymnasium")
        return _spaces.Dict({
            "observation": _spaces.Text(max_length=1 << 20),
            "action_mask": _spaces.Box(0, 1, shape=(self.max_actions,), dtype=_np.int8),
        })

    def reset(self, seed=None, options=None):
        if seed is None:
            seed = random.randrange(1 << 63)
        self.state = self.game.new_initial_state(seed=int(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending = {}
        self._queue = []
        self._select_next()

    def _mask(self, seat):
        legal = self.state.legal_actions(seat) if not self.state.is_terminal() else []
        if len(legal) > self.max_actions:
            raise ValueError(f"a decision of {len(legal)} options: make the environment with max_actions >= {len(legal)}")
        mask = [0] * self.max_actions
        for a in legal:
            mask[a] = 1
        return _np.array(mask, dtype=_np.int8) if _np is not None else mask

    def observe(self, agent):
        seat = self._seat[agent]
        return {"observation": self.state.observation_string(seat), "action_mask": self._mask(seat)}

    def _select_next(self):
        """Whose turn: the next seat of the decision, or, at the end, each agent once more to be removed."""
        if self.state.is_terminal():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self._cumulative_rewards[a] += self.rewards[a]
                self.terminations[a] = True
            self.agent_selection = self.agents[0] if self.agents else None
            return
        if not self._queue:
            self._queue = list(self.state.deciding_players())
            self._pending = {}
        seat = self._queue[0]
        self.agent_selection = self.possible_agents[seat]
        self.infos[self.agent_selection] = {
            "legal_actions": self.state.legal_actions(seat),
            "prompt": self.state.prompt(seat),
            "action_labels": [self.state.action_to_string(seat, a) for a in self.state.legal_actions(seat)],
        }

    def last(self, observe=True):
        agent = self.agent_selection
        observation = self.observe(agent) if observe else None
        return (observation, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("the game is over for this agent: step(None)")
            # PettingZoo's "dead step": the agent leaves.
            self.agents.remove(agent)
            self._cumulative_rewards[agent] = 0.0
            self.agent_selection = self.agents[0] if self.agents else None
            return
        seat = self._seat[agent]
        if action is None or int(action) not in self.state.legal_actions(seat):
            raise ValueError(f"action {action!r} is not legal for {agent}: {self.state.legal_actions(seat)}")
        self._cumulative_rewards[agent] = 0.0
        self._pending[seat] = int(action)
        self._queue.pop(0)
        if not self._queue:
            if len(self._pending) == 1:
                self.state.apply_action(self._pending[seat])
            else:
                joint = [_rulebook.INVALID_ACTION] * self.game.num_players()
                for s, a in self._pending.items():
                    joint[s] = a
                self.state.apply_actions(joint)
        self._select_next()

    def agent_iter(self, max_iter=2 ** 63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def render(self):
        if self.state is None:
            return ""
        text = str(self.state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        self.state = None
