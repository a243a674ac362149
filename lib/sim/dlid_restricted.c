/*
 * dlid_restricted.c - the DLID rule "restricted" (RVAL): a random
 * restricted offset when the source switch lies in the destination's
 * partition (its Dragonfly group, its HyperX row in the first dimension),
 * else a random Valiant one; any non-minimal offset if the tables have
 * none of the kind wanted.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "dlid_rule_internal.h"

static int same_partition(const struct vlr_sim *sim, uint32_t a, uint32_t b)
{
	const struct vlr_topology *t = &sim->topology;
	unsigned d, dims;

	if (!sim->has_topology)
		return 0;
	if (!t->coord)
		return t->group[a] == t->group[b];
	dims = t->params.u.grid.dims;
	for (d = 1; d < dims; d++)
		if (t->coord[a * dims + d] != t->coord[b * dims + d])
			return 0;
	return 1;
}

static int offset(struct sim_dlid_rule *self, struct sim_state *st,
		  const struct sim_dlid_query *q)
{
	const struct vlr_sim *sim = st->sim;
	int chosen = sim_random_offset(st, q->server, q->base, q->lids,
				       same_partition(sim, sim->servers.switch_index[q->server],
						      sim->servers.switch_index[q->destination]) ?
				       sim_lid_restricted : sim_lid_valiant);

	(void)self;
	return chosen >= 0 ? chosen :
	       sim_random_offset(st, q->server, q->base, q->lids, sim_lid_nonminimal);
}

static struct sim_dlid_rule *create(const struct vlr_sim *sim, struct vlr_error *err)
{
	(void)sim;
	return sim_dlid_rule_new(sizeof(struct sim_dlid_rule), offset, NULL, err);
}

const struct sim_dlid_type sim_dlid_restricted = { VLR_DLID_RESTRICTED, create };
