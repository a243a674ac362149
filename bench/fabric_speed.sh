#!/bin/bash
# fabric_speed.sh - how fast vlroute generates, writes and reads fabrics,
# and how much memory it needs, beside ibsim loading the very same file.
#
# Usage: bench/fabric_speed.sh [VLROUTE]   (default: build/tools/vlroute)
# Prints one row per fabric: seconds and peak memory of "vlroute gen"
# (generate + write), of "vlroute info" (read + counts + diameter +
# recognition, which regenerates the fabric once), and the seconds ibsim
# takes to parse the same net file until it reports ready (the reference).
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
PROG=fabric_speed.sh
# shellcheck source=bench/osm-bench-lib.sh
. "$top/bench/osm-bench-lib.sh"
vlroute=${1:-$top/build/tools/vlroute}
scratch=$(mktemp -d)
ibsim_pid=
trap '[ -n "$ibsim_pid" ] && kill "$ibsim_pid" 2>/dev/null; rm -rf "$scratch"' EXIT

fabrics=(
	"dragonfly -p 6 -a 12 -h 6"
	"dragonfly -p 10 -a 20 -h 13 -g 250"
	"hyperx -s 50x100 -p 10"
	"fattree -k 16 -n 3"
)

# measure COMMAND...: "SECONDS MAXRSS_KB" of one run
measure() {
	/usr/bin/time -f "%e %M" -o "$scratch/time" "$@" >"$scratch/out" 2>&1
	cat "$scratch/time"
}

# ibsim_load NETFILE: seconds until ibsim reports ready (or "n/a"), with
# the size flags "vlroute info" names (osm-bench-lib.sh's ibsim_size_flags)
ibsim_load() {
	local start sock=vlr-bench-$$
	command -v ibsim >/dev/null || { echo n/a; return; }
	ibsim_size_flags "$scratch/info"
	start=$(date +%s.%N)
	IBSIM_SOCKNAME=$sock ibsim -n -s ${ibsim_flags[@]+"${ibsim_flags[@]}"} "$1" \
		>"$scratch/ibsim.log" 2>&1 &
	ibsim_pid=$!
	until ibsim_ready "$scratch/ibsim.log" "$sock"; do
		kill -0 "$ibsim_pid" 2>/dev/null || { echo failed; ibsim_pid=; return; }
		sleep 0.02
	done
	echo "$(date +%s.%N) - $start" | bc -l | xargs printf '%.2f'
	kill "$ibsim_pid"
	wait "$ibsim_pid" 2>/dev/null || true
	ibsim_pid=
}

command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package time)"; exit 1; }
printf '%-38s %8s %6s | %8s %8s | %8s %8s | %8s\n' fabric switches CAs \
	"gen s" "gen MB" "info s" "info MB" "ibsim s"
for args in "${fabrics[@]}"; do
	# shellcheck disable=SC2086
	read -r gen_s gen_kb < <(measure "$vlroute" gen $args -o "$scratch/f.net")
	read -r info_s info_kb < <(measure "$vlroute" info "$scratch/f.net")
	cp "$scratch/out" "$scratch/info"
	switches=$(sed -n 's/^switches: *//p' "$scratch/info")
	cas=$(sed -n 's/^channel adapters: *\([0-9]*\).*/\1/p' "$scratch/info")
	printf '%-38s %8s %6s | %8s %8.1f | %8s %8.1f | %8s\n' "$args" "$switches" "$cas" \
		"$gen_s" "$(echo "$gen_kb / 1024" | bc -l)" "$info_s" \
		"$(echo "$info_kb / 1024" | bc -l)" "$(ibsim_load "$scratch/f.net")"
done
