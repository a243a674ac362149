/*
 * lowdiam.c - minimal next hops on HyperX, Dragonfly and Dragonfly+
 * (see lowdiam.h).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "lowdiam.h"

static int index_channels(struct lowdiam *ld, struct vlr_error *err)
{
	const struct route_graph *graph = &ld->graph;
	const struct vlr_fabric *fabric = graph->tables->fabric;
	uint32_t c;

	ld->load = calloc(graph->num_channels + 1ull, sizeof(uint64_t));
	ld->channel_class = calloc(graph->num_channels + 1ull, 1);
	ld->channel_dim = calloc(graph->num_channels + 1ull, 1);
	if (!ld->load || !ld->channel_class || !ld->channel_dim)
		return vlr_fail(err, "out of memory for the channel index");
	for (c = 0; c < graph->num_channels; c++) {
		uint32_t node = graph->tables->switch_node[graph->channel_from[c]];
		uint32_t slot = vlr_port_index(fabric, node, graph->channel_port[c]);

		ld->channel_class[c] = ld->topology.port_class[slot];
		ld->channel_dim[c] = ld->topology.port_dim[slot];
	}
	return 0;
}

/* Group members and the global channels between every pair of groups. */
static int index_groups(struct lowdiam *ld, struct vlr_error *err)
{
	const struct route_graph *graph = &ld->graph;
	uint32_t groups = ld->topology.num_groups, sw, c, *fill;
	uint64_t pairs = (uint64_t)groups * groups;

	ld->gateway_first = calloc(pairs + 2, sizeof(uint32_t));
	ld->gateway = malloc((graph->num_channels + 1ull) * sizeof(uint32_t));
	ld->member_first = calloc(groups + 2ull, sizeof(uint32_t));
	ld->member = malloc((graph->num_switches + 1ull) * sizeof(uint32_t));
	fill = calloc(pairs + groups + 2, sizeof(uint32_t));
	if (!ld->gateway_first || !ld->gateway || !ld->member_first || !ld->member || !fill) {
		free(fill);
		return vlr_fail(err, "out of memory for the group index");
	}
	for (c = 0; c < graph->num_channels; c++)
		if (ld->channel_class[c] == VLR_PORT_GLOBAL)
			ld->gateway_first[(uint64_t)ld->topology.group[graph->channel_from[c]] * groups +
					  ld->topology.group[graph->channel_to[c]] + 1]++;
	for (sw = 0; sw < graph->num_switches; sw++)
		ld->member_first[ld->topology.group[sw] + 1]++;
	for (c = 0; c < pairs; c++)
		ld->gateway_first[c + 1] += ld->gateway_first[c];
	for (c = 0; c < groups; c++)
		ld->member_first[c + 1] += ld->member_first[c];
	for (c = 0; c < graph->num_channels; c++)
		if (ld->channel_class[c] == VLR_PORT_GLOBAL) {
			uint64_t pair = (uint64_t)ld->topology.group[graph->channel_from[c]] * groups +
					ld->topology.group[graph->channel_to[c]];

			ld->gateway[ld->gateway_first[pair] + fill[pair]++] = c;
		}
	for (sw = 0; sw < graph->num_switches; sw++) {
		uint32_t g = ld->topology.group[sw];

		ld->member[ld->member_first[g] + fill[pairs + g]++] = sw;
	}
	free(fill);
	return 0;
}

static int set_dim_order(struct lowdiam *ld, const struct vlr_engine_options *options,
			 struct vlr_error *err)
{
	unsigned dims = ld->topology.params.u.grid.dims, d, seen = 0;

	if (!options->dim_order_count) {
		for (d = 0; d < dims; d++)
			ld->dim_order[d] = ld->dim_rank[d] = d;
		return 0;
	}
	if (options->dim_order_count != dims)
		return vlr_fail(err, "the dimension order names %u dimensions, the HyperX "
				"has %u", options->dim_order_count, dims);
	for (d = 0; d < dims; d++) {
		if (options->dim_order[d] >= dims || (seen >> options->dim_order[d]) & 1)
			return vlr_fail(err, "the dimension order must name each of the "
					"dimensions 0..%u once", dims - 1);
		seen |= 1u << options->dim_order[d];
		ld->dim_order[d] = options->dim_order[d];
		ld->dim_rank[options->dim_order[d]] = d;
	}
	return 0;
}

int lowdiam_init(struct lowdiam *ld, const struct vlr_tables *tables,
		 struct vlr_topology *topology, const struct vlr_engine_options *options,
		 struct vlr_error *err)
{
	memset(ld, 0, sizeof(*ld));
	ld->topology = *topology;
	if (route_graph_build(&ld->graph, tables, err)) {
		vlr_topology_free(&ld->topology);
		return -1;
	}
	if (options->dim_order_count && ld->topology.params.family != VLR_FAMILY_HYPERX) {
		vlr_fail(err, "a dimension order is for a HyperX, and the fabric is a %s",
			 ld->topology.params.family == VLR_FAMILY_DRAGONFLY ? "Dragonfly" :
			 "Dragonfly+");
		lowdiam_free(ld);
		return -1;
	}
	if (index_channels(ld, err) ||
	    (ld->topology.params.family == VLR_FAMILY_HYPERX ?
	     set_dim_order(ld, options, err) : index_groups(ld, err))) {
		lowdiam_free(ld);
		return -1;
	}
	return 0;
}

void lowdiam_free(struct lowdiam *ld)
{
	route_graph_free(&ld->graph);
	vlr_topology_free(&ld->topology);
	free(ld->load);
	free(ld->channel_class);
	free(ld->channel_dim);
	free(ld->gateway_first);
	free(ld->gateway);
	free(ld->member_first);
	free(ld->member);
	memset(ld, 0, sizeof(*ld));
}

uint32_t lowdiam_channel_to(const struct lowdiam *ld, uint32_t sw, uint32_t next)
{
	uint32_t c;

	for (c = ld->graph.first_channel[sw]; c < ld->graph.first_channel[sw + 1]; c++)
		if (ld->graph.channel_to[c] == next)
			return c;
	return VLR_NONE;
}

static uint32_t take(struct lowdiam *ld, uint32_t channel)
{
	if (channel != VLR_NONE)
		ld->load[channel]++;
	return channel;
}

/* Least-loaded channel of sw to a switch that `accept` accepts. */
static uint32_t least_loaded(const struct lowdiam *ld, uint32_t sw,
			     int (*accept)(const struct lowdiam *ld, uint32_t channel,
					   uint32_t target),
			     uint32_t target)
{
	uint32_t c, best = VLR_NONE;

	for (c = ld->graph.first_channel[sw]; c < ld->graph.first_channel[sw + 1]; c++)
		if (accept(ld, c, target) && (best == VLR_NONE || ld->load[c] < ld->load[best]))
			best = c;
	return best;
}

static uint32_t hyperx_next(struct lowdiam *ld, uint32_t sw, uint32_t target, int reversed)
{
	const struct vlr_topology *topo = &ld->topology;
	unsigned dims = topo->params.u.grid.dims, i, d;
	uint32_t c;

	for (i = 0; i < dims; i++) {
		d = ld->dim_order[reversed ? dims - 1 - i : i];
		if (topo->coord[(uint64_t)sw * dims + d] != topo->coord[(uint64_t)target * dims + d])
			break;
	}
	if (i == dims)
		return VLR_NONE;
	for (c = ld->graph.first_channel[sw]; c < ld->graph.first_channel[sw + 1]; c++) {
		uint32_t to = ld->graph.channel_to[c];

		if (ld->channel_dim[c] == d &&
		    topo->coord[(uint64_t)to * dims + d] == topo->coord[(uint64_t)target * dims + d])
			return c;
	}
	return VLR_NONE;
}

/* A global channel of sw into group `group`. */
static int global_into(const struct lowdiam *ld, uint32_t c, uint32_t group)
{
	return ld->channel_class[c] == VLR_PORT_GLOBAL &&
	       ld->topology.group[ld->graph.channel_to[c]] == group;
}

uint32_t lowdiam_gateway(const struct lowdiam *ld, uint32_t from, uint32_t into)
{
	uint64_t pair = (uint64_t)from * ld->topology.num_groups + into;
	uint32_t i, best = VLR_NONE;

	for (i = ld->gateway_first[pair]; i < ld->gateway_first[pair + 1]; i++)
		if (best == VLR_NONE || ld->load[ld->gateway[i]] < ld->load[best])
			best = ld->gateway[i];
	return best;
}

static uint32_t dragonfly_next(struct lowdiam *ld, uint32_t sw, uint32_t target)
{
	uint32_t group = ld->topology.group[sw], into = ld->topology.group[target], gateway;

	if (group == into)
		return lowdiam_channel_to(ld, sw, target);
	gateway = least_loaded(ld, sw, global_into, into);
	if (gateway != VLR_NONE)
		return gateway;
	gateway = lowdiam_gateway(ld, group, into);
	if (gateway == VLR_NONE)
		return VLR_NONE;
	ld->load[gateway]++;
	return lowdiam_channel_to(ld, sw, ld->graph.channel_from[gateway]);
}

static int any_up(const struct lowdiam *ld, uint32_t c, uint32_t unused)
{
	(void)unused;
	return ld->channel_class[c] == VLR_PORT_UP;
}

static int any_down(const struct lowdiam *ld, uint32_t c, uint32_t unused)
{
	(void)unused;
	return ld->channel_class[c] == VLR_PORT_DOWN;
}

/* Up to a spine of the group that has a global link into group `into`. */
static int up_to_gateway(const struct lowdiam *ld, uint32_t c, uint32_t into)
{
	uint32_t spine = ld->graph.channel_to[c], g;

	if (ld->channel_class[c] != VLR_PORT_UP)
		return 0;
	for (g = ld->graph.first_channel[spine]; g < ld->graph.first_channel[spine + 1]; g++)
		if (global_into(ld, g, into))
			return 1;
	return 0;
}

/* The least-loaded up channel of leaf sw that way allows towards target. */
static uint32_t up_within_group(const struct lowdiam *ld, uint32_t sw, uint32_t target,
				const struct lowdiam_way *way)
{
	const uint16_t *index = ld->topology.index_in_group;
	uint32_t c, best[3] = { VLR_NONE, VLR_NONE, VLR_NONE };
	unsigned pass;

	for (c = ld->graph.first_channel[sw]; c < ld->graph.first_channel[sw + 1]; c++) {
		uint32_t spine = ld->graph.channel_to[c];
		int avoided = way->avoid && way->avoid[spine];
		int parity = (index[sw] + index[target] + index[spine]) % 2u == way->phase;

		if (ld->channel_class[c] != VLR_PORT_UP)
			continue;
		pass = !avoided && parity ? 0 : !avoided ? 1 : 2;
		if (best[pass] == VLR_NONE || ld->load[c] < ld->load[best[pass]])
			best[pass] = c;
	}
	for (pass = 0; pass < 3; pass++)
		if (best[pass] != VLR_NONE)
			return best[pass];
	return VLR_NONE;
}

static uint32_t dragonflyplus_next(struct lowdiam *ld, uint32_t sw, uint32_t target,
				   const struct lowdiam_way *way)
{
	const struct vlr_topology *topo = &ld->topology;
	uint32_t group = topo->group[sw], into = topo->group[target], direct;
	int spine = topo->role[sw] == VLR_ROLE_SPINE;

	direct = group == into ? lowdiam_channel_to(ld, sw, target) : VLR_NONE;
	if (direct != VLR_NONE)
		return direct;
	if (group == into && !spine && way && topo->role[target] == VLR_ROLE_LEAF)
		return up_within_group(ld, sw, target, way);
	if (group == into)
		return least_loaded(ld, sw, spine ? any_down : any_up, 0);
	if (!spine)
		return least_loaded(ld, sw, up_to_gateway, into);
	direct = least_loaded(ld, sw, global_into, into);
	return direct != VLR_NONE ? direct : least_loaded(ld, sw, any_down, 0);
}

uint32_t lowdiam_next(struct lowdiam *ld, uint32_t sw, uint32_t target, int reversed,
		      const struct lowdiam_way *way)
{
	switch (ld->topology.params.family) {
	case VLR_FAMILY_HYPERX:
		return take(ld, hyperx_next(ld, sw, target, reversed));
	case VLR_FAMILY_DRAGONFLY:
		return take(ld, dragonfly_next(ld, sw, target));
	default:
		return take(ld, dragonflyplus_next(ld, sw, target, way));
	}
}
