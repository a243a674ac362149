#!/bin/bash
# valiant_ib_fit.sh - do the Valiant VL policies of the Valiant studies fit
# real InfiniBand on the studies' own fabrics? For HyperX 1D/2D/3D, the
# 5256-server Dragonfly and the 4160-server Dragonfly+, every policy
# (ladder, ladder-reuse, 2phases minfirst/minlast/minboth with 1 and 2 VLs
# per phase) and every LMC from 1 to the highest the LID space allows:
# route with the valiant engine, then verify the directory, and print the
# SLs and VLs the tables use, the routing time and peak memory, and the
# verifier's verdict - or why the policy was refused. One CSV line per run
# on standard output (and a table on standard error).
#
# Usage: bench/valiant_ib_fit.sh [BUILD_DIR] [--quick]
#   --quick: LMC 2 only, and the two Dragonflies only
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -u

build=${1:-build}
quick=${2:-}
vlroute="$build/tools/vlroute"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -x "$vlroute" ] || { echo "no $vlroute: build first (./run.sh build)" >&2; exit 2; }

# name|gen arguments|highest LMC the 49151 unicast LIDs allow
fabrics=(
	"hx64|hyperx -s 64 -p 64|3"
	"hx16x16|hyperx -s 16x16 -p 16|3"
	"hx8x8x8|hyperx -s 8x8x8 -p 8|3"
	"df6-12-6|dragonfly -p 6 -a 12 -h 6|3"
	"dfp8-8-8-8|dragonfly+ -L 8 -S 8 -p 8 -h 8|3"
)
policies=("ladder" "ladder-reuse" "2phases minfirst 1" "2phases minfirst 2"
	  "2phases minlast 1" "2phases minlast 2" "2phases minboth 1" "2phases minboth 2")
lmcs="1 2 3"
if [ "$quick" = --quick ]; then
	fabrics=("${fabrics[3]}" "${fabrics[4]}")
	lmcs=2
fi

# run NAME LMC POLICY [PHASE K]: one CSV line
run() {
	local name=$1 lmc=$2 kind=$3 phase=${4:-} k=${5:-} out="$scratch/tables" args=()
	args=(--engine valiant --lmc "$lmc" --vl-policy "$kind")
	[ -n "$phase" ] && args+=(--phase-min "$phase" --vls-per-phase "$k")
	rm -rf "$out"
	/usr/bin/time -f "%e %M" -o "$scratch/time" \
		"$vlroute" route "$scratch/$name.net" "${args[@]}" -o "$out" >"$scratch/log" 2>&1
	local status=$? seconds kb sls vls verdict
	read -r seconds kb < <(tail -1 "$scratch/time")
	if [ $status -ne 0 ]; then
		verdict="refused: $(tail -1 "$scratch/log" | sed 's/^vlroute route: //; s/,/;/g')"
		sls= vls=
	else
		sls=$(sed -n 's/^SLs used: *//p' "$scratch/log")
		vls=$(sed -n 's/^VLs used: *//p' "$scratch/log")
		if "$vlroute" verify "$out" >"$scratch/verify" 2>&1; then
			verdict="verified deadlock-free"
		else
			verdict="verify failed: $(grep -m1 -i 'cycle\|fail' "$scratch/verify" | sed 's/,/;/g')"
		fi
	fi
	echo "$name,$lmc,$kind${phase:+ $phase K=$k},$sls,$vls,$seconds,$((kb / 1024)),$verdict"
	printf "%-11s LMC %s %-22s SLs %-3s VLs %-3s %7s s %6s MB  %s\n" "$name" "$lmc" \
		"$kind${phase:+ $phase K=$k}" "${sls:--}" "${vls:--}" "$seconds" \
		"$((kb / 1024))" "$verdict" >&2
}

echo "fabric,lmc,policy,sls,vls,seconds,peak_mb,verdict"
for entry in "${fabrics[@]}"; do
	IFS='|' read -r name spec most <<<"$entry"
	"$vlroute" gen $spec -o "$scratch/$name.net" >/dev/null || exit 1
	for lmc in $lmcs; do
		[ "$lmc" -le "$most" ] || continue
		for policy in "${policies[@]}"; do
			run "$name" "$lmc" $policy
		done
	done
done
