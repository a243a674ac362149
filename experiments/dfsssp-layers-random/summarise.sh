#!/bin/sh
# summarise.sh - the DFSSSP study's Fig. 9 from run.sh's rows: per link
# count and engine, the fabrics tried, how many gave a count, how many
# exceeded the VLs the engine could use (OpenSM's: the ports'), and the
# min, mean and max of the counts, as summary.csv beside layers.csv.  A
# mean over fabrics some of which exceeded is a mean of the others only:
# the "exceeded" column says when.
# Usage: experiments/dfsssp-layers-random/summarise.sh [RESULTS_DIR]
#   RESULTS_DIR  default experiments/results/dfsssp-layers-random
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../results/dfsssp-layers-random}
# The first seven fields never hold a comma (commands, later, may).
awk -F, 'NR > 1 {
	key = $1 "," $3
	if (!(key in fabrics)) { order[++n] = key; min[key] = 1e9; max[key] = 0 }
	fabrics[key]++
	if ($4 == "exceeds") { exceeded[key]++; next }
	if ($5 !~ /^[0-9]+$/) { failed[key]++; next }
	counted[key]++; sum[key] += $5
	if ($5 < min[key]) min[key] = $5
	if ($5 > max[key]) max[key] = $5
}
END {
	print "links,engine,fabrics,counted,exceeded,failed,min,mean,max"
	for (i = 1; i <= n; i++) {
		k = order[i]
		if (counted[k]) printf "%s,%d,%d,%d,%d,%d,%.2f,%d\n", k, fabrics[k], counted[k],
			exceeded[k], failed[k], min[k], sum[k] / counted[k], max[k]
		else printf "%s,%d,0,%d,%d,,,\n", k, fabrics[k], exceeded[k], failed[k]
	}
}' "$dir/layers.csv" | { IFS= read -r head; echo "$head"; sort -t, -k1,1n -k2,2; } >"$dir/summary.csv.tmp"
mv "$dir/summary.csv.tmp" "$dir/summary.csv"
echo "summarise.sh: $dir/summary.csv"
