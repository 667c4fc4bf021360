#!/usr/bin/env bash
# Installs what rulebook needs to build and test on Debian 12, with apt-get,
# only when something is missing. Run as root (or with sudo available).
# `--build-only`: just what building and playing need (scripts/demo.sh), not
# the test stages' tools (chromium, clang, node, ...), which take minutes.
set -euo pipefail

# What `cmake` needs to configure and build the `rulebook` command:
# Nettle's SHA-256 (agents' stream seeds, a one-way hash of the chance seed);
# RE2 (schema "pattern" matching in linear time without recursion: std::regex
# overflows the stack on long user strings); valijson (the draft-07 JSON
# Schema validator, header-only, a build dependency only); Boost's headers
# (Asio and Beast: rulebook serve's event-driven HTTP server, a maintained
# HTTP parser, header-only, a build dependency only); cpp-httplib (the
# server tests' HTTP client); catch2 (CTest's tests are configured with the
# build).
build_packages=(build-essential cmake pkg-config liblua5.4-dev libyaml-cpp-dev catch2
          libcli11-dev nlohmann-json3-dev libfmt-dev nettle-dev libre2-dev libvalijson-dev
          libboost-dev libcpp-httplib-dev
          # import rulebook: the Python module, built with Debian's pybind11
          # against Debian's python3
          pybind11-dev python3-dev)
packages=("${build_packages[@]}"
          # the benchmark's baseline; the schema validator's test data
          lua5.4 json-schema-test-suite
          # simulate/compare/merge --plot draw with gnuplot; shards run under GNU parallel
          gnuplot-nox parallel
          # clang with its sanitizer and libFuzzer runtimes: .ci/fuzz.sh
          clang libclang-rt-14-dev
          # cpack -G DEB: dpkg-shlibdeps computes the package's dependencies,
          # and CPack finds the binaries to give it with `file`.
          dpkg-dev file
          # .ci/browser.sh plays at the web table in headless chromium
          chromium
          # bench/bots.sh reads `rulebook arena --json` into its table
          jq
          # examples/bots/: the exec-bot tests play every game with the Python bot;
          # the Python module's tests (tests/python/) run under Debian's pytest
          python3 python3-pytest python3-numpy)
# .ci/browser.sh drives chromium with puppeteer-core from npm (and the
# exec-bot tests play every game with examples/bots/random_bot.js): Debian's
# Node.js and npm, unless a Node.js that brings its own npm is installed.
command -v npm >/dev/null || packages+=(nodejs npm)
if [[ ${1:-} == --build-only ]]; then
  packages=("${build_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "Installing: ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "run as root to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
