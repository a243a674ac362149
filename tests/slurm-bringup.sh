# slurm-bringup.sh - a real single-node Slurm for the test suite (sourced
# by bash, not run): Debian's munged, slurmctld and slurmd started on this
# host by the test itself, with a private configuration, private state,
# private ports, and stopped again by their PIDs.
#
#   . tests/slurm-bringup.sh
#   trap 'slurm_down' EXIT       # or from the caller's own EXIT handler
#   slurm_up "$scratch/cluster"  # exits 77 (skip) or 1 (fail) by itself
#   sbatch --parsable --array=0-3 job.sh ...
#   slurm_down                   # "slurm_down keep" keeps the directory
#
# slurm_up must run in the caller's shell, not in $(...) or a pipeline: the
# daemons are that shell's children, so it can wait for them and reap them.
# After it, SLURM_CONF is exported (every Slurm command, and every job,
# reads this cluster's slurm.conf), the SLURM_*, SBATCH_* etc. variables
# the caller inherited (say, make check run inside a Slurm job) are unset,
# and these are set: slurm_dir, slurm_conf, slurm_node, slurm_partition,
# slurm_jobcomp (finished jobs, one line each), slurm_ctld_port,
# slurm_d_port, slurm_pids (munged, slurmctld, slurmd; until slurm_down),
# slurm_up_seconds.
#
# The directory (0755: munged wants every directory above its socket
# searchable by all, so the directories above DIR must be too - slurm_up
# checks, and a caller's mktemp -d scratch needs a chmod 0755; the key
# stays 0600):
#   slurm.conf plugstack.conf
#   munge/   munge.key munge.socket munged.pid munged.seed munged.log
#   state/   slurmctld's StateSaveLocation     spool/ slurmd's SlurmdSpoolDir
#   run/     slurmctld.pid slurmd.pid
#   log/     slurmctld.log slurmd.log (and their stderr) jobcomp.txt
#
# munged: -F (foreground, so $! is its PID) --socket, --key-file (a fresh
# key from mungekey), --pid-file, --seed-file, all in munge/; in the
# foreground it logs to stderr, which goes to munge/munged.log. Ready when
# "munge -n | unmunge" through the socket succeeds.
#
# slurm.conf, setting by setting:
#   ClusterName=vlroute        slurmctld records it in its state directory
#   SlurmctldHost=NODE(127.0.0.1), NodeAddr=127.0.0.1
#                              this host is controller and node; the
#                              addresses spare us any name resolution
#   SlurmctldPort, SlurmdPort  two free ports picked at random in
#                              20000-32767 (below Linux's ephemeral range),
#                              not listening in /proc/net/tcp{,6}; if a
#                              daemon still finds its port taken (another
#                              test got there first) we pick again, 3 tries
#   SlurmUser, SlurmdUser      whoever runs the test: root here, but a
#                              normal user works too (jobs then run as that
#                              user, the only one this cluster serves)
#   AuthType=auth/munge, CredType=cred/munge, AuthInfo=socket=PATH
#                              authenticate through our munged, not a
#                              system one at /run/munge
#   StateSaveLocation, SlurmdSpoolDir, Slurm{ctld,d}PidFile,
#   Slurm{ctld,d}LogFile       all private, nothing under /var or /run
#   PlugStackConfig            an empty private file: no SPANK plugin of
#                              the host's /etc/slurm/plugstack.conf
#   ProctrackType=proctrack/linuxproc, TaskPlugin=task/none,
#   JobAcctGatherType=jobacct_gather/none
#                              track job processes by parent PID, no CPU
#                              binding, no sampling: no cgroups needed
#                              (containers and gVisor have none to give)
#   AccountingStorageType=accounting_storage/none
#                              no slurmdbd, so sacct has nothing to say
#   JobCompType=jobcomp/filetxt, JobCompLoc=log/jobcomp.txt
#                              instead, one line per finished job or array
#                              task: JobId, ArrayJobId, ArrayTaskId,
#                              JobState, ExitCode
#   MinJobAge=300              finished jobs stay visible to scontrol show
#                              job for 300 s (Slurm's default, said aloud)
#   SelectType=select/cons_tres, SelectTypeParameters=CR_Core
#                              one core per task, so array tasks share the
#                              node; memory is not a consumable, so jobs
#                              need no --mem
#   SchedulerParameters=batch_sched_delay=0
#                              start batch jobs as soon as they can run,
#                              not up to 3 s later (Slurm's default, which
#                              spares a busy controller): same semantics,
#                              a shorter test
#   ReturnToService=2          the node is usable as soon as slurmd
#                              registers, whatever state it had
#   MpiDefault=none            batch scripts, no MPI launch
#   MailProg=true              Debian has no /usr/bin/mail by default, and
#                              slurmctld complains of a missing one
#   NodeName=...               the first line of "slurmd -C" (this host's
#                              short name, CPUs, sockets, cores, threads,
#                              RealMemory as slurmd will register them, so
#                              the node is not drained for "low" resources)
#   PartitionName=vlroute      the one partition, default, no time limit
# slurmctld -D -f CONF and slurmd -D -N NODE -f CONF run in the foreground
# so that $! is their PID. Ready when "sinfo" shows the node idle, within
# SLURM_UP_TIMEOUT seconds (default 60); otherwise a FAIL with the tails of
# the daemons' logs.
#
# slurm_down cancels what is still queued, stops slurmd, slurmctld and
# munged by their PIDs (TERM, KILL after 5 s), then looks for processes the
# cluster started that outlived them (batch steps and their tasks, which
# carry this cluster's SLURM_CONF in their environment): it kills those,
# names them and returns 1. Then it removes the directory.
#
# Exit 77 (skip) only when a program is missing, naming its package;
# everything else that goes wrong is a FAIL (exit 1) with the reason.
#
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause

case :$PATH: in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin ;;	# munged, slurmctld, slurmd live in sbin
esac

slurm_dir=
slurm_conf=
slurm_node=
slurm_partition=vlroute
slurm_jobcomp=
slurm_ctld_port=
slurm_d_port=
slurm_pids=
slurm_up_seconds=
slurm_munged_pid=
slurm_ctld_pid=
slurm_d_pid=

slurm_say() {
	echo "slurm-bringup: $*"
}

slurm_skip() {
	echo "slurm-bringup: SKIP: $*" >&2
	exit 77
}

# slurm_tail LOG: the last lines of LOG, if it has any.
slurm_tail() {
	[[ -s $1 ]] || return 0
	echo "--- last lines of $1:" >&2
	tail -n 15 -- "$1" >&2
}

# slurm_fail MESSAGE: report with the tails of the daemons' logs, exit 1
# (the caller's EXIT trap then runs slurm_down).
slurm_fail() {
	local log
	echo "slurm-bringup: FAIL: $1" >&2
	if [[ -n $slurm_dir ]]; then
		slurm_tail "$slurm_dir/munge/munged.log"
		for log in slurmctld slurmd; do
			if [[ -s $slurm_dir/log/$log.log ]]; then
				slurm_tail "$slurm_dir/log/$log.log"
			else
				slurm_tail "$slurm_dir/log/$log.stderr"
			fi
		done
	fi
	exit 1
}

slurm_now() {
	if [[ -n ${EPOCHREALTIME:-} ]]; then
		printf '%s\n' "${EPOCHREALTIME/,/.}"
	else
		date +%s.%N
	fi
}

# slurm_alive PID: the process is still there.
slurm_alive() {
	[[ -n $1 ]] && kill -0 "$1" 2>/dev/null
}

# slurm_check_tools: skip, naming the package, when a program is missing.
slurm_check_tools() {
	local tool package
	for tool in munged:munge mungekey:munge munge:munge unmunge:munge \
		slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client \
		squeue:slurm-client sinfo:slurm-client scontrol:slurm-client \
		scancel:slurm-client; do
		package=${tool#*:}
		tool=${tool%%:*}
		command -v "$tool" >/dev/null ||
			slurm_skip "$tool not found (Debian package $package; slurm-wlm and munge bring all)"
	done
}

# slurm_clean_env: forget the Slurm variables we inherited; ours come next.
slurm_clean_env() {
	local name
	for name in $(compgen -e); do
		case $name in
		SLURM_* | SLURMD_* | SBATCH_* | SALLOC_* | SRUN_* | SQUEUE_* | \
			SINFO_* | SCONTROL_* | SACCT_* | SCANCEL_*)
			unset "$name" ;;
		esac
	done
}

# slurm_check_searchable DIR: DIR and every directory above it searchable by
# all, as munged requires of the directories above its socket.
slurm_check_searchable() {
	local d=$1
	while [[ -n $d ]]; do
		[[ $(stat -c %A -- "$d" 2>/dev/null) == d????????[xt] ]] ||
			slurm_fail "munged needs $d searchable by all (chmod o+x) to use a socket below it"
		d=${d%/*}
	done
}

# slurm_make_dir DIR: DIR new (or empty) and ours, with its subdirectories.
slurm_make_dir() {
	local dir=$1
	if [[ -z $dir ]]; then
		dir=$(mktemp -d "${TMPDIR:-/tmp}/vlroute-slurm.XXXXXX") ||
			slurm_fail "cannot make a directory in ${TMPDIR:-/tmp}"
	elif [[ -e $dir ]]; then
		[[ -d $dir && -z $(ls -A -- "$dir") ]] ||
			slurm_fail "$dir exists and is not an empty directory"
	else
		mkdir -p -- "$dir" || slurm_fail "cannot make $dir"
	fi
	slurm_dir=$(cd -- "$dir" && pwd -P) || slurm_fail "cannot enter $dir"
	[[ $slurm_dir != *[[:space:]]* ]] ||
		slurm_fail "$slurm_dir contains white space, which slurm.conf cannot hold"
	# A Unix socket path holds 107 bytes; slurmd's step sockets are
	# spool/NODE_JOBID.STEPID, the longest we make.
	((${#slurm_dir} <= 60)) ||
		slurm_fail "$slurm_dir is too long for the Unix sockets inside it (set TMPDIR shorter)"
	slurm_check_searchable "${slurm_dir%/*}"
	chmod 0755 "$slurm_dir" &&
		mkdir -m 0755 "$slurm_dir/munge" "$slurm_dir/state" "$slurm_dir/spool" \
			"$slurm_dir/run" "$slurm_dir/log" ||
		slurm_fail "cannot make the subdirectories of $slurm_dir"
	slurm_conf=$slurm_dir/slurm.conf
	slurm_jobcomp=$slurm_dir/log/jobcomp.txt
}

# slurm_munge_ok: a credential made through our socket decodes through it.
slurm_munge_ok() {
	local sock=$slurm_dir/munge/munge.socket
	munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1
}

slurm_start_munged() {
	local m=$slurm_dir/munge deadline
	mungekey --create --keyfile="$m/munge.key" >"$m/mungekey.out" 2>&1 ||
		slurm_fail "mungekey cannot create $m/munge.key: $(cat "$m/mungekey.out")"
	munged -F --socket="$m/munge.socket" --key-file="$m/munge.key" \
		--pid-file="$m/munged.pid" --seed-file="$m/munged.seed" \
		</dev/null >"$m/munged.log" 2>&1 &
	slurm_munged_pid=$!
	deadline=$((SECONDS + ${SLURM_UP_TIMEOUT:-60}))
	until slurm_munge_ok; do
		slurm_alive "$slurm_munged_pid" || {
			wait "$slurm_munged_pid" 2>/dev/null
			slurm_munged_pid=
			slurm_fail "munged exited at start"
		}
		((SECONDS < deadline)) || slurm_fail "munged not answering on $m/munge.socket"
		sleep 0.1
	done
}

# slurm_node_line: "slurmd -C"'s NodeName line, without its UpTime.
slurm_node_line() {
	local line
	line=$(slurmd -C 2>/dev/null | head -n 1)
	[[ $line == NodeName=?*" CPUs="* ]] ||
		slurm_fail "slurmd -C printed no NodeName line: '$line'"
	printf '%s\n' "$line"
}

# slurm_used_ports: the local ports of TCP sockets, one per line (none if
# /proc/net/tcp cannot be read: then only a failed bind tells).
slurm_used_ports() {
	local f sl addr rest
	for f in /proc/net/tcp /proc/net/tcp6; do
		[[ -r $f ]] || continue
		while read -r sl addr rest; do
			[[ $sl == *: && $addr == *:* ]] && echo $((16#${addr##*:}))
		done <"$f"
	done
}

# slurm_pick_ports: two consecutive free ports into slurm_ctld_port and
# slurm_d_port.
slurm_pick_ports() {
	local used p i
	used=" $(slurm_used_ports | tr '\n' ' ') "
	for ((i = 0; i < 100; i++)); do
		p=$((20000 + (RANDOM * 32768 + RANDOM) % 12766))
		if [[ $used != *" $p "* && $used != *" $((p + 1)) "* ]]; then
			slurm_ctld_port=$p
			slurm_d_port=$((p + 1))
			return 0
		fi
	done
	slurm_fail "no two free TCP ports found in 20000-32767"
}

slurm_write_conf() {
	local node_line=$1 user d=$slurm_dir
	user=$(id -un) || slurm_fail "cannot tell who we are (id -un)"
	: >"$d/plugstack.conf"
	cat >"$slurm_conf" <<EOF
# Written by slurm-bringup.sh for one test run; see its opening comment.
ClusterName=vlroute
SlurmctldHost=$slurm_node(127.0.0.1)
SlurmctldPort=$slurm_ctld_port
SlurmdPort=$slurm_d_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
PlugStackConfig=$d/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$slurm_jobcomp
MinJobAge=300
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
MpiDefault=none
MailProg=$(command -v true)
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=$slurm_partition Nodes=$slurm_node Default=YES MaxTime=INFINITE State=UP
EOF
}

# slurm_node_state: what sinfo says of our node ("idle", "down*", ...).
slurm_node_state() {
	sinfo -h -N -n "$slurm_node" -o %T 2>/dev/null
}

# slurm_port_taken: a daemon that died did so because its port was taken.
slurm_port_taken() {
	grep -qs 'Address already in use' "$slurm_dir/log/slurmctld.stderr" \
		"$slurm_dir/log/slurmd.stderr"
}

# slurm_start_daemons: slurmctld and slurmd, until the node is idle. Returns
# 1 when a daemon died of a taken port (the caller picks new ports).
slurm_start_daemons() {
	local l=$slurm_dir/log deadline state=
	slurmctld -D -f "$slurm_conf" </dev/null >/dev/null 2>"$l/slurmctld.stderr" &
	slurm_ctld_pid=$!
	slurmd -D -N "$slurm_node" -f "$slurm_conf" </dev/null >/dev/null 2>"$l/slurmd.stderr" &
	slurm_d_pid=$!
	deadline=$((SECONDS + ${SLURM_UP_TIMEOUT:-60}))
	while :; do
		state=$(slurm_node_state)
		[[ $state == idle ]] && return 0
		if ! slurm_alive "$slurm_ctld_pid" || ! slurm_alive "$slurm_d_pid"; then
			slurm_port_taken && return 1
			slurm_fail "$(slurm_dead_daemon) exited at start"
		fi
		((SECONDS < deadline)) ||
			slurm_fail "node $slurm_node not idle after ${SLURM_UP_TIMEOUT:-60} s (sinfo: '${state:-nothing}')"
		sleep 0.2
	done
}

slurm_dead_daemon() {
	if slurm_alive "$slurm_ctld_pid"; then
		echo slurmd
	else
		echo slurmctld
	fi
}

# slurm_stop_daemons: slurmd, then slurmctld, by PID.
slurm_stop_daemons() {
	slurm_stop_pid "$slurm_d_pid"
	slurm_d_pid=
	slurm_stop_pid "$slurm_ctld_pid"
	slurm_ctld_pid=
}

# slurm_up [DIR]: the cluster up in DIR (default: a fresh mktemp -d), its
# node idle; exits 77 if a program is missing, 1 on any failure.
slurm_up() {
	local t0 node_line try
	t0=$(slurm_now)
	slurm_check_tools
	slurm_clean_env
	slurm_make_dir "${1:-}"
	export SLURM_CONF=$slurm_conf
	node_line=$(slurm_node_line) || exit 1
	slurm_node=${node_line%% *}
	slurm_node=${slurm_node#NodeName=}
	node_line=${node_line% UpTime=*}
	slurm_start_munged
	for try in 1 2 3; do
		slurm_pick_ports
		slurm_write_conf "$node_line"
		slurm_start_daemons && break
		slurm_say "port $slurm_ctld_port or $slurm_d_port was taken; trying others"
		slurm_stop_daemons
		rm -rf -- "${slurm_dir:?}/state/"* "${slurm_dir:?}/spool/"*
		((try < 3)) || slurm_fail "3 pairs of ports were all taken"
	done
	slurm_pids="$slurm_munged_pid $slurm_ctld_pid $slurm_d_pid"
	slurm_up_seconds=$(awk -v a="$t0" -v b="$(slurm_now)" 'BEGIN { printf "%.1f", b - a }')
	slurm_say "node $slurm_node idle in $slurm_up_seconds s (ports $slurm_ctld_port," \
		"$slurm_d_port; SLURM_CONF=$slurm_conf)"
}

# slurm_stop_pid PID: TERM, KILL after 5 s, and reap. Only our children.
slurm_stop_pid() {
	local pid=$1 i
	[[ -n $pid ]] || return 0
	if slurm_alive "$pid"; then
		kill -TERM "$pid" 2>/dev/null
		for ((i = 0; i < 50; i++)); do
			slurm_alive "$pid" || break
			sleep 0.1
		done
		slurm_alive "$pid" && kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	return 0
}

# slurm_processes: PIDs of the processes whose environment holds this
# cluster's SLURM_CONF (what our daemons started, and the daemons), but
# not this shell or its own children.
slurm_processes() {
	local p self=$$ parent=$BASHPID
	[[ -n $slurm_conf ]] || return 0
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		[[ $p == "$self" || $p == "$parent" ]] && continue
		grep -qsxzF "SLURM_CONF=$slurm_conf" "/proc/$p/environ" 2>/dev/null &&
			echo "$p"
	done
}

# slurm_drain_queue: cancel every job left and wait (10 s) for the queue
# to empty, so that slurmd is not stopped under running batch steps.
slurm_drain_queue() {
	local i
	slurm_alive "$slurm_ctld_pid" || return 0
	[[ -n $(squeue -h -o %i 2>/dev/null) ]] || return 0
	scancel --quiet --user="$(id -un)" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		[[ -z $(squeue -h -o %i 2>/dev/null) ]] && return 0
		sleep 0.1
	done
}

# slurm_down [keep]: stop what slurm_up started, by PID; remove the
# directory unless "keep". Returns 1 if processes of the cluster outlived
# its daemons (they are killed and named). Safe to call twice.
slurm_down() {
	local keep=${1:-} rc=0 leftovers p
	slurm_drain_queue
	slurm_stop_daemons
	slurm_stop_pid "$slurm_munged_pid"
	slurm_munged_pid=
	leftovers=$(slurm_processes)
	if [[ -n $leftovers ]]; then
		for p in $leftovers; do
			echo "slurm-bringup: killing $p ($(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null))," \
				"left behind by the cluster in $slurm_dir" >&2
			kill -KILL "$p" 2>/dev/null
		done
		rc=1
	fi
	if [[ -n $slurm_dir && -d $slurm_dir ]]; then
		if [[ $keep == keep ]]; then
			echo "slurm-bringup: the cluster's directory is kept: $slurm_dir" >&2
		else
			rm -rf -- "$slurm_dir"
		fi
	fi
	slurm_dir=
	slurm_conf=
	slurm_pids=
	return "$rc"
}
