#!/bin/bash
# valiant_ib_cost.sh - what InfiniBand costs the Valiant VL policies: for
# each fabric and policy, the accepted load at offered load 1.0 under the
# studies' adversarial pattern, simulated on the same valiant tables in the
# IB-exact VL mode (path SL + SL2VL, what a switch can do) and in the
# ideal mode (any VL the policy allows, shortest queue), and their ratio;
# also the SLs and VLs the tables use and the routing's wall time and peak
# memory (/usr/bin/time).
# The goal: exact within 5% of ideal. Random DLID among the Valiant
# offsets, highest LMC the LID space allows, 20,000 cycles, 2 seeds. A
# policy the fabric's SLs or VLs cannot carry is routed again with
# --allow-unprogrammable and simulated ideal only (exact: "not programmable").
# One CSV line per fabric and policy on standard output, a table on
# standard error.
#
# Usage: bench/valiant_ib_cost.sh [--only NAMES] [BUILD_DIR] [--quick] [CYCLES]
#   --only NAMES: comma-separated fabric names (hx64, hx16x16, hx8x8x8,
#                 df6-12-6, dfp8-8-8-8; with --quick hx8x8, df3-6-3,
#                 dfp4-4-4-2), optionally NAME:POLICY (e.g.
#                 "df6-12-6:2phases minlast") for one policy of it
#   --quick: small fabrics of each family (minutes instead of hours)
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -u

only=
if [ "${1:-}" = --only ]; then
	only=,$2,
	shift 2
fi
build=${1:-build}
quick=${2:-}
cycles=${3:-20000}
vlroute="$build/tools/vlroute"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -x "$vlroute" ] || { echo "no $vlroute: build first (./run.sh build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "$0: needs /usr/bin/time (Debian: time)" >&2; exit 2; }

# route ARGS...: vlroute route, its output in $scratch/log, its seconds and
# peak MB in $scratch/time
route() {
	/usr/bin/time -f "%e %M" -o "$scratch/time" "$vlroute" route "$@" >"$scratch/log" 2>&1
}

# name|gen arguments|LMC|pattern (the studies' adversarial one)
fabrics=(
	"hx64|hyperx -s 64 -p 64|3|shift+32"
	"hx16x16|hyperx -s 16x16 -p 16|3|shift+7"
	"hx8x8x8|hyperx -s 8x8x8 -p 8|3|shift+4"
	"df6-12-6|dragonfly -p 6 -a 12 -h 6|3|adv+6"
	"dfp8-8-8-8|dragonfly+ -L 8 -S 8 -p 8 -h 8|3|adv+8"
)
if [ "$quick" = --quick ]; then
	fabrics=(
		"hx8x8|hyperx -s 8x8 -p 8|4|shift+3"
		"df3-6-3|dragonfly -p 3 -a 6 -h 3|4|adv+3"
		"dfp4-4-4-2|dragonfly+ -L 4 -S 4 -p 4 -h 2|4|adv+2"
	)
fi
policies=("ladder" "ladder-reuse" "2phases minfirst" "2phases minlast" "2phases minboth")

# accepted DIR MODE PATTERN: the mean accepted load of the seeds
accepted() {
	"$vlroute" sim "$1" -p "$3" -L 1 -c "$cycles" -N 2 -d random -m "$2" -q 2>/dev/null |
		awk '$1 == "1.000" { sum += $3; n++ } END { if (n) printf "%.4f", sum / n }'
}

echo "fabric,lmc,pattern,policy,sls,vls,route_s,route_mb,exact,ideal,exact_over_ideal"
for entry in "${fabrics[@]}"; do
	IFS='|' read -r name spec lmc pattern <<<"$entry"
	"$vlroute" gen $spec -o "$scratch/$name.net" >/dev/null || exit 1
	for policy in "${policies[@]}"; do
		if [ -n "$only" ] && [[ $only != *",$name,"* && $only != *",$name:$policy,"* ]]; then
			continue
		fi
		set -- $policy
		args=(--engine valiant --lmc "$lmc" --vl-policy "$1")
		[ -n "${2:-}" ] && args+=(--phase-min "$2")
		rm -rf "$scratch/tables"
		if ! route "$scratch/$name.net" "${args[@]}" -o "$scratch/tables"; then
			rm -rf "$scratch/tables"
			if ! route "$scratch/$name.net" "${args[@]}" --allow-unprogrammable \
				-o "$scratch/tables"; then
				echo "$name,$lmc,$pattern,$policy,,,,,,,refused"
				continue
			fi
		fi
		sls=$(sed -n 's/^SLs used: *//p' "$scratch/log")
		vls=$(sed -n 's/^VLs used: *//p' "$scratch/log")
		read -r seconds kb < <(tail -1 "$scratch/time")
		mb=$((kb / 1024))
		exact="not programmable"
		grep -q "^not programmable:" "$scratch/log" ||
			exact=$(accepted "$scratch/tables" exact "$pattern")
		ideal=$(accepted "$scratch/tables" ideal "$pattern")
		ratio=
		[ "$exact" = "not programmable" ] ||
			ratio=$(awk -v e="$exact" -v i="$ideal" 'BEGIN { if (i > 0) printf "%.3f", e / i }')
		echo "$name,$lmc,$pattern,$policy,$sls,$vls,$seconds,$mb,$exact,$ideal,$ratio"
		printf "%-11s %-8s %-17s SLs %-3s VLs %-2s route %6ss %5s MB exact %s ideal %s ratio %s\n" \
			"$name" "$pattern" "$policy" "$sls" "$vls" "$seconds" "$mb" "$exact" "$ideal" \
			"$ratio" >&2
	done
done
