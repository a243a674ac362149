/*
 * vl_compile.h - compiling a VL policy into path SLs and SL2VL tables
 * (internal; the minimal and valiant engines call it after their LFTs).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_VL_COMPILE_H
#define VLROUTE_VL_COMPILE_H

#include "lowdiam.h"

/*
 * Give every switch-to-switch hop of every (source switch, DLID) route the
 * VL options->policy asks for, choosing one SL per route (first fit over
 * the (switch, in port, out port) entries it crosses) and setting SL2VL to
 * match; the layers policy breaks the routes' cycles instead. Sets
 * tables->policy and report->sls_used / vls_used; fails saying how many
 * VLs or SLs the policy would need when the fabric has fewer.
 */
int vl_compile(struct vlr_tables *tables, const struct lowdiam *ld,
	       const struct vlr_engine_options *options, struct vlr_engine_report *report,
	       struct vlr_error *err);

#endif
