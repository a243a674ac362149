#!/bin/bash
# valiant_limits.sh - Valiant's throughput limits on balanced Dragonflies
# (a = 2p = 2h) of growing size, simulated on the valiant engine's own
# tables, beside the figures of DESIGN.md: about 0.5 per server under UN
# and ADV+h (nearly every packet crosses two global links) and 26.6% under
# the hot region (25% of the traffic to 12.5% of the servers). Small
# Dragonflies sit above those figures (fewer global links per packet, the
# hot region not a whole number of groups); the gap closes as they grow.
#
# For each fabric and pattern: the accepted load at offered loads around
# the figure, and the saturation throughput (the most accepted). Random
# DLID among the Valiant offsets, ideal 2phases VLs with 4 per phase,
# buffers of 32/16 packets per VL, crossbar speedup 2.
#
# Usage: bench/valiant_limits.sh [BUILD_DIR] [CYCLES]
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

build=${1:-build}
cycles=${2:-15000}
vlroute="$build/tools/vlroute"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -x "$vlroute" ] || { echo "no $vlroute: build first (./run.sh build)" >&2; exit 2; }

# name|gen arguments|LMC|restricted offsets|h
fabrics=(
	"df2-4-2|-p 2 -a 4 -h 2|6|31|2"
	"df4-8-4|-p 4 -a 8 -h 4|5|0|4"
)

# pattern|DESIGN figure|offered loads
patterns() {
	local h=$1
	echo "un|0.5|0.45,0.5,0.55,0.6,0.65"
	echo "adv+$h|0.5|0.45,0.5,0.55,0.6"
	echo "hot|0.266|0.24,0.26,0.28,0.3,0.33,0.36"
}

printf '%-9s %-6s %-7s %-9s %s\n' fabric traffic figure saturation "accepted at offered loads"
for entry in "${fabrics[@]}"; do
	IFS='|' read -r name gen lmc restricted h <<<"$entry"
	"$vlroute" gen dragonfly $gen -o "$scratch/$name.net"
	"$vlroute" route "$scratch/$name.net" --engine valiant --lmc "$lmc" \
		--restricted "$restricted" --vl-policy 2phases --vls-per-phase 4 \
		-o "$scratch/$name" >/dev/null
	while IFS='|' read -r pattern figure loads; do
		"$vlroute" sim "$scratch/$name" --traffic "$pattern" --load "$loads" \
			--cycles "$cycles" --warmup 5000 --dlid random --vl-mode ideal \
			--speedup 2 --input-buffer 32 --output-buffer 16 -q \
			--json "$scratch/run.json" >/dev/null
		python3 - "$scratch/run.json" "$name" "$pattern" "$figure" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
pairs = sorted((r["offered"], r["accepted"]) for r in runs)
best = max(a for _, a in pairs)
cells = "  ".join("%.3f->%.3f" % p for p in pairs)
print("%-9s %-6s %-7s %-9.3f %s" % (sys.argv[2], sys.argv[3], sys.argv[4], best, cells))
PY
	done < <(patterns "$h")
done
