/*
 * vl_reference.c - the VLs of the reference model, as the Valiant study
 * defines its policies: Ladder (hop i on VL i), Ladder with reuse (any VL
 * up to i), and 2Phases with K VLs per phase (MinFirst, MinLast or MinBoth
 * for the packets routed minimally). Inside a phase's set a hop takes
 * either VL phase * K + k on the k-th hop of the phase (per-hop, as the
 * study's CAMINOS configurations do; needs K at least the hops of a
 * phase) or any VL of the set, the Dragonflies' set split before and after
 * the global link (free, the tables' ideal form). Among the allowed VLs a
 * hop joins the shortest queue (sim_pick_vl), a server the VL with the
 * most credits; delivery may use any VL of the policy. The route class and
 * phase come from route_reference.c.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "vl_select_internal.h"

struct by_policy {
	struct sim_vl_select base;
	const struct vlr_sim *sim;
	struct vlr_vl_policy policy;
	int per_hop;
	uint16_t all;			/* the VLs simulated */
	uint16_t delivery;		/* the policy's VLs */
};

static uint16_t allowed(const struct by_policy *d, const struct sim_packet *p)
{
	enum vlr_route_class route_class = (enum vlr_route_class)p->route_class;
	unsigned k = d->policy.vls_per_phase;

	if (d->per_hop && d->policy.kind == VLR_VLP_TWO_PHASES)
		return p->phase_hops < k ?
		       (uint16_t)(1u << (vlr_policy_phase(&d->policy, route_class,
							  p->phase_two) * k + p->phase_hops)) : 0;
	return vlr_policy_vl_mask(&d->policy, route_class, p->hops, p->phase_two,
				  p->escalation);
}

static uint16_t choices(const struct sim_vl_select *self, uint32_t sw, uint32_t in_port,
			uint32_t out_port, const struct sim_packet *p)
{
	const struct by_policy *d = (const struct by_policy *)self;

	(void)sw;
	(void)in_port;
	if (d->sim->peer_server[out_port] != VLR_NONE)
		return d->delivery & d->all;
	return allowed(d, p) & d->all;
}

static int injection_vl(const struct sim_vl_select *self, struct sim_state *st,
			uint32_t server, const struct sim_packet *p)
{
	const struct by_policy *d = (const struct by_policy *)self;
	const uint8_t *credits = st->credits + (uint64_t)d->sim->server_port[server] * st->vls;
	uint16_t mask = allowed(d, p) & d->all;
	int vl, best = -1;

	for (vl = 0; vl < (int)st->vls; vl++)
		if ((mask >> vl & 1) && credits[vl] && (best < 0 || credits[vl] > credits[best]))
			best = vl;
	return best;
}

static void release(struct sim_vl_select *self)
{
	free(self);
}

/* The most hops of one phase (per-hop 2Phases needs a VL for each). */
static unsigned phase_hops(const struct vlr_topology *topology)
{
	return topology->params.family == VLR_FAMILY_HYPERX ?
	       topology->params.u.grid.dims : 3;
}

int sim_reference_policy(const struct vlr_sim *sim, struct vlr_vl_policy *policy,
			 struct vlr_error *err)
{
	const struct vlr_sim_reference *m = &sim->config.reference;
	unsigned hops = phase_hops(&sim->topology);

	*policy = m->policy;
	if (policy->kind != VLR_VLP_LADDER && policy->kind != VLR_VLP_LADDER_REUSE &&
	    policy->kind != VLR_VLP_TWO_PHASES)
		return vlr_fail(err, "the reference model takes a ladder, ladder-reuse or "
				"2phases VL policy, not %s", vlr_vl_policy_name(policy->kind));
	if (policy->kind != VLR_VLP_TWO_PHASES) {
		policy->vls = (m->routing == VLR_SIM_ROUTING_VALIANT ? 2 : 1) * hops;
		return 0;
	}
	if (m->minimal == VLR_SIM_MINIMAL_SHORTEST && m->phase_vls == VLR_SIM_PHASE_VLS_FREE)
		return vlr_fail(err, "shortest paths need VLs that rise with every hop: a "
				"ladder, or 2phases with per-hop VLs, not free ones");
	if (!policy->vls_per_phase)
		policy->vls_per_phase = hops;
	if (m->phase_vls == VLR_SIM_PHASE_VLS_PER_HOP && policy->vls_per_phase < hops)
		return vlr_fail(err, "per-hop VLs need a VL for each of the %u hops of a "
				"phase; %u VLs per phase given", hops, policy->vls_per_phase);
	policy->vls = 2 * policy->vls_per_phase;
	vlr_vl_policy_fit_family(policy, sim->topology.params.family);
	return 0;
}

static struct sim_vl_select *create(const struct vlr_sim *sim, unsigned *vls,
				    struct vlr_error *err)
{
	const struct vlr_vl_policy policy = sim->config.reference.policy;
	struct by_policy *d;

	*vls = sim->config.vls ? sim->config.vls : policy.vls;
	if (*vls < policy.vls || policy.vls > VLR_MAX_DATA_VLS) {
		vlr_fail(err, "the VL policy %s uses %u VLs; %u simulated (at most %d)",
			 vlr_vl_policy_name(policy.kind), policy.vls, *vls, VLR_MAX_DATA_VLS);
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	d->base.choices = choices;
	d->base.injection_vl = injection_vl;
	d->base.free = release;
	d->sim = sim;
	d->policy = policy;
	d->per_hop = sim->config.reference.phase_vls == VLR_SIM_PHASE_VLS_PER_HOP;
	d->all = (uint16_t)((1u << *vls) - 1);
	d->delivery = (uint16_t)((1u << policy.vls) - 1);
	return &d->base;
}

const struct sim_vl_type sim_vl_reference = { "reference", create };
