#!/usr/bin/env bash
# CI stage: build the .deb from the build scripts/test.sh made, install it
# with apt-get as a user would, and play and test a game with the installed
# rulebook, away from the source tree and with no RULEBOOK_* variable.
# About 30 s on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi

rm -f build/rulebook_*.deb
(cd build && cpack -G DEB >/dev/null)
deb=$(ls build/rulebook_*.deb)
echo "built $deb"
dpkg-deb -f "$deb" Package Version Depends
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "./$deb" >/dev/null

cd "$(mktemp -d)"
unset RULEBOOK_RULES RULEBOOK_SCHEMAS
[[ $(command -v rulebook) == /usr/bin/rulebook ]]
rulebook --version
rulebook list
rulebook play pass-the-pandas --players 3 --seed 2026 | tail -3
rulebook test /usr/share/rulebook/rules/hai-noon | tail -1
rulebook new my-game >/dev/null && rulebook test my-game | tail -1
[[ -f /usr/share/man/man1/rulebook.1.gz && -f /usr/share/bash-completion/completions/rulebook ]]
# The Python module, from Debian's dist-packages with nothing set, finding
# the bundled games in /usr/share/rulebook.
env -u PYTHONPATH /usr/bin/python3 - <<'PY'
import random, rulebook
assert rulebook.__file__.startswith("/usr/lib/python3/dist-packages/rulebook/"), rulebook.__file__
state = rulebook.load_game("hai-noon", players=2).new_initial_state(seed=3)
while not state.is_terminal():
    state.apply_action(random.Random(len(state.history())).choice(state.legal_actions()))
print("import rulebook:", len(rulebook.list_games()), "games; a Hai Noon game returns", state.returns())
PY
echo "the installed package works"
