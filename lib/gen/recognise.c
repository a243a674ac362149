/*
 * recognise.c - telling which generated family a fabric is.
 *
 * Node names (or, in ibnetdiscover output, node descriptions) only
 * suggest: "df_g4_r2" suggests a Dragonfly, and the largest
 * coordinates and the link counts of the first switch suggest parameters.
 * The suggestion is then regenerated and every switch's neighbours and host
 * count compared with the fabric; only an exact match is reported. So a
 * fabric that is named like a Dragonfly but cabled otherwise is not one.
 * Recognising a fabric from its graph alone, whatever its names, is the
 * routing engines' business, not this file's.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vlroute/gen.h>

/* Neighbours of a switch: switch nodes (sorted) and the number of hosts. */
struct neighbourhood {
	uint32_t switches[VLR_MAX_NODE_PORTS];
	unsigned num_switches;
	unsigned hosts;
};

static int compare_nodes(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void neighbours_of(const struct vlr_fabric *fabric, uint32_t node,
			  struct neighbourhood *around)
{
	unsigned number;

	around->num_switches = 0;
	around->hosts = 0;
	for (number = 1; number <= fabric->nodes[node].num_ports; number++) {
		const struct vlr_port *port = vlr_port_at(fabric, node, number);
		uint32_t other;

		if (port->peer == VLR_NONE)
			continue;
		other = fabric->ports[port->peer].node;
		if (vlr_node_is_switch(fabric, other))
			around->switches[around->num_switches++] = other;
		else
			around->hosts++;
	}
}

/* Neighbours of node in `model`, as nodes of `fabric` found by name. */
static int translate(const struct vlr_fabric *fabric, const struct vlr_fabric *model,
		     struct neighbourhood *around)
{
	unsigned i;

	for (i = 0; i < around->num_switches; i++) {
		around->switches[i] = vlr_fabric_find(fabric,
						      vlr_node_name(model, around->switches[i]));
		if (around->switches[i] == VLR_NONE)
			return -1;
	}
	return 0;
}

static int same_as_model(const struct vlr_fabric *fabric, const struct vlr_fabric *model)
{
	struct neighbourhood expected, actual;
	uint32_t node, switches = 0;

	for (node = 0; node < fabric->num_nodes; node++)
		switches += vlr_node_is_switch(fabric, node);
	for (node = 0; node < model->num_nodes; node++) {
		uint32_t same;

		if (!vlr_node_is_switch(model, node))
			continue;
		switches--;
		same = vlr_fabric_find(fabric, vlr_node_name(model, node));
		if (same == VLR_NONE || !vlr_node_is_switch(fabric, same))
			return 0;
		neighbours_of(model, node, &expected);
		neighbours_of(fabric, same, &actual);
		if (translate(fabric, model, &expected) ||
		    expected.hosts != actual.hosts ||
		    expected.num_switches != actual.num_switches)
			return 0;
		qsort(expected.switches, expected.num_switches, sizeof(uint32_t),
		      compare_nodes);
		qsort(actual.switches, actual.num_switches, sizeof(uint32_t),
		      compare_nodes);
		if (memcmp(expected.switches, actual.switches,
			   sizeof(uint32_t) * expected.num_switches))
			return 0;
	}
	return switches == 0;
}

static int matches(const struct vlr_fabric *fabric, const struct vlr_family_params *params)
{
	struct vlr_fabric *model = vlr_fabric_new();
	int same = 0;

	if (model && !vlr_generate(model, params, NULL))
		same = same_as_model(fabric, model);
	vlr_fabric_free(model);
	return same;
}

/* ---- reading coordinates out of names ----------------------------------- */

/* "_3_5": up to max numbers after prefix; returns the count or -1. */
static int parse_coordinates(const char *name, const char *prefix, unsigned *values,
			     unsigned max)
{
	size_t length = strlen(prefix);
	const char *s = name + length;
	unsigned count = 0;

	if (strncmp(name, prefix, length))
		return -1;
	while (*s == '_' && count < max) {
		char *end;
		unsigned long value = strtoul(s + 1, &end, 10);

		if (end == s + 1)
			return -1;
		values[count++] = (unsigned)value;
		s = end;
	}
	return *s ? -1 : (int)count;
}

/* Does every switch follow pattern (sscanf, ending in %n)? Largest fields out. */
static int scan_switches(const struct vlr_fabric *fabric, const char *pattern,
			 unsigned *largest, unsigned fields)
{
	uint32_t node;
	unsigned i;
	int seen = 0;

	memset(largest, 0, sizeof(unsigned) * fields);
	for (node = 0; node < fabric->num_nodes; node++) {
		unsigned values[3] = { 0, 0, 0 };
		int end = -1;
		const char *name = vlr_node_name(fabric, node);

		if (!vlr_node_is_switch(fabric, node))
			continue;
		sscanf(name, pattern, &values[0], &values[1], &end);
		if (end < 0 || name[end])
			return 0;
		for (i = 0; i < fields; i++)
			if (values[i] > largest[i])
				largest[i] = values[i];
		seen = 1;
	}
	return seen;
}

static uint32_t first_switch_named(const struct vlr_fabric *fabric, const char *name)
{
	uint32_t node = vlr_fabric_find(fabric, name);

	return node != VLR_NONE && vlr_node_is_switch(fabric, node) ? node : VLR_NONE;
}

/* Links from node to switches whose name does not start with group_prefix. */
static unsigned links_leaving_group(const struct vlr_fabric *fabric, uint32_t node,
				    const char *group_prefix)
{
	struct neighbourhood around;
	unsigned i, count = 0;

	neighbours_of(fabric, node, &around);
	for (i = 0; i < around.num_switches; i++)
		count += strncmp(vlr_node_name(fabric, around.switches[i]), group_prefix,
				 strlen(group_prefix)) != 0;
	return count;
}

static int try_arrangements(const struct vlr_fabric *fabric,
			    struct vlr_family_params *params,
			    enum vlr_arrangement *arrangement)
{
	*arrangement = VLR_ARRANGEMENT_PALMTREE;
	if (matches(fabric, params))
		return 1;
	*arrangement = VLR_ARRANGEMENT_CONSECUTIVE;
	return matches(fabric, params);
}

/* ---- one guesser per family --------------------------------------------- */

static int guess_grid(const struct vlr_fabric *fabric, const char *prefix,
		      enum vlr_family family, struct vlr_family_params *params)
{
	struct vlr_grid_params *grid = &params->u.grid;
	struct neighbourhood around;
	unsigned values[VLR_MAX_DIMS], d;
	uint32_t node;
	int dims = -1, count;

	memset(grid, 0, sizeof(*grid));
	for (node = 0; node < fabric->num_nodes; node++) {
		if (!vlr_node_is_switch(fabric, node))
			continue;
		count = parse_coordinates(vlr_node_name(fabric, node), prefix, values,
					  VLR_MAX_DIMS);
		if (count < 1 || (dims >= 0 && count != dims))
			return 0;
		dims = count;
		for (d = 0; d < (unsigned)dims; d++)
			if (values[d] + 1 > grid->sides[d])
				grid->sides[d] = values[d] + 1;
		if (!grid->hosts) {
			neighbours_of(fabric, node, &around);
			grid->hosts = around.hosts;
		}
	}
	if (dims < 1)
		return 0;
	grid->dims = (unsigned)dims;
	params->family = family;
	return matches(fabric, params);
}

static int guess_dragonfly(const struct vlr_fabric *fabric,
			   struct vlr_family_params *params)
{
	struct vlr_dragonfly_params *df = &params->u.dragonfly;
	struct neighbourhood around;
	unsigned largest[2];
	uint32_t router;

	if (!scan_switches(fabric, "df_g%u_r%u%n", largest, 2))
		return 0;
	router = first_switch_named(fabric, "df_g0_r0");
	if (router == VLR_NONE)
		return 0;
	neighbours_of(fabric, router, &around);
	memset(df, 0, sizeof(*df));
	df->g = largest[0] + 1;
	df->a = largest[1] + 1;
	df->p = around.hosts;
	df->h = links_leaving_group(fabric, router, "df_g0_");
	params->family = VLR_FAMILY_DRAGONFLY;
	return try_arrangements(fabric, params, &df->arrangement);
}

static int guess_dragonflyplus(const struct vlr_fabric *fabric,
			       struct vlr_family_params *params)
{
	struct vlr_dragonflyplus_params *dfp = &params->u.dragonflyplus;
	struct neighbourhood around;
	unsigned leaves[2], spines[2];
	uint32_t leaf, spine, node;

	for (node = 0; node < fabric->num_nodes; node++) {
		const char *name = vlr_node_name(fabric, node);

		if (vlr_node_is_switch(fabric, node) && strncmp(name, "dfp_g", 5))
			return 0;
	}
	leaf = first_switch_named(fabric, "dfp_g0_l0");
	spine = first_switch_named(fabric, "dfp_g0_s0");
	if (leaf == VLR_NONE || spine == VLR_NONE)
		return 0;
	memset(leaves, 0, sizeof(leaves));
	memset(spines, 0, sizeof(spines));
	for (node = 0; node < fabric->num_nodes; node++) {
		unsigned group, index;
		char role;
		int end = -1;

		if (!vlr_node_is_switch(fabric, node))
			continue;
		sscanf(vlr_node_name(fabric, node), "dfp_g%u_%c%u%n", &group, &role,
		       &index, &end);
		if (end < 0 || vlr_node_name(fabric, node)[end] || (role != 'l' && role != 's'))
			return 0;
		if (group > leaves[0])
			leaves[0] = group;
		if (role == 'l' && index > leaves[1])
			leaves[1] = index;
		if (role == 's' && index > spines[1])
			spines[1] = index;
	}
	neighbours_of(fabric, leaf, &around);
	memset(dfp, 0, sizeof(*dfp));
	dfp->groups = leaves[0] + 1;
	dfp->leaves = leaves[1] + 1;
	dfp->spines = spines[1] + 1;
	dfp->hosts = around.hosts;
	dfp->globals = links_leaving_group(fabric, spine, "dfp_g0_");
	params->family = VLR_FAMILY_DRAGONFLYPLUS;
	return try_arrangements(fabric, params, &dfp->arrangement);
}

static int guess_fattree(const struct vlr_fabric *fabric,
			 struct vlr_family_params *params)
{
	struct neighbourhood around;
	unsigned levels = 0, values[17];
	uint32_t node, leaf = VLR_NONE;

	for (node = 0; node < fabric->num_nodes; node++) {
		unsigned level;
		int end = -1;
		const char *name = vlr_node_name(fabric, node);

		if (!vlr_node_is_switch(fabric, node))
			continue;
		sscanf(name, "ft_l%u%n", &level, &end);
		if (end < 0 || parse_coordinates(name + end, "", values, 16) < 0)
			return 0;
		if (level + 1 > levels)
			levels = level + 1;
		if (level == 0 && leaf == VLR_NONE)
			leaf = node;
	}
	if (leaf == VLR_NONE)
		return 0;
	neighbours_of(fabric, leaf, &around);
	params->family = VLR_FAMILY_FATTREE;
	params->u.fattree.k = around.hosts;
	params->u.fattree.n = levels;
	return matches(fabric, params);
}

/* A random regular graph: every switch the same degree and hosts, simple. */
static int guess_random(const struct vlr_fabric *fabric,
			struct vlr_family_params *params)
{
	struct vlr_random_params *rr = &params->u.random;
	struct neighbourhood around;
	uint32_t node;
	unsigned i;

	memset(rr, 0, sizeof(*rr));
	for (node = 0; node < fabric->num_nodes; node++) {
		unsigned index;
		int end = -1;

		if (!vlr_node_is_switch(fabric, node))
			continue;
		sscanf(vlr_node_name(fabric, node), "rr_%u%n", &index, &end);
		if (end < 0 || vlr_node_name(fabric, node)[end])
			return 0;
		neighbours_of(fabric, node, &around);
		if (!rr->switches) {
			rr->degree = around.num_switches;
			rr->hosts = around.hosts;
		}
		if (around.num_switches != rr->degree || around.hosts != rr->hosts)
			return 0;
		qsort(around.switches, around.num_switches, sizeof(uint32_t), compare_nodes);
		for (i = 0; i < around.num_switches; i++)
			if (around.switches[i] == node ||
			    (i && around.switches[i] == around.switches[i - 1]))
				return 0;
		rr->switches++;
	}
	rr->seed_unknown = 1;
	params->family = VLR_FAMILY_RANDOM;
	return rr->switches > 1 && rr->degree > 0;
}

/* Widen xgft's digit widths by one switch's word at level (1..h). */
static void widen_xgft(struct vlr_xgft_params *xgft, unsigned level,
		       const unsigned *digits, unsigned count)
{
	unsigned j;

	for (j = 0; j < count; j++) {
		unsigned *width = j < level ? &xgft->w[j] : &xgft->m[j];

		if (digits[j] + 1 > *width)
			*width = digits[j] + 1;
	}
}

/*
 * An XGFT: switches xgft_lL_d1_..._dh, the widths of the digits the largest
 * digits plus one, m1 the ports of a level-1 switch less its parents, the
 * endpoints the hosts.
 */
static int guess_xgft(const struct vlr_fabric *fabric, struct vlr_family_params *params)
{
	struct vlr_xgft_params *xgft = &params->u.xgft;
	unsigned digits[VLR_XGFT_MAX_HEIGHT], level, j, ports;
	uint32_t node, leaf = VLR_NONE, hosts = 0;
	uint64_t all = 1;
	int count, height = -1;

	memset(xgft, 0, sizeof(*xgft));
	for (node = 0; node < fabric->num_nodes; node++) {
		int end = -1;
		const char *name = vlr_node_name(fabric, node);

		if (!vlr_node_is_switch(fabric, node)) {
			hosts++;
			continue;
		}
		sscanf(name, "xgft_l%u%n", &level, &end);
		count = end < 0 ? -1 : parse_coordinates(name + end, "", digits,
							 VLR_XGFT_MAX_HEIGHT);
		if (count < 1 || (height >= 0 && count != height) || level < 1 ||
		    level > (unsigned)count)
			return 0;
		height = count;
		widen_xgft(xgft, level, digits, (unsigned)count);
		if (level == 1 && leaf == VLR_NONE)
			leaf = node;
	}
	if (leaf == VLR_NONE)
		return 0;
	xgft->h = (unsigned)height;
	ports = fabric->nodes[leaf].num_ports;
	if (xgft->h > 1 && ports <= xgft->w[1])
		return 0;
	xgft->m[0] = ports - (xgft->h > 1 ? xgft->w[1] : 0);
	for (j = 0; j < xgft->h; j++)
		all *= xgft->m[j];
	xgft->endpoints = hosts == all ? 0 : hosts;
	params->family = VLR_FAMILY_XGFT;
	return matches(fabric, params);
}

/* A Kautz graph: switches kautz_s1_..._sn, b the largest symbol; hosts per
   switch when they divide evenly, else endpoints. */
static int guess_kautz(const struct vlr_fabric *fabric, struct vlr_family_params *params)
{
	struct vlr_kautz_params *kautz = &params->u.kautz;
	unsigned symbols[16], j;
	uint32_t node, switches = 0, hosts = 0;
	int count, length = -1;

	memset(kautz, 0, sizeof(*kautz));
	for (node = 0; node < fabric->num_nodes; node++) {
		if (!vlr_node_is_switch(fabric, node)) {
			hosts++;
			continue;
		}
		count = parse_coordinates(vlr_node_name(fabric, node), "kautz", symbols, 16);
		if (count < 1 || (length >= 0 && count != length))
			return 0;
		length = count;
		for (j = 0; j < (unsigned)count; j++)
			if (symbols[j] > kautz->b)
				kautz->b = symbols[j];
		switches++;
	}
	if (!switches)
		return 0;
	kautz->n = (unsigned)length;
	if (hosts % switches)
		kautz->endpoints = hosts;
	else
		kautz->hosts = hosts / switches;
	params->family = VLR_FAMILY_KAUTZ;
	return matches(fabric, params);
}

static int recognise_by_names(const struct vlr_fabric *fabric,
			      struct vlr_family_params *guess)
{
	memset(guess, 0, sizeof(*guess));
	return guess_grid(fabric, "hx", VLR_FAMILY_HYPERX, guess) ||
	       guess_grid(fabric, "tor", VLR_FAMILY_TORUS, guess) ||
	       guess_dragonfly(fabric, guess) ||
	       guess_dragonflyplus(fabric, guess) ||
	       guess_fattree(fabric, guess) ||
	       guess_xgft(fabric, guess) ||
	       guess_kautz(fabric, guess) ||
	       guess_random(fabric, guess);
}

/*
 * ibnetdiscover names nodes by GUID ("S-0002c9...") and keeps the names
 * people gave them in the NodeDescription: a copy of the fabric named by
 * descriptions, or NULL when they are missing or not unique.
 */
static struct vlr_fabric *relabel_by_description(const struct vlr_fabric *fabric)
{
	struct vlr_fabric *copy = vlr_fabric_new();
	uint32_t node, port;
	int described = 0;

	for (node = 0; copy && node < fabric->num_nodes; node++) {
		const struct vlr_node *record = &fabric->nodes[node];

		described |= record->description != record->name;
		if (vlr_fabric_add_node(copy, record->type,
					vlr_node_description(fabric, node),
					record->num_ports, record->guid, NULL) == VLR_NONE)
			break;
	}
	for (port = 0; copy && described && node == fabric->num_nodes &&
		       port < fabric->num_ports; port++) {
		const struct vlr_port *here = &fabric->ports[port];
		const struct vlr_port *there;

		if (here->peer == VLR_NONE || here->peer < port)
			continue;
		there = &fabric->ports[here->peer];
		if (vlr_fabric_link(copy, here->node, here->number, there->node,
				    there->number, NULL))
			break;
	}
	if (!copy || !described || node < fabric->num_nodes || port < fabric->num_ports) {
		vlr_fabric_free(copy);
		return NULL;
	}
	return copy;
}

int vlr_recognise_family(const struct vlr_fabric *fabric,
			 struct vlr_family_params *params)
{
	struct vlr_fabric *relabelled;
	int recognised = recognise_by_names(fabric, params);

	if (!recognised) {
		relabelled = relabel_by_description(fabric);
		recognised = relabelled && recognise_by_names(relabelled, params);
		vlr_fabric_free(relabelled);
	}
	if (!recognised)
		memset(params, 0, sizeof(*params));
	return recognised;
}
