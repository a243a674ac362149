#!/usr/bin/env bash
# ibsim-bringup.sh - bring an ibsim net file up under a stock OpenSM and prove it.
#
# Starts the fabric in a private ibsim, lets a stock OpenSM (through
# libumad2sim.so) route it once with minhop, then reads it back with
# ibnetdiscover and checks with "vlroute info" that the switches, channel
# adapters and links seen equal those of the net file.  Used by the test
# suite ("make check": exit 77 means skip) and by "./run.sh demo".
#
# With --console-cmd or --client-cmd the run is a scenario instead: OpenSM
# keeps running; ibsim's console reads a FIFO, and after each console
# command a forced heavy sweep (SIGHUP) must bring the subnet up again; the
# dumps of every sweep are kept in WORKDIR/sweep-N, and the client commands
# run against the live subnet after each sweep (no ibnetdiscover check then).
#
# Usage: ibsim-bringup.sh [--vlroute PATH] [--workdir DIR] [--timeout SECONDS] NETFILE
#
# Exit status: 0 the fabric came up as the net file says; 1 failure (with the
# tail of the relevant logs; the work directory is kept); 2 bad usage; 77 skip
# (ibsim, opensm, ibnetdiscover or libumad2sim.so missing).
#
# Only processes this script started are ever stopped, by their PIDs.
#
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause

set -euo pipefail

PROG=${0##*/}
PATH=${PATH:+$PATH:}/usr/sbin:/sbin	# opensm and ibnetdiscover live in sbin

vlroute=${VLROUTE:-}
conf_lines=()		# --opensm-conf: extra opensm.conf lines
opensm_args=()		# --opensm-arg: extra opensm arguments
seed_guid2lid=		# --guid2lid: OpenSM's LID cache to start from
console_cmds=()		# --console-cmd: ibsim console commands, one per resweep
client_cmds=()		# --client-cmd: commands run against the subnet after each sweep
opensm_preload=()	# --preload: libraries preloaded into OpenSM before umad2sim
workdir=
timeout=300
netfile=

made_workdir=0		# 1: ours, from mktemp, removed on success
ibsim_pid=
client_pid=		# the running opensm or ibnetdiscover
helper_pid=		# a --client-cmd running beside OpenSM
umad2sim=
sockname=
console_fd=		# our writer on ibsim's console FIFO (console mode)

usage() {
	cat <<EOF
Usage: $PROG [--vlroute PATH] [--workdir DIR] [--timeout SECONDS]
       [--opensm-conf LINE]... [--opensm-arg ARG]... [--guid2lid FILE]
       [--preload LIB]... [--console-cmd CMD]... [--client-cmd CMD]... NETFILE

Bring NETFILE (an ibsim net file) up in a private ibsim, route it once with a
stock OpenSM (minhop unless told otherwise) and check with ibnetdiscover and
"vlroute info" that the whole fabric is there. OpenSM's dumps, log and cache
(opensm-cache/guid2lid) stay in the work directory.

  --vlroute PATH     the vlroute CLI (default: \$VLROUTE, else vlroute on PATH)
  --workdir DIR      keep logs and outputs in DIR (default: a fresh mktemp -d,
                     removed unless the run fails)
  --timeout SECONDS  bound on each wait (default: 300)
  --opensm-conf LINE add LINE to opensm.conf, e.g. "routing_engine file"
  --opensm-arg ARG   pass ARG to opensm, e.g. -D then 0x41 for table dumps
  --guid2lid FILE    start OpenSM from this LID cache, so it keeps its LIDs
  --preload LIB      preload LIB into OpenSM (before libumad2sim.so), e.g. the
                     libasan of a sanitizer-built plugin
  --console-cmd CMD  fault scenario: keep OpenSM running; after its first
                     SUBNET UP, and again after each CMD (an ibsim console
                     command such as 'Unlink "sw1"[3]') followed by SIGHUP,
                     wait for SUBNET UP and copy the dumps to WORKDIR/sweep-N
  --client-cmd CMD   keep OpenSM running likewise; after each sweep run the
                     shell command CMD as an ibsim client (in WORKDIR, with
                     SWEEP_DIR=WORKDIR/sweep-N; output in sweep-N/client.out
                     and client.err); it must succeed

Exit status: 0 success, 1 failure, 2 bad usage, 77 skip (tools missing).
Environment: VLROUTE, UMAD2SIM (path of libumad2sim.so).
EOF
}

bad_usage() {
	echo "$PROG: $*" >&2
	echo "Try '$PROG --help'." >&2
	exit 2
}

skip() {
	echo "$PROG: SKIP: $*" >&2
	exit 77
}

say() {
	echo "$PROG: $*"
}

# squeeze_repeats: fold runs of lines that differ only in OpenSM's timestamp
# (a stopped OpenSM can log thousands of identical errors).
squeeze_repeats() {
	awk '
	function flush() {
		if (n > 1)
			print "    (and " n - 1 " more times)"
	}
	{
		key = $0
		sub(/^[A-Z][a-z][a-z] +[0-9]+ [0-9:]+ [0-9]+ \[[0-9A-Fa-f]+\] /, "", key)
		if (NR > 1 && key == prev) {
			n++
			next
		}
		flush()
		print
		prev = key
		n = 1
	}
	END { flush() }'
}

# Print the last lines of a log, without ibsim's per-port parse chatter
# (vlroute's net files give no remote LIDs; ibsim warns for every port).
show_tail() {
	local log=$1
	[[ -s $log ]] || return 0
	echo "--- last lines of $log:" >&2
	grep -v 'cannot parse remote lid and connection type' "$log" |
		squeeze_repeats | tail -n 15 >&2 || true
}

# fail MESSAGE [LOG...]: report, show the logs' tails and exit 1.
fail() {
	local msg=$1 log
	shift
	echo "$PROG: FAIL: $msg" >&2
	for log in "$@"; do
		show_tail "$log"
	done
	exit 1
}

now() {
	if [[ -n ${EPOCHREALTIME:-} ]]; then
		printf '%s\n' "${EPOCHREALTIME/,/.}"
	else
		date +%s.%N
	fi
}

# seconds_since START: elapsed seconds, one decimal.
seconds_since() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

alive() {
	[[ -n $1 ]] && kill -0 "$1" 2>/dev/null
}

# stop_pid PID: TERM, then KILL after 3 s (OpenSM in the middle of a sweep
# may not heed TERM), and reap.  Only ever given our own children.
stop_pid() {
	local pid=$1 i
	alive "$pid" || { wait "$pid" 2>/dev/null || true; return 0; }
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 30; i++)); do
		alive "$pid" || break
		sleep 0.1
	done
	if alive "$pid"; then
		kill -KILL "$pid" 2>/dev/null || true
	fi
	wait "$pid" 2>/dev/null || true
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP PIPE
	if [[ -n $helper_pid ]]; then
		stop_pid "$helper_pid"
		helper_pid=
	fi
	if [[ -n $client_pid ]]; then
		stop_pid "$client_pid"
		client_pid=
	fi
	if [[ -n $ibsim_pid ]]; then
		stop_pid "$ibsim_pid"
		ibsim_pid=
	fi
	if [[ -n $console_fd ]]; then
		exec {console_fd}>&-
		console_fd=
	fi
	if [[ -n $workdir && -d $workdir ]]; then
		if ((rc == 0 && made_workdir)); then
			rm -rf -- "$workdir"
		elif ((rc != 0)); then
			echo "$PROG: work directory kept: $workdir" >&2
		fi
	fi
	exit "$rc"
}

parse_args() {
	while (($#)); do
		case $1 in
		--vlroute) (($# >= 2)) || bad_usage "$1 needs a value"
			vlroute=$2; shift 2 ;;
		--vlroute=*) vlroute=${1#*=}; shift ;;
		--workdir) (($# >= 2)) || bad_usage "$1 needs a value"
			workdir=$2; shift 2 ;;
		--workdir=*) workdir=${1#*=}; shift ;;
		--timeout) (($# >= 2)) || bad_usage "$1 needs a value"
			timeout=$2; shift 2 ;;
		--timeout=*) timeout=${1#*=}; shift ;;
		--opensm-conf) (($# >= 2)) || bad_usage "$1 needs a value"
			conf_lines+=("$2"); shift 2 ;;
		--opensm-arg) (($# >= 2)) || bad_usage "$1 needs a value"
			opensm_args+=("$2"); shift 2 ;;
		--guid2lid) (($# >= 2)) || bad_usage "$1 needs a value"
			seed_guid2lid=$2; shift 2 ;;
		--preload) (($# >= 2)) || bad_usage "$1 needs a value"
			opensm_preload+=("$2"); shift 2 ;;
		--console-cmd) (($# >= 2)) || bad_usage "$1 needs a value"
			console_cmds+=("$2"); shift 2 ;;
		--client-cmd) (($# >= 2)) || bad_usage "$1 needs a value"
			client_cmds+=("$2"); shift 2 ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-?*) bad_usage "unknown option '$1'" ;;
		*) break ;;
		esac
	done
	(($# == 1)) || bad_usage "expected one NETFILE, got $#"
	netfile=$1
	if ! [[ $timeout =~ ^[0-9]{1,6}$ ]] || ((10#$timeout == 0)); then
		bad_usage "--timeout wants a positive number of seconds, not '$timeout'"
	fi
	timeout=$((10#$timeout))
	[[ $workdir != *[[:space:]]* ]] ||
		bad_usage "--workdir must not contain white space (OpenSM's config cannot hold it)"
}

find_umad2sim() {
	local f
	if [[ -n ${UMAD2SIM:-} ]]; then
		[[ -f $UMAD2SIM ]] || skip "UMAD2SIM=$UMAD2SIM does not exist"
		umad2sim=$UMAD2SIM
		return
	fi
	for f in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
		/usr/lib/*/umad2sim/libumad2sim.so; do
		if [[ -f $f ]]; then
			umad2sim=$f
			return
		fi
	done
	skip "libumad2sim.so not found (ibsim-utils; or set UMAD2SIM)"
}

check_tools() {
	local tool
	for tool in ibsim opensm ibnetdiscover; do
		command -v "$tool" >/dev/null ||
			skip "$tool not found (packages ibsim-utils, opensm, infiniband-diags)"
	done
	find_umad2sim
	[[ -n $vlroute ]] || vlroute=$(command -v vlroute || true)
	[[ -n $vlroute ]] || bad_usage "no vlroute: give --vlroute PATH or set VLROUTE"
	[[ -x $vlroute ]] || bad_usage "vlroute '$vlroute' is not an executable file"
}

make_workdir() {
	if [[ -z $workdir ]]; then
		workdir=$(mktemp -d "${TMPDIR:-/tmp}/ibsim-bringup.XXXXXX")
		made_workdir=1
	else
		mkdir -p -- "$workdir"
	fi
	workdir=$(cd -- "$workdir" && pwd -P)
	# A reused directory must not hand us an old "SUBNET UP" or cache.
	# (sys-PID: the fake sysfs of a umad2sim client that was killed.)
	(cd "$workdir" && rm -rf -- ibsim.log opensm.log opensm.out opensm.err \
		opensm-cache opensm-subnet.lst ibnetdiscover.out ibnetdiscover.err \
		./*.info ./*.info.err ./sys-[0-9]* ./*.dump ibsim.console sweep-[0-9]*)
}

# info_value INFOFILE LABEL: what "vlroute info" printed after "LABEL:".
info_value() {
	sed -n "s/^$2: *//p" "$1" | head -n 1
}

# fabric_info FILE OUT: run "vlroute info FILE" into OUT, or fail.
fabric_info() {
	"$vlroute" info "$1" >"$2" 2>"$2.err" ||
		fail "$vlroute info $1 failed" "$2.err"
}

# read_size_flags: ibsim's size flags for NETFILE into ibsim_flags (none if
# its defaults fit), from the "ibsim:" line of "vlroute info".
ibsim_flags=()
read_size_flags() {
	local line flags
	line=$(info_value "$workdir/netfile.info" ibsim)
	case $line in
	fits*) flags= ;;
	"needs ibsim "*) flags=${line#needs ibsim } ;;
	*) fail "cannot read ibsim's sizes from vlroute info: '$line'" ;;
	esac
	[[ -z $flags || $flags =~ ^(-[NSPLM]\ [0-9]+\ ?)+$ ]] ||
		fail "unexpected ibsim size flags from vlroute info: '$flags'"
	read -r -a ibsim_flags <<<"$flags"
}

# ibsim prints "Network simulator ready." just before it binds its sockets,
# so readiness is that line and the bound ctl socket itself.  The socket is
# abstract: /proc/net/unix shows it as "@NAME:ctl" plus an "@" per NUL byte.
ibsim_ready() {
	grep -q '^Network simulator ready\.' "$workdir/ibsim.log" || return 1
	if [[ ! -r /proc/net/unix ]]; then
		sleep 0.5	# no way to see the socket: give ibsim a moment
		return 0
	fi
	awk -v s="@$sockname:ctl" '
		substr($NF, 1, length(s)) == s &&
		substr($NF, length(s) + 1) ~ /^@*$/ { found = 1; exit }
		END { exit !found }' /proc/net/unix
}

start_ibsim() {
	local t0
	read_size_flags
	sockname=vlroute-bringup-$$-$RANDOM$RANDOM
	t0=$(now)
	# Run where we were started, so that relative includes mean what they
	# would to a user running ibsim by hand.
	if ((${#console_cmds[@]})); then
		# The console reads a FIFO; our writer stays open, so ibsim never
		# sees end of file (it would spin) and takes commands any time.
		mkfifo "$workdir/ibsim.console"
		exec {console_fd}<>"$workdir/ibsim.console"
		IBSIM_SOCKNAME=$sockname ibsim -s ${ibsim_flags[@]+"${ibsim_flags[@]}"} \
			"$netfile" <"$workdir/ibsim.console" {console_fd}>&- \
			>"$workdir/ibsim.log" 2>&1 &
	else
		IBSIM_SOCKNAME=$sockname ibsim -n -s ${ibsim_flags[@]+"${ibsim_flags[@]}"} \
			"$netfile" </dev/null >"$workdir/ibsim.log" 2>&1 &
	fi
	ibsim_pid=$!
	local deadline=$((SECONDS + timeout))
	until ibsim_ready; do
		alive "$ibsim_pid" || {
			wait "$ibsim_pid" 2>/dev/null || true
			ibsim_pid=
			fail "ibsim refused $netfile" "$workdir/ibsim.log"
		}
		((SECONDS < deadline)) ||
			fail "ibsim not ready after ${timeout} s" "$workdir/ibsim.log"
		sleep 0.1
	done
	say "ibsim ready in $(seconds_since "$t0") s" \
		"(${ibsim_flags[*]:-default sizes}; IBSIM_SOCKNAME=$sockname)"
}

# start_client OUT ERR CMD...: start CMD as an ibsim client, in the work
# directory (umad2sim makes its fake sysfs "sys-PID" in the current one).
# client_preload, if set, goes before libumad2sim.so in LD_PRELOAD.
client_preload=
start_client() {
	local out=$1 err=$2
	shift 2
	(cd "$workdir" &&
		if [[ -n $console_fd ]]; then exec {console_fd}>&-; fi &&
		exec env LD_PRELOAD="${client_preload:+$client_preload }$umad2sim" \
			IBSIM_SOCKNAME="$sockname" \
			OSM_TMP_DIR="$workdir" OSM_CACHE_DIR="$workdir/opensm-cache" \
			"$@") </dev/null >"$out" 2>"$err" &
	client_pid=$!
}

# wait_client NAME LOG...: wait for the client to exit, within the timeout and
# while ibsim lives; its exit status is left in client_rc.
client_rc=
wait_client() {
	local name=$1
	shift
	local deadline=$((SECONDS + timeout))
	while alive "$client_pid"; do
		alive "$ibsim_pid" ||
			fail "ibsim died while $name ran" "$workdir/ibsim.log" "$@"
		if ((SECONDS >= deadline)); then
			stop_pid "$client_pid"
			client_pid=
			fail "$name did not finish within ${timeout} s (stopped it)" "$@"
		fi
		sleep 0.05
	done
	client_rc=0
	wait "$client_pid" || client_rc=$?
	client_pid=
}

write_opensm_conf() {
	cat >"$workdir/opensm.conf" <<EOF
# Written by $PROG: this run must not depend on /etc/opensm.
routing_engine minhop
log_file $workdir/opensm.log
accum_log_file FALSE
dump_files_dir $workdir
partition_config_file $workdir/partitions.conf
qos_policy_file $workdir/qos-policy.conf
prefix_routes_file $workdir/prefix-routes.conf
per_module_logging_file $workdir/per-module-logging.conf
torus_config $workdir/torus-2QoS.conf
console off
daemon FALSE
EOF
	if keep_sm_running; then
		# A running OpenSM buffers its log; we watch it for SUBNET UP.
		echo "force_log_flush TRUE" >>"$workdir/opensm.conf"
	fi
	if ((${#conf_lines[@]})); then
		printf '%s\n' "# From --opensm-conf:" "${conf_lines[@]}" >>"$workdir/opensm.conf"
	fi
}

# The routing engine the config file ends up naming (its last word wins).
configured_engine() {
	sed -n 's/^routing_engine  *//p' "$workdir/opensm.conf" | tail -n 1
}

# start_opensm [ARG...]: config, LID cache and OpenSM started as a client.
start_opensm() {
	write_opensm_conf
	mkdir -p "$workdir/opensm-cache"
	if [[ -n $seed_guid2lid ]]; then
		cp -- "$seed_guid2lid" "$workdir/opensm-cache/guid2lid" ||
			fail "cannot copy the guid2lid file '$seed_guid2lid'"
	fi
	client_preload=${opensm_preload[*]+"${opensm_preload[*]}"}
	start_client "$workdir/opensm.out" "$workdir/opensm.err" \
		opensm "$@" -F "$workdir/opensm.conf" -f "$workdir/opensm.log" \
		${opensm_args[@]+"${opensm_args[@]}"}
	client_preload=
}

opensm_seconds=
run_opensm() {
	local t0
	t0=$(now)
	start_opensm -o
	wait_client opensm "$workdir/opensm.log" "$workdir/opensm.err"
	opensm_seconds=$(seconds_since "$t0")
	grep -q 'SUBNET UP' "$workdir/opensm.log" 2>/dev/null ||
		fail "opensm exited (status $client_rc) without SUBNET UP" \
			"$workdir/opensm.log" "$workdir/opensm.err"
	say "opensm: SUBNET UP in $opensm_seconds s ($(configured_engine))"
}

# keep_sm_running: a scenario (--console-cmd, --client-cmd), not a one-shot.
keep_sm_running() {
	((${#console_cmds[@]} + ${#client_cmds[@]} > 0))
}

# run_client_cmds N: the --client-cmd commands after sweep N, each as an
# ibsim client beside the running OpenSM, within the timeout.
run_client_cmds() {
	local dir=$workdir/sweep-$1 cmd status deadline
	for cmd in ${client_cmds[@]+"${client_cmds[@]}"}; do
		(cd "$workdir" &&
			if [[ -n $console_fd ]]; then exec {console_fd}>&-; fi &&
			exec env LD_PRELOAD="${opensm_preload[*]+${opensm_preload[*]} }$umad2sim" \
				IBSIM_SOCKNAME="$sockname" SWEEP_DIR="$dir" bash -c "$cmd") \
			</dev/null >>"$dir/client.out" 2>>"$dir/client.err" &
		helper_pid=$!
		deadline=$((SECONDS + timeout))
		while alive "$helper_pid"; do
			if ((SECONDS >= deadline)); then
				stop_pid "$helper_pid"
				helper_pid=
				fail "'$cmd' did not finish within ${timeout} s (sweep $1)" \
					"$dir/client.err"
			fi
			sleep 0.05
		done
		status=0
		wait "$helper_pid" || status=$?
		helper_pid=
		((status == 0)) || fail "'$cmd' failed with status $status after sweep $1" \
			"$dir/client.out" "$dir/client.err"
		say "after sweep $1: $cmd"
	done
}

# subnet_ups: how many times OpenSM has logged SUBNET UP so far.
subnet_ups() {
	local n
	n=$(grep -c 'SUBNET UP' "$workdir/opensm.log" 2>/dev/null) || true
	echo "${n:-0}"
}

# wait_sweep NAME BEFORE: wait until OpenSM has logged more than BEFORE
# SUBNET UPs, then until its log has been quiet for 2 s (a trap and our
# SIGHUP can cause two sweeps in a row; the dumps must be from the last).
wait_sweep() {
	local name=$1 before=$2 size last_size= quiet=0
	local deadline=$((SECONDS + timeout))
	while (($(subnet_ups) <= before)); do
		alive "$client_pid" || fail "opensm exited before SUBNET UP ($name)" \
			"$workdir/opensm.log" "$workdir/opensm.err"
		alive "$ibsim_pid" || fail "ibsim died ($name)" "$workdir/ibsim.log"
		((SECONDS < deadline)) || fail "no SUBNET UP within ${timeout} s ($name)" \
			"$workdir/opensm.log" "$workdir/opensm.err"
		sleep 0.1
	done
	while ((quiet < 20)); do
		size=$(wc -c <"$workdir/opensm.log")
		if [[ $size == "$last_size" ]]; then
			quiet=$((quiet + 1))
		else
			quiet=0
			last_size=$size
		fi
		((SECONDS < deadline)) || fail "OpenSM never settled ($name)" \
			"$workdir/opensm.log"
		sleep 0.1
	done
}

# snapshot N: copy the dumps of the last sweep to WORKDIR/sweep-N.
snapshot() {
	local dir=$workdir/sweep-$1 f
	mkdir -p "$dir"
	for f in opensm-lfts.dump opensm-sl2vl.dump opensm-subnet.lst \
		vlroute-path-sl.dump vlroute-valiant.dump; do
		if [[ -f $workdir/$f ]]; then
			cp -- "$workdir/$f" "$dir/" || fail "cannot copy $f to $dir"
		fi
	done
}

# Scenario: OpenSM runs as a daemon; one forced sweep per console command,
# the client commands after every sweep.
run_opensm_faults() {
	local t0 i before cmd
	t0=$(now)
	start_opensm
	wait_sweep "first sweep" 0
	opensm_seconds=$(seconds_since "$t0")
	snapshot 1
	say "opensm: SUBNET UP in $opensm_seconds s ($(configured_engine)); dumps in sweep-1"
	run_client_cmds 1
	for ((i = 0; i < ${#console_cmds[@]}; i++)); do
		cmd=${console_cmds[i]}
		before=$(subnet_ups)
		printf '%s\n' "$cmd" >&"$console_fd" ||
			fail "cannot write to ibsim's console"
		sleep 0.5	# let ibsim act before the sweep looks
		kill -HUP "$client_pid" 2>/dev/null ||
			fail "opensm is gone before '$cmd'" "$workdir/opensm.log"
		t0=$(now)
		wait_sweep "after '$cmd'" "$before"
		snapshot $((i + 2))
		say "ibsim console: $cmd; SUBNET UP again in $(seconds_since "$t0") s;" \
			"dumps in sweep-$((i + 2))"
		run_client_cmds $((i + 2))
	done
	stop_pid "$client_pid"
	client_pid=
}

run_ibnetdiscover() {
	local t0 out=$workdir/ibnetdiscover.out
	t0=$(now)
	start_client "$out" "$workdir/ibnetdiscover.err" ibnetdiscover
	wait_client ibnetdiscover "$workdir/ibnetdiscover.err"
	((client_rc == 0)) ||
		fail "ibnetdiscover exited with status $client_rc" "$workdir/ibnetdiscover.err"
	say "ibnetdiscover: $(seconds_since "$t0") s, $(wc -l <"$out") lines"
}

# compare_counts: the switches, channel adapters and links lines must agree.
compare_counts() {
	local label want got bad=0
	fabric_info "$workdir/ibnetdiscover.out" "$workdir/ibnetdiscover.info"
	for label in switches "channel adapters" links; do
		want=$(info_value "$workdir/netfile.info" "$label")
		got=$(info_value "$workdir/ibnetdiscover.info" "$label")
		if [[ -z $want || $want != "$got" ]]; then
			echo "$PROG: $label: net file '$want', ibnetdiscover '$got'" >&2
			bad=1
		fi
	done
	((bad == 0)) || fail "ibnetdiscover does not see the fabric of $netfile" \
		"$workdir/ibnetdiscover.info"
}

verdict() {
	local sw ca ln
	sw=$(info_value "$workdir/ibnetdiscover.info" switches)
	ca=$(info_value "$workdir/ibnetdiscover.info" "channel adapters")
	ln=$(info_value "$workdir/ibnetdiscover.info" links)
	echo "${netfile##*/}: SUBNET UP in $opensm_seconds s; ibnetdiscover sees" \
		"${sw%% *} switches, ${ca%% *} CAs, ${ln%% *} links (as the net file)"
}

main() {
	parse_args "$@"
	[[ -f $netfile && -r $netfile ]] || {
		echo "$PROG: FAIL: no readable net file '$netfile'" >&2
		exit 1
	}
	check_tools
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	trap 'exit 141' PIPE	# e.g. piped into head: still stop ibsim and OpenSM
	make_workdir
	fabric_info "$netfile" "$workdir/netfile.info"
	start_ibsim
	if keep_sm_running; then
		run_opensm_faults
		stop_pid "$ibsim_pid"
		ibsim_pid=
		echo "${netfile##*/}: SUBNET UP after each of ${#console_cmds[@]} console" \
			"command(s) (no ibnetdiscover check in this mode)"
		return 0
	fi
	run_opensm
	run_ibnetdiscover
	compare_counts
	stop_pid "$ibsim_pid"
	ibsim_pid=
	verdict
}

# Sourced (as capture.test does), it only defines its functions.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	main "$@"
fi
