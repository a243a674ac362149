#!/bin/bash
# valiant_policies.sh - the table of issue 5: for HyperX, Dragonfly and
# Dragonfly+ fabrics, route with minimal and valiant under every VL policy
# and print the SLs and VLs each needs (or why it was refused), the routing
# time, and the static load of valiant against minimal under the
# adversarial pattern of the family (HyperX shift, Dragonfly ADV+h): the
# routes on the most loaded channel and the pairs' mean bandwidth, as
# vlroute analyze computes them (valiant with the sources spreading over
# all LID offsets).
#
# Usage: bench/valiant_policies.sh [BUILD_DIR] [--quick]
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -u

build=${1:-build}
quick=${2:-}
vlroute="$build/tools/vlroute"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -x "$vlroute" ] || { echo "no $vlroute: build first (./run.sh build)" >&2; exit 2; }

fabrics=(
	"hx4x4|hyperx -s 4x4 -p 4|shift+1"
	"hx8x8|hyperx -s 8x8 -p 8|shift+3"
	"hx4x4x4|hyperx -s 4x4x4 -p 4|shift+1"
	"df2-4-2|dragonfly -p 2 -a 4 -h 2|adv+2"
	"df4-8-4|dragonfly -p 4 -a 8 -h 4|adv+4"
	"df6-12-6|dragonfly -p 6 -a 12 -h 6|adv+6"
	"dfp4-4-4-2|dragonfly+ -L 4 -S 4 -p 4 -h 2|adv+2"
	"dfp8-8-8-4|dragonfly+ -L 8 -S 8 -p 8 -h 4|adv+4"
)
[ "$quick" = --quick ] && fabrics=("${fabrics[0]}" "${fabrics[3]}" "${fabrics[6]}")
policies=("none" "ladder" "ladder-reuse" "2phases minfirst" "2phases minlast"
	  "2phases minboth" "layers")

# route NAME ENGINE POLICY...: prints "SLs VLs seconds" or "refused: why"
route() {
	local name=$1 engine=$2 policy=$3 phase=${4:-} out="$scratch/$1-$2" args=()
	[ "$engine" = valiant ] && args+=(--lmc 1)
	[ "$policy" != none ] && args+=(--vl-policy "$policy")
	[ -n "$phase" ] && args+=(--phase-min "$phase")
	local start end
	start=$(date +%s.%N)
	if "$vlroute" route "$scratch/$name.net" --engine "$engine" "${args[@]}" \
		-o "$out-$policy$phase" >"$scratch/log" 2>&1; then
		end=$(date +%s.%N)
		printf "%-3s %-3s %6.2f s" \
			"$(sed -n 's/^SLs used: *//p' "$scratch/log")" \
			"$(sed -n 's/^VLs used: *//p' "$scratch/log")" \
			"$(echo "$end - $start" | bc)"
	else
		printf "refused: %s" "$(sed 's/^vlroute route: //' "$scratch/log" | tail -1 |
			sed 's/ on this fabric.*the fabric has/; the fabric has/' | cut -c1-70)"
	fi
}

# load DIR PATTERN DLID: the pattern's most loaded channel (routes on it) and
# the mean bandwidth of its pairs, from vlroute analyze
load() {
	"$vlroute" analyze "$1" --pattern "$2" --dlid "$3" 2>/dev/null |
		awk '/max congestion per instance/ { max = $NF }
		     /^bandwidth:/ { bw = $2 }
		     END { if (max == "") print "n/a"; else printf "max load %s, bandwidth %s", max, bw }'
}

printf "%-11s %-8s %-17s %-3s %-3s %8s\n" fabric engine policy SLs VLs time
for entry in "${fabrics[@]}"; do
	IFS='|' read -r name spec pattern <<<"$entry"
	"$vlroute" gen $spec -o "$scratch/$name.net"
	for engine in minimal valiant; do
		for policy in "${policies[@]}"; do
			set -- $policy
			[ "$engine" = valiant ] && [ "$1" = none ] && continue
			printf "%-11s %-8s %-17s " "$name" "$engine" "$policy"
			route "$name" "$engine" "$1" "${2:-}"
			echo
		done
	done
	printf "%-11s under %s: minimal %s; " \
		"$name" "$pattern" "$(load "$scratch/$name-minimal-none" "$pattern" base)"
	printf "valiant (DLIDs spread) %s\n" \
		"$(load "$scratch/$name-valiant-2phasesminfirst" "$pattern" spread)"
done
