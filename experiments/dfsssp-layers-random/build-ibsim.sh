#!/bin/sh
# build-ibsim.sh - an ibsim whose ports have 15 data VLs, so that OpenSM's
# lash and dfsssp can report up to 15 layers under it (stock ibsim gives
# every port VLCap 4, 8 data VLs, and neither engine looks further than the
# ports' VLs).  The patch changes only the VLCap field of ibsim's PortInfo
# templates, from 4 (VL0-7) to 5 (VL0-14); ibsim starts every port's
# OperVLs at its VLCap.
# Usage: experiments/dfsssp-layers-random/build-ibsim.sh SRCDIR
#   SRCDIR  an ibsim 0.11 source tree (git clone
#           https://github.com/linux-rdma/ibsim; git checkout ibsim-0.11),
#           patched and built in place; needs libibmad-dev and
#           libibumad-dev.  Then: run.sh --ibsim SRCDIR.
# Copyright (c) 2026 the vlroute developers.
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
set -eu
[ $# -eq 1 ] || { echo "Usage: $0 SRCDIR" >&2; exit 2; }
patch=$(cd "$(dirname "$0")" && pwd)/ibsim-vlcap15.patch
cd "$1"
if ! grep -q '0x10, 0x50, 0x00, 0x08' ibsim/sim_net.c; then
	patch -p1 <"$patch"
fi
make
