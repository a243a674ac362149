/*
 * dlid_recompute.c - the DLID rule "recompute": a random Valiant offset as
 * "random" draws it, and while the packet waits at its source switch with
 * no room in its output, another one (as if the NIC learnt of the blocked
 * output; the injection link keeps its VL).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "dlid_rule_internal.h"

static struct sim_dlid_rule *create(const struct vlr_sim *sim, struct vlr_error *err)
{
	(void)sim;
	return sim_dlid_rule_new(sizeof(struct sim_dlid_rule), sim_dlid_valiant,
				 sim_dlid_valiant, err);
}

const struct sim_dlid_type sim_dlid_recompute = { VLR_DLID_RECOMPUTE, create };
