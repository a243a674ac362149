/*
 * registry.c - the routing engines, one row each: the only list of them.
 * The CLI ("vlroute route --engine", its help and option checks), the
 * OpenSM plugin (one vlr_NAME routing engine per row, the options it
 * passes, how it judges the verified tables) and the tests read it, so an
 * engine is added by its own file and one row here.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include <vlroute/engines.h>

/* What the engines of a recognised topology accept. */
#define TOPOLOGY_OPTIONS (VLR_ENGINE_OPT_VL_POLICY | VLR_ENGINE_OPT_DIM_ORDER | \
			  VLR_ENGINE_OPT_FAMILY | VLR_ENGINE_OPT_RESTRICTED | \
			  VLR_ENGINE_OPT_UNPROGRAMMABLE)

static const struct vlr_engine registry[] = {
	{
		.name = "sssp",
		.summary = "balanced shortest paths",
		.run = vlr_route_sssp,
		.safe_alternative = "dfsssp",
	},
	{
		.name = "dfsssp",
		.summary = "deadlock-free: SL = virtual layer",
		.run = vlr_route_dfsssp,
		.deadlock_free = 1,
		.layers = 1,
		.options = VLR_ENGINE_OPT_NO_ESCAPE,
	},
	{
		.name = "minimal",
		.summary = "HyperX/Dragonfly/Dragonfly+ minimal routes",
		.run = vlr_route_minimal,
		.deadlock_free = 1,
		.verify_policy = 1,
		.needs_family = 1,
		.options = TOPOLOGY_OPTIONS,	/* restricted: no offset to restrict */
	},
	{
		.name = "valiant",
		.summary = "offset 0 minimal, others Valiant; LMC >= 1",
		.run = vlr_route_valiant,
		.deadlock_free = 1,
		.verify_policy = 1,
		.needs_family = 1,
		.min_lmc = 1,
		.options = TOPOLOGY_OPTIONS,
	},
};

const struct vlr_engine *vlr_engines(unsigned *count)
{
	*count = sizeof(registry) / sizeof(registry[0]);
	return registry;
}

const struct vlr_engine *vlr_engine_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(registry) / sizeof(registry[0]); i++)
		if (!strcmp(name, registry[i].name))
			return &registry[i];
	return NULL;
}
