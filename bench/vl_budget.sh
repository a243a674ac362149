#!/bin/bash
# vl_budget.sh - deadlock-free routing within a budget of VLs: vlroute's
# dfsssp (escape paths when its layers do not fit) against OpenSM's nue,
# lash, dfsssp and updn, on the same fabrics at the same budgets, every
# result judged by the same vlroute verify and vlroute analyze.
#
# Usage: bench/vl_budget.sh [--vlroute PATH] [--fabrics LIST] [--budgets LIST]
#                           [--seeds LIST] [--engines LIST] [--workdir DIR]
#                           [--timeout SECONDS] [--sa-sample N] [--keep]
#   --vlroute PATH     the vlroute CLI (default: build/tools/vlroute)
#   --fabrics LIST     comma list of: shipped (every topologies/*.net), a
#                      shipped net's name without .net (torus-4x4x4-p1),
#                      torus8x8 (vlroute gen torus -s 8x8 -p 1), torus5x5x5
#                      (-s 5x5x5 -p 1), random (vlroute gen random -n 64 -d 6
#                      -p 2, once per seed), or a generated large fabric
#                      as bench/dfsssp_vs_opensm.sh --sizes spells it:
#                      df:P (Dragonfly p=P a=2P h=P, P in 2..10: df:6 has
#                      5256 hosts and 6132 LIDs), ft:K (3-level fat tree,
#                      K in 4..64 even), hx:S:P (3D HyperX SxSxS, P hosts
#                      per switch); ibsim gets the size flags that
#                      "vlroute info" says it needs; default shipped,
#                      torus8x8,torus5x5x5,random
#   --budgets LIST     comma list of VL budgets among 1, 2, 4, 8 and 15
#                      (default 1,2,4,8): OpenSM can only run a power of two
#                      of data VLs (or 15)
#   --seeds LIST       comma list of seeds of the random fabrics (default 1,2,3)
#   --engines LIST     OpenSM engines among nue, lash, dfsssp, updn (default
#                      all four)
#   --workdir DIR      where nets, logs, tables and results.csv go (default a
#                      fresh /tmp/vl-budget.XXXXXX, kept)
#   --timeout SECONDS  bound on ibsim's start, on each SUBNET UP of OpenSM and
#                      on each capture (default 300); an OpenSM stopped
#                      by it shows how long it had been routing
#   --sa-sample N      have "vlroute capture --sa-sample N" ask the SA
#                      about every DLID only from the first port of each
#                      switch and about N DLIDs from the others (default:
#                      every port about every DLID, one query per pair
#                      under ibsim: 32 million for df:6); exact where a
#                      path's SL depends only on its source switch and
#                      DLID, else a sample (vlroute(1), capture)
#   --keep             keep every table directory (default: only logs)
#
# For each fabric and budget N:
#  ours    "vlroute route FABRIC --engine dfsssp --vls N": routing s is the
#          "seconds" of its vlroute-route.info (paths, layers, escape), MB the
#          peak RSS of the whole command (/usr/bin/time: read, route, verify,
#          write; its elapsed time goes to the CSV as wall_s); "esc" counts
#          the LIDs on escape paths.
#  OpenSM  a private ibsim serves the fabric to a stock OpenSM (through
#          libumad2sim.so) with routing_engine ENGINE, max_op_vls set so that
#          every port runs N data VLs (1 -> 1, 2 -> 2, 4 -> 3, 8 -> 4, 15 -> 5:
#          the PortInfo OperVLs code), QoS on, -D 0x43; nue is told the budget
#          by nue_max_num_vls N and made to route switches as destinations too
#          (nue_include_switches TRUE: by default its deadlock freedom covers
#          only the routes to CAs, while vlroute verify checks every LID);
#          lash and dfsssp take the budget from the ports' OperVLs; updn needs
#          one VL.  OpenSM that has no SUBNET UP within the timeout is
#          stopped: routed is then "timeout s1" or "timeout s2" (the sweep
#          it was in), routing s that sweep's, or ">T" where its routing
#          had not ended, T the seconds since its "building routing with";
#          MB its VmHWM so far.  An engine that fails makes OpenSM fall
#          back to minhop: routed is then "fell back" (the "TYPE tables
#          configured on all switches" line names another engine) and
#          nothing else is judged.
#          The first sweep routes before it sets the ports' OperVLs, so a
#          SIGHUP forces a second heavy sweep, which routes within N; its
#          routing s is the span of the log from "building routing with"
#          (osm_ucast_mgr.c logging at VERBOSE) to that line, MB OpenSM's
#          VmHWM after it.  updn finds its roots itself where it can (fat
#          trees); where its first sweep finds none, its root_guid_file names
#          the switch of least eccentricity (first in the net file on a tie,
#          the kind of root our escape paths use) for the second.  OpenSM
#          keeps running; "vlroute capture" (another ibsim client) reads the
#          live tables with the path SL of every (source port, DLID) from
#          OpenSM's SA: its dumps carry no path SLs, so only the capture says
#          what nue, lash and dfsssp really hand out.
# Every result is then judged alike: deadlock-free is "vlroute verify --vls N"
# (every route delivered, the channel dependency graph over (link, VL)
# acyclic, the VL of each hop from the path SL and SL2VL) on our table
# directory or on the capture; VLs is its "VLs used"; ebb is the mean of
# "vlroute analyze --ebb" (1000 random bisections, seed 1) on our directory
# or OpenSM's dump directory, worst the all-to-all route count of the
# hottest channel.  ours/nue: routing time, ebb and worst of ours over
# nue's at the same budget.  The table goes to stdout (progress to stderr)
# and, with the versions and command line, to DIR/results.csv.  Only the
# ibsim, opensm and capture this script started are ever stopped, by PID.
#
# vlroute(1), ROUTING ENGINES, dfsssp, gives the results of one full run.
#
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

PROG=${0##*/}
PATH=${PATH:+$PATH:}/usr/sbin:/sbin	# opensm lives in sbin
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=osm-bench-lib.sh
. "$top/bench/osm-bench-lib.sh"
usage_line='[--vlroute PATH] [--fabrics LIST] [--budgets LIST] [--seeds LIST] [--engines LIST] [--workdir DIR] [--timeout SECONDS] [--sa-sample N] [--keep]'
no_value=-

vlroute=$top/build/tools/vlroute
fabrics=shipped,torus8x8,torus5x5x5,random
budgets=1,2,4,8
seeds=1,2,3
engines=nue,lash,dfsssp,updn
workdir=
timeout=300
sa_sample=
keep=0

ibsim_pid=
osm_pid=
client_pid=
sock=
umad2sim=
csv=

stop_all() {
	stop_pid "$client_pid"
	stop_pid "$osm_pid"
	stop_pid "$ibsim_pid"
	client_pid='' osm_pid='' ibsim_pid=''
}

# is_list VALUE REGEX: VALUE is a comma list of items matching REGEX.
is_list() {
	[[ $1 =~ ^($2)(,($2))*$ ]]
}

parse_args() {
	local item
	parse_options vlroute fabrics budgets seeds engines workdir timeout sa_sample -- "$@"
	is_list "$fabrics" 'shipped|torus8x8|torus5x5x5|random|[A-Za-z0-9._:-]+' ||
		bad_usage "--fabrics is a comma list of fabric names, not '$fabrics'"
	for item in ${fabrics//,/ }; do
		[[ $item != *:* ]] || gen_fabric_of "$item" ||
			bad_usage "--fabrics: '$item' is none of df:P (P 2..10), ft:K (K 4..64 even), hx:S:P (S 2..16, P 1..32)"
	done
	[[ -z $sa_sample || $sa_sample =~ ^[1-9][0-9]{0,3}$ ]] && ((${sa_sample:-1} <= 4096)) ||
		bad_usage "--sa-sample wants 1..4096 DLIDs, not '$sa_sample'"
	is_list "$budgets" '1|2|4|8|15' ||
		bad_usage "--budgets is a comma list of 1, 2, 4, 8 and 15, not '$budgets'"
	is_list "$seeds" '[0-9]{1,9}' ||
		bad_usage "--seeds is a comma list of numbers, not '$seeds'"
	is_list "$engines" 'nue|lash|dfsssp|updn' ||
		bad_usage "--engines is a comma list of nue, lash, dfsssp and updn, not '$engines'"
	check_timeout_and_workdir
}

check_tools() {
	check_bench_tools "ibsim-utils, opensm, mawk, coreutils" ibsim opensm awk sha256sum
	"$vlroute" route --help 2>/dev/null | grep -q -- '--no-escape' ||
		die "$vlroute has no escape paths ('route --no-escape' unknown: stale build?)"
}

# judge DIR TABLES N: verify (DIR: tables with path SLs) and analyze
# (TABLES: the LFTs); sets j_df j_vls j_ebb j_worst.
judge() {
	local dir=$1 tables=$2 n=$3 rc=0
	"$vlroute" verify "$dir" --vls "$n" >"$dir.verify" 2>&1 || rc=$?
	case $rc in
	0) j_df=yes ;;
	1)
		if grep -q '^channel dependencies: CYCLE' "$dir.verify"; then
			j_df="no (cycle)"
		else
			j_df="no (routes)"
		fi
		;;
	*) j_df="error" ;;
	esac
	j_vls=$(field "$dir.verify" "VLs used")
	j_vls=${j_vls%% *}
	j_vls=${j_vls:--}
	rc=0
	"$vlroute" analyze "$tables" --ebb -j 1 >"$tables.analyze" 2>&1 || rc=$?
	j_ebb=- j_worst=-
	((rc == 0)) || return 0
	j_ebb=$(sed -n 's/^ebb: \([0-9.]*\).*/\1/p' "$tables.analyze" | head -n 1)
	j_worst=$(awk '/^hottest channels:/ { getline; print $NF; exit }' "$tables.analyze")
	j_ebb=${j_ebb:--} j_worst=${j_worst:--}
}

# run_ours NET DIR N: sets r_routed r_secs r_wall r_mb r_esc and the judge's.
run_ours() {
	local net=$1 n=$3 out=$2/ours-vls$3 kb
	rm -rf -- "$out"
	r_routed=yes r_secs=- r_wall=- r_mb=- r_esc=0
	j_df=- j_vls=- j_ebb=- j_worst=-
	if ! /usr/bin/time -f '%e %M' -o "$out.time" "$vlroute" route "$net" \
		--engine dfsssp --vls "$n" -o "$out" >"$out.out" 2>&1; then
		r_routed=failed
		say "  ours failed at $n VLs: $(tail -n 1 "$out.out")"
		return 0
	fi
	read -r r_wall kb < <(tail -n 1 "$out.time")
	r_mb=$(kb_to_mb "$kb")
	r_secs=$(sed -n 's/^seconds //p' "$out/vlroute-route.info")
	r_esc=$(sed -n -e 's/^escape paths: *\([0-9]*\) LIDs.*/\1/p' \
		-e 's/^escape paths: .* layers, \([0-9]*\) LIDs routed again.*/\1/p' \
		-e 's/^escape paths: *every destination routed again, \([0-9]*\) LIDs.*/\1/p' \
		"$out.out")
	r_esc=${r_esc:-0}
	judge "$out" "$out" "$n"
	((keep)) || rm -rf -- "$out"
}

# op_vls N: the PortInfo OperVLs code of N data VLs.
op_vls() {
	case $1 in
	1) echo 1 ;;
	2) echo 2 ;;
	4) echo 3 ;;
	8) echo 4 ;;
	15) echo 5 ;;
	esac
}

# osm_span LOG: seconds from the last "building routing with" (osm_ucast_mgr.c
# at VERBOSE) to the "tables configured on all switches" after it
# (timestamps "Mon DD HH:MM:SS usec"), or -.
osm_span() {
	osm_log_span "$1" %.3f '
	/building routing with/ && !building { start = stamp(); building = 1; have_end = 0 }
	building && /tables configured on all switches/ { end = stamp(); have_end = 1; building = 0 }'
}

# capture O: vlroute capture of the live fabric into O/capture (with
# --sa-sample if given); 0 if done.
capture() {
	local o=$1 rc=0 deadline=$((SECONDS + timeout)) sample=()
	[[ -z $sa_sample ]] || sample=(--sa-sample "$sa_sample")
	mkdir -p "$o/capture-cwd"
	# umad2sim makes its fake sysfs in the current directory.
	(cd "$o/capture-cwd" && exec env IBSIM_SOCKNAME="$sock" LD_PRELOAD="$umad2sim" \
		"$vlroute" capture "${sample[@]}" -o "$o/capture") </dev/null >"$o/capture.out" 2>&1 &
	client_pid=$!
	while alive "$client_pid"; do
		if ((SECONDS >= deadline)); then
			say "  capture still running after $timeout s: stopping it"
			stop_pid "$client_pid"
			client_pid=
			return 1
		fi
		sleep 0.1
	done
	wait "$client_pid" || rc=$?
	client_pid=
	return "$rc"
}

# updn_roots O NET: when updn found no roots itself in the first sweep,
# name the switch of least eccentricity in O/updn-roots for the next.
updn_roots() {
	local o=$1 net=$2 root guid
	grep -q 'disabling UPDN algorithm, no root nodes were found' "$o/opensm.log" ||
		return 0
	root=$(center_switch "$net")
	guid=$(node_guid "$o/dump" "$root")
	[[ -n $guid ]] || die "no GUID for switch '$root' in $o/dump/opensm-subnet.lst"
	echo "$guid" >"$o/updn-roots"
	say "  updn found no roots: root_guid_file names $root ($guid)"
}

# osm_routing_for LOG: whole seconds from the last "building routing with"
# in LOG to now, or -: how long an unfinished sweep had been routing.
osm_routing_for() {
	{
		cat -- "$1"
		LC_ALL=C date '+%b %d %H:%M:%S %6N vl-budget-now'
	} | osm_log_span /dev/stdin %.0f '
	/building routing with/ { start = stamp(); building = 1 }
	building && / vl-budget-now$/ { end = stamp(); have_end = 1 }'
}

# sweep_twice O NET ENGINE: wait for OpenSM's first SUBNET UP, give updn
# a root if it found none, force the heavy second sweep (SIGHUP) and wait
# for it; sets sweep to the one waited for last.  0 once both are up.
sweep_twice() {
	sweep=1
	wait_subnet_up "$1/opensm.log" 1 || return 1
	if [[ $3 == updn ]]; then
		updn_roots "$1" "$2" || return 1
	fi
	kill -HUP "$osm_pid" || return 1
	sweep=2
	wait_subnet_up "$1/opensm.log" 2
}

# no_subnet_up O ENGINE N: record and tell why sweep_twice failed: the
# timeout (OpenSM and ibsim still running: the span of its last routing,
# or ">T" when that had run T s unfinished, and its VmHWM so far) or a
# process gone; then stop everything.
no_subnet_up() {
	local o=$1
	if alive "$osm_pid" && alive "$ibsim_pid"; then
		r_routed="timeout s$sweep"
		r_secs=$(osm_span "$o/opensm.log")
		if [[ $r_secs == "$no_value" ]]; then
			r_secs=$(osm_routing_for "$o/opensm.log")
			[[ $r_secs == "$no_value" ]] || r_secs=">$r_secs"
		fi
		r_mb=$(kb_to_mb "$(awk '/^VmHWM:/ { print $2 }' "/proc/$osm_pid/status" 2>/dev/null)")
		say "  OpenSM $2 at $3 VLs: no SUBNET UP of sweep $sweep within $timeout s (routing s: $r_secs): stopping it"
	else
		r_routed="no SUBNET UP"
		say "  OpenSM $2 at $3 VLs: no SUBNET UP; last lines of $o/opensm.log:"
		tail -n 5 "$o/opensm.log" >&2 2>/dev/null || true
	fi
	stop_all
}

# run_opensm NET DIR ENGINE N: sets r_routed r_secs r_mb and the judge's.
run_opensm() {
	local net=$1 d=$2 engine=$3 n=$4 o=$2/$3-vls$4 used
	r_routed=- r_secs=- r_wall=- r_mb=- r_esc=-
	j_df=- j_vls=- j_ebb=- j_worst=-
	rm -rf -- "$o"
	mkdir -p "$o/dump"
	write_opensm_conf "$o" "routing_engine $engine" "max_op_vls $(op_vls "$n")" \
		"nue_max_num_vls $n" "nue_include_switches TRUE" "root_guid_file $o/updn-roots" \
		"qos TRUE" "sweep_interval 0"
	echo "osm_ucast_mgr.c 0x04" >"$o/per-module-logging.conf"
	sock=vl-budget-$$-$RANDOM$RANDOM
	start_ibsim "$net" "$o/ibsim.log" "${f_flags[@]}"
	launch_opensm "$o" --
	osm_pid=$!
	# The first sweep routes before it sets the ports' OperVLs (to
	# max_op_vls): only the heavy sweep that SIGHUP forces routes within N.
	if ! sweep_twice "$o" "$net" "$engine"; then
		no_subnet_up "$o" "$engine" "$n"
		return 0
	fi
	r_mb=$(kb_to_mb "$(awk '/^VmHWM:/ { print $2 }' "/proc/$osm_pid/status" 2>/dev/null)")
	r_secs=$(osm_span "$o/opensm.log")
	used=$(sed -n 's/.* \([A-Za-z0-9_-]*\) tables configured on all switches.*/\1/p' \
		"$o/opensm.log" | tail -n 1)
	if [[ $used != "$engine" ]]; then
		r_routed="fell back"
		say "  OpenSM $engine at $n VLs failed: ${used:-no} tables instead"
		stop_all
		return 0
	fi
	r_routed=yes
	if ! capture "$o"; then
		say "  vlroute capture failed: $(tail -n 1 "$o/capture.out")"
		stop_all
		r_routed="no capture"
		return 0
	fi
	stop_all
	cp -- "$o/guid2lid" "$o/dump/guid2lid"
	judge "$o/capture" "$o/dump" "$n"
	((keep)) || rm -rf -- "$o/dump" "$o/capture"
	rm -rf -- "$o/capture-cwd" "$o"/sys-*
}

# make_fabric NAME DIR: writes DIR/fabric.net; sets f_flags to the size
# flags ibsim needs for it.
make_fabric() {
	local name=$1 d=$2 net=$2/fabric.net family label gen_args ibsim_flags
	mkdir -p "$d"
	case $name in
	torus8x8) "$vlroute" gen torus -s 8x8 -p 1 -o "$net" ;;
	torus5x5x5) "$vlroute" gen torus -s 5x5x5 -p 1 -o "$net" ;;
	random-s*) "$vlroute" gen random -n 64 -d 6 -p 2 --seed "${name#random-s}" -o "$net" ;;
	*:*)
		gen_fabric_of "$name"
		"$vlroute" gen "${gen_args[@]}" -o "$net"
		;;
	*)
		[[ -f $top/topologies/$name.net ]] || die "no fabric '$name' (topologies/$name.net)"
		cp -- "$top/topologies/$name.net" "$net"
		;;
	esac >"$d/gen.out" 2>&1 || die "cannot make fabric $name (log: $d/gen.out)"
	"$vlroute" info "$net" >"$d/info" 2>&1 || die "vlroute info failed (log: $d/info)"
	ibsim_size_flags "$d/info"
	f_flags=("${ibsim_flags[@]}")
	((${#f_flags[@]} == 0)) || say "  ibsim needs ${f_flags[*]}"
}

# fabric_list: the fabrics named by --fabrics, expanded.
fabric_list() {
	local f n s
	for f in ${fabrics//,/ }; do
		case $f in
		shipped)
			for n in "$top"/topologies/*.net; do
				n=${n##*/}
				echo "${n%.net}"
			done
			;;
		random) for s in ${seeds//,/ }; do echo "random-s$s"; done ;;
		*) echo "$f" ;;
		esac
	done
}

row_format='%-30s %3s %-6s %-10s %3s %8s %6s %-11s %7s %6s %4s | %5s %5s %5s\n'

print_header() {
	# shellcheck disable=SC2059
	printf "$row_format" fabric VLs engine routed VLs "route s" MB deadlock-free \
		ebb worst esc "t/nue" "e/nue" "w/nue"
}

# row FABRIC N ENGINE: print and record the current r_* and j_* values.
row() {
	local t=- e=- w=-
	if [[ $3 == ours ]]; then
		t=$(div "$r_secs" "$nue_secs") e=$(div "$j_ebb" "$nue_ebb")
		w=$(div "$j_worst" "$nue_worst")
	fi
	# shellcheck disable=SC2059
	printf "$row_format" "$1" "$2" "$3" "$r_routed" "$j_vls" "$r_secs" "$r_mb" \
		"$j_df" "$j_ebb" "$j_worst" "$r_esc" "$t" "$e" "$w"
	echo "$1,$2,$3,$r_routed,$j_vls,$r_secs,$r_wall,$r_mb,$j_df,$j_ebb,$j_worst,$r_esc,$t,$e,$w" >>"$csv"
}

write_csv_head() {
	{
		echo "# $PROG $*"
		echo "# $("$vlroute" --version | head -n 1); $(opensm --version 2>/dev/null |
			grep -m 1 -o 'OpenSM [0-9.]*'); ibsim $(dpkg-query -W -f '${Version}' \
			ibsim-utils 2>/dev/null || echo '?'); $(uname -srm); $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
		echo "# script sha256 $(sha256sum "$0" | cut -d' ' -f1)"
		echo "fabric,vls,engine,routed,vls_used,routing_s,wall_s,mb,deadlock_free,ebb,worst_channel,escaped_lids,time_ours_over_nue,ebb_ours_over_nue,worst_ours_over_nue"
	} >"$csv"
}

main() {
	local name d n engine ours_row sweep
	local -a f_flags=()

	parse_args "$@"
	check_tools
	prepare_run vl-budget.XXXXXX

	csv=$workdir/results.csv
	write_csv_head "$@"
	say "workdir $workdir; vlroute $vlroute; load average $(cut -d' ' -f1-3 /proc/loadavg)"
	print_header
	for name in $(fabric_list); do
		d=$workdir/${name//:/-}
		say "fabric $name"
		make_fabric "$name" "$d"
		for n in ${budgets//,/ }; do
			nue_secs=- nue_ebb=- nue_worst=-
			say "  $n VLs: ours"
			run_ours "$d/fabric.net" "$d" "$n"
			ours_row=("$r_routed" "$r_secs" "$r_mb" "$r_esc" "$j_df" "$j_vls" "$j_ebb" "$j_worst" "$r_wall")
			for engine in ${engines//,/ }; do
				say "  $n VLs: OpenSM $engine"
				run_opensm "$d/fabric.net" "$d" "$engine" "$n"
				if [[ $engine == nue && $r_routed == yes ]]; then
					nue_secs=$r_secs nue_ebb=$j_ebb nue_worst=$j_worst
				fi
				row "$name" "$n" "$engine"
			done
			r_routed=${ours_row[0]} r_secs=${ours_row[1]} r_mb=${ours_row[2]}
			r_esc=${ours_row[3]} j_df=${ours_row[4]} j_vls=${ours_row[5]}
			j_ebb=${ours_row[6]} j_worst=${ours_row[7]} r_wall=${ours_row[8]}
			row "$name" "$n" ours
		done
	done

	cat <<EOF

routed: yes, or "fell back" when OpenSM's engine failed and minhop routed
  instead (nothing else judged), or failed (ours refused), or "timeout
  s1"/"timeout s2" when OpenSM had no SUBNET UP of its first or second
  sweep within $timeout s (route s: that sweep's, ">T" where its routing
  had run T s unfinished; MB: its peak so far); updn without roots of its own gets the switch of least
  eccentricity.
VLs: "VLs used" of vlroute verify, from our path SLs or those the SA hands
  out; route s: ours = vlroute-route.info's seconds, OpenSM = log span from
  "building routing with" to "tables configured on all switches" in the
  sweep that routes within the budget; MB: peak RSS of our whole command,
  OpenSM's VmHWM after that sweep.
deadlock-free: vlroute verify --vls N; ebb: mean effective bisection
  bandwidth (vlroute analyze --ebb); worst: all-to-all routes on the
  hottest channel; esc: our LIDs on escape paths.  t/e/w over nue: ours
  divided by OpenSM nue's routing s, ebb and worst at the same budget.
CSV: $csv
EOF
}

main "$@"
