#!/bin/bash
# sim_speed.sh - how fast "vlroute sim" simulates: simulated cycles and
# delivered phits per CPU-second, and the memory of a run, for one vlroute
# binary or two side by side (then the ratio of the second to the first,
# and whether both gave the same results).
#
# The configurations (one thread, offered load 1.0, no warm-up):
#   hx16-tables  HyperX 16x16, 16 servers/switch (4096), valiant tables LMC 3
#                with the Ladder, random DLID, ideal VLs, shift+7 (paper scale)
#   hx16-ref     the same fabric in the reference model, Ladder, shift+7
#   df6-tables   Dragonfly p=6 a=12 h=6 (5256 servers), valiant tables LMC 3
#                with 2phases MinFirst, random DLID, exact VLs, adv+6
#   df6-ref      the same fabric in the reference model, 2phases MinFirst, adv+6
#   hx8-tables   HyperX 8x8, 8 servers/switch, valiant tables LMC 6 with the
#                Ladder, random DLID, ideal VLs, shift+3 (as sim_vs_caminos.sh)
#   hx8-ref      the same fabric in the reference model, Ladder, shift+3
#
# CPU time is user + system time of the whole "vlroute sim" process; the
# rates take off the setup (reading the tables, checking them), measured by
# the same command with --cycles 1, so that they count the cycles alone.
# Each measurement is the least CPU time of REPEAT runs; with two binaries
# their runs alternate, so that a busy machine slows both alike.
#
# On a shared machine whose neighbours' load moves the times by a fifth,
# -g counts instead, under valgrind's cachegrind (a 2 MB last level, as
# an L2 of the 2-core machines this was written on): instructions, first-
# and last-level data misses (reads and writes) of the cycles alone (the
# same counts of a one-cycle run taken off), per simulated cycle, which do
# not depend on the machine's load. Runs then take some 50 times longer:
# use -c 3000 or so.
#
# Usage: bench/sim_speed.sh [-g] [-c CYCLES] [-r REPEAT] [-o CONFIG]... VLROUTE [VLROUTE2]
#   -g         count under cachegrind instead of timing (REPEAT is then 1)
#   -c CYCLES  simulated cycles per run (default 20000)
#   -r REPEAT  runs per measurement, the least CPU time counts (default 1)
#   -o CONFIG  only this configuration (repeatable; default all)
# A VLROUTE may be any command that runs vlroute, e.g. a build's
# tools/vlroute. The fabrics and tables are made once, by the first binary.
# Prints one row per configuration and binary, then the ratios.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

cycles=20000
repeat=1
counting=0
only=()
usage="usage: $0 [-g] [-c CYCLES] [-r REPEAT] [-o CONFIG]... VLROUTE [VLROUTE2]"
while getopts gc:r:o: opt; do
	case $opt in
	g) counting=1 ;;
	c) cycles=$OPTARG ;;
	r) repeat=$OPTARG ;;
	o) only+=("$OPTARG") ;;
	*) echo "$usage" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $cycles =~ ^[1-9][0-9]*$ && $repeat =~ ^[1-9][0-9]*$ ]] ||
	{ echo "$0: -c and -r take a whole number above 0" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
binaries=("$@")
[ -x /usr/bin/time ] || { echo "$0: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
[ "$counting" = 0 ] || command -v valgrind >/dev/null ||
	{ echo "$0: -g needs valgrind (Debian: valgrind)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# what every measured run is given after its input, options and cycles
fixed=(--load 1 --warmup 0 --threads 1 -q --json "$scratch/run.json")

# name|fabric|route options (empty: the reference model)|sim options
configs=(
	"hx16-tables|hyperx -s 16x16 -p 16|--engine valiant --lmc 3 --vl-policy ladder|--dlid random --vl-mode ideal --traffic shift+7"
	"hx16-ref|hyperx -s 16x16 -p 16||--vl-policy ladder --traffic shift+7"
	"df6-tables|dragonfly -p 6 -a 12 -h 6|--engine valiant --lmc 3 --vl-policy 2phases --phase-min minfirst|--dlid random --vl-mode exact --traffic adv+6"
	"df6-ref|dragonfly -p 6 -a 12 -h 6||--vl-policy 2phases --phase-min minfirst --traffic adv+6"
	"hx8-tables|hyperx -s 8x8 -p 8|--engine valiant --lmc 6 --vl-policy ladder|--dlid random --vl-mode ideal --traffic shift+3"
	"hx8-ref|hyperx -s 8x8 -p 8||--vl-policy ladder --traffic shift+3"
)

wanted() {
	local o
	[ ${#only[@]} -eq 0 ] && return 0
	for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
	return 1
}

# input NAME FABRIC ROUTE: the fabric file, or the table directory, to simulate
input() {
	local fabric_file route_args
	fabric_file="$scratch/$(echo "$2" | tr ' ' '_').net"
	[ -f "$fabric_file" ] || "${binaries[0]}" gen $2 -o "$fabric_file" >/dev/null
	if [ -z "$3" ]; then
		echo "$fabric_file"
		return
	fi
	route_args=$3
	[ -d "$scratch/$1.tables" ] ||
		"${binaries[0]}" route "$fabric_file" $route_args -o "$scratch/$1.tables" >/dev/null
	echo "$scratch/$1.tables"
}

# cpu BINARY N INPUT SIMARGS: "CPU_SECONDS MAXRSS_KB" of one run of N
# cycles; the run's JSON in $scratch/run.json
cpu() {
	/usr/bin/time -f "%U %S %M" -o "$scratch/time" "$1" sim "$3" $4 --cycles "$2" \
		"${fixed[@]}" >"$scratch/report" 2>&1 || { cat "$scratch/report" >&2; exit 1; }
	awk '{ printf "%.3f %s\n", $1 + $2, $3 }' "$scratch/time"
}

# least A B: the lesser of two CPU times, B if A is empty
least() {
	if [ -z "$1" ] || awk -v a="$2" -v b="$1" 'BEGIN { exit !(a < b) }'; then
		echo "$2"
	else
		echo "$1"
	fi
}

# counts BINARY N INPUT SIMARGS: "INSTRUCTIONS D1_MISSES LL_MISSES" of one
# run of N cycles under cachegrind, summed over the processes it runs (a
# VLROUTE may be a wrapper script); the run's JSON in $scratch/run.json
counts() {
	rm -f "$scratch"/cg.*
	valgrind --tool=cachegrind --cache-sim=yes --LL=2097152,16,64 --trace-children=yes \
		--cachegrind-out-file="$scratch/cg.%p" "$1" sim "$3" $4 --cycles "$2" \
		"${fixed[@]}" >"$scratch/report" 2>"$scratch/valgrind" ||
		{ cat "$scratch/report" "$scratch/valgrind" >&2; exit 1; }
	# summary: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
	awk '$1 == "summary:" { ir += $2; d1 += $6 + $9; ll += $7 + $10 }
	     END { printf "%.0f %.0f %.0f\n", ir, d1, ll }' "$scratch"/cg.*
}

# count_config NAME INPUT SIMARGS: a row per binary of the counts per
# simulated cycle, then the ratios of the first's to the second's
count_config() {
	local b ir d1 ll ir1 d11 ll1 ir2 d12 ll2 span=$((cycles > 1 ? cycles - 1 : 1))
	declare -A per
	for b in "${!binaries[@]}"; do
		read -r ir1 d11 ll1 < <(counts "${binaries[$b]}" 1 "$2" "$3")
		read -r ir2 d12 ll2 < <(counts "${binaries[$b]}" "$cycles" "$2" "$3")
		results >"$scratch/results.$b"
		ir=$(((ir2 - ir1) / span))
		d1=$(((d12 - d11) / span))
		ll=$(((ll2 - ll1) / span))
		per[$b]="$ir $d1 $ll"
		printf '%-12s %-3s %14s %12s %12s\n' "$1" "$((b + 1))" "$ir" "$d1" "$ll"
	done
	[ ${#binaries[@]} -eq 2 ] || return 0
	same=no
	cmp -s "$scratch/results.0" "$scratch/results.1" && same=yes
	read -r ir1 d11 ll1 <<<"${per[0]}"
	read -r ir2 d12 ll2 <<<"${per[1]}"
	awk -v n="$1" -v a="$ir1" -v b="$ir2" -v c="$d11" -v d="$d12" -v e="$ll1" -v f="$ll2" \
		-v same="$same" 'BEGIN { printf "%-12s ratio %.2fx fewer instructions, %.2fx fewer " \
		"first-level and %.2fx fewer last-level misses; same results: %s\n", n, a / b, c / d,
		e / f, same }'
}

# results: the runs of the last run's JSON without their wall-clock time
# (its configuration gains keys as sim gains options: not a result)
results() {
	sed -n -e '/^  "runs": \[/,/^  \]/p' "$scratch/run.json" |
		sed -e 's/"seconds": [0-9.e+-]*, //'
}

declare -A rate phits
if [ "$counting" = 1 ]; then
	printf '%-12s %-3s %14s %12s %12s\n' config bin "instr/cycle" "D1 miss/cyc" \
		"LL miss/cyc"
	for entry in "${configs[@]}"; do
		IFS='|' read -r name fabric route simargs <<<"$entry"
		wanted "$name" || continue
		count_config "$name" "$(input "$name" "$fabric" "$route")" "$simargs"
	done
	exit 0
fi
printf '%-12s %-3s %9s %9s %12s %14s %9s %9s %s\n' config bin "cpu s" "setup s" \
	"cycles/cpu-s" "phits/cpu-s" "run MB" "rss MB" accepted
for entry in "${configs[@]}"; do
	IFS='|' read -r name fabric route simargs <<<"$entry"
	wanted "$name" || continue
	in=$(input "$name" "$fabric" "$route")
	declare -A setups totals rsses
	setups=() totals=() rsses=()
	for ((i = 0; i < repeat; i++)); do
		for b in "${!binaries[@]}"; do
			read -r t _ < <(cpu "${binaries[$b]}" 1 "$in" "$simargs")
			setups[$b]=$(least "${setups[$b]:-}" "$t")
			read -r t rss < <(cpu "${binaries[$b]}" "$cycles" "$in" "$simargs")
			[ "$(least "${totals[$b]:-}" "$t")" = "$t" ] && rsses[$b]=$rss
			totals[$b]=$(least "${totals[$b]:-}" "$t")
			cp "$scratch/run.json" "$scratch/run.$b.json"
			cp "$scratch/report" "$scratch/report.$b"
		done
	done
	for b in "${!binaries[@]}"; do
		setup=${setups[$b]} total=${totals[$b]} rss=${rsses[$b]}
		cp "$scratch/run.$b.json" "$scratch/run.json"
		cp "$scratch/report.$b" "$scratch/report"
		results >"$scratch/results.$b"
		delivered=$(sed -n 's/.*"delivered": \([0-9]*\).*/\1/p' "$scratch/run.json")
		packet=$(sed -n 's/.*"packet_phits": \([0-9]*\).*/\1/p' "$scratch/run.json")
		accepted=$(sed -n 's/.*"accepted": \([0-9.e+-]*\).*/\1/p' "$scratch/run.json")
		run_mb=$(sed -n 's/^memory per run: *\([0-9.]*\) MB/\1/p' "$scratch/report")
		net=$(awk -v t="$total" -v s="$setup" 'BEGIN { n = t - s; print (n > 0.001 ? n : 0.001) }')
		rate[$name.$b]=$(awk -v c="$cycles" -v n="$net" 'BEGIN { printf "%.0f", c / n }')
		phits[$name.$b]=$(awk -v d="$delivered" -v p="$packet" -v n="$net" \
			'BEGIN { printf "%.0f", d * p / n }')
		printf '%-12s %-3s %9.2f %9.2f %12s %14s %9s %9.1f %s\n' "$name" "$((b + 1))" \
			"$total" "$setup" "${rate[$name.$b]}" "${phits[$name.$b]}" "$run_mb" \
			"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$accepted"
	done
	if [ ${#binaries[@]} -eq 2 ]; then
		same=no
		cmp -s "$scratch/results.0" "$scratch/results.1" && same=yes
		printf '%-12s ratio %s cycles/cpu-s, %s phits/cpu-s; same results: %s\n' "$name" \
			"$(awk -v a="${rate[$name.0]}" -v b="${rate[$name.1]}" 'BEGIN { printf "%.2fx", b / a }')" \
			"$(awk -v a="${phits[$name.0]}" -v b="${phits[$name.1]}" \
				'BEGIN { printf "%.2fx", (a > 0 ? b / a : 0) }')" "$same"
	fi
done
