#!/bin/bash
# sim_vs_caminos.sh - vlroute sim beside CAMINOS 0.6.3 on the same
# configuration: a 2D HyperX 8x8 with 8 servers per switch, Valiant with
# the Ladder VL policy (hop i on VL i, 4 VLs), XY shift by 3, offered load
# 1.0, 16-phit packets, input buffer 4 and output buffer 2 packets per VL,
# link latency 1, 20,000 cycles and no warm-up, one seed, one thread each.
#
# Usage: bench/sim_vs_caminos.sh [VLROUTE] [CYCLES]
#   VLROUTE  default build/tools/vlroute
#   CYCLES   default 20000 (both simulators)
# Installs CAMINOS into /tmp/caminos if missing ("cargo install --locked
# caminos --version 0.6.3"; a plain "cargo install caminos" fails to build).
# Prints simulated cycles per second of both, their ratio, and the accepted
# load each reports. With CAMINOS absent and cargo missing it prints ours only.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
vlroute=${1:-$top/build/tools/vlroute}
cycles=${2:-20000}
caminos_root=${CAMINOS_ROOT:-/tmp/caminos}
caminos=$caminos_root/bin/caminos
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

install_caminos() {
	[ -x "$caminos" ] && return 0
	command -v cargo >/dev/null || return 1
	echo "installing CAMINOS 0.6.3 into $caminos_root (takes a while)..." >&2
	nice -n 19 cargo install --locked caminos --version 0.6.3 --root "$caminos_root" -j1 \
		>"$scratch/cargo.log" 2>&1 || { tail -5 "$scratch/cargo.log" >&2; return 1; }
}

# The CAMINOS configuration: the shared reference, with our cycle count.
caminos_config() {
	cat <<EOF
Configuration
{
	random_seed: 1,
	warmup: 0,
	measured: $cycles,
	statistics_temporal_step: 1000,
	topology: Hamming{ sides: [8,8], servers_per_router: 8 },
	traffic: HomogeneousTraffic
	{
		pattern: CartesianTransform{ sides: [8,8,8], shift: [0,3,3], legend_name: "XY-3-shift" },
		servers: 512,
		load: 1.0,
		message_size: 16,
	},
	maximum_packet_size: 16,
	router: Basic
	{
		virtual_channels: 4,
		virtual_channel_policies: [ Hops, EnforceFlowControl, Shortest, Random ],
		delay: 0,
		buffer_size: 64,
		output_buffer_size: 32,
		flit_size: 16,
		bubble: false,
		intransit_priority: false,
		allow_request_busy_port: true,
		output_prioritize_lowest_label: false,
	},
	routing: Valiant{ first: Shortest, second: Shortest, legend_name: "Ladder" },
	link_classes: [ LinkClass{delay:1}, LinkClass{delay:1}, LinkClass{delay:1} ],
}
EOF
}

# seconds COMMAND...: wall-clock seconds of one run, output in $scratch/out
seconds() {
	local start end
	start=$(date +%s.%N)
	"$@" >"$scratch/out" 2>&1
	end=$(date +%s.%N)
	echo "$end - $start" | bc -l
}

"$vlroute" gen hyperx -s 8x8 -p 8 -o "$scratch/hx.net"
"$vlroute" route "$scratch/hx.net" --engine valiant --lmc 6 --vl-policy ladder \
	-o "$scratch/tables" >/dev/null
ours_seconds=$(seconds "$vlroute" sim "$scratch/tables" --traffic shift+3 --load 1 \
	--cycles "$cycles" --warmup 0 --dlid random --vl-mode ideal --threads 1 -q)
ours_accepted=$(awk '$1 ~ /^1\.000/ { print $3 }' "$scratch/out")
ours_rate=$(echo "$cycles / $ours_seconds" | bc -l)
printf 'vlroute sim: %8.1f cycles/s  (%d cycles in %.2f s, accepted %s)\n' \
	"$ours_rate" "$cycles" "$ours_seconds" "$ours_accepted"

if ! install_caminos; then
	echo "CAMINOS:     not installed and cannot be (no cargo); no ratio"
	exit 0
fi
caminos_config >"$scratch/hx.cfg"
cam_seconds=$(seconds "$caminos" "$scratch/hx.cfg" --results="$scratch/hx.result")
cam_accepted=$(awk '/accepted_load:/ { getline; gsub(/[ \t,]/, ""); print; exit }' \
	"$scratch/hx.result")
cam_rate=$(echo "$cycles / $cam_seconds" | bc -l)
printf 'CAMINOS:     %8.1f cycles/s  (%d cycles in %.2f s, accepted %s)\n' \
	"$cam_rate" "$cycles" "$cam_seconds" "${cam_accepted:-?}"
printf 'ratio:       %8.1fx\n' "$(echo "$ours_rate / $cam_rate" | bc -l)"
