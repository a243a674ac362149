/*
 * vlroute.h - everything libvlroute offers, in one include.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_VLROUTE_H
#define VLROUTE_VLROUTE_H

#include <vlroute/util.h>
#include <vlroute/fabric.h>
#include <vlroute/formats.h>
#include <vlroute/gen.h>
#include <vlroute/tables.h>
#include <vlroute/verify.h>
#include <vlroute/engines.h>
#include <vlroute/capture.h>
#include <vlroute/topology.h>
#include <vlroute/traffic.h>
#include <vlroute/sim.h>
#include <vlroute/analyze.h>

#endif
