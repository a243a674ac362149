#!/bin/bash
# run.sh - the DFSSSP study's Fig. 9: how many virtual layers deadlock-free
# routing needs on random fabrics of 128 switches of 32 ports, 16 endpoints
# each, as the switch-to-switch links grow from a tree to every port used:
# vlroute's dfsssp (heuristics weakest and all) against OpenSM's lash and
# dfsssp, on the same seeded fabrics.
#
# Usage: experiments/dfsssp-layers-random/run.sh [--vlroute PATH] [--ibsim DIR]
#            [--links LIST] [--seeds FIRST-LAST] [--engines LIST]
#            [--switches N] [--hosts T] [--degree D]
#            [--results FILE] [--workdir DIR] [--timeout SECONDS] [--keep]
#   --vlroute PATH     the vlroute CLI (default: build/tools/vlroute)
#   --ibsim DIR        an ibsim source tree built with ibsim-vlcap15.patch
#                      (build-ibsim.sh): DIR/ibsim/ibsim and
#                      DIR/umad2sim/libumad2sim.so; default the ibsim on PATH,
#                      whose ports have 8 VLs, so OpenSM can only say "more
#                      than 8"
#   --links LIST       comma list of link counts, N-1..N*D/2 (default
#                      130,150,175,200,225,250,300,400,500,600,800,1000)
#   --seeds A-B        the seeds of each link count (default 1-100)
#   --engines LIST     among weakest, all (vlroute dfsssp --heuristic H),
#                      lash, dfsssp (OpenSM's); default all four
#   --switches N, --hosts T, --degree D
#                      the fabrics' switches, endpoints per switch and most
#                      links per switch (default the study's 128, 16, 16)
#   --results FILE     the CSV (default experiments/results/
#                      dfsssp-layers-random/layers.csv)
#   --workdir DIR      fabrics and OpenSM's logs (default a fresh
#                      /tmp/dfsssp-layers.XXXXXX)
#   --timeout SECONDS  bound on ibsim's start and on each OpenSM sweep
#                      (default 300)
#   --keep             keep the fabrics and OpenSM's logs and dumps (default:
#                      only those of failed runs)
#
# Each fabric is "vlroute gen random -n 128 -d 16 -p 16 -l LINKS --seed SEED"
# (-n N -d D -p T).
# Ours: "vlroute route --engine dfsssp --heuristic H --vls 15 --no-escape",
# whose "layers:" (or, beyond 15, "needs N VLs") is the count, without a cap.
# OpenSM: a private ibsim serves the fabric to a stock OpenSM (osm-bench-lib.sh)
# with routing_engine lash or dfsssp, max_op_vls 5 (15 data VLs where the
# ports have them), QoS on, one heavy sweep; the count is lash's "Lanes
# needed: N" or dfsssp's "Virtual Lanes needed: N" from its log.  Each
# engine stops at the VLs the ports offer (its "min operational vl" or "Virtual
# Lanes available"): beyond them the row's status is "exceeds" and layers
# is left empty (dfsssp logs one more than it has, lash fails at one more).
# Seeds run in the outer loop, so an interrupted run has about as many seeds
# at every link count; a row is written only when complete, and rows already
# in the CSV (same links, seed and engine) are skipped: run the same command
# again to resume.  summarise.sh turns the rows into min, mean and max per
# link count and engine.
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
usage_line='[--vlroute PATH] [--ibsim DIR] [--links LIST] [--seeds A-B] [--engines LIST] [--switches N] [--hosts T] [--degree D] [--results FILE] [--workdir DIR] [--timeout SECONDS] [--keep]'
no_value=

vlroute=$top/build/tools/vlroute
ibsim=
links=130,150,175,200,225,250,300,400,500,600,800,1000
seeds=1-100
engines=weakest,all,lash,dfsssp
switches=128
hosts=16
degree=16
results=$top/experiments/results/dfsssp-layers-random/layers.csv
workdir=
timeout=300
keep=0

ibsim_pid=
osm_pid=
sock=
umad2sim=
header='links,seed,engine,status,layers,vls_available,seconds,fabric_sha256,tables_sha256,version,commit,command,date'

stop_all() {
	stop_pid "$osm_pid"
	stop_pid "$ibsim_pid"
	osm_pid='' ibsim_pid=''
}

parse_args() {
	parse_options vlroute ibsim links seeds engines switches hosts degree results workdir \
		timeout -- "$@"
	[[ $links =~ ^[0-9]{1,6}(,[0-9]{1,6})*$ ]] ||
		bad_usage "--links is a comma list of link counts, not '$links'"
	[[ $switches =~ ^[0-9]{1,4}$ && $hosts =~ ^[0-9]{1,3}$ && $degree =~ ^[0-9]{1,4}$ ]] ||
		bad_usage "--switches, --hosts and --degree want numbers"
	[[ $seeds =~ ^([0-9]{1,9})-([0-9]{1,9})$ ]] ||
		bad_usage "--seeds is FIRST-LAST, not '$seeds'"
	[[ $engines =~ ^(weakest|all|lash|dfsssp)(,(weakest|all|lash|dfsssp))*$ ]] ||
		bad_usage "--engines is a comma list of weakest, all, lash and dfsssp, not '$engines'"
	check_timeout_and_workdir
	[[ -z $ibsim ]] || use_ibsim_build "$ibsim" "(see build-ibsim.sh)"
}

# done_row LINKS SEED ENGINE: that row is in the results already.
done_row() {
	grep -q "^$1,$2,$3," "$results"
}

# make_fabric LINKS SEED: writes $net (kept for the OpenSM engines).
make_fabric() {
	net=$workdir/fabrics/l$1-s$2.net
	[[ -f $net ]] && return 0
	mkdir -p "$workdir/fabrics"
	"$vlroute" gen random -n "$switches" -d "$degree" -p "$hosts" -l "$1" --seed "$2" \
		-o "$net" ||
		die "vlroute gen random -l $1 --seed $2 failed"
}

# run_ours LINKS SEED HEURISTIC
run_ours() {
	local out=$workdir/ours status=ok layers t0 t1 hash cmd
	cmd="vlroute route FABRIC --engine dfsssp --heuristic $3 --vls 15 --no-escape"
	rm -rf -- "$out"
	t0=$(date +%s.%N)
	"$vlroute" route "$net" --engine dfsssp --heuristic "$3" --vls 15 --no-escape \
		-o "$out" >"$out.out" 2>&1 || true
	t1=$(date +%s.%N)
	layers=$(sed -n 's/^layers: *\([0-9]*\).*/\1/p' "$out.out")
	hash=$(field "$out.out" table-set\ hash)
	if [[ -z $layers ]]; then
		layers=$(sed -n 's/.*dfsssp needs \([0-9]*\) VLs to be deadlock-free.*/\1/p' "$out.out")
		status=refused hash=
	fi
	[[ -n $layers ]] || die "no layer count from vlroute route (log: $out.out)"
	record "$1" "$2" "$3" "$status" "$layers" 15 "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
		"$fabric_hash" "$hash" "vlroute $version" "$commit" "$cmd" "$(date -u +%FT%TZ)"
	rm -rf -- "$out" "$out.out"
}

# osm_layers LOG ENGINE: sets o_status o_layers o_avail from OpenSM's log.
osm_layers() {
	local log=$1 needed
	o_status=ok o_layers='' o_avail=''
	if [[ $2 == lash ]]; then
		o_avail=$(sed -n 's/.*min operational vl(\([0-9]*\)).*/\1/p' "$log" | tail -n 1)
		o_layers=$(sed -n 's/.*Lanes needed: \([0-9]*\), Balancing.*/\1/p' "$log" | tail -n 1)
		if grep -q 'ERR 4D02: Lane requirements' "$log"; then
			o_status=exceeds o_layers=''
		fi
	else
		o_avail=$(sed -n 's/.*Virtual Lanes available: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
		needed=$(sed -n 's/.*Virtual Lanes needed: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
		o_layers=$needed
		if [[ -n $needed && -n $o_avail ]] && ((needed > o_avail)); then
			o_status=exceeds o_layers=''
		fi
	fi
	if [[ $o_status == ok && -z $o_layers ]]; then
		o_status=failed
	fi
}

# run_opensm LINKS SEED ENGINE
run_opensm() {
	local o=$workdir/osm-$1-$2-$3 flags t0 t1 hash=
	rm -rf -- "$o"
	mkdir -p "$o/dump"
	write_opensm_conf "$o" "routing_engine $3" "max_op_vls 5" "qos TRUE" "sweep_interval 0"
	flags=$(field "$fabric_info" ibsim)
	flags=${flags#needs ibsim }
	[[ $flags == fits* ]] && flags=
	sock=dfsssp-layers-$$-$RANDOM$RANDOM
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	start_ibsim "$net" "$o/ibsim.log" $flags
	launch_opensm "$o" --
	osm_pid=$!
	if ! wait_subnet_up "$o/opensm.log" 1; then
		stop_all
		say "  OpenSM $3 on l$1 s$2: no SUBNET UP; last lines of $o/opensm.log:"
		tail -n 5 "$o/opensm.log" >&2 2>/dev/null || true
		o_status=failed o_layers='' o_avail=''
	else
		stop_all
		osm_layers "$o/opensm.log" "$3"
		[[ -f $o/dump/opensm-lfts.dump ]] &&
			hash=$(sha256sum "$o/dump/opensm-lfts.dump" | cut -d' ' -f1)
	fi
	t1=$(date +%s.%N)
	record "$1" "$2" "$3" "$o_status" "$o_layers" "$o_avail" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" \
		"$fabric_hash" "$hash" "$osm_version" "" \
		"opensm (routing_engine $3, max_op_vls 5, qos TRUE) under ibsim" "$(date -u +%FT%TZ)"
	((keep)) || [[ $o_status == failed ]] || rm -rf -- "$o"
}

# run_point LINKS SEED: every engine not yet recorded for that fabric.
run_point() {
	local engine
	for engine in ${engines//,/ }; do
		done_row "$1" "$2" "$engine" && continue
		if [[ -z $net ]]; then
			make_fabric "$1" "$2"
			fabric_hash=$(sha256sum "$net" | cut -d' ' -f1)
			fabric_info=$net.info
			"$vlroute" info "$net" >"$fabric_info"
		fi
		case $engine in
		weakest | all) run_ours "$1" "$2" "$engine" ;;
		*) run_opensm "$1" "$2" "$engine" ;;
		esac
	done
}

main() {
	local first last seed l net fabric_hash fabric_info
	parse_args "$@"
	check_bench_tools "ibsim-utils, opensm, coreutils, mawk" ibsim opensm sha256sum awk
	prepare_run dfsssp-layers.XXXXXX
	tool_ids
	open_results "$header"
	first=${seeds%-*} last=${seeds#*-}
	say "workdir $workdir; results $results; ibsim $(command -v ibsim)"
	for ((seed = 10#$first; seed <= 10#$last; seed++)); do
		for l in ${links//,/ }; do
			net=
			run_point "$l" "$seed"
			((keep)) || [[ -z $net ]] || rm -f -- "$net" "$net.info"
		done
		say "seed $seed done"
	done
}

# Sourced (by the test of its parsing), it defines its functions only.
[[ ${BASH_SOURCE[0]} != "$0" ]] || main "$@"
