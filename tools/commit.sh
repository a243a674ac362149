#!/bin/sh
# commit.sh [--bare] SRCDIR - the commit vlroute is built from, for
# "vlroute -V": "git describe --always --dirty" in a git checkout; in a
# release tarball (no .git) the COMMIT file "make dist" wrote, marked as
# such; else "unknown". --bare prints the commit alone, or nothing, for
# "make dist" to record.
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
bare=
if [ "$1" = --bare ]; then
	bare=1
	shift
fi
srcdir=$1
# Test for .git here: git itself would find a checkout around a tarball.
if [ -e "$srcdir/.git" ] &&
	commit=$(git -C "$srcdir" describe --always --dirty 2>/dev/null) && [ -n "$commit" ]; then
	echo "$commit"
elif [ -s "$srcdir/COMMIT" ]; then
	if [ -n "$bare" ]; then cat "$srcdir/COMMIT"; else echo "$(cat "$srcdir/COMMIT") (recorded by make dist)"; fi
elif [ -z "$bare" ]; then
	echo "unknown (neither a git checkout nor a release tarball)"
fi
