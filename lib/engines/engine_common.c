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

#include "util/names.h"
#include "engine_common.h"

static const struct vlr_name heuristic_names[] = {
	{ "weakest", VLR_HEURISTIC_WEAKEST },
	{ "strongest", VLR_HEURISTIC_STRONGEST },
	{ "first", VLR_HEURISTIC_FIRST },
	{ "all", VLR_HEURISTIC_ALL },
	{ NULL, 0 },
};

const char *vlr_heuristic_name(enum vlr_heuristic heuristic)
{
	return vlr_name_of(heuristic_names, (int)heuristic, "all");
}

int vlr_heuristic_parse(const char *text, enum vlr_heuristic *heuristic,
			struct vlr_error *err)
{
	int value;

	if (vlr_name_parse(heuristic_names, text, &value, err))
		return -1;
	*heuristic = (enum vlr_heuristic)value;
	return 0;
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
