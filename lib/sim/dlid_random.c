/*
 * dlid_random.c - the DLID rule "random": a random Valiant offset per
 * packet, not a restricted one (any offset on tables without LID kinds).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "dlid_rule_internal.h"

static struct sim_dlid_rule *create(const struct vlr_sim *sim, struct vlr_error *err)
{
	(void)sim;
	return sim_dlid_rule_new(sizeof(struct sim_dlid_rule), sim_dlid_valiant, NULL, err);
}

const struct sim_dlid_type sim_dlid_random = { VLR_DLID_RANDOM, create };
