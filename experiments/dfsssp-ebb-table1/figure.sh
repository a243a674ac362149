#!/bin/sh
# figure.sh - the DFSSSP study's Figs. 5 and 6 (and the k-ary n-trees it
# does not draw) from the results: table.csv, a row per fabric and engine
# (ours from vlroute experiment's runs.csv, OpenSM's from opensm.csv), and
# figure.pdf / figure.png, effective bisection bandwidth against endpoints,
# one panel per family.  Called by experiments/figures.sh; needs gnuplot
# (Debian package gnuplot-nox).
# Usage: experiments/dfsssp-ebb-table1/figure.sh [RESULTS_DIR]
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../results/dfsssp-ebb-table1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# table.csv: family,endpoints,engine,status,ebb from both files (quoted
# CSV fields split by hand: mawk has no FPAT).
awk '
function split_csv(line, f,    n, i, c, q, cur) {
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
		else if (c == "\"") q = !q
		else if (c == "," && !q) { f[++n] = cur; cur = "" }
		else cur = cur c
	}
	f[++n] = cur
	return n
}
function emit(fabric, engine, status, ebb,    k) {
	k = split(fabric, w, " ")
	family = w[1] == "XGFT" ? "XGFT" : w[1] == "Kautz" ? "Kautz" : "k-ary n-tree"
	print family "," w[k] "," engine "," status "," ebb
}
FNR == 1 { split_csv($0, head); delete col; for (i in head) col[head[i]] = i; next }
{
	split_csv($0, f)
	if ("route_engine" in col) {
		fabric = f[col["label"]]; sub(/, .*/, "", fabric)
		emit(fabric, "vlroute " f[col["route_engine"]], "ok", f[col["mean"]])
	} else
		emit(f[col["fabric"]], "OpenSM " f[col["engine"]], f[col["status"]], f[col["ebb"]])
}' "$dir/runs.csv" "$dir/opensm.csv" | sort -t, -k1,1 -k3,3 -k2,2n |
	{ echo "family,endpoints,engine,status,ebb"; cat; } >"$dir/table.csv.tmp"
mv "$dir/table.csv.tmp" "$dir/table.csv"

engines="vlroute_sssp vlroute_dfsssp OpenSM_minhop OpenSM_updn OpenSM_lash OpenSM_sssp OpenSM_dfsssp OpenSM_dor"
for family in XGFT Kautz k-ary_n-tree; do
	for e in $engines; do
		awk -F, -v fam="$family" -v e="$e" '
		{ f = $1; gsub(/ /, "_", f); g = $3; gsub(/ /, "_", g) }
		f == fam && g == e && $4 == "ok" { print $2, $5 }' "$dir/table.csv" >"$tmp/$family-$e"
	done
done
plots() {
	sep=
	for e in $engines; do
		printf "%s'%s' using 1:2 with linespoints title '%s'" "$sep" "$tmp/$1-$e" "$(echo "$e" | tr _ ' ')"
		sep=', '
	done
}
for out in pdf png; do
	case $out in
	pdf) term="pdfcairo size 9in,3.2in font 'Sans,8'" ;;
	png) term="pngcairo size 1500,560 font 'Sans,10'" ;;
	esac
	gnuplot 2>"$tmp/gnuplot.err" <<GP || { cat "$tmp/gnuplot.err" >&2; exit 1; }
set terminal $term
set output '$dir/figure.$out.tmp'
set multiplot layout 1,3 title 'Effective bisection bandwidth, 1000 random bisections (DFSSSP study, Table I)'
set logscale x 2
set xlabel 'endpoints'
set ylabel 'effective bisection bandwidth'
set yrange [0:1]
set grid
set key top right font ',7'
set title 'XGFT (Fig. 5)'
plot $(plots XGFT)
set title 'Kautz (Fig. 6)'
plot $(plots Kautz)
set title 'k-ary n-tree'
plot $(plots k-ary_n-tree)
unset multiplot
GP
	mv "$dir/figure.$out.tmp" "$dir/figure.$out"
done
echo "figure.sh: $dir/figure.pdf"
