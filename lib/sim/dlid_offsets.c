/*
 * dlid_offsets.c - what the DLID rules share: drawing a random offset of a
 * destination's LMC range among the LIDs of some kinds (lid_kind of the
 * tables: minimal, valiant, restricted), the Valiant offset hook of the
 * random and recompute rules, and a rule's allocation.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "dlid_rule_internal.h"

static void release(struct sim_dlid_rule *self)
{
	free(self);
}

struct sim_dlid_rule *sim_dlid_rule_new(size_t size, sim_dlid_fn offset, sim_dlid_fn reroute,
					struct vlr_error *err)
{
	struct sim_dlid_rule *rule = calloc(1, size);

	if (!rule) {
		vlr_fail(err, "out of memory for the DLID rule");
		return NULL;
	}
	rule->offset = offset;
	rule->reroute = reroute;
	rule->free = release;
	return rule;
}

int sim_lid_nonminimal(uint8_t kind)
{
	return kind != VLR_LID_MINIMAL;
}

int sim_lid_valiant(uint8_t kind)
{
	return kind == VLR_LID_VALIANT;
}

int sim_lid_restricted(uint8_t kind)
{
	return kind == VLR_LID_RESTRICTED;
}

int sim_random_offset(struct sim_state *st, uint32_t server, uint32_t base,
		      unsigned lids, int (*want)(uint8_t kind))
{
	const uint8_t *kind = st->sim->tables->lid_kind;
	unsigned i, count = 0, pick;

	if (!kind)
		return (int)vlr_rng_below(&st->rng[server], lids);
	for (i = 0; i < lids; i++)
		count += want(kind[base + i]);
	if (!count)
		return -1;
	pick = vlr_rng_below(&st->rng[server], count);
	for (i = 0; i < lids; i++)
		if (want(kind[base + i]) && !pick--)
			return (int)i;
	return -1;
}

int sim_valiant_offset(struct sim_state *st, uint32_t server, uint32_t base,
		       unsigned lids)
{
	int offset = sim_random_offset(st, server, base, lids, sim_lid_valiant);

	return offset >= 0 ? offset :
	       sim_random_offset(st, server, base, lids, sim_lid_nonminimal);
}

int sim_dlid_valiant(struct sim_dlid_rule *self, struct sim_state *st,
		     const struct sim_dlid_query *q)
{
	(void)self;
	return sim_valiant_offset(st, q->server, q->base, q->lids);
}
