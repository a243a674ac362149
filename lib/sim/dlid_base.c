/*
 * dlid_base.c - the DLID rule "base": always the destination's base LID
 * (offset 0), the minimal route on Valiant tables.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "dlid_rule_internal.h"

static int offset(struct sim_dlid_rule *self, struct sim_state *st,
		  const struct sim_dlid_query *q)
{
	(void)self;
	(void)st;
	(void)q;
	return 0;
}

static struct sim_dlid_rule *create(const struct vlr_sim *sim, struct vlr_error *err)
{
	(void)sim;
	return sim_dlid_rule_new(sizeof(struct sim_dlid_rule), offset, NULL, err);
}

const struct sim_dlid_type sim_dlid_base = { VLR_DLID_BASE, create };
