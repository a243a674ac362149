#!/bin/bash
# dfsssp_vs_opensm.sh - vlroute's dfsssp engine beside OpenSM's built-in
# dfsssp, in one run on the very same fabrics: routing time, peak memory
# and virtual lanes, side by side with ratios, up to the size limit of a
# subnet (the size table of issue 18).
#
# Usage: bench/dfsssp_vs_opensm.sh [--vlroute PATH] [--sizes LIST] [--vls N]
#                                  [--heuristics LIST] [--osm-max-lids N]
#                                  [--workdir DIR] [--timeout SECONDS] [--keep]
#   --vlroute PATH     the vlroute CLI (default: build/tools/vlroute)
#   --sizes LIST       comma list of fabrics (default: 6):
#                        P       Dragonfly p=P a=2P h=P, P in 2..10: 6 -> 5256
#                                hosts, 7 -> 9702, 8 -> 16512, 10 -> 40200
#                        ft:K    3-level fat tree, gen fattree -k K -n 3
#                                (K in 4..64 even: 32 -> 32768 hosts)
#                        hx:S:P  3D HyperX SxSxS with P hosts per switch
#                                (S in 2..16, P in 1..32: hx:16:10 -> 40960)
#   --vls N            data VLs for both (1..15, default 8); the 3D HyperX
#                      of 40K hosts needs 15
#   --heuristics LIST  weakest, or weakest,all (default): the "all" run tries
#                      every cut heuristic, about three times the time
#   --osm-max-lids N   run OpenSM only on fabrics of at most N LIDs (default
#                      12000: sizes 6 and 7); beyond, its time and memory are
#                      extrapolated from the measured fabrics of the same
#                      family (a power law fitted to two or more of them),
#                      marked "~" in the table and "extrapolated" in the CSV
#   --workdir DIR      where nets, logs and results.csv go (default: a fresh
#                      /tmp/dfsssp-vs-opensm.XXXXXX, kept)
#   --timeout SECONDS  bound on ibsim's start and on each OpenSM run (default
#                      1800); "opensm -o" never exits when routing fails
#   --keep             keep the routing tables (ours and OpenSM's dumps, GBs
#                      for size 8) instead of deleting them after each size
#
# For each fabric: "vlroute gen" writes the net; "vlroute route --engine
# dfsssp" routes it with --heuristic weakest (and all) (routing s = paths +
# layers as vlroute reports them; wall s and MB = the whole command: read,
# route, verify, write); then, up to --osm-max-lids, a private ibsim serves
# the same net to a stock "opensm -o" (through libumad2sim.so) with
# routing_engine dfsssp. OpenSM's routing s is the span in its log from
# "Entering MASTER state" to "dfsssp tables configured on all switches"; its
# MB is the peak RSS of the whole SM; its VLs come from "Virtual Lanes
# needed" (">N" where it stopped for want of more than N: ibsim offers 8).
# Ratios are OpenSM/ours, the VL difference OpenSM minus ours.  The
# table goes to stdout (progress to stderr) once every fabric is done, and
# to DIR/results.csv.  Only the ibsim and opensm this script started are
# ever stopped, by their PIDs.
#
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

PROG=${0##*/}
PATH=${PATH:+$PATH:}/usr/sbin:/sbin	# opensm lives in sbin
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=osm-bench-lib.sh
. "$top/bench/osm-bench-lib.sh"
usage_line='[--vlroute PATH] [--sizes LIST] [--vls N] [--heuristics LIST] [--osm-max-lids N] [--workdir DIR] [--timeout SECONDS] [--keep]'
no_value=n/a

vlroute=$top/build/tools/vlroute
sizes=6
vls=8
heuristics=weakest,all
osm_max_lids=12000
workdir=
timeout=1800
keep=0

ibsim_pid=
time_pid=	# /usr/bin/time wrapping opensm
osm_pid=	# opensm itself (time's child)
sock=
umad2sim=

# opensm's PID: the child of the /usr/bin/time we started.
find_osm_pid() {
	[[ -z $osm_pid && -n $time_pid ]] || return 0
	osm_pid=$(pgrep -P "$time_pid" 2>/dev/null | head -n 1) || osm_pid=
}

# stop_opensm: TERM opensm (KILL after 3 s) and let /usr/bin/time reap it
# and report before time itself is waited for (or, if it lingers, stopped).
stop_opensm() {
	local i
	find_osm_pid
	terminate "$osm_pid"
	for ((i = 0; i < 30; i++)); do
		alive "$time_pid" || break
		sleep 0.1
	done
	stop_pid "$time_pid"
	time_pid='' osm_pid=''
}

stop_all() {
	stop_opensm
	stop_pid "$ibsim_pid"
	ibsim_pid=
}

parse_args() {
	local item
	parse_options vlroute sizes vls heuristics osm_max_lids workdir timeout -- "$@"
	for item in ${sizes//,/ }; do
		fabric_of "$item" || bad_usage "--sizes: '$item' is none of P (2..10), ft:K, hx:S:P"
	done
	[[ -n $sizes && $sizes != *,,* && $sizes != ,* && $sizes != *, ]] ||
		bad_usage "--sizes is a comma list, not '$sizes'"
	[[ $vls =~ ^([1-9]|1[0-5])$ ]] || bad_usage "--vls wants 1..15, not '$vls'"
	[[ $heuristics =~ ^weakest(,all)?$ ]] ||
		bad_usage "--heuristics is weakest or weakest,all, not '$heuristics'"
	[[ $osm_max_lids =~ ^[0-9]{1,6}$ ]] ||
		bad_usage "--osm-max-lids wants a number of LIDs, not '$osm_max_lids'"
	check_timeout_and_workdir
}

check_tools() {
	check_bench_tools "ibsim-utils, opensm, procps, mawk" ibsim opensm pgrep awk
	"$vlroute" route --help >/dev/null 2>&1 ||
		die "$vlroute has no working 'route' command (stale build?)"
}

# diff_int A B: A - B with its sign, n/a if either is missing.
diff_int() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/) printf "%+d", a - b; else print "n/a" }'; }

# run_ours NET DIR HEURISTIC: sets o_route o_wall o_kb o_layers o_heur
run_ours() {
	local net=$1 d=$2 h=$3 out=$2/ours-$3
	say "  vlroute route --engine dfsssp --heuristic $h"
	if ! /usr/bin/time -f '%e %M' -o "$out.time" "$vlroute" route "$net" \
		--engine dfsssp --heuristic "$h" --vls "$vls" -o "$out" >"$out.out" 2>&1; then
		tail -n 5 "$out.out" >&2
		die "vlroute route --heuristic $h failed on $net (log: $out.out)"
	fi
	read -r o_wall o_kb < <(tail -n 1 "$out.time")
	o_route=$(sed -n 's/^routing time: *\([0-9.]*\) s paths, *\([0-9.]*\) s layers.*/\1 \2/p' \
		"$out.out" | awk 'NF == 2 { printf "%.2f", $1 + $2 }')
	o_layers=$(sed -n 's/^layers: *\([0-9]*\).*/\1/p' "$out.out")
	o_heur=$(sed -n 's/^layers:.*(heuristic \([a-z]*\).*/\1/p' "$out.out")
	[[ -n $o_route && -n $o_layers ]] ||
		die "cannot read routing time and layers from $out.out"
	((keep)) || rm -rf -- "$out"
}

# osm_span LOG: seconds from "Entering MASTER state" to "dfsssp tables
# configured on all switches" (timestamps "Mon DD HH:MM:SS usec"), or n/a.
osm_span() {
	osm_log_span "$1" %.2f '
	!have_start && /Entering MASTER state/ { start = stamp(); have_start = 1; next }
	have_start && /dfsssp tables configured on all switches/ { end = stamp(); have_end = 1; exit }'
}

# run_opensm NET DIR: sets s_route s_wall s_kb s_vls s_status
run_opensm() {
	local net=$1 d=$2 o=$2/opensm deadline t0 rc avail
	s_route=n/a s_wall=n/a s_kb='' s_vls=n/a s_status=ok
	rm -rf -- "$o"
	mkdir -p "$o/dump"
	write_opensm_conf "$o" "routing_engine dfsssp" "max_op_vls $vls" "qos TRUE"

	ibsim_size_flags "$d/info"
	sock=dfsssp-vs-opensm-$$-$RANDOM$RANDOM
	say "  ibsim -n -s ${ibsim_flags[*]} (IBSIM_SOCKNAME=$sock)"
	t0=$SECONDS
	start_ibsim "$net" "$d/ibsim.log" "${ibsim_flags[@]}"
	say "  ibsim ready after $((SECONDS - t0)) s; opensm -o (dfsssp), timeout $timeout s"

	launch_opensm "$o" /usr/bin/time -f '%e %M' -o "$o/time" -- -o
	time_pid=$!
	osm_pid=
	deadline=$((SECONDS + timeout))
	while alive "$time_pid"; do
		find_osm_pid
		if ! alive "$ibsim_pid"; then
			s_status="ibsim died"
			stop_opensm
			break
		fi
		if ((SECONDS >= deadline)); then
			s_status="timeout ${timeout}s"
			say "  opensm still running after $timeout s: stopping it (PID ${osm_pid:-?})"
			stop_opensm
			break
		fi
		sleep 0.5
	done
	if [[ -n $time_pid ]]; then
		rc=0
		wait "$time_pid" || rc=$?
		time_pid='' osm_pid=''
		((rc == 0)) || s_status="exit $rc"
	fi
	stop_pid "$ibsim_pid"
	ibsim_pid=

	[[ -s $o/time ]] && read -r s_wall s_kb < <(tail -n 1 "$o/time")
	s_route=$(osm_span "$o/opensm.log" 2>/dev/null || echo n/a)
	s_vls=$(sed -n 's/.*dfsssp_remove_deadlocks: Virtual Lanes needed: \([0-9]*\).*/\1/p' \
		"$o/opensm.log" 2>/dev/null | tail -n 1)
	s_vls=${s_vls:-n/a}
	# OpenSM stops counting at the first layer past its VLs: "more than"
	avail=$(sed -n 's/.*ERR AD25: Not enough VLs available (avail=\([0-9]*\).*/\1/p' \
		"$o/opensm.log" 2>/dev/null | tail -n 1)
	if [[ -n $avail ]]; then
		s_vls=">$avail" s_status="failed: needs more than $avail VLs"
	elif [[ $s_route == n/a && $s_status == ok ]]; then
		s_status="no dfsssp tables"
	fi
	if [[ $s_status != ok ]]; then
		say "  OpenSM: $s_status; last lines of $o/opensm.log:"
		tail -n 8 "$o/opensm.log" >&2 2>/dev/null || true
	fi
	((keep)) || rm -rf -- "$o/dump"
}

# fabric_of ITEM: gen_fabric_of of one --sizes item, where a bare P
# stands for df:P; fails on anything else.
fabric_of() {
	local item=$1
	[[ $item =~ ^[0-9]+$ ]] && item=df:$item
	gen_fabric_of "$item"
}

# fit FAMILY COLUMN LIDS: OpenSM's COLUMN (route or kb) at LIDS, from a
# least-squares line through log(LIDs), log(value) of the family's fabrics
# that OpenSM routed. Prints "value exponent", or "n/a n/a" with fewer than
# two distinct sizes.
fit() {
	local field=5
	[[ $2 == route ]] && field=4
	awk -F, -v fam="$1" -v field="$field" -v at="$3" -v none="$no_value" '
	BEGIN { n = 0 }
	$1 == fam && $2 == "ok" && $field + 0 > 0 { x[n] = log($3); y[n] = log($field); n++ }
	END {
		for (i = 0; i < n; i++) { sx += x[i]; sy += y[i] }
		if (n < 2) { print none, none; exit }
		mx = sx / n; my = sy / n
		for (i = 0; i < n; i++) { sxx += (x[i] - mx)^2; sxy += (x[i] - mx) * (y[i] - my) }
		if (sxx == 0) { print none, none; exit }
		b = sxy / sxx
		printf "%.2f %.2f\n", exp(my + b * (log(at) - mx)), b
	}' "$measured"
}

# measure ITEM: one entry of items[] for the table; OpenSM's own
# measurements also go to $measured for the fits.
measure() {
	local d net hosts switches lids
	local w_route w_wall w_kb w_layers a_heur=$no_value
	local a_route=$no_value a_wall=$no_value a_kb='' a_layers=$no_value
	fabric_of "$1"
	d=$workdir/${label//:/-}
	net=$d/fabric.net
	mkdir -p "$d"
	say "$label: vlroute gen ${gen_args[*]}"
	"$vlroute" gen "${gen_args[@]}" -o "$net" >"$d/gen.out" 2>&1 ||
		die "vlroute gen failed (log: $d/gen.out)"
	"$vlroute" info "$net" >"$d/info" 2>&1 || die "vlroute info failed (log: $d/info)"
	switches=$(field "$d/info" switches)
	hosts=$(field "$d/info" "channel adapters")
	hosts=${hosts%% *}
	lids=$((hosts + switches))

	run_ours "$net" "$d" weakest
	w_route=$o_route w_wall=$o_wall w_kb=$o_kb w_layers=$o_layers
	if [[ $heuristics == *all* ]]; then
		run_ours "$net" "$d" all
		a_route=$o_route a_wall=$o_wall a_kb=$o_kb a_layers=$o_layers a_heur=$o_heur
	fi
	if ((lids <= osm_max_lids)); then
		run_opensm "$net" "$d"
		echo "$family,$s_status,$lids,$s_route,$s_kb" >>"$measured"
		[[ $s_status == ok ]] || s_kb=	# a stopped or failed OpenSM's peak means little
	else
		say "  OpenSM skipped: $lids LIDs > --osm-max-lids $osm_max_lids"
		s_route=$no_value s_wall=$no_value s_kb='' s_vls=$no_value s_status=skipped
	fi
	items+=("$label|$family|$lids|$hosts|$switches|$w_route|$w_wall|$w_kb|$w_layers|$a_route|$a_wall|$a_kb|$a_layers|$a_heur|$s_route|$s_wall|$s_kb|$s_vls|$s_status")
}

# extrapolate FAMILY LIDS: s_route, s_kb and s_status from the fits, or
# left as they are where OpenSM routed fewer than two sizes of the family.
extrapolate() {
	local route_fit route_b kb_fit kb_b
	read -r route_fit route_b < <(fit "$1" route "$2")
	read -r kb_fit kb_b < <(fit "$1" kb "$2")
	[[ $route_fit == "$no_value" ]] && return 0
	s_route=$route_fit
	s_kb=$(awk -v k="$kb_fit" 'BEGIN { if (k ~ /^[0-9.]+$/) printf "%d", k }')
	s_status="extrapolated: time ~ LIDs^$route_b, memory ~ LIDs^$kb_b"
}

# tilde V: V marked as extrapolated (n/a stays n/a).
tilde() {
	if [[ $1 == "$no_value" ]]; then echo "$1"; else echo "~$1"; fi
}

row_format='%-9s %6s %5s %6s | %7s %7s %7s %3s | %7s %7s %7s %3s | %8s %7s %8s %3s | %6s %6s %4s | %6s %6s %4s\n'
print_header() {
	printf '%-29s | %-30s | %-30s | %-31s | %-18s | %-18s\n' "" \
		"vlroute dfsssp, weakest" "vlroute dfsssp, all" "OpenSM dfsssp" \
		"OpenSM/weakest" "OpenSM/all"
	# shellcheck disable=SC2059
	printf "$row_format" fabric hosts sw LIDs \
		"route s" "wall s" MB VLs "route s" "wall s" MB VLs "route s" "wall s" MB VLs \
		time mem dVL time mem dVL
}

# print_rows: the table and the CSV, extrapolating OpenSM where it was skipped.
print_rows() {
	local row label family lids hosts switches w_route w_wall w_kb w_layers
	local a_route a_wall a_kb a_layers a_heur s_route s_wall s_kb s_vls s_status
	local rtw rmw dvw rta rma dva s_route_shown s_mb_shown
	print_header
	for row in "${items[@]}"; do
		IFS='|' read -r label family lids hosts switches w_route w_wall w_kb w_layers \
			a_route a_wall a_kb a_layers a_heur s_route s_wall s_kb s_vls s_status <<<"$row"
		[[ $s_status == skipped ]] && extrapolate "$family" "$lids"
		rtw=$(div "$s_route" "$w_route") rmw=$(div "$s_kb" "$w_kb")
		dvw=$(diff_int "$s_vls" "$w_layers")
		rta=$(div "$s_route" "$a_route") rma=$(div "$s_kb" "$a_kb")
		dva=$(diff_int "$s_vls" "$a_layers")
		s_route_shown=$s_route s_mb_shown=$(kb_to_mb "$s_kb")
		if [[ $s_status == extrapolated* ]]; then
			s_route_shown=$(tilde "$s_route_shown") s_mb_shown=$(tilde "$s_mb_shown")
			rtw=$(tilde "$rtw") rmw=$(tilde "$rmw") rta=$(tilde "$rta") rma=$(tilde "$rma")
		fi
		# shellcheck disable=SC2059
		printf "$row_format" "$label" "$hosts" "$switches" "$lids" \
			"$w_route" "$w_wall" "$(kb_to_mb "$w_kb")" "$w_layers" \
			"$a_route" "$a_wall" "$(kb_to_mb "$a_kb")" "$a_layers" \
			"$s_route_shown" "$s_wall" "$s_mb_shown" "$s_vls" \
			"$rtw" "$rmw" "$dvw" "$rta" "$rma" "$dva"
		echo "$label,$family,$hosts,$switches,$lids,$vls,$w_route,$w_wall,$(kb_to_mb "$w_kb"),$w_layers,$a_route,$a_wall,$(kb_to_mb "$a_kb"),$a_layers,$a_heur,$s_route,$s_wall,$(kb_to_mb "$s_kb"),$s_vls,\"$s_status\",$rtw,$rmw,$dvw,$rta,$rma,$dva" >>"$csv"
	done
}

main() {
	local item csv measured family label
	local -a items=() gen_args=() ibsim_flags=()

	parse_args "$@"
	check_tools
	prepare_run dfsssp-vs-opensm.XXXXXX

	csv=$workdir/results.csv
	measured=$workdir/opensm-measured.csv
	: >"$measured"
	echo "fabric,family,hosts,switches,lids,vls,weakest_route_s,weakest_wall_s,weakest_mb,weakest_layers,all_route_s,all_wall_s,all_mb,all_layers,all_heuristic,opensm_route_s,opensm_wall_s,opensm_mb,opensm_vls,opensm_status,time_ratio_weakest,mem_ratio_weakest,vl_diff_weakest,time_ratio_all,mem_ratio_all,vl_diff_all" >"$csv"
	say "workdir $workdir; vlroute $vlroute; load average $(cut -d' ' -f1-3 /proc/loadavg)"

	for item in ${sizes//,/ }; do
		measure "$item"
	done
	print_rows

	cat <<EOF

route s: ours = paths + layers as "vlroute route" reports them; OpenSM = the
  span in its log from "Entering MASTER state" to "dfsssp tables configured on
  all switches": path search, deadlock removal, VL balancing and LFT setup.
wall s, MB: /usr/bin/time's elapsed time and peak RSS of the whole command;
  ours read, route, verify and write the tables; OpenSM's are its whole SM
  (discovery, LIDs, routing, programming, dumps) under umad2sim.
VLs: ours = layers needed (the "all" run keeps the fewest); OpenSM = "Virtual
  Lanes needed", ">N" when it stopped for want of VLs beyond N.  time/mem =
  OpenSM / ours; dVL = OpenSM - ours.
~: OpenSM not run (more than $osm_max_lids LIDs): a power law in the LIDs
  fitted to the fabrics of the same family it did route (exponents in the CSV).
CSV: $csv
EOF
}

main "$@"
