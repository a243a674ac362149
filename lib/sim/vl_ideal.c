/*
 * vl_ideal.c - ideal VLs: at every hop a packet may take any VL its VL
 * policy allows for its route class, hops, phase and escalation, and joins
 * the shortest of them (sim_pick_vl); on its injection link, the allowed
 * VL with the most credits; on the delivery link, any of the policy's VLs.
 *
 * Two users: the table replay (sim_vl_ideal: the tables' policy - ladder,
 * ladder-reuse or 2phases -, the phase followed along the trunks of the
 * Valiant DLIDs; the VLs simulated: --vls, at least the policy's, or the
 * policy's) and the reference model (sim_vl_reference: the policy of the
 * configuration, the route class and phase set by route_reference.c).
 * 2phases may also go per hop (config.phase_vls, the reference model's
 * default): inside its phase's set the k-th hop of a phase takes VL
 * phase * K + k, as the study's CAMINOS configurations do (K at least the
 * hops of a phase). The reference model's servers may inject on the lowest
 * VL with room whatever the policy, as CAMINOS's servers do.
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
	struct vlr_vl_policy policy;	/* with the phase levels */
	int per_hop;			/* 2phases: VL phase * K + hop of the phase */
	int injection_any;		/* servers: the lowest VL with room */
	struct vlr_trunks trunks;	/* table replay */
	int has_trunks;
};

static uint16_t allowed(const struct ideal *d, const struct sim_packet *p)
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
	const struct ideal *d = (const struct ideal *)self;

	(void)sw;
	(void)in_port;
	if (d->sim->peer_server[out_port] != VLR_NONE)
		return d->delivery_mask & d->all;
	return allowed(d, p) & d->all;
}

static int injection_vl(const struct sim_vl_select *self, struct sim_state *st,
			uint32_t server, const struct sim_packet *p)
{
	const struct ideal *d = (const struct ideal *)self;
	const uint16_t *credits = st->credits + (uint64_t)d->sim->server_port[server] * st->vls;
	uint16_t mask = allowed(d, p) & d->all;
	int vl, best = -1;

	if (d->injection_any) {
		for (vl = 0; vl < (int)st->vls; vl++)
			if (credits[vl])
				return vl;
		return -1;
	}
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
		p->phase_hops = 0;
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

/* A selection for policy over vls VLs, without trunks yet. */
static struct ideal *ideal_new(const struct vlr_sim *sim, const struct vlr_vl_policy *policy,
			       unsigned vls, struct vlr_error *err)
{
	struct ideal *d = calloc(1, sizeof(*d));

	if (!d) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	d->base.choices = choices;
	d->base.injection_vl = injection_vl;
	d->base.free = release;
	d->sim = sim;
	d->all = (uint16_t)((1u << vls) - 1);
	d->delivery_mask = (uint16_t)((1u << policy->vls) - 1);
	d->policy = *policy;
	return d;
}

/* The most hops of one phase (per-hop 2Phases needs a VL for each). */
static unsigned phase_hops(const struct vlr_topology *topology)
{
	return topology->params.family == VLR_FAMILY_HYPERX ?
	       topology->params.u.grid.dims : 3;
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
	if (sim->config.phase_vls != VLR_SIM_PHASE_VLS_PER_HOP)
		return 0;
	if (tables->policy.kind != VLR_VLP_TWO_PHASES)
		return vlr_fail(err, "per-hop phase VLs are for 2phases tables; these "
				"tables have %s", vlr_vl_policy_name(tables->policy.kind));
	if (!sim->has_topology)
		return vlr_fail(err, "per-hop phase VLs need a HyperX, Dragonfly or "
				"Dragonfly+, to know the most hops of a phase");
	if (tables->policy.vls_per_phase < phase_hops(&sim->topology))
		return vlr_fail(err, "per-hop VLs need a VL for each of the %u hops of a "
				"phase; the tables have %u VLs per phase (vlroute route "
				"--vls-per-phase)", phase_hops(&sim->topology),
				tables->policy.vls_per_phase);
	return 0;
}

static struct sim_vl_select *create(const struct vlr_sim *sim, unsigned *vls,
				    struct vlr_error *err)
{
	const struct vlr_tables *tables = sim->tables;
	struct vlr_vl_policy policy = tables->policy;
	struct ideal *d;

	*vls = sim->config.vls ? sim->config.vls : tables->policy.vls;
	if (check_tables(sim, *vls, err))
		return NULL;
	if (sim->has_topology)
		vlr_vl_policy_fit_family(&policy, sim->topology.params.family);
	d = ideal_new(sim, &policy, *vls, err);
	if (!d)
		return NULL;
	d->base.dlid_set = dlid_set;
	d->base.enter_switch = enter_switch;
	d->per_hop = sim->config.phase_vls == VLR_SIM_PHASE_VLS_PER_HOP;
	if (vlr_trunks_build(tables, &d->trunks, err)) {
		release(&d->base);
		return NULL;
	}
	d->has_trunks = 1;
	return &d->base;
}

const struct sim_vl_type sim_vl_ideal = { "ideal", create };

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
		policy->vls = (m->routing == VLR_SIM_ROUTING_VALIANT ||
			       vlr_sim_routing_is_ugal(m->routing) ? 2 : 1) * hops;
		return 0;
	}
	if (m->minimal == VLR_SIM_MINIMAL_SHORTEST &&
	    sim->config.phase_vls == VLR_SIM_PHASE_VLS_FREE)
		return vlr_fail(err, "shortest paths need VLs that rise with every hop: a "
				"ladder, or 2phases with per-hop VLs, not free ones");
	if (!policy->vls_per_phase)
		policy->vls_per_phase = hops;
	if (sim->config.phase_vls == VLR_SIM_PHASE_VLS_PER_HOP && policy->vls_per_phase < hops)
		return vlr_fail(err, "per-hop VLs need a VL for each of the %u hops of a "
				"phase; %u VLs per phase given", hops, policy->vls_per_phase);
	policy->vls = 2 * policy->vls_per_phase;
	vlr_vl_policy_fit_family(policy, sim->topology.params.family);
	return 0;
}

static struct sim_vl_select *create_reference(const struct vlr_sim *sim, unsigned *vls,
					      struct vlr_error *err)
{
	const struct vlr_vl_policy *policy = &sim->config.reference.policy;
	struct ideal *d;

	*vls = sim->config.vls ? sim->config.vls : policy->vls;
	if (*vls < policy->vls || policy->vls > VLR_MAX_DATA_VLS) {
		vlr_fail(err, "the VL policy %s uses %u VLs; %u simulated (at most %d)",
			 vlr_vl_policy_name(policy->kind), policy->vls, *vls, VLR_MAX_DATA_VLS);
		return NULL;
	}
	d = ideal_new(sim, policy, *vls, err);
	if (!d)
		return NULL;
	d->per_hop = sim->config.phase_vls == VLR_SIM_PHASE_VLS_PER_HOP;
	d->injection_any = sim->config.reference.injection == VLR_SIM_INJECTION_ANY;
	return &d->base;
}

const struct sim_vl_type sim_vl_reference = { "reference", create_reference };
