/*
 * ugal.c - the decision rule of the Dragonfly paper's UGAL routings (Kim,
 * Dally, Scott, Abts, Section 4 and its footnote 8): route minimally when
 * q_m * H_m <= q_nm * H_nm. The variants differ only in which queues q
 * stand for (sim.h, struct vlr_sim_ugal_view); the reference model
 * (route_reference.c) fills the view at the source switch. Kept apart so
 * that the rule can be judged on hand-made queues. Piggyback, UGAL-L with
 * the group's saturation, counts among the UGAL routings; its rule is in
 * piggyback.c.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <vlroute/sim.h>

int vlr_sim_routing_is_ugal(enum vlr_sim_routing routing)
{
	return routing >= VLR_SIM_ROUTING_UGAL_G && routing <= VLR_SIM_ROUTING_PIGGYBACK;
}

/* q_m * H_m <= q_nm * H_nm: ties go minimal, the shorter path. */
static int shorter(uint64_t q_min, unsigned h_min, uint64_t q_nonmin, unsigned h_nonmin)
{
	return q_min * h_min <= q_nonmin * h_nonmin;
}

int vlr_sim_ugal_minimal(enum vlr_sim_routing routing, const struct vlr_sim_ugal_view *v)
{
	int by_vls;

	switch (routing) {
	case VLR_SIM_ROUTING_UGAL_L_VC:
		by_vls = 1;
		break;
	case VLR_SIM_ROUTING_UGAL_L_VC_H:
	case VLR_SIM_ROUTING_UGAL_L_CR:
		by_vls = v->port_min == v->port_nonmin;
		break;
	default:
		by_vls = 0;
		break;
	}
	if (by_vls)
		return shorter(v->vl_queue_min, v->hops_min, v->vl_queue_nonmin, v->hops_nonmin);
	return shorter(v->queue_min, v->hops_min, v->queue_nonmin, v->hops_nonmin);
}
