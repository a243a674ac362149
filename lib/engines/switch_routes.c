/*
 * switch_routes.c - the minimal engine's next hops between every pair of
 * switches, for the simulator's reference model, which routes each packet
 * to an intermediate switch and on to its destination's switch without
 * tables: HyperX dimension order, Dragonfly local-global-local,
 * Dragonfly+ up-global-down, the choices among equal channels balanced
 * as the minimal engine balances them (lowdiam.h); and the hops of the
 * shortest paths, for a model that takes any of them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "lowdiam.h"

static void fill_routes(struct lowdiam *ld, int reversed, struct vlr_switch_routes *routes)
{
	uint32_t n = ld->graph.num_switches, target, sw;

	for (target = 0; target < n; target++)
		for (sw = 0; sw < n; sw++) {
			uint64_t at = (uint64_t)target * n + sw;
			uint32_t c = sw == target ? VLR_NONE :
				     lowdiam_next(ld, sw, target, reversed, NULL);
			uint16_t hops = ld->graph.distance[at];

			routes->port[at] = c == VLR_NONE ? 0 : ld->graph.channel_port[c];
			routes->hops[at] = (uint8_t)(hops > 255 ? 255 : hops);
		}
}

int vlr_minimal_switch_routes(const struct vlr_tables *tables,
			      const struct vlr_engine_options *options, int reversed,
			      struct vlr_switch_routes *routes, struct vlr_family_params *family,
			      struct vlr_error *err)
{
	struct vlr_topology topology;
	struct lowdiam ld;

	memset(routes, 0, sizeof(*routes));
	if (vlr_topology_recognise(tables->fabric, options->family, &topology, err) ||
	    lowdiam_init(&ld, tables, &topology, options, err))
		return -1;
	if (family)
		*family = ld.topology.params;
	if (vlr_switch_routes_init(routes, ld.graph.num_switches, err)) {
		lowdiam_free(&ld);
		return -1;
	}
	fill_routes(&ld, reversed, routes);
	lowdiam_free(&ld);
	return 0;
}
