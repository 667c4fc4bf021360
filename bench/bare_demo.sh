#!/usr/bin/env bash
# scripts/demo.sh on a bare Debian 12: a minimal bookworm made by
# debootstrap (no compiler, no libraries, no compiler cache), a clone of
# this checkout's HEAD inside it, and the demo run there as root, so that
# its apt-get step installs everything from Debian's mirror. Prints the
# seconds of each part (apt, configure and build, the game) and in all.
# Needs root, debootstrap and the network to deb.debian.org; takes the
# demo's time plus about 30 s for debootstrap.
#
#   sudo bench/bare_demo.sh [DIR]     (the chroot; default a new folder under /tmp, removed after)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$(mktemp -d /tmp/rulebook-bare.XXXXXX)}
mirror=${MIRROR:-http://deb.debian.org/debian}
command -v debootstrap >/dev/null || { echo "bare_demo.sh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "bare_demo.sh: run as root (debootstrap, chroot)" >&2; exit 2; }

cleanup() {
  for m in dev/pts dev proc; do mountpoint -q "$root/$m" && umount "$root/$m"; done
  [[ -n ${1:-} ]] || rm -rf "$root"
}
trap 'cleanup ${KEEP:-}' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q "$here" "$root/src"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
echo "demo of $(git -C "$root/src" rev-parse --short HEAD) on a bare bookworm; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Each line of the demo's output stamped with the seconds since its start:
# the build's first progress line ends apt's part (with cmake's configure,
# whose output build.sh hides), "Built target rulebook" the build's.
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /bin/bash -c '
  cd /src
  start=$(date +%s%N)
  scripts/demo.sh 2>&1 | while IFS= read -r line; do
    now=$(date +%s%N)
    echo "$(( (now - start) / 100000000 )) $line"
  done
  exit "${PIPESTATUS[0]}"' >"$root.out" 2>&1 || { tail -20 "$root.out"; echo "bare_demo.sh: the demo failed" >&2; exit 1; }
tail -2 "$root.out" | cut -d' ' -f2-
awk '
  / \[ *[0-9]+%\] / && !a { a = $1 }
  /Built target rulebook$/ { b = $1 }
  { last = $1 }
  END { printf "apt and configure %.1f s, build %.1f s, game %.1f s: scripts/demo.sh in %.1f s\n", a / 10, (b - a) / 10, (last - b) / 10, last / 10 }
' "$root.out"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$root.out"
