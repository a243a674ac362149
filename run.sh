#!/bin/bash
# run.sh - everything on a fresh Debian machine, in one command:
#   ./run.sh demo   install what is missing, build, generate a Dragonfly,
#                   route it offline (dfsssp, valiant), analyse and simulate
#                   the tables, and bring it up in a real ibsim with a
#                   stock OpenSM, first with minhop, then with our plugin
#   ./run.sh test   install what is missing, build with gcc, run every test,
#                   then the whole suite again built with clang, and again
#                   built with AddressSanitizer and UndefinedBehaviorSanitizer,
#                   then make distcheck, then every libFuzzer harness
#                   for 15 s (fuzz/fuzz.sh)
#   ./run.sh fuzz [SECONDS]
#                   install what is missing, build the libFuzzer harnesses
#                   of every reader with clang in build-fuzz/ and run each
#                   for SECONDS (default 300) from its seed corpus; a
#                   crash, leak or sanitizer report fails, its input left
#                   in build-fuzz/fuzz/crashes/ (see fuzz/fuzz.sh)
#   ./run.sh build  install what is missing and build only
# Builds go to build/, build-clang/, build-asan/ and build-fuzz/ beside this
# script; the demo leaves only its fabric, its figure and a log of what it
# printed in build/demo (its table sets, gigabytes, go to a scratch
# directory removed on exit).
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

top=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

packages=(gcc clang make autoconf automake libtool pkg-config
	opensm libopensm-dev ibsim-utils libibumad-dev libibverbs-dev
	libcmocka-dev infiniband-diags gnuplot-nox libclang-rt-14-dev
	munge slurm-wlm slurm-client libyaml-dev)

say() {
	printf '\n=== %s\n' "$*"
}

install_packages() {
	local missing=() package
	for package in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
			grep -q "install ok installed" || missing+=("$package")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	say "installing Debian packages: ${missing[*]}"
	local sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	"${sudo[@]}" apt-get update
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
}

bootstrap() {
	if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
		say "autoreconf -fi"
		(cd "$top" && autoreconf -fi)
	fi
}

# build DIR [configure arguments...]
build_in() {
	local dir=$1
	shift
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ] || [ "$top/configure" -nt "$dir/Makefile" ]; then
		say "configure in ${dir#"$top"/} $*"
		(cd "$dir" && "$top/configure" "$@")
	fi
	say "make in ${dir#"$top"/}"
	make -C "$dir" -j"$jobs"
}

build() {
	install_packages
	bootstrap
	build_in "$top/build"
}

# Sum the automake test counts of every test-suite.log under DIR.
count_results() {
	local dir=$1
	find "$dir" -name test-suite.log -path '*/tests/*' -exec grep -hE '^# (PASS|FAIL|ERROR|XPASS):' {} + |
		awk '{n[$2] += $3} END {printf "%d %d\n", n["PASS:"], n["FAIL:"] + n["ERROR:"] + n["XPASS:"]}'
}

check_in() {
	local dir=$1 label=$2
	say "make check ($label)"
	if make -C "$dir" -j"$jobs" check; then
		return 0
	fi
	find "$dir/tests" -name '*.log' ! -name test-suite.log -newer "$dir/Makefile" \
		-exec grep -l -E '^(FAIL|ERROR)' {} + 2>/dev/null | while read -r log; do
		echo "--- $log"
		tail -40 "$log"
	done
	return 1
}

run_tests() {
	local status=0 passed=0 failed=0 p f
	build
	check_in "$top/build" "plain build" || status=1

	# Tests of the test harness itself (slurm.test) run in the plain build
	# only: they exercise no vlroute code that the other builds change.
	export VLROUTE_HARNESS_TESTS=0
	build_in "$top/build-clang" CC=clang
	check_in "$top/build-clang" "clang" || status=1

	build_in "$top/build-asan" \
		CFLAGS="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		check_in "$top/build-asan" "AddressSanitizer + UndefinedBehaviorSanitizer" || status=1

	say "make distcheck"
	make -C "$top/build" -j"$jobs" distcheck || status=1

	say "libFuzzer harnesses, 15 s each"
	bash "$top/fuzz/fuzz.sh" "$top/build-fuzz" 15 || status=1

	for dir in "$top/build" "$top/build-clang" "$top/build-asan"; do
		read -r p f < <(count_results "$dir")
		passed=$((passed + p))
		failed=$((failed + f))
	done
	say "summary"
	echo "tests: $passed passed, $failed failed"
	[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
}

# The demo proper; its output goes to the terminal and build/demo/demo.log.
demo_steps() {
	local vlroute=$1 demo=$2 tables=$3
	local net="$demo/dragonfly-p6-a12-h6.net"
	say "vlroute gen dragonfly -p 6 -a 12 -h 6  (the 5256-host Dragonfly of the Valiant studies)"
	time "$vlroute" gen dragonfly -p 6 -a 12 -h 6 -o "$net"
	say "vlroute info"
	"$vlroute" info "$net"
	say "vlroute route --engine dfsssp: deadlock-free tables, verified, in OpenSM's formats"
	"$vlroute" route "$net" --engine dfsssp -o "$tables/dfsssp"
	say "vlroute route --engine valiant --lmc 2: Valiant offsets, 2phases VL policy compiled to SLs"
	"$vlroute" route "$net" --engine valiant --lmc 2 -o "$tables/valiant"
	du -sh "$tables/dfsssp" "$tables/valiant"
	say "vlroute analyze: effective bisection bandwidth and ADV+6 of both table sets"
	"$vlroute" analyze "$tables/dfsssp" --ebb --patterns 200 --pattern adv+6 | grep -E "^(ebb|pattern|bandwidth)"
	"$vlroute" analyze "$tables/valiant" --ebb --patterns 200 --pattern adv+6 --dlid random |
		grep -E "^(ebb|pattern|bandwidth)"
	say "vlroute sim: the Valiant tables under ADV+6 at full load, 3000 cycles"
	"$vlroute" sim "$tables/valiant" --traffic adv+6 --load 1.0 --cycles 3000 --dlid random \
		--plot "$demo/valiant-adv6.svg" | tail -2
	echo "figure: $demo/valiant-adv6.svg"
	say "bring it up: ibsim -n with the size flags above, then a stock opensm -o (minhop)"
	bash "$top/tests/ibsim-bringup.sh" --vlroute "$vlroute" --timeout 600 "$net"
	say "again, with our plugin inside the stock opensm: routing_engine vlr_dfsssp (-Q)"
	LD_LIBRARY_PATH="$top/build/osm_plugin/.libs:$top/build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		bash "$top/tests/ibsim-bringup.sh" --vlroute "$vlroute" --timeout 600 \
		--opensm-conf "event_plugin_name vlroute_osm" \
		--opensm-conf "routing_engine vlr_dfsssp,no_fallback" --opensm-arg -Q "$net"
}

run_demo() {
	local vlroute="$top/build/tools/vlroute" demo="$top/build/demo" tables
	build
	# What earlier demos left there: their table sets.
	rm -rf "$demo/tables" "$demo/valiant" "$demo"/tables.*
	mkdir -p "$demo"
	# The table sets (the Valiant LFT dump alone is 1.4 GB) live only while
	# the demo runs, beside the build rather than in a /tmp that may be small.
	tables=$(mktemp -d "$demo/tables.XXXXXX")
	trap "rm -rf $(printf %q "$tables")" EXIT
	demo_steps "$vlroute" "$demo" "$tables" 2>&1 | tee "$demo/demo.log"
	rm -rf "$tables"
	say "left in ${demo#"$top"/}: the fabric, the figure and demo.log"
	du -sh "$demo"
}

run_fuzz() {
	install_packages
	bootstrap
	say "libFuzzer harnesses, ${1}s each"
	bash "$top/fuzz/fuzz.sh" "$top/build-fuzz" "$1"
}

case "${1:-}" in
demo) run_demo ;;
test) run_tests ;;
fuzz) run_fuzz "${2:-300}" ;;
build) build ;;
*)
	echo "usage: $0 demo|test|build|fuzz [SECONDS]" >&2
	exit 2
	;;
esac
