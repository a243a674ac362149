#!/bin/bash
# analyze_speed.sh - how fast "vlroute analyze" rates a large table set and
# how much memory it needs: the 5256-host Dragonfly (p=6 a=12 h=6) routed
# by our dfsssp, 1000 random bisections, single-threaded and with every
# CPU, beside the reference paths the fast ones replace.
#
# Usage: bench/analyze_speed.sh [--vlroute PATH] [--patterns N] [--threads N]
#                               [--workdir DIR]
#   --vlroute PATH   the vlroute CLI (default: build/tools/vlroute)
#   --patterns N     random bisections (default 1000)
#   --threads N      threads of the parallel run (default: nproc)
#   --workdir DIR    where the net and tables go (default: a fresh mktemp -d,
#                    removed at the end)
#
# Rows (seconds of wall and CPU time and peak RSS of the whole command,
# reading the tables included):
#   setup            analyze -n 1: read the tables, check them, all-to-all
#                    link load by in-trees (one pass per destination)
#   setup, walks     the same all-to-all rated again route by route
#                    (--pattern all2all): the reference for the in-trees
#   ebb, 1 thread    N bisections, one thread
#   ebb, T threads   N bisections, T threads (same ebb, by construction)
# Wall times on a shared machine vary; CPU seconds are the steadier figure.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
vlroute=$top/build/tools/vlroute
patterns=1000
threads=$(nproc 2>/dev/null || echo 2)
workdir=
made_workdir=0

while [ $# -gt 0 ]; do
	case $1 in
	--vlroute) vlroute=$2; shift 2 ;;
	--patterns) patterns=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--workdir) workdir=$2; shift 2 ;;
	*) echo "Usage: $0 [--vlroute PATH] [--patterns N] [--threads N] [--workdir DIR]" >&2
	   exit 2 ;;
	esac
done
if [ -z "$workdir" ]; then
	workdir=$(mktemp -d)
	made_workdir=1
fi
trap '[ "$made_workdir" = 1 ] && rm -rf "$workdir"' EXIT
mkdir -p "$workdir"

# measure LABEL COMMAND...: one row; the command's stdout kept in $workdir/out
measure() {
	local label=$1
	shift
	/usr/bin/time -f "%e %U %M" -o "$workdir/time" "$@" >"$workdir/out" 2>"$workdir/err" || {
		cat "$workdir/err" >&2
		exit 1
	}
	read -r wall cpu rss <"$workdir/time"
	ebb=$(sed -n 's/^ebb: \([0-9.]*\).*/\1/p' "$workdir/out")
	printf '%-22s %9s %9s %9d  %s\n' "$label" "$wall" "$cpu" "$((rss / 1024))" "${ebb:--}"
}

echo "generating and routing the Dragonfly p=6 a=12 h=6 (dfsssp)..." >&2
"$vlroute" gen dragonfly -p 6 -a 12 -h 6 -o "$workdir/df6.net"
"$vlroute" route "$workdir/df6.net" --engine dfsssp -o "$workdir/dfsssp" >/dev/null
tables=$workdir/dfsssp

printf '%-22s %9s %9s %9s  %s\n' "run" "wall s" "CPU s" "peak MB" "ebb"
measure "setup" "$vlroute" analyze "$tables" -n 1 --threads 1
measure "setup, walks" "$vlroute" analyze "$tables" -n 1 --threads 1 --pattern all2all
measure "ebb, 1 thread" "$vlroute" analyze "$tables" -n "$patterns" --threads 1
measure "ebb, $threads threads" "$vlroute" analyze "$tables" -n "$patterns" --threads "$threads"
grep "^ebb:" "$workdir/out"
