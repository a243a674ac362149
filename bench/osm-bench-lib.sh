# osm-bench-lib.sh - what the OpenSM benchmarks (bench/vl_budget.sh and
# bench/dfsssp_vs_opensm.sh) and the OpenSM experiments
# (experiments/dfsssp-*/) share, sourced by all so that they parse their
# options, check their tools, set up their work directory, start a private
# ibsim and a stock OpenSM, wait for its sweeps, read its log and dumps
# (and find an up*/down* root where updn finds none) and stop only the
# processes they started (by PID) in one way; they also make the
# generated fabrics they share (df:P, ft:K, hx:S:P) and pass ibsim the
# size flags those need.
#
# Sourced, not run.  The sourcing script sets PROG, usage_line (its
# options, for bad usage), no_value (what a missing number prints as),
# vlroute, workdir, timeout, keep and, before start_ibsim, sock (the
# ibsim socket name); it defines stop_all (stop every process it started),
# which cleanup calls on exit, and sets osm_pid and ibsim_pid to the
# processes wait_subnet_up watches.  Its --help is its header comment up to its
# Copyright line.
#
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The variables named above belong to the sourcing script:
# shellcheck shell=bash disable=SC2034,SC2154

die() {
	echo "$PROG: error: $*" >&2
	exit 1
}

bad_usage() {
	echo "$PROG: $*" >&2
	echo "Usage: $PROG $usage_line" >&2
	exit 2
}

say() {
	echo "$PROG: $*" >&2
}

# alive PID: the process exists and is not a zombie waiting to be reaped.
alive() {
	local stat
	[[ -n $1 ]] && stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[[ ${stat%% *} != Z ]]
}

# terminate PID: TERM, KILL after 3 s.  Only ever given our own processes.
terminate() {
	local pid=$1 i
	alive "$pid" || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 30; i++)); do
		alive "$pid" || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}

# stop_pid PID: terminate and reap.  Only ever given our own children.
stop_pid() {
	[[ -n $1 ]] || return 0
	terminate "$1"
	wait "$1" 2>/dev/null || true
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	stop_all
	exit "$rc"
}

# parse_options NAME... -- ARG...: --NAME VALUE and --NAME=VALUE set the
# variable NAME (one of the NAMEs given; dashes in --NAME as underscores),
# --keep sets keep=1, -h and --help print the script's header comment and
# exit; anything else is bad usage.
parse_options() {
	local names=' ' name
	while [[ $1 != -- ]]; do
		names+="$1 "
		shift
	done
	shift
	while (($#)); do
		case $1 in
		--keep) keep=1; shift; continue ;;
		-h | --help) sed -n '2,/^# Copyright/{/^# Copyright/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
		--?*=*) name=${1%%=*} ;;
		--?*) name=$1 ;;
		*) bad_usage "unknown argument '$1'" ;;
		esac
		name=${name#--}
		name=${name//-/_}	# --osm-max-lids sets osm_max_lids
		[[ $names == *" $name "* ]] || bad_usage "unknown argument '$1'"
		if [[ $1 == *=* ]]; then
			printf -v "$name" '%s' "${1#*=}"
			shift
		else
			(($# >= 2)) || bad_usage "$1 needs a value"
			printf -v "$name" '%s' "$2"
			shift 2
		fi
	done
}

# check_timeout_and_workdir: --timeout is a positive number of seconds
# (made decimal), --workdir has no white space.
check_timeout_and_workdir() {
	if ! [[ $timeout =~ ^[0-9]{1,6}$ ]] || ((10#$timeout == 0)); then
		bad_usage "--timeout wants a positive number of seconds, not '$timeout'"
	fi
	timeout=$((10#$timeout))
	[[ $workdir != *[[:space:]]* ]] ||
		bad_usage "--workdir must not contain white space (OpenSM's config cannot hold it)"
}

# use_ibsim_build DIR [HINT]: run the ibsim and libumad2sim.so built in DIR
# (DIR/ibsim/ibsim, DIR/umad2sim/libumad2sim.so) instead of Debian's; HINT
# ends the complaint when they are not there.
use_ibsim_build() {
	[[ -x $1/ibsim/ibsim && -f $1/umad2sim/libumad2sim.so ]] ||
		die "no ibsim/ibsim and umad2sim/libumad2sim.so in '$1'${2:+ $2}"
	ibsim=$(cd -- "$1" && pwd -P)
	PATH=$ibsim/ibsim:$PATH
	export UMAD2SIM=$ibsim/umad2sim/libumad2sim.so
}

# tool_ids: sets version and commit (of $vlroute) and osm_version (OpenSM's,
# and the ibsim binary's hash), for the rows' provenance.
tool_ids() {
	version=$("$vlroute" --version | sed -n '1s/^vlroute //p')
	commit=$("$vlroute" --version | sed -n 's/^commit: *//p')
	osm_version="$(opensm --version 2>/dev/null | grep -m 1 -o 'OpenSM [0-9.]*'); ibsim sha256 $(sha256sum "$(command -v ibsim)" | cut -c1-12)"
}

# open_results HEADER: $results exists with that header line (a new file
# gets it; one with another is refused), so rows can be appended to it.
open_results() {
	mkdir -p "$(dirname "$results")"
	[[ -s $results ]] || echo "$1" >"$results"
	[[ $(head -n 1 "$results") == "$1" ]] || die "$results has another header"
}

# record FIELD...: one CSV row appended to $results (fields with commas or
# quotes quoted).
record() {
	local f line=
	for f; do
		[[ $f == *,* || $f == *\"* ]] && f="\"${f//\"/\"\"}\""
		line+=${line:+,}$f
	done
	echo "$line" >>"$results"
}

# check_bench_tools PACKAGES TOOL...: vlroute, /usr/bin/time and every
# TOOL (from PACKAGES) are there; sets umad2sim to libumad2sim.so.
check_bench_tools() {
	local packages=$1 tool f
	shift
	[[ -x $vlroute && ! -d $vlroute ]] ||
		die "no vlroute at '$vlroute' (build it, or give --vlroute PATH)"
	[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (Debian package time)"
	for tool; do
		command -v "$tool" >/dev/null || die "$tool not found (packages $packages)"
	done
	umad2sim=
	for f in ${UMAD2SIM:-} /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
		/usr/lib/*/umad2sim/libumad2sim.so; do
		if [[ -f $f ]]; then
			umad2sim=$f
			break
		fi
	done
	[[ -n $umad2sim ]] || die "libumad2sim.so not found (package ibsim-utils; or set UMAD2SIM)"
}

# prepare_run TEMPLATE: the work directory (given, or a fresh mktemp -d
# TEMPLATE) and vlroute as absolute paths, cleanup on exit and signals.
prepare_run() {
	if [[ -z $workdir ]]; then
		workdir=$(mktemp -d "${TMPDIR:-/tmp}/$1")
	else
		mkdir -p -- "$workdir"
	fi
	workdir=$(cd -- "$workdir" && pwd -P)
	vlroute=$(cd -- "$(dirname -- "$vlroute")" && pwd -P)/${vlroute##*/}
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}

# field FILE LABEL: what a "LABEL: value" report line says.
field() {
	sed -n "s/^$2: *//p" "$1" | head -n 1
}

# kb_to_mb KB, div A B: MB with one decimal, A/B with two; no_value if an
# operand is missing (or B is zero).
kb_to_mb() {
	awk -v k="${1:-}" -v none="$no_value" \
		'BEGIN { if (k ~ /^[0-9]+$/) printf "%.1f", k / 1024; else print none }'
}
div() {
	awk -v a="$1" -v b="$2" -v none="$no_value" \
		'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b + 0 > 0) printf "%.2f", a / b; else print none }'
}

# gen_fabric_of ITEM: family, label and gen_args (the "vlroute gen"
# arguments) of a generated fabric: df:P (Dragonfly p=P a=2P h=P, P in
# 2..10), ft:K (3-level fat tree, K in 4..64 even) or hx:S:P (3D HyperX
# SxSxS with P hosts per switch, S in 2..16, P in 1..32); fails on
# anything else.
gen_fabric_of() {
	local item=$1 k n p
	if [[ $item =~ ^df:([2-9]|10)$ ]]; then
		p=${BASH_REMATCH[1]}
		family=dragonfly label=df:$p
		gen_args=(dragonfly -p "$p" -a $((2 * p)) -h "$p")
	elif [[ $item =~ ^ft:([0-9]{1,2})$ ]]; then
		k=$((10#${BASH_REMATCH[1]}))
		((k >= 4 && k <= 64 && k % 2 == 0)) || return 1
		family=fattree label=ft:$k
		gen_args=(fattree -k "$k" -n 3)
	elif [[ $item =~ ^hx:([0-9]{1,2}):([0-9]{1,2})$ ]]; then
		n=$((10#${BASH_REMATCH[1]})) p=$((10#${BASH_REMATCH[2]}))
		((n >= 2 && n <= 16 && p >= 1 && p <= 32)) || return 1
		family=hyperx label=hx:$n:$p
		gen_args=(hyperx -s "${n}x${n}x${n}" -p "$p")
	else
		return 1
	fi
}

# ibsim_size_flags INFO: sets ibsim_flags to the size flags ibsim needs
# for a net (-N, -S, -P, -L, -M with their numbers), as "vlroute info"
# (its output in INFO) gives them; empty when the net fits ibsim's
# defaults.  Dies on anything else, so that no guess reaches ibsim.
ibsim_size_flags() {
	local line
	line=$(field "$1" ibsim)
	case $line in
	fits*) line= ;;
	"needs ibsim "*) line=${line#needs ibsim } ;;
	*) die "cannot read ibsim's size flags from vlroute info ($1): '$line'" ;;
	esac
	[[ -z $line || $line =~ ^(-[NSPLM]\ [0-9]+\ ?)+$ ]] ||
		die "unexpected ibsim size flags in $1: '$line'"
	read -ra ibsim_flags <<<"$line"
}

# ibsim_ready LOG SOCK: ibsim prints "Network simulator ready." just before
# it binds its sockets: ready is that line plus the abstract ctl socket in
# /proc/net/unix.
ibsim_ready() {
	grep -q '^Network simulator ready\.' "$1" 2>/dev/null || return 1
	if [[ ! -r /proc/net/unix ]]; then
		sleep 0.5
		return 0
	fi
	grep -qF -- "@$2:ctl@" /proc/net/unix
}

# start_ibsim NET LOG [FLAG...]: a private ibsim on socket $sock serving
# NET (with ibsim's size FLAGs), its output in LOG; sets ibsim_pid once it
# is ready, dies if it exits first or is not ready within $timeout s.
start_ibsim() {
	local net=$1 log=$2 deadline
	shift 2
	IBSIM_SOCKNAME=$sock ibsim -n -s "$@" "$net" </dev/null >"$log" 2>&1 &
	ibsim_pid=$!
	deadline=$((SECONDS + timeout))
	until ibsim_ready "$log" "$sock"; do
		alive "$ibsim_pid" || {
			wait "$ibsim_pid" 2>/dev/null || true
			ibsim_pid=
			{ grep -v 'cannot parse remote lid' "$log" || true; } | tail -n 5 >&2
			die "ibsim refused $net (log: $log)"
		}
		((SECONDS < deadline)) || die "ibsim not ready after $timeout s (log: $log)"
		sleep 0.1
	done
}

# write_opensm_conf O LINE...: O/opensm.conf with the LINEs, everything
# else in O, so that the run does not depend on /etc/opensm.
write_opensm_conf() {
	local o=$1 line
	shift
	{
		echo "# Written by $PROG: this run must not depend on /etc/opensm."
		for line; do
			echo "$line"
		done
		cat <<EOF
force_log_flush TRUE
log_file $o/opensm.log
accum_log_file FALSE
dump_files_dir $o/dump/
partition_config_file $o/partitions.conf
qos_policy_file $o/qos-policy.conf
prefix_routes_file $o/prefix-routes.conf
per_module_logging_file $o/per-module-logging.conf
torus_config $o/torus-2QoS.conf
console off
daemon FALSE
EOF
	} >"$o/opensm.conf"
}

# launch_opensm O [WRAPPER...] -- [OPENSM_ARG...]: in the background, a
# stock OpenSM with O/opensm.conf, -D 0x43 and the OPENSM_ARGs, served by
# the private ibsim $sock through libumad2sim.so, run by WRAPPER (such as
# /usr/bin/time) if any; its output in O/opensm.out, its cache and
# temporary files in O.  $! is the PID of WRAPPER or else of OpenSM.
launch_opensm() {
	local o=$1 wrapper=()
	shift
	while [[ $1 != -- ]]; do
		wrapper+=("$1")
		shift
	done
	shift
	# umad2sim makes its fake sysfs in the current directory: run in O.
	(cd "$o" && exec env IBSIM_SOCKNAME="$sock" OSM_TMP_DIR="$o" OSM_CACHE_DIR="$o" \
		"${wrapper[@]}" env LD_PRELOAD="$umad2sim" opensm "$@" -F "$o/opensm.conf" \
		-D 0x43 -f "$o/opensm.log") </dev/null >"$o/opensm.out" 2>&1 &
}

# osm_log_span LOG FORMAT RULES: the seconds (printf FORMAT) from start to
# end, which the awk RULES set (with have_end) from OpenSM's log by
# stamp(), the time of the current line ("Mon DD HH:MM:SS usec"); no_value
# without an end.
osm_log_span() {
	awk -v format="$2" -v none="$no_value" '
	function stamp(   m, cum) {
		split("0 31 59 90 120 151 181 212 243 273 304 334", cum, " ")
		m = (index("JanFebMarAprMayJunJulAugSepOctNovDec", $1) + 2) / 3
		split($3, hms, ":")
		return (cum[m] + $2) * 86400 + hms[1] * 3600 + hms[2] * 60 + hms[3] + $4 / 1e6
	}
	'"$3"'
	END {
		if (!have_end) { print none; exit }
		d = end - start
		if (d < 0) d += 365 * 86400	# across New Year
		printf format, d
	}' "$1"
}

# wait_subnet_up LOG K: 0 once LOG has K lines "SUBNET UP", 1 after
# $timeout s or when ibsim ($ibsim_pid) or opensm ($osm_pid) is gone.
wait_subnet_up() {
	local deadline=$((SECONDS + timeout)) ups
	while :; do
		ups=$(grep -c 'SUBNET UP' "$1" 2>/dev/null) || ups=0
		((ups >= $2)) && return 0
		alive "$osm_pid" && alive "$ibsim_pid" || return 1
		((SECONDS < deadline)) || return 1
		sleep 0.2
	done
}

# center_switch NET: the switch of least eccentricity in the switch graph
# of an ibsim net file (the first in the file on a tie).
center_switch() {
	awk '
	/^Switch/ { match($0, /"[^"]*"/); cur = substr($0, RSTART + 1, RLENGTH - 2)
		sw[cur] = 1; order[++n] = cur; next }
	/^[A-Za-z]/ { cur = ""; next }
	cur != "" && /^\[/ { match($0, /"[^"]*"/); peer[cur, ++deg[cur]] = substr($0, RSTART + 1, RLENGTH - 2) }
	END {
		best = -1
		for (i = 1; i <= n; i++) {
			split("", dist); s = order[i]; dist[s] = 0; q[1] = s; h = 1; t = 1; ecc = 0
			while (h <= t) {
				u = q[h++]
				for (k = 1; k <= deg[u]; k++) {
					v = peer[u, k]
					if ((v in sw) && !(v in dist)) {
						dist[v] = dist[u] + 1; q[++t] = v
						if (dist[v] > ecc) ecc = dist[v]
					}
				}
			}
			if (best < 0 || ecc < best) { best = ecc; root = s }
		}
		print root
	}' "$1"
}

# node_guid DUMPDIR NAME: the NodeGUID of switch NAME in opensm-subnet.lst.
node_guid() {
	sed -n 's/^{ SW[^}]*NodeGUID:\([0-9A-Fa-f]*\)[^}]*{\([^}]*\)}.*/0x\1 \2/p' \
		"$1/opensm-subnet.lst" | awk -v name="$2" '$2 == name { print $1; exit }'
}
