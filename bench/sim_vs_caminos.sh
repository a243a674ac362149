#!/bin/bash
# sim_vs_caminos.sh - vlroute's simulator beside CAMINOS 0.6.3 on the shared
# configurations of the Valiant study (../shared/bench/caminos/*.cfg: HyperX
# 8x8 with 8 servers per switch under XY-3-shift, Dragonfly p=3 a=6 h=3
# palmtree under ADV+3 and ADVr+3; Ladder, Ladder with reuse, 2Phases
# MinFirst and MinLast), one row per configuration and seed:
#   - CAMINOS: its accepted load (run, or taken from its measured CSV);
#   - model: vlroute's reference model of the same policy (sim on the fabric,
#     --routing valiant), when this vlroute has it;
#   - ideal, exact: the table replay of the same policy (valiant engine
#     tables, LMC 6 on the HyperX and 7 on the Dragonfly, no restricted
#     offsets, a random Valiant DLID per packet) in both VL modes, the ideal
#     one with 2Phases's per-hop VLs as the model (so that the two differ
#     by the tables' routes alone);
# with the ratio of each accepted load to CAMINOS's, and the simulated
# cycles and delivered phits (accepted load x servers x cycles) per
# CPU-second (user + system time of the simulator's process) of each, with
# the ratio ours / CAMINOS. Load 1.0, no warm-up, one thread each, runs one
# after the other. docs/caminos-model.md says what differs between the
# models.
#
# Usage: bench/sim_vs_caminos.sh [OPTIONS]
#   --vlroute FILE     default build/tools/vlroute of this tree
#   --caminos FILE     default $CAMINOS_ROOT/bin/caminos
#   --config-dir DIR   the CAMINOS configurations (default ../shared/bench/caminos
#                      beside this tree)
#   --configs GLOB     configuration names to run, e.g. 'hx8_dor_*' (default *)
#   --cycles N         cycles of every run (default 20000)
#   --seeds LIST       comma-separated seeds (default 1,2)
#   --caminos-cached   take CAMINOS's numbers from $CAMINOS_ROOT/measured.csv
#                      (config,seed,accepted,cpu_seconds,cycles) where config,
#                      seed and cycles match, running it only for the others
#   -o FILE            also write the CSV (with provenance) to FILE
#   -h, --help         print this help
# CAMINOS_ROOT defaults to /work/caminos-install. Install CAMINOS with
#   cargo install --locked caminos --version 0.6.3 --root "$CAMINOS_ROOT"
# (without --locked it does not build); without it the CAMINOS columns say
# why they are empty and the rest is printed.
#
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
caminos_root=${CAMINOS_ROOT:-/work/caminos-install}
vlroute=$top/build/tools/vlroute
caminos=$caminos_root/bin/caminos
measured=$caminos_root/measured.csv
config_dir=$top/../shared/bench/caminos
configs='*'
cycles=20000
seeds=1,2
cached=0
csv=
command_line="$0 $*"

usage() {	# usage STATUS
	sed -n '/^# Usage:/,/^# why they/s/^# \{0,1\}//p' "$0" >&2
	exit "$1"
}

while [ $# -gt 0 ]; do
	case $1 in
	--vlroute|--caminos|--config-dir|--configs|--cycles|--seeds|-o)
		[ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; } ;;
	esac
	case $1 in
	--vlroute) vlroute=$2; shift ;;
	--caminos) caminos=$2; shift ;;
	--config-dir) config_dir=$2; shift ;;
	--configs) configs=$2; shift ;;
	--cycles) cycles=$2; shift ;;
	--seeds) seeds=$2; shift ;;
	--caminos-cached) cached=1 ;;
	-o) csv=$2; shift ;;
	-h|--help) usage 0 ;;
	*) usage 2 ;;
	esac
	shift || usage 2
done
[[ $cycles =~ ^[1-9][0-9]*$ ]] || { echo "--cycles: a positive number, not \"$cycles\"" >&2; exit 2; }
[[ $seeds =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "--seeds: numbers separated by commas, not \"$seeds\"" >&2; exit 2; }
[ -x "$vlroute" ] || { echo "no $vlroute: build first (./run.sh build)" >&2; exit 2; }
config_dir=$(cd "$config_dir" 2>/dev/null && pwd) ||
	{ echo "no configuration directory $config_dir" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# ---- what each configuration is in vlroute's terms ------------------------

# describe NAME: sets gen, traffic, policy, route_args, model_args, lmc and
# note for configuration NAME; 1 when the name is not one we know.
describe() {
	local name=$1 k
	note=
	case $name in
	hx8_dor_*|hx8x8_*)
		gen="hyperx -s 8x8 -p 8" traffic=shift+3 lmc=6 k=2
		model_args=(--phase-two-order same) ;;
	df3_adv_*|df3_advr_*)
		gen="dragonfly -p 3 -a 6 -h 3 --arrangement palmtree" lmc=7 k=3
		traffic=adv+3 model_args=(--minimal shortest)
		[[ $name == df3_advr_* ]] && traffic=advr+3 ;;
	*) return 1 ;;
	esac
	case $name in
	hx8x8_ladder_*)
		policy=ladder model_args+=(--minimal shortest)
		note="adaptive minimal: the model with --minimal shortest, the tables dimension order" ;;
	*) policy=${name##*_} ;;
	esac
	case $policy in
	ladder) route_args=(--vl-policy ladder) model_args+=(--vl-policy ladder) ideal_args=() ;;
	ladderreuse)
		route_args=(--vl-policy ladder-reuse) model_args+=(--vl-policy ladder-reuse)
		ideal_args=() ;;
	minfirst|minlast)
		route_args=(--vl-policy 2phases --phase-min "$policy" --vls-per-phase "$k")
		model_args+=(--vl-policy 2phases --phase-min "$policy"
			     --vls-per-phase "$k" --phase-vls per-hop)
		ideal_args=(--phase-vls per-hop) ;;
	*) return 1 ;;
	esac
	model_args=(--routing valiant "${model_args[@]}")
}

# The configuration names: NAME_s1.cfg gives NAME, NAME.cfg (no seed) NAME.
config_names() {
	local file name
	for file in "$config_dir"/*.cfg; do
		name=$(basename "$file" .cfg)
		[[ $name =~ _s[0-9]+$ ]] && { [[ $name == *_s1 ]] || continue; name=${name%_s1}; }
		[[ $name == $configs ]] && echo "$name"
	done | sort
}

config_file() {
	if [ -f "$config_dir/$1_s1.cfg" ]; then echo "$config_dir/$1_s1.cfg"
	else echo "$config_dir/$1.cfg"; fi
}

# ---- running and measuring ------------------------------------------------

# cpu_run OUT ERR COMMAND...: run COMMAND (stdout to OUT, stderr to ERR),
# leave its user + system seconds in $cpu; COMMAND's status.
cpu_run() {
	local out=$1 err=$2 rc=0 TIMEFORMAT='%3U %3S'
	shift 2
	{ time "$@" >"$out" 2>"$err"; } 2>"$scratch/cpu" || rc=$?
	cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$scratch/cpu")
	return $rc
}

# json_value FILE KEY: the first number under "KEY" in a vlroute JSON file
json_value() {
	sed -n "s/.*\"$2\": *\([0-9.eE+-]*\).*/\1/p" "$1" | head -1
}

# Set by each run: acc (accepted load), cpu, servers, status (empty when
# the numbers are there, else why not), cmd (what ran).
clear_run() { acc= cpu= servers= status=$1 cmd=; }

# caminos_numbers NAME SEED: from the measured CSV or by running CAMINOS
caminos_numbers() {
	local name=$1 seed=$2 cfg line
	cfg=$(config_file "$name")
	clear_run ""
	servers=$(sed -n 's/^[[:space:]]*servers:[[:space:]]*\([0-9]*\),.*/\1/p' "$cfg" | head -1)
	if [ "$cached" = 1 ] && [ -f "$measured" ]; then
		line=$(awk -F, -v n="$name" -v s="$seed" -v c="$cycles" \
			'$1 == n && $2 == s && $5 == c { l = $0 } END { print l }' "$measured")
		if [ -n "$line" ]; then
			IFS=, read -r _ _ acc cpu _ <<<"$line"
			cmd="cached: $measured"
			return
		fi
	fi
	if [ ! -x "$caminos" ]; then
		status="not installed ($caminos)"
		return
	fi
	sed -e "s/random_seed:[[:space:]]*[0-9]*/random_seed: $seed/" \
	    -e "s/measured:[[:space:]]*[0-9]*/measured: $cycles/" "$cfg" >"$scratch/run.cfg"
	cmd="$caminos $(basename "$cfg") (random_seed: $seed, measured: $cycles) --results=FILE"
	rm -f "$scratch/run.result"
	if ! cpu_run "$scratch/caminos.out" "$scratch/caminos.err" \
		"$caminos" "$scratch/run.cfg" --results="$scratch/run.result"; then
		status="failed: $(tail -1 "$scratch/caminos.err")"
		return
	fi
	acc=$(tr -d ' \t\n' <"$scratch/run.result" |
	      sed -n 's/.*accepted_load:\([0-9.eE+-]*\),.*/\1/p')
	[ -n "$acc" ] || status="no accepted_load in its result"
}

# vlroute_sim WHAT ARGS...: one vlroute sim run (WHAT names it in messages)
vlroute_sim() {
	local what=$1
	shift
	clear_run ""
	cmd="vlroute sim $* --load 1 --cycles $cycles --warmup 0 --threads 1"
	cmd=${cmd//"$fabric"/FABRIC (vlroute gen $gen)}
	cmd=${cmd//"$dir"/TABLES (vlroute route FABRIC --engine valiant --lmc $lmc --restricted 0 ${route_args[*]})}
	rm -f "$scratch/sim.json"
	if ! cpu_run "$scratch/sim.out" "$scratch/sim.err" "$vlroute" sim "$@" \
		--load 1 --cycles "$cycles" --warmup 0 --threads 1 --json "$scratch/sim.json" -q; then
		status="$what failed: $(tail -1 "$scratch/sim.err")"
		return
	fi
	acc=$(json_value "$scratch/sim.json" accepted)
	[ -n "$acc" ] || status="$what: no accepted load in its JSON"
	servers=$(json_value "$scratch/sim.json" servers)
}

# fabric_file: generate the configuration's fabric once; its file in $fabric
fabric_file() {
	fabric=$scratch/$(echo "$gen" | tr -c 'A-Za-z0-9\n' _).net
	[ -f "$fabric" ] || "$vlroute" gen $gen -o "$fabric" >/dev/null
}

# tables: route the configuration's policy once per fabric and policy; the
# directory in $dir, or $refused with vlroute route's reason.
tables() {
	dir=$scratch/tables-$(echo "$gen ${route_args[*]}" | tr -c 'A-Za-z0-9\n' _)
	refused=
	[ -d "$dir" ] && return
	[ -f "$dir.refused" ] && { refused=$(cat "$dir.refused"); return; }
	if ! "$vlroute" route "$fabric" --engine valiant --lmc "$lmc" --restricted 0 \
		"${route_args[@]}" -o "$dir" >"$scratch/route.log" 2>&1; then
		tail -1 "$scratch/route.log" | sed 's/^vlroute route: //' >"$dir.refused"
		rm -rf "$dir"
		refused=$(cat "$dir.refused")
	fi
}

# ---- the table and the CSV -------------------------------------------------

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.3f", a / b }'; }
per_cpu() { awk -v n="$1" -v c="$2" 'BEGIN { if (n == "" || c == "" || c == 0) print ""; else printf "%.0f", n / c }'; }

# record SIM: keep the run's numbers as SIM_* for the table, append the CSV row
record() {
	local sim=$1 phits= cps= pps= ratio_acc= ratio_cps= ratio_pps=
	if [ -z "$status" ]; then
		phits=$(awk -v a="$acc" -v s="$servers" -v c="$cycles" 'BEGIN { printf "%.0f", a * s * c }')
		cps=$(per_cpu "$cycles" "$cpu") pps=$(per_cpu "$phits" "$cpu")
	fi
	if [ "$sim" != caminos ]; then
		ratio_acc=$(ratio "$acc" "$caminos_acc")
		ratio_cps=$(ratio "$cps" "$caminos_cps")
		ratio_pps=$(ratio "$pps" "$caminos_pps")
	else
		caminos_acc=$acc caminos_cps=$cps caminos_pps=$pps
	fi
	printf -v "${sim}_acc" '%s' "$acc"
	printf -v "${sim}_ratio" '%s' "$ratio_acc"
	printf -v "${sim}_cps" '%s' "$cps"
	printf -v "${sim}_cps_ratio" '%s' "$ratio_cps"
	printf -v "${sim}_pps" '%s' "$pps"
	printf -v "${sim}_pps_ratio" '%s' "$ratio_pps"
	printf -v "${sim}_status" '%s' "$status"
	csv_row "$sim" "$acc" "$ratio_acc" "$cpu" "$cps" "$ratio_cps" "$phits" "$pps" \
		"$ratio_pps" "$status" "$cmd"
}

csv_quote() { local s=${1//\"/\"\"}; printf '"%s"' "$s"; }

csv_row() {
	printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$row_name" "$row_seed" \
		"$(csv_quote "$gen")" "$traffic" "$policy" "$1" "$2" "$3" "$4" "$cycles" "$7" \
		"$5" "$6" "$8" "$9" "$(csv_quote "${10}")" "$(csv_quote "$note")" "$(csv_quote "${11}")" >>"$scratch/rows.csv"
}

cell() {	# cell LOAD RATIO STATUS: "0.3849 (1.020)", or "n/a" with a status
	if [ -n "$3" ]; then printf '%s' "n/a"
	elif [ -n "$2" ]; then printf '%.4f (%s)' "$1" "$2"
	else printf '%.4f' "$1"; fi
}

speed_cell() {	# speed_cell VALUE RATIO STATUS: "6897 (51.5x)", or "n/a"
	if [ -n "$3" ]; then printf '%s' "n/a"
	elif [ -n "$2" ]; then printf '%s (%.1fx)' "$1" "$2"
	else printf '%s' "$1"; fi
}

print_row() {
	local sim
	printf '%-22s %4s  %-7s' "$row_name" "$row_seed" "$(cell "$caminos_acc" "" "$caminos_status")" \
		>>"$scratch/accepted.txt"
	for sim in model ideal exact; do
		local a=${sim}_acc r=${sim}_ratio s=${sim}_status
		printf '  %-15s' "$(cell "${!a}" "${!r}" "${!s}")" >>"$scratch/accepted.txt"
	done
	printf '  %s\n' "$note" >>"$scratch/accepted.txt"
	printf '%-22s %4s  %-7s' "$row_name" "$row_seed" "$(speed_cell "$caminos_cps" "" "$caminos_status")" \
		>>"$scratch/speed.txt"
	for sim in model ideal exact; do
		local v=${sim}_cps r=${sim}_cps_ratio s=${sim}_status
		printf '  %-15s' "$(speed_cell "${!v}" "${!r}" "${!s}")" >>"$scratch/speed.txt"
	done
	printf '  %-8s' "$(speed_cell "$caminos_pps" "" "$caminos_status")" >>"$scratch/speed.txt"
	for sim in model ideal exact; do
		local v=${sim}_pps r=${sim}_pps_ratio s=${sim}_status
		printf '  %-17s' "$(speed_cell "${!v}" "${!r}" "${!s}")" >>"$scratch/speed.txt"
	done
	echo >>"$scratch/speed.txt"
	for sim in caminos model ideal exact; do
		local s=${sim}_status
		[ -n "${!s}" ] && [ "${!s}" != "$no_model" ] &&
			echo "$row_name seed $row_seed, $sim: ${!s}" >>"$scratch/notes.txt"
	done
}

# ---- the runs ---------------------------------------------------------------

has_model=0
no_model="reference model: not available in this vlroute"
"$vlroute" sim --help 2>&1 | grep -q -- '--routing' && has_model=1
: >"$scratch/rows.csv"
: >"$scratch/accepted.txt"
: >"$scratch/speed.txt"
: >"$scratch/notes.txt"
names=$(config_names)
[ -n "$names" ] || { echo "no configuration matches \"$configs\" in $config_dir" >&2; exit 2; }
for row_name in $names; do
	if ! describe "$row_name"; then
		echo "$row_name: not a configuration this script knows; skipped" >&2
		continue
	fi
	fabric_file || { echo "$row_name: vlroute gen $gen failed" >&2; exit 1; }
	tables
	for row_seed in ${seeds//,/ }; do
		echo "running $row_name seed $row_seed..." >&2
		caminos_numbers "$row_name" "$row_seed"
		record caminos
		if [ "$has_model" = 1 ]; then
			vlroute_sim "reference model" "$fabric" "${model_args[@]}" \
				--traffic "$traffic" --seed "$row_seed"
		else
			clear_run "$no_model"
		fi
		record model
		for mode in ideal exact; do
			if [ -n "$refused" ]; then
				clear_run "vlroute route refused: $refused"
			elif [ "$mode" = ideal ]; then
				vlroute_sim "ideal replay" "$dir" --traffic "$traffic" --dlid random \
					--vl-mode ideal "${ideal_args[@]}" --seed "$row_seed"
			else
				vlroute_sim "exact replay" "$dir" --traffic "$traffic" --dlid random \
					--vl-mode exact --seed "$row_seed"
			fi
			record "$mode"
		done
		print_row
	done
done

[ "$has_model" = 1 ] || echo "$no_model"
echo
echo "Accepted load (phits per server per cycle), ratio to CAMINOS in parentheses"
printf '%-22s %4s  %-7s  %-15s  %-15s  %-15s\n' config seed CAMINOS model ideal exact
cat "$scratch/accepted.txt"
echo
echo "Simulated cycles per CPU-second | delivered phits per CPU-second, ours/CAMINOS in parentheses"
printf '%-22s %4s  %-7s  %-15s  %-15s  %-15s  %-8s  %-17s  %-17s  %-17s\n' config seed \
	CAMINOS model ideal exact CAMINOS model ideal exact
cat "$scratch/speed.txt"
if [ -s "$scratch/notes.txt" ]; then
	echo
	sort -u "$scratch/notes.txt" | sed 's/^/note: /'
fi

if [ -n "$csv" ]; then
	{
		"$vlroute" -V | sed 's/^/# vlroute -V: /'
		echo "# commit: $(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
		echo "# command: $command_line"
		echo "# seeds: $seeds"
		echo "# cycles: $cycles, load 1.0, no warm-up, one thread each"
		echo "# configurations: $config_dir"
		echo "# caminos: $caminos$([ "$cached" = 1 ] && echo ", cached from $measured")"
		echo "# replay: valiant tables, --restricted 0, --dlid random, ideal (2phases: per-hop) and exact VLs"
		echo "# phits: accepted x servers x cycles; per_cpu_second: over user + system seconds"
		echo "# host: $(uname -n), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "config,seed,fabric,traffic,policy,simulator,accepted,accepted_ratio,cpu_seconds,cycles,phits,cycles_per_cpu_second,cycles_speed_ratio,phits_per_cpu_second,phits_speed_ratio,status,note,command"
		cat "$scratch/rows.csv"
	} >"$csv"
fi
