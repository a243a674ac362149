/*
 * engine_common.c - what the routing engines share, and the parsers of
 * their options that the CLI and the plugin's config file both use.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine_common.h"

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

int vlr_heuristic_parse(const char *text, enum vlr_heuristic *heuristic,
			struct vlr_error *err)
{
	static const enum vlr_heuristic known[] = {
		VLR_HEURISTIC_WEAKEST, VLR_HEURISTIC_STRONGEST, VLR_HEURISTIC_FIRST,
		VLR_HEURISTIC_ALL,
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(text, vlr_heuristic_name(known[i]))) {
			*heuristic = known[i];
			return 0;
		}
	return vlr_fail(err, "weakest, strongest, first or all, not \"%s\"", text);
}

int vlr_dim_order_parse(const char *text, unsigned *order, unsigned *count,
			struct vlr_error *err)
{
	const char *at = text;
	unsigned seen = 0, dim;

	*count = 0;
	for (;;) {
		dim = (unsigned)(*at - '0');
		if (!isdigit((unsigned char)*at) || dim >= VLR_MAX_DIMS || (seen >> dim & 1) ||
		    (at[1] && at[1] != ','))
			return vlr_fail(err, "a comma-separated list of the dimensions "
					"0..%d, each at most once, not \"%s\"",
					VLR_MAX_DIMS - 1, text);
		seen |= 1u << dim;
		order[(*count)++] = dim;
		if (!at[1])
			return 0;
		at += 2;
	}
}

int engine_unroutable_lid(const struct vlr_tables *tables, uint32_t lid,
			  struct vlr_error *err)
{
	const struct vlr_port *port = &tables->fabric->ports[tables->lid_owner[lid]];

	return vlr_fail(err, "LID %u of \"%s\" port %u cannot be routed: the port "
			"is not linked to a switch", lid,
			vlr_node_name(tables->fabric, port->node), port->number);
}
