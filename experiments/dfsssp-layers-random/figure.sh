#!/bin/sh
# figure.sh - the DFSSSP study's Fig. 9 from summary.csv (summarise.sh
# makes it first): mean virtual layers against switch-to-switch links, with
# min-max bars, for our dfsssp (weakest, all) and OpenSM's lash and dfsssp,
# as figure.pdf and figure.png beside the CSVs.  Called by
# experiments/figures.sh; needs gnuplot (Debian package gnuplot-nox).
# Usage: experiments/dfsssp-layers-random/figure.sh [RESULTS_DIR]
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../results/dfsssp-layers-random}
sh "$here/summarise.sh" "$dir" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for e in weakest all lash dfsssp; do
	awk -F, -v e="$e" '$2 == e && $4 > 0 { print $1, $8, $7, $9 }' "$dir/summary.csv" >"$tmp/$e"
done
for out in pdf png; do
	case $out in
	pdf) term="pdfcairo size 5in,3.2in font 'Sans,9'" ;;
	png) term="pngcairo size 900,580 font 'Sans,10'" ;;
	esac
	gnuplot 2>"$tmp/gnuplot.err" <<GP || { cat "$tmp/gnuplot.err" >&2; exit 1; }
set terminal $term
set output '$dir/figure.$out.tmp'
set title 'Virtual layers, random fabrics: 128 switches of 32 ports, 16 endpoints each'
set xlabel 'switch-to-switch links'
set ylabel 'virtual layers (mean, min-max)'
set key top right
set yrange [0:*]
set grid
plot '$tmp/weakest' using 1:2:3:4 with yerrorlines title 'vlroute dfsssp (weakest)', \
     '$tmp/all' using (\$1+4):2:3:4 with yerrorlines title 'vlroute dfsssp (all)', \
     '$tmp/lash' using (\$1-4):2:3:4 with yerrorlines title 'OpenSM lash', \
     '$tmp/dfsssp' using (\$1+8):2:3:4 with yerrorlines title 'OpenSM dfsssp'
GP
	mv "$dir/figure.$out.tmp" "$dir/figure.$out"
done
echo "figure.sh: $dir/figure.pdf"
