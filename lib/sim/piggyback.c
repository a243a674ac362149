/*
 * piggyback.c - the decision rule of Piggyback, the source-adaptive
 * routing of the ADVc study (after Jiang, Kim and Dally's PB): a global
 * port is saturated when its queue exceeds a multiple of the mean of its
 * switch's global ports by a margin, and a packet leaves minimally only
 * when its minimal global link is not saturated and UGAL-L's comparison,
 * with a margin, favours the minimal path (sim.h, struct
 * vlr_sim_piggyback). The switches' broadcast of the saturation state is
 * a run's state (sim_piggyback.c); the reference model (route_reference.c)
 * fills the view. Kept apart so that the rule can be judged on hand-made
 * saturation states.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <vlroute/sim.h>

/* queued > factor/100 * sum/ports + margin, in integers: times 100 * ports. */
int vlr_sim_piggyback_saturated(const struct vlr_sim_piggyback *pb, uint64_t queued,
				uint64_t sum, unsigned ports)
{
	if (!ports)
		return 0;
	return 100 * (uint64_t)ports * queued >
	       (uint64_t)pb->factor_percent * sum + 100 * (uint64_t)ports * pb->global_margin;
}

int vlr_sim_piggyback_minimal(const struct vlr_sim_piggyback *pb,
			      const struct vlr_sim_ugal_view *v, int saturated)
{
	if (saturated)
		return 0;
	return v->queue_min * v->hops_min <= v->queue_nonmin * v->hops_nonmin + pb->local_margin;
}
