#!/usr/bin/env bash
# Installs rulebook into a temporary prefix, moves the installed tree
# elsewhere (the binary must find its games and schemas beside itself), and
# runs list, info, play, test and new from there with no RULEBOOK_*
# variable and, where user namespaces allow, the source and build trees
# hidden under an empty mount.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/staged" >/dev/null
mv "$work/staged" "$work/prefix"
prefix=$work/prefix

fail() { echo "FAIL: $*" >&2; exit 1; }
for f in bin/rulebook share/rulebook/rules/pass-the-pandas/game.yaml share/rulebook/schemas/game.schema.json \
         share/rulebook/schemas/meta/rulebook.lua share/doc/rulebook/README.md share/doc/rulebook/editor-setup.md \
         share/man/man1/rulebook.1.gz share/bash-completion/completions/rulebook \
         share/zsh/vendor-completions/_rulebook; do
  [[ -e $prefix/$f ]] || fail "not installed: $f"
done
grep -q "^\.TH RULEBOOK 1" <<<"$(zcat "$prefix/share/man/man1/rulebook.1.gz")" || fail "man page has no .TH"

# What runs with the trees out of sight.
cat > "$work/run.sh" <<'INNER'
set -euo pipefail
prefix=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$(dirname "$prefix")"
unset RULEBOOK_RULES RULEBOOK_SCHEMAS
rb=$prefix/bin/rulebook
export NO_COLOR=1
grep -q '^Lua 5\.4' <<<"$("$rb" --version)" || fail "--version names no Lua version"
list=$("$rb" list)
for game in pass-the-pandas hai-noon hao-hao; do
  grep -q "^$game " <<<"$list" || fail "list misses $game: $list"
done
info=$("$rb" info hai-noon --json)  # (grep -q in a pipe would end the writer early: SIGPIPE)
grep -q "\"folder\": *\"$prefix/share/rulebook/rules/hai-noon\"" <<<"$info" ||
  fail "info does not use the installed games"
grep -q 'Game over' <<<"$("$rb" play pass-the-pandas --players 3 --seed 7)" || fail "play did not finish"
"$rb" test "$prefix/share/rulebook/rules/pass-the-pandas" | tail -1 | grep -q ' 0 failed' || fail "scenarios failed"
"$rb" new my-game >/dev/null
grep -q "schema=$prefix/share/rulebook/schemas/game.schema.json" my-game/game.yaml ||
  fail "the modeline does not name the installed schema"
grep -q "$prefix/share/rulebook/schemas/meta" my-game/.luarc.json || fail ".luarc.json misses the meta folder"
"$rb" test my-game | tail -1 | grep -q '1 passed, 0 failed' || fail "a new game's scenario failed"
# The installed bash completion completes commands, options and game names.
complete_words() {
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  _rulebook
  echo "${COMPREPLY[*]}"
}
PATH=$prefix/bin:$PATH
source "$prefix/share/bash-completion/completions/rulebook"
[[ $(complete_words rulebook new-v) == new-variant ]] || fail "bash completion: commands"
[[ $(complete_words rulebook play --pla) == --players ]] || fail "bash completion: options"
[[ $(complete_words rulebook info hai) == hai-noon ]] || fail "bash completion: games"
echo "installed rulebook works from $prefix"
INNER

mkdir "$work/probe"
if unshare -rm mount -t tmpfs none "$work/probe" 2>/dev/null; then
  # A private mount namespace: the source and build trees become empty.
  unshare -rm bash -c 'mount -t tmpfs none "$1" && if [[ $2 != "$1"/* ]]; then mount -t tmpfs none "$2"; fi &&
                       [[ ! -e $1/CMakeLists.txt ]] && bash "$3" "$4"' _ "$source" "$build" "$work/run.sh" "$prefix"
else
  echo "note: no user namespaces here; the source tree stays visible" >&2
  bash "$work/run.sh" "$prefix"
fi
