# osm-plugin-lib.sh - what the OpenSM plugin tests share (sourced, not run):
# where the build tree's plugin is, how to bring a fabric up under OpenSM
# with it, and pass/fail counting.
#
# OpenSM dlopens "lib<name>.so" through the normal library search path, so
# the tests point LD_LIBRARY_PATH at the build tree's osm_plugin/.libs and
# lib/.libs (VLROUTE_OSM_LIBS, set by "make check"). When the plugin was
# built with AddressSanitizer, OpenSM (not instrumented) must preload the
# sanitizer runtime first. ASan then owns every allocation of the process,
# so it also sees the memory bugs of OpenSM's own libraries and of ibsim's
# libumad2sim.so (it finds some); those are not ours to judge: errors in
# interceptors called from them are suppressed, and of the leaks reported
# when OpenSM exits only those allocated through the plugin or libvlroute
# count. The plugin and libvlroute stay fully checked.
#
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause

VLROUTE=${VLROUTE:-vlroute}
TOPOLOGIES=${TOPOLOGIES:-../topologies}
TESTS_DIR=${TESTS_DIR:-$(dirname "$0")}
bringup="$TESTS_DIR/ibsim-bringup.sh"
osm_libs=${VLROUTE_OSM_LIBS:-}
passed=0
failed=0

if [ -z "$osm_libs" ]; then
	echo "SKIP: VLROUTE_OSM_LIBS is not set (run through make check)"
	exit 77
fi
plugin_so=${osm_libs%%:*}/libvlroute_osm.so
if [ ! -f "$plugin_so" ]; then
	echo "FAIL: the plugin $plugin_so was not built"
	exit 1
fi
LD_LIBRARY_PATH=$osm_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

# A sanitizer-built plugin: preload its runtime into OpenSM.
preload_args=()
asan_runtime=$(ldd "$plugin_so" 2>/dev/null | awk '$1 ~ /^libasan\.so/ { print $3; exit }')
if [ -n "$asan_runtime" ]; then
	preload_args=(--preload "$asan_runtime")
	osm_asan_options="${ASAN_OPTIONS:+$ASAN_OPTIONS:}abort_on_error=1"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/vlroute-osm-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

if [ -n "$asan_runtime" ]; then
	printf 'interceptor_via_lib:%s\n' libumad2sim libibumad libosmvendor \
		libosmcomp libopensm sbin/opensm >"$scratch/asan.supp"
	osm_asan_options="$osm_asan_options:suppressions=$scratch/asan.supp"
fi

check() {
	local what=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		echo "FAIL: $what"
		failed=$((failed + 1))
		return 1
	fi
}

# osm_up NAME NETFILE [bring-up options...]: bring NETFILE up in ibsim with a
# stock OpenSM that loads the plugin (dumps on: -D 0x43; QoS on: -Q, so
# OpenSM programs the SL2VL tables, unless OSM_NO_QOS=1); OpenSM's files
# stay in $scratch/NAME. OSM_TIMEOUT bounds each wait (default 120 s).
osm_up() {
	local name=$1 netfile=$2 status
	local args=(--vlroute "$VLROUTE" --timeout "${OSM_TIMEOUT:-120}"
		--workdir "$scratch/$name" --opensm-arg -D --opensm-arg 0x43)
	shift 2
	[ "${OSM_NO_QOS:-0}" = 1 ] || args+=(--opensm-arg -Q)
	if [ -n "$asan_runtime" ]; then
		ASAN_OPTIONS=$osm_asan_options bash "$bringup" "${args[@]}" \
			"${preload_args[@]}" "$@" "$netfile" >"$scratch/$name.out" 2>&1
	else
		bash "$bringup" "${args[@]}" "$@" "$netfile" >"$scratch/$name.out" 2>&1
	fi
	status=$?
	[ "$status" -eq 77 ] && { cat "$scratch/$name.out"; exit 77; }
	if [ -n "$asan_runtime" ]; then
		check "$name: no leak through the plugin or libvlroute in OpenSM" \
			no_plugin_leaks "$scratch/$name/opensm.err"
	fi
	return "$status"
}

# no_plugin_leaks ERRFILE: no LeakSanitizer record in OpenSM's stderr has a
# frame in the plugin or libvlroute (OpenSM's own leaks are not ours). By
# the time LeakSanitizer looks, OpenSM has dlclosed the plugin, whose frames
# then show as "<unknown module>": no other code of OpenSM is unloaded.
no_plugin_leaks() {
	[ -f "$1" ] || return 0
	awk '/^(Direct|Indirect) leak/ { leak = 1; next }
	     /^$/ { leak = 0 }
	     leak && /<unknown module>|libvlroute|\/osm_plugin\/|vlr_/ { bad = 1; print }
	     END { exit bad }' "$1"
}

# logged NAME PATTERN: OpenSM's log of run NAME has a line matching PATTERN.
logged() {
	grep -qE -- "$2" "$scratch/$1/opensm.log"
}

not_logged() {
	! logged "$@"
}

not() {
	! "$@"
}

# pathsl_pairs FILE: a vlroute-path-sl.dump (vlroute-pathsl(5)) as one
# "PORTGUID DLID SL" line per source port and DLID, sorted: two files give
# the same SLs exactly when these lines are equal, however rows are shared.
pathsl_pairs() {
	awk '/^lids / { first = $2 }
	     /^row / {
		s = $3; out = ""; i = 1
		while (i <= length(s)) {
			c = substr(s, i++, 1)
			if (c == ",")
				continue
			if (substr(s, i, 1) != "*") {
				out = out c
				continue
			}
			n = ""
			for (i++; i <= length(s) && substr(s, i, 1) ~ /[0-9]/; i++)
				n = n substr(s, i, 1)
			for (n += 0; n > 0; n--)
				out = out c
		}
		row[$2] = out
	     }
	     /^port / {
		for (d = 1; d <= length(row[$3]); d++)
			print $2, d + first - 1, substr(row[$3], d, 1)
	     }' "$1" | sort
}

# same_path_sls A B: the two path-SL files give every pair the same SL.
same_path_sls() {
	[ -s "$1" ] && [ -s "$2" ] || return 1
	pathsl_pairs "$1" >"$scratch/pairs-a" && pathsl_pairs "$2" >"$scratch/pairs-b" &&
		[ -s "$scratch/pairs-a" ] && cmp -s "$scratch/pairs-a" "$scratch/pairs-b"
}

# finish SCRIPT: show what failed, print the tally, exit accordingly.
finish() {
	local f
	if [ "$failed" -ne 0 ]; then
		for f in "$scratch"/*.out; do
			[ -f "$f" ] || continue
			echo "--- $f"
			tail -n 15 "$f"
		done
		for f in "$scratch"/*/opensm.log; do
			[ -f "$f" ] || continue
			echo "--- $f (errors and vlroute lines)"
			grep -E 'ERR|vlr_|vlroute_osm|tables configured|SUBNET UP' "$f" | tail -n 15
		done
	fi
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
