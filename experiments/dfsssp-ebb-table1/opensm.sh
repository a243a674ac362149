#!/bin/bash
# opensm.sh - OpenSM's engines on the DFSSSP study's Table I fabrics, rated
# as experiment.yaml rates ours: effective bisection bandwidth from
# "vlroute analyze --ebb" (1000 random bisections, seed 1) on OpenSM's LFT
# dump, a CSV row per fabric and engine.
#
# Usage: experiments/dfsssp-ebb-table1/opensm.sh [--vlroute PATH] [--ibsim DIR]
#            [--engines LIST] [--fabrics REGEX] [--patterns N] [--results FILE]
#            [--workdir DIR] [--timeout SECONDS] [--keep]
#   --vlroute PATH     the vlroute CLI (default: build/tools/vlroute)
#   --ibsim DIR        an ibsim source tree built by
#                      ../dfsssp-layers-random/build-ibsim.sh (ports with 15
#                      VLs); default the ibsim on PATH (8 VLs)
#   --engines LIST     among minhop, updn, lash, sssp, dfsssp, dor (default
#                      all; dor, OpenSM's dimension-order routing, is in the
#                      study's Fig. 5 too)
#   --fabrics REGEX    only the fabrics whose label matches (default all)
#   --patterns N       bisections per rating (default 1000, as the study)
#   --results FILE     the CSV (default experiments/results/dfsssp-ebb-table1/
#                      opensm.csv)
#   --workdir DIR      fabrics, logs and dumps (default a fresh
#                      /tmp/dfsssp-ebb.XXXXXX)
#   --timeout SECONDS  bound on ibsim's start and on the sweep (default 600)
#   --keep             keep OpenSM's dumps (default: only failed runs' logs)
#
# The fabrics are experiment.yaml's (its "fabric:" lines, one flow mapping a
# line, made into "vlroute gen" commands).  For each fabric and engine a
# private ibsim serves the fabric to a stock OpenSM (osm-bench-lib.sh) with
# routing_engine ENGINE, max_op_vls 5, QoS on, one heavy sweep.  An engine
# that fails makes OpenSM fall back to minhop: the row's status is then
# "fell back to minhop" (and the fallback's tables are not rated: they are
# minhop's); tables vlroute analyze refuses (LIDs left unrouted) give
# "analyze failed: " and its reason.  Where updn finds no roots of its own (the Kautz graphs), it is
# given the switch of least eccentricity by root_guid_file and a second
# sweep, as bench/vl_budget.sh does; the command column says so.  Rows already
# in the CSV (same fabric and engine) are skipped: run again to resume.
#
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

PROG=${0##*/}
PATH=${PATH:+$PATH:}/usr/sbin:/sbin	# opensm lives in sbin
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../../bench/osm-bench-lib.sh
. "$top/bench/osm-bench-lib.sh"
usage_line='[--vlroute PATH] [--ibsim DIR] [--engines LIST] [--fabrics REGEX] [--patterns N] [--results FILE] [--workdir DIR] [--timeout SECONDS] [--keep]'
no_value=

vlroute=$top/build/tools/vlroute
ibsim=
engines=minhop,updn,lash,sssp,dfsssp,dor
fabrics=.
patterns=1000
results=$top/experiments/results/dfsssp-ebb-table1/opensm.csv
workdir=
timeout=600
keep=0

ibsim_pid=
osm_pid=
sock=
umad2sim=
header='fabric,engine,status,ebb,ci95_low,ci95_high,patterns,vls_available,seconds,fabric_sha256,dump_sha256,version,commit,command,date'

stop_all() {
	stop_pid "$osm_pid"
	stop_pid "$ibsim_pid"
	osm_pid='' ibsim_pid=''
}

parse_args() {
	parse_options vlroute ibsim engines fabrics patterns results workdir timeout -- "$@"
	[[ $engines =~ ^(minhop|updn|lash|sssp|dfsssp|dor)(,(minhop|updn|lash|sssp|dfsssp|dor))*$ ]] ||
		bad_usage "--engines is a comma list of minhop, updn, lash, sssp, dfsssp and dor, not '$engines'"
	[[ $patterns =~ ^[1-9][0-9]{0,5}$ ]] ||
		bad_usage "--patterns wants a positive number, not '$patterns'"
	check_timeout_and_workdir
	[[ -z $ibsim ]] || use_ibsim_build "$ibsim"
}

# fabric_lines: "LABEL|gen FAMILY --KEY VALUE..." per fabric of experiment.yaml.
fabric_lines() {
	awk '
	/^fabric:/ { inside = 1; next }
	/^[a-z]/ { inside = 0 }
	inside && /^  - \{.*\}$/ {
		s = $0; sub(/^  - \{/, "", s); sub(/\}$/, "", s)
		n = split(s, kv, /, /); label = ""; args = ""
		for (i = 1; i <= n; i++) {
			k = kv[i]; sub(/:.*/, "", k); v = kv[i]; sub(/^[^:]*: /, "", v)
			gsub(/"/, "", v)
			if (k == "label") label = v
			else if (k == "gen") args = "gen " v args
			else args = args " --" k " " v
		}
		print label "|" args
	}' "$here/experiment.yaml"
}

done_row() {
	grep -q -- "^$1,$2," "$results"
}

# rate O: vlroute analyze of O/dump; sets r_ebb r_low r_high.
rate() {
	local o=$1 line
	cp -- "$o/guid2lid" "$o/dump/guid2lid"
	r_ebb='' r_low='' r_high=''
	"$vlroute" analyze "$o/dump" --ebb --patterns "$patterns" -j 1 >"$o/analyze.out" 2>&1 ||
		return 1
	line=$(grep -m 1 '^ebb: ' "$o/analyze.out")
	[[ $line =~ ^ebb:\ ([0-9.]+)\ \(95%\ CI\ ([0-9.]+)\ \.\.\ ([0-9.]+)\) ]] || return 1
	r_ebb=${BASH_REMATCH[1]} r_low=${BASH_REMATCH[2]} r_high=${BASH_REMATCH[3]}
}

# updn_root O NET: when updn found no roots in the first sweep, name the
# switch of least eccentricity in O/updn-roots (root_guid_file) and sweep
# again (SIGHUP); sets root to its name.  As bench/vl_budget.sh does.
updn_root() {
	local o=$1 guid
	root=
	grep -q 'disabling UPDN algorithm, no root nodes were found' "$o/opensm.log" ||
		return 0
	root=$(center_switch "$2")
	guid=$(node_guid "$o/dump" "$root")
	[[ -n $guid ]] || return 1
	echo "$guid" >"$o/updn-roots"
	kill -HUP "$osm_pid" && wait_subnet_up "$o/opensm.log" 2
}

# run_opensm LABEL ENGINE NET: one row.
run_opensm() {
	local o=$workdir/osm-${1// /_}-$2 flags t0 t1 used hash='' avail status=ok root=
	r_ebb='' r_low='' r_high=''
	rm -rf -- "$o"
	mkdir -p "$o/dump"
	write_opensm_conf "$o" "routing_engine $2" "max_op_vls 5" "qos TRUE" "sweep_interval 0" \
		"root_guid_file $o/updn-roots"
	flags=$(field "$3.info" ibsim)
	flags=${flags#needs ibsim }
	[[ $flags == fits* ]] && flags=
	sock=dfsssp-ebb-$$-$RANDOM$RANDOM
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	start_ibsim "$3" "$o/ibsim.log" $flags
	launch_opensm "$o" --
	osm_pid=$!
	if ! wait_subnet_up "$o/opensm.log" 1 || ! updn_root "$o" "$3"; then
		status="no SUBNET UP"
	fi
	stop_all
	avail=$(sed -n 's/.*\(Virtual Lanes available: \|min operational vl(\)\([0-9]*\).*/\2/p' \
		"$o/opensm.log" | tail -n 1)
	used=$(sed -n 's/.* \([A-Za-z0-9_]*\) tables configured on all switches.*/\1/p' \
		"$o/opensm.log" | tail -n 1)
	if [[ $status == ok && $used != "$2" ]]; then
		status="fell back to ${used:-nothing}"
	fi
	if [[ $status == ok ]]; then
		hash=$(sha256sum "$o/dump/opensm-lfts.dump" | cut -d' ' -f1)
		rate "$o" || status="analyze failed: $(sed -n '1s/^vlroute analyze: //p' "$o/analyze.out")"
	fi
	t1=$(date +%s.%N)
	[[ $status == ok ]] || say "  $1, OpenSM $2: $status (log: $o/opensm.log)"
	record "$1" "$2" "$status" "$r_ebb" "$r_low" "$r_high" "$patterns" "$avail" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
		"$(sha256sum "$3" | cut -d' ' -f1)" "$hash" "$osm_version" "$commit" \
		"opensm (routing_engine $2, max_op_vls 5, qos TRUE${root:+, root_guid_file $root}) under ibsim; vlroute analyze DUMP --ebb --patterns $patterns" \
		"$(date -u +%FT%TZ)"
	if ((keep)); then
		:
	elif [[ $status != ok ]]; then
		rm -rf -- "$o/dump"
	else
		rm -rf -- "$o"
	fi
}

main() {
	local line label args engine net
	parse_args "$@"
	check_bench_tools "ibsim-utils, opensm, coreutils, mawk" ibsim opensm sha256sum awk
	prepare_run dfsssp-ebb.XXXXXX
	tool_ids
	mkdir -p "$workdir/fabrics"
	open_results "$header"
	say "workdir $workdir; results $results; ibsim $(command -v ibsim)"
	while IFS='|' read -r label args; do
		[[ $label =~ $fabrics ]] || continue
		net=$workdir/fabrics/${label// /_}.net
		# shellcheck disable=SC2086
		"$vlroute" $args -o "$net" || die "vlroute $args failed"
		"$vlroute" info "$net" >"$net.info"
		for engine in ${engines//,/ }; do
			done_row "$label" "$engine" && continue
			say "$label: OpenSM $engine"
			run_opensm "$label" "$engine" "$net"
		done
	done < <(fabric_lines)
}

# Sourced (by the test of its parsing), it defines its functions only.
[[ ${BASH_SOURCE[0]} != "$0" ]] || main "$@"
