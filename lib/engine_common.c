/*
 * engine_common.c - what the routing engines share.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_common.h"

double engine_seconds(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

const char *vlr_heuristic_name(enum vlr_heuristic heuristic)
{
	switch (heuristic) {
	case VLR_HEURISTIC_WEAKEST:
		return "weakest";
	case VLR_HEURISTIC_STRONGEST:
		return "strongest";
	case VLR_HEURISTIC_FIRST:
		return "first";
	case VLR_HEURISTIC_ALL:
		break;
	}
	return "all";
}

int engine_unroutable_lid(const struct vlr_tables *tables, uint32_t lid,
			  struct vlr_error *err)
{
	const struct vlr_port *port = &tables->fabric->ports[tables->lid_owner[lid]];

	return vlr_fail(err, "LID %u of \"%s\" port %u cannot be routed: the port "
			"is not linked to a switch", lid,
			vlr_node_name(tables->fabric, port->node), port->number);
}
