#!/bin/bash
# make-corpus.sh - regenerate the seed corpora in fuzz/corpus/HARNESS/:
#   fuzz/make-corpus.sh FUZZ_BUILD_DIR [VLROUTE]
# FUZZ_BUILD_DIR holds built harnesses (fuzz/fuzz.sh builds them);
# VLROUTE is the vlroute command (default: build/tools/vlroute). Seeds:
#   fuzz_netfile       small fabrics of every family from "vlroute gen", a
#                      net file using ibsim's whole syntax, and
#                      ibnetdiscover output;
#   the table files    the harnesses' fixture (a 3x2 HyperX routed by
#                      valiant, written by fuzz_subnet_lst -runs=0 into
#                      $VLR_FUZZ_FIXTURE) and the same fabric routed by
#                      valiant, sssp, dfsssp and minimal with "vlroute
#                      route", compact and with --text-dumps;
#   fuzz_route_info    the vlroute-route.info of those routes, and of a
#                      ladder on one VL routed for ideal VLs only;
#   fuzz_trace         small message traces;
#   fuzz_osm_config    vlroute.conf files setting every option;
#   fuzz_experiment    the experiment files of experiments/, one reading
#                      its fabric from a file and one in YAML's block
#                      style with anchors, aliases and quoting;
#   fuzz_experiment_csv   the first rows of the kept merged runs.csv and
#                      bins.csv (experiments/results/);
#   fuzz_experiment_json  the run results of a small sim and a small
#                      analyze experiment ("vlroute experiment run"), the
#                      first run of each kept summary.json, and YAML's
#                      aliases, which no JSON has (refused).
# Every seed is a few KB at most.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 1 ]; then
	echo "usage: $0 FUZZ_BUILD_DIR [VLROUTE]" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
vlroute=${2:-$here/../build/tools/vlroute}
corpus=$here/corpus
experiments=$here/../experiments
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seed() {
	local harness=$1 name=$2
	mkdir -p "$corpus/$harness"
	cat >"$corpus/$harness/$name"
}

net_seeds() {
	"$vlroute" gen hyperx -s 2x2 -p 1 | seed fuzz_netfile hyperx-2x2-p1.net
	"$vlroute" gen torus -s 3 -p 1 | seed fuzz_netfile torus-3-p1.net
	"$vlroute" gen dragonfly -p 1 -a 2 -h 1 | seed fuzz_netfile dragonfly-p1-a2-h1.net
	"$vlroute" gen dragonfly+ -L 2 -S 1 -p 1 -h 1 | seed fuzz_netfile dragonflyplus-l2-s1.net
	"$vlroute" gen fattree -k 2 -n 2 | seed fuzz_netfile fattree-k2-n2.net
	"$vlroute" gen random -n 4 -d 2 -p 1 --seed 1 | seed fuzz_netfile random-n4-d2.net
	seed fuzz_netfile syntax.net <<'NET'
# every construct of ibsim's syntax
width=2
speed=4
switchguid=0x1000
Switch 4 "s" # "Spine one" enhanced port 0 lid 7 lmc 0
# a comment inside a record
@[3] "up"
[1] "h"
[2] "t"[1] w=8 s=4

caguid+0x10
Ca 2 "h"
[1](100011) "s"[1] # lid 4 lmc 1
[2] "@up"

rtguid=0x3000
Rt 1 "t"
[1] "s"[2] # lid 12 lmc 2

module = "m"
Switch 2 "x"
[1] "y"[1]
Switch 1 "y"
[1] "x"[1]
do link up
NET
	seed fuzz_netfile ibnetdiscover.txt <<'NET'
#
# Topology file: generated on Tue Jun  5 14:15:10 2007
#
# Initiated from node 0008f10403960558 port 0008f10403960559

vendid=0x8f1
devid=0x5a06
sysimgguid=0x5442ba00003000
switchguid=0x5442ba00003080(5442ba00003080)
Switch	24 "S-005442ba00003080"		# "ISR9024 Voltaire" base port 0 lid 6 lmc 0
[22]	"H-0008f10403961354"[1](8f10403961355) 		# "MT23108 InfiniHost Mellanox Technologies" lid 4 4xSDR
[10]	"S-0008f10400410015"[1]		# "SW-6IB4 Voltaire" lid 3 4xSDR

vendid=0x8f1
devid=0x5a05
switchguid=0x8f10400410015(8f10400410015)
Switch	8 "S-0008f10400410015"		# "SW-6IB4 Voltaire" base port 0 lid 3 lmc 0
[1]	"S-005442ba00003080"[10]		# "ISR9024 Voltaire" lid 6 1xSDR

vendid=0x2c9
devid=0x5a44
sysimgguid=0x8f10403961354
caguid=0x8f10403961354
Ca	2 "H-0008f10403961354"		# "MT23108 InfiniHost Mellanox Technologies"
[1](8f10403961355) 	"S-005442ba00003080"[22]		# lid 4 lmc 1 "ISR9024 Voltaire" lid 6 4xSDR
NET
}

# The files of table directory dir as seeds named prefix-FILE.
table_seeds() {
	local dir=$1 prefix=$2 file harness
	for file in opensm-lfts.dump:fuzz_lfts opensm-sl2vl.dump:fuzz_sl2vl \
		guid2lid:fuzz_guid2lid opensm-subnet.lst:fuzz_subnet_lst \
		vlroute-path-sl.dump:fuzz_pathsl vlroute-valiant.dump:fuzz_valiant \
		vlroute-route.info:fuzz_route_info; do
		harness=${file#*:}
		file=${file%%:*}
		[ -f "$dir/$file" ] || continue
		seed "$harness" "$prefix-$file" <"$dir/$file"
	done
}

# The compact files of table directory dir as seeds named prefix-FILE.
compact_seeds() {
	local dir=$1 prefix=$2 file harness
	for file in vlroute-lfts.bin:fuzz_lfts_compact vlroute-sl2vl.bin:fuzz_sl2vl_compact \
		vlroute-path-sl.bin:fuzz_pathsl_compact; do
		harness=${file#*:}
		file=${file%%:*}
		[ -f "$dir/$file" ] || continue
		seed "$harness" "$prefix-$file" <"$dir/$file"
	done
}

tables_seeds() {
	local engine
	VLR_FUZZ_FIXTURE="$work/fixture" "$build/fuzz/fuzz_subnet_lst" -runs=0 \
		>"$work/fixture.log" 2>&1
	table_seeds "$work/fixture" valiant
	"$vlroute" route "$work/fixture/fabric.net" --engine valiant --lmc 1 \
		-o "$work/valiant-compact" >/dev/null
	compact_seeds "$work/valiant-compact" valiant
	for engine in sssp dfsssp minimal; do
		"$vlroute" route "$work/fixture/fabric.net" --engine "$engine" --text-dumps \
			-o "$work/$engine" >/dev/null
		table_seeds "$work/$engine" "$engine"
		"$vlroute" route "$work/fixture/fabric.net" --engine "$engine" \
			-o "$work/$engine-compact" >/dev/null
		compact_seeds "$work/$engine-compact" "$engine"
	done
	"$vlroute" route "$work/fixture/fabric.net" --engine valiant --lmc 1 \
		--vl-policy ladder --vls 1 --allow-unprogrammable -o "$work/ideal" >/dev/null
	table_seeds "$work/ideal" ideal
}

trace_seeds() {
	printf '0 0 1 8\n0 1 0 8\n5 2 3 16\n5 3 2 16\n100 15 0 1\n' | seed fuzz_trace pairs.trace
	printf '# all to one\n' | seed fuzz_trace comment.trace
	awk 'BEGIN { for (t = 0; t < 40; t++) printf "%d %d %d %d\n", t * 3, t % 16, (t * 7 + 1) % 16, 4 + t }' |
		awk '$2 != $3' | seed fuzz_trace ramp.trace
}

config_seeds() {
	seed fuzz_osm_config layers.conf <<'CONF'
# vlr_dfsssp and vlr_sssp
heuristic strongest
max_vls 4
balance no
path_sl_file /var/cache/opensm/vlroute-path-sl.dump
CONF
	seed fuzz_osm_config valiant.conf <<'CONF'
family hyperx   # vlr_minimal and vlr_valiant
vl_policy 2phases
phase_min minlast
vls_per_phase 2
dim_order 1,0
restricted 3
CONF
	seed fuzz_osm_config dragonfly.conf <<'CONF'
family dragonfly
vl_policy ladder
heuristic all
max_vls 15
CONF
	seed fuzz_osm_config file.conf <<'CONF'
# vlr_file
table_dir /var/lib/vlroute/tables
max_vls 8
CONF
}

experiment_seeds() {
	local name
	for name in engines-ebb policies-dragonfly; do
		seed fuzz_experiment "$name.yaml" <"$experiments/$name/experiment.yaml"
	done
	seed fuzz_experiment file.yaml <<'YAML'
# a fabric read from a file (fuzz_experiment writes fabric.net)
title: "HyperX 2x2 from a file"
fabric: {file: fabric.net}
route:
  - {label: shortest, engine: [sssp, dfsssp]}
  - {label: valiant, engine: valiant, lmc: 1, vl-policy: ladder}
sim: {traffic: [un, adv+1], load: [0.5, 1], seed: 3, seeds: 2, cycles: 1000}
YAML
	seed fuzz_experiment reference.yaml <<'YAML'
# no route: sim runs the reference model on the fabric file
fabric:
  - {label: file, file: fabric.net}
  - {gen: hyperx, sides: [2x2, 3x3], hosts: 2}
sim:
  - {label: Ladder, vl-policy: ladder, traffic: shift+1, load: [0.5, 1.0], seeds: 2}
  - {label: MinLast, vl-policy: 2phases, phase-min: minlast, phase-vls: free}
YAML
	seed fuzz_experiment block.yaml <<'YAML'
%YAML 1.1
---
description: >
  block style, anchors and aliases, quoting, flags
results: 'out/merged'
fabric:
  gen: dragonfly+
  leaves: 2
  spines: 1
  hosts: &one 1
  globals: *one
route:
  engine: !!str minimal
analyze:
  - label: "ebb"
    ebb: yes
    patterns: &n 4
  - label: perm
    ebb: off
    pattern: [perm, "adv+1"]
    patterns: *n
...
YAML
}

# The first rows of a kept CSV file; the first run of a kept summary.json.
results_seeds() {
	local name file
	for name in engines-ebb policies-dragonfly; do
		for file in runs.csv bins.csv; do
			[ -f "$experiments/results/$name/$file" ] || continue
			head -n 4 "$experiments/results/$name/$file" |
				seed fuzz_experiment_csv "$name-$file"
		done
		awk '/^    \{"run"/ { if (!runs++) { sub(/,$/, ""); print } next } { print }' \
			"$experiments/results/$name/summary.json" |
			seed fuzz_experiment_json "$name-summary.json"
	done
}

alias_seeds() {
	printf '%s\n' '{"run": "x", "settings": &s {"fabric": {"gen": "hyperx"}},' \
		' "commands": *s}' | seed fuzz_experiment_json alias-shared.json
	printf '%s\n' '{"result": {"runs": [&r {"bins": [0.5, *r]}]}}' |
		seed fuzz_experiment_json alias-cycle.json
}

# The result of one run of a small experiment of measurement measure.
run_seed() {
	local measure=$1 settings=$2 dir=$work/experiment-$1
	mkdir -p "$dir"
	printf 'fabric: {gen: hyperx, sides: 2x2, hosts: 1}\nroute: {engine: dfsssp}\n%s: %s\n' \
		"$measure" "$settings" >"$dir/experiment.yaml"
	"$vlroute" experiment run "$dir/experiment.yaml" -q
	seed fuzz_experiment_json "$measure-run.json" <"$(ls "$dir"/runs/*.json)"
}

rm -rf "$corpus"
net_seeds
tables_seeds
trace_seeds
config_seeds
experiment_seeds
results_seeds
alias_seeds
run_seed sim '{traffic: un, load: 0.5, cycles: 3000, bin: 1000}'
run_seed analyze '{pattern: perm, patterns: 2}'
du -sh "$corpus"/* | sed "s|$here/||"
