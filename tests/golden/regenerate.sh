#!/usr/bin/env bash
# Rewrites tests/golden/fingerprints.json (simulate's mean turns and win
# rates, FNV-1a hashes of played games' narration and log) with a built
# rulebook binary, keeping its cases. Only for an intended change of the
# games' logic or logs: say why in the commit.
# Usage: tests/golden/regenerate.sh BUILD/cli/rulebook   (needs python3)
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
RULEBOOK_BIN="$bin" FINGERPRINTS="$here/fingerprints.json" python3 - <<'PY'
import json, os, shlex, subprocess, tempfile

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h

def run(args):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([os.environ["RULEBOOK_BIN"]] + shlex.split(args), env=env, check=True,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE).stdout

path = os.environ["FINGERPRINTS"]
cases = json.load(open(path))
for c in cases["simulate"]:
    out = json.loads(run(c["args"] + " --json"))
    c["mean_turns"] = out["mean_turns"]
    c["win_rate_by_seat"] = out["win_rate_by_seat"]
with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "log.json")
    for c in cases["play"]:
        narration = run(c["args"] + " --log " + log)
        c["narration_fnv1a64"] = fnv1a64(narration)
        c["log_fnv1a64"] = fnv1a64(open(log, "rb").read())
with open(path, "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
PY
