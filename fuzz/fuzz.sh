#!/bin/bash
# fuzz.sh - build the libFuzzer harnesses and run each for a bounded time:
#   fuzz/fuzz.sh BUILD_DIR SECONDS [HARNESS...]
# BUILD_DIR is configured with "CC=clang --enable-fuzzing" if it is not yet
# (run.sh uses build-fuzz/); only the library, vlroute.conf's reader, the
# command's convenience library (for the experiment's readers) and the
# harnesses are built. Each harness (all of them by default) runs for
# SECONDS, starting from fuzz/corpus/HARNESS/ (the committed seeds) and
# BUILD_DIR/fuzz/corpus/HARNESS/ (what earlier runs found, kept). A crash,
# leak, UndefinedBehaviorSanitizer report or hang (10 s for one input)
# fails the run and leaves the input that caused it in
# BUILD_DIR/fuzz/crashes/HARNESS-* (replay: BUILD_DIR/fuzz/HARNESS FILE)
# and the whole report in BUILD_DIR/fuzz/HARNESS.log. Prints one line per
# harness: runs, executions per second, corpus size, and the verdict.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
harnesses=(fuzz_netfile fuzz_lfts fuzz_sl2vl fuzz_guid2lid fuzz_subnet_lst fuzz_pathsl
	fuzz_lfts_compact fuzz_sl2vl_compact fuzz_pathsl_compact fuzz_valiant fuzz_route_info fuzz_trace fuzz_osm_config fuzz_experiment
	fuzz_experiment_csv fuzz_experiment_json)

if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: $0 BUILD_DIR SECONDS [HARNESS...]" >&2
	exit 2
fi
build=$(mkdir -p "$1" && cd "$1" && pwd)
seconds=$2
shift 2
[ $# -eq 0 ] || harnesses=("$@")

if [ ! -f "$build/Makefile" ] || [ "$top/configure" -nt "$build/Makefile" ]; then
	echo "=== configure in $build CC=clang --enable-fuzzing"
	(cd "$build" && "$top/configure" -q CC=clang --enable-fuzzing)
fi
echo "=== make the harnesses in $build/fuzz"
make -s -C "$build/lib" -j"$jobs" libvlroute.la
make -s -C "$build/osm_plugin" -j"$jobs" libvlroute_osm_config.la
make -s -C "$build/tools" -j"$jobs" commit.h
make -s -C "$build/tools" -j"$jobs" libvlroute_cli.la
make -s -C "$build/fuzz" -j"$jobs" "${harnesses[@]}"

# "Done 123456 runs in 20 second(s)" and the last "exec/s: N" of a log.
summary() {
	local log=$1
	awk '/^Done [0-9]+ runs/ { runs = $2 }
	     /exec\/s: [0-9]+/ { for (i = 1; i < NF; i++) if ($i == "exec/s:") rate = $(i + 1);
	                         for (i = 1; i < NF; i++) if ($i == "corp:") corpus = $(i + 1) }
	     END { printf "%10s runs %7s exec/s  corpus %s", runs ? runs : "?",
	           rate ? rate : "?", corpus ? corpus : "?" }' "$log"
}

status=0
mkdir -p "$build/fuzz/crashes"
for harness in "${harnesses[@]}"; do
	corpus="$build/fuzz/corpus/$harness"
	log="$build/fuzz/$harness.log"
	mkdir -p "$corpus"
	if (cd "$build/fuzz" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"./$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$build/fuzz/crashes/$harness-" \
		"$corpus" "$top/fuzz/corpus/$harness") >"$log" 2>&1; then
		verdict=ok
	else
		verdict="FAILED (see $log; reproducer in $build/fuzz/crashes/)"
		status=1
	fi
	printf '%-20s %s  %s\n' "$harness" "$(summary "$log")" "$verdict"
done
exit "$status"
