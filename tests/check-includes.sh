#!/bin/bash
# check-includes.sh - the dependency rules of libvlroute, read from the
# #include lines: a part (a folder of lib/) includes only the parts lib/PARTS
# allows it, never another part's *_internal.h, and a plain "x.h" only from
# its own folder; a public header (lib/include/vlroute/P.h) includes only
# what part P may; the library never includes the umbrella vlroute.h, never
# touches OpenSM and never starts a program; only osm_plugin/ includes
# OpenSM's headers. Prints every violation as FILE:LINE: what is wrong.
#
# Usage: check-includes.sh [SOURCE-ROOT]   (default: the tree of this script)
# Exit status: 0 no violation, 1 violations, 2 cannot read the rules.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -u

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
parts=$root/lib/PARTS
[ -r "$parts" ] || {
	echo "check-includes.sh: cannot read $parts" >&2
	exit 2
}

cd "$root" || exit 2
# Every source and header of lib/, tools/, osm_plugin/ and tests/, with its
# part ("include" for the public headers, "-" outside lib/).
files() {
	find lib tools osm_plugin tests -name '*.[ch]' | sort
}

files | xargs awk -v parts="$parts" '
function fail(what) {
	printf "%s:%d: %s\n", FILENAME, FNR, what
	bad++
}
function part_of(path,    p) {
	if (path == "lib/include/vlroute/vlroute.h")
		return "-"
	if (path ~ /^lib\/include\/vlroute\//) {
		p = path
		sub(/^lib\/include\/vlroute\//, "", p)
		sub(/\.h$/, "", p)
		return "public:" p
	}
	if (path ~ /^lib\/[a-z_]+\//) {
		p = path
		sub(/^lib\//, "", p)
		sub(/\/.*/, "", p)
		return p
	}
	return "-"
}
function may(from, to) {
	return from == to || ((from SUBSEP to) in allowed)
}
BEGIN {
	while ((getline line < parts) > 0) {
		if (line ~ /^#/ || line !~ /:/)
			continue
		name = line
		sub(/:.*/, "", name)
		known[name] = 1
		rest = line
		sub(/^[^:]*:/, "", rest)
		n = split(rest, deps, " ")
		for (i = 1; i <= n; i++)
			allowed[name, deps[i]] = 1
	}
	close(parts)
}
FNR == 1 {
	part = part_of(FILENAME)
	dir = FILENAME
	sub(/\/[^\/]*$/, "", dir)
	own = part
	if (part ~ /^public:/) {
		own = substr(part, 8)
		if (!(own in known))
			fail("public header of no part in lib/PARTS")
	} else if (part != "-" && !(part in known))
		fail("folder lib/" part " is not a part in lib/PARTS")
}
/^[ \t]*#[ \t]*include[ \t]*</ {
	header = $0
	sub(/^[^<]*</, "", header)
	sub(/>.*/, "", header)
	if (header ~ /^opensm\// && FILENAME !~ /^osm_plugin\// && FILENAME !~ /^tests\/test_osm_/)
		fail("<" header ">: only osm_plugin/ touches OpenSM")
	if (header !~ /^vlroute\//)
		next
	target = header
	sub(/^vlroute\//, "", target)
	sub(/\.h$/, "", target)
	if (part == "-")
		next
	if (target == "vlroute")
		fail("<vlroute/vlroute.h>: the library includes the headers of the parts it uses, not the umbrella")
	else if (!(target in known))
		fail("<" header ">: no such part in lib/PARTS")
	else if (!may(own, target))
		fail("<" header ">: " own " may not use " target " (lib/PARTS)")
	next
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	header = $0
	sub(/^[^"]*"/, "", header)
	sub(/".*/, "", header)
	if (part == "-") {
		if (header ~ /_internal\.h$/ && FILENAME ~ /^(tools|osm_plugin)\//)
			fail("\"" header "\": an internal header of the library")
		next
	}
	if (header !~ /\//) {
		if (header != "config.h" && system("test -e \"" dir "/" header "\"") != 0)
			fail("\"" header "\": not in " dir "/; another part'"'"'s header is included as \"part/" header "\"")
		next
	}
	target = header
	sub(/\/.*/, "", target)
	if (!(target in known))
		fail("\"" header "\": no such part in lib/PARTS")
	else if (target == own)
		fail("\"" header "\": a header of its own folder is included without the folder")
	else if (header ~ /_internal\.h$/)
		fail("\"" header "\": the internal header of " target)
	else if (!may(own, target))
		fail("\"" header "\": " own " may not use " target " (lib/PARTS)")
	next
}
part != "-" && part !~ /^public:/ && /(^|[^a-z_])(popen|system|execv|execl|execvp|fork|posix_spawn)[ \t]*\(/ {
	fail("the library starts no program; the CLI does")
}
END {
	exit bad > 0
}
' || exit 1
