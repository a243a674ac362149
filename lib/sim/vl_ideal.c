/*
 * vl_ideal.c - ideal VLs: at every hop a packet may take any VL its
 * tables' VL policy allows for its route class, hops, phase and escalation,
 * and joins the shortest of them (sim_pick_vl); on its injection link, the
 * allowed VL with the most credits; on the delivery link, any of the
 * policy's VLs. The phase follows the trunks of the Valiant DLIDs. The
 * tables must carry a ladder, ladder-reuse or 2phases policy; the VLs
 * simulated: --vls (at least the policy's), or the policy's.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "vl_select_internal.h"

struct ideal {
	struct sim_vl_select base;
	const struct vlr_sim *sim;
	uint16_t all;			/* the VLs simulated */
	uint16_t delivery_mask;		/* VLs of the delivery link */
	struct vlr_vl_policy policy;	/* the tables', with the phase levels */
	struct vlr_trunks trunks;
	int has_trunks;
};

static uint16_t choices(const struct sim_vl_select *self, uint32_t sw, uint32_t in_port,
			uint32_t out_port, const struct sim_packet *p)
{
	const struct ideal *d = (const struct ideal *)self;

	(void)sw;
	(void)in_port;
	if (d->sim->peer_server[out_port] != VLR_NONE)
		return d->delivery_mask & d->all;
	return vlr_policy_vl_mask(&d->policy, (enum vlr_route_class)p->route_class, p->hops,
				  p->phase_two, p->escalation) & d->all;
}

static int injection_vl(const struct sim_vl_select *self, struct sim_state *st,
			uint32_t server, const struct sim_packet *p)
{
	const struct ideal *d = (const struct ideal *)self;
	const uint8_t *credits = st->credits + (uint64_t)d->sim->server_port[server] * st->vls;
	uint16_t mask = vlr_policy_vl_mask(&d->policy, (enum vlr_route_class)p->route_class, 0,
					   p->phase_two, 0);
	int vl, best = -1;

	for (vl = 0; vl < (int)st->vls; vl++)
		if ((mask >> vl & 1) && credits[vl] && (best < 0 || credits[vl] > credits[best]))
			best = vl;
	return best;
}

/* A Valiant packet reaching its DLID's trunk starts phase two. */
static void enter_switch(const struct sim_vl_select *self, uint32_t sw, struct sim_packet *p)
{
	const struct ideal *d = (const struct ideal *)self;

	if (!p->phase_two && p->route_class == VLR_ROUTE_VALIANT &&
	    vlr_trunks_has(&d->trunks, sw, p->dlid)) {
		p->phase_two = 1;
		p->escalation = 0;
	}
}

/* The route class of the packet's DLID from its source switch sw. */
static void dlid_set(const struct sim_vl_select *self, uint32_t sw, struct sim_packet *p)
{
	const struct ideal *d = (const struct ideal *)self;
	const struct vlr_sim *sim = d->sim;
	enum vlr_route_class route_class = vlr_trunks_route_class(sim->tables, &d->trunks,
		sim->servers.switch_index[p->source], p->dlid);

	if (route_class == VLR_ROUTE_MINIMAL)
		return;
	p->route_class = route_class;
	p->phase_two = route_class == VLR_ROUTE_ON_TRUNK;
	if (!p->phase_two)
		enter_switch(self, sw, p);
}

static void release(struct sim_vl_select *self)
{
	struct ideal *d = (struct ideal *)self;

	if (d->has_trunks)
		vlr_trunks_free(&d->trunks);
	free(d);
}

static int check_tables(const struct vlr_sim *sim, unsigned vls, struct vlr_error *err)
{
	const struct vlr_tables *tables = sim->tables;

	if (!tables->lid_kind || !vlr_vl_policy_has_ideal_form(&tables->policy))
		return vlr_fail(err, "ideal VLs need tables routed with a VL policy "
				"(ladder, ladder-reuse, 2phases: vlroute route --engine "
				"valiant --vl-policy ...); these tables have %s",
				vlr_vl_policy_name(tables->policy.kind));
	if (vls < tables->policy.vls)
		return vlr_fail(err, "the VL policy %s uses %u VLs; only %u simulated",
				vlr_vl_policy_name(tables->policy.kind), tables->policy.vls,
				vls);
	return 0;
}

static struct sim_vl_select *create(const struct vlr_sim *sim, unsigned *vls,
				    struct vlr_error *err)
{
	const struct vlr_tables *tables = sim->tables;
	struct ideal *d;

	*vls = sim->config.vls ? sim->config.vls : tables->policy.vls;
	if (check_tables(sim, *vls, err))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	d->base.choices = choices;
	d->base.injection_vl = injection_vl;
	d->base.dlid_set = dlid_set;
	d->base.enter_switch = enter_switch;
	d->base.free = release;
	d->sim = sim;
	d->all = (uint16_t)((1u << *vls) - 1);
	d->delivery_mask = (uint16_t)((1u << tables->policy.vls) - 1);
	d->policy = tables->policy;
	if (sim->has_topology)
		vlr_vl_policy_fit_family(&d->policy, sim->topology.params.family);
	if (vlr_trunks_build(tables, &d->trunks, err)) {
		release(&d->base);
		return NULL;
	}
	d->has_trunks = 1;
	return &d->base;
}

const struct sim_vl_type sim_vl_ideal = { "ideal", create };
