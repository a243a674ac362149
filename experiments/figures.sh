#!/bin/sh
# figures.sh - redraw every figure from the results kept in experiments/results/:
# for each experiment file (experiments/*/*.yaml) whose merged runs.csv is
# there, figure.pdf (and figure.png) beside it; for each experiment folder
# with its own figure.sh (the DFSSSP study's, whose OpenSM runs are scripts),
# that script, when its results/NAME folder is there. Nothing is simulated
# again. A file's "# plot: OPTIONS" line, if any, gives the options of its
# figure (e.g. "--kind switches --switches ^df_g0_" for the ADVc study's
# injections per router).
# Usage: experiments/figures.sh [VLROUTE]   (default: vlroute on PATH, else
# the build tree's)
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -eu

here=$(cd "$(dirname "$0")" && pwd)
vlroute=${1:-$(command -v vlroute || echo "$here/../build/tools/vlroute")}
drawn=0
for file in "$here"/*/*.yaml; do
	results=$(sed -n 's/^results: *//p' "$file")
	dir=$(dirname "$file")/${results:-merged}
	grep -q '^sim:' "$file" || continue	# analyze results are tables, not figures
	[ -f "$dir/runs.csv" ] || continue
	options=$(sed -n 's/^# plot: *//p' "$file")
	# shellcheck disable=SC2086 # the options are words
	"$vlroute" experiment plot "$file" $options -o "$dir/figure.pdf"
	# shellcheck disable=SC2086
	"$vlroute" experiment plot "$file" $options -o "$dir/figure.png"
	echo "figures.sh: $dir/figure.pdf"
	drawn=$((drawn + 1))
done
for script in "$here"/*/figure.sh; do
	[ -d "$here/results/$(basename "$(dirname "$script")")" ] || continue
	sh "$script"
	drawn=$((drawn + 1))
done
echo "figures.sh: $drawn experiment(s) drawn"
