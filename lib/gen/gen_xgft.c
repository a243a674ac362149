/*
 * gen_xgft.c - extended generalized fat tree XGFT(h; m1..mh; w1..wh), as
 * Ohring, Ibel, Das and Kumar define it: level 0 holds the hosts, levels
 * 1..h the switches; a level-i node has m_i children and a level-(i-1)
 * node w_i parents (w1 = 1: a host has one port).
 *
 * A level-i node is a word of h digits d1..dh, digit j below w_j for
 * j <= i and below m_j for j > i; it is node first(i) + d1 + d2*r1 +
 * d3*r1*r2 + ... (r_j the radix of digit j), named xgft_lI_d1_d2_..._dh.
 * A level-(i-1) switch and a level-i switch are linked when their words
 * differ at most in digit i: port m_{i-1}+1+d'_i of the lower one meets
 * port 1+d_i of the upper one (d_i its child number, d'_i its parent
 * number). Level-1 switches carry their m1 hosts on ports 1..m1, or, when
 * fewer endpoints are asked for, the endpoints spread over them, the
 * first switches taking one more.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>

#include "gen_common.h"

/* Radix of digit j (from 0) in the words of a level's nodes. */
static unsigned radix(const struct vlr_xgft_params *xgft, unsigned level, unsigned j)
{
	return j < level ? xgft->w[j] : xgft->m[j];
}

/* Nodes of a level (0 = the hosts of the full tree); UINT64_MAX if huge. */
static uint64_t level_nodes(const struct vlr_xgft_params *xgft, unsigned level)
{
	uint64_t count = 1;
	unsigned j;

	for (j = 0; j < xgft->h; j++)
		count = gen_times(count, radix(xgft, level, j));
	return count;
}

static unsigned switch_ports(const struct vlr_xgft_params *xgft, unsigned level)
{
	return xgft->m[level - 1] + (level < xgft->h ? xgft->w[level] : 0);
}

static int check_level(const struct vlr_xgft_params *xgft, unsigned i,
		       struct vlr_error *err)
{
	char parameter[64];

	snprintf(parameter, sizeof(parameter), "m%u (children of a level-%u switch)",
		 i + 1, i + 1);
	if (gen_check_range(parameter, xgft->m[i], 1, VLR_MAX_NODE_PORTS, err))
		return -1;
	if (i == 0 && xgft->w[0] != 1)
		return vlr_fail(err, "w1 is %u, but a host has one port: w1 must be 1",
				xgft->w[0]);
	snprintf(parameter, sizeof(parameter), "w%u (parents of a level-%u switch)",
		 i + 1, i);
	if (i && gen_check_range(parameter, xgft->w[i], 1, VLR_MAX_NODE_PORTS, err))
		return -1;
	snprintf(parameter, sizeof(parameter), "m%u + w%u at level %u", i + 1, i + 2,
		 i + 1);
	return gen_check_radix(switch_ports(xgft, i + 1), i + 1 < xgft->h ?
			       parameter : "m at the top level", err);
}

/* Check the parameters; the switches and the hosts the tree will have. */
static int check_xgft(const struct vlr_xgft_params *xgft, uint64_t *switches,
		      uint64_t *hosts, struct vlr_error *err)
{
	uint64_t all_hosts;
	unsigned i;

	if (gen_check_range("the height h", xgft->h, 1, VLR_XGFT_MAX_HEIGHT, err))
		return -1;
	*switches = 0;
	for (i = 0; i < xgft->h; i++) {
		uint64_t nodes = level_nodes(xgft, i + 1);

		if (check_level(xgft, i, err))
			return -1;
		*switches = nodes > UINT64_MAX - *switches ? UINT64_MAX : *switches + nodes;
	}
	all_hosts = level_nodes(xgft, 0);
	*hosts = xgft->endpoints ? xgft->endpoints : all_hosts;
	if (xgft->endpoints &&
	    gen_check_range("the number of endpoints", xgft->endpoints, 1, all_hosts, err))
		return -1;
	if (gen_check_size(*switches > UINT64_MAX - *hosts ? UINT64_MAX :
			   *switches + *hosts, err))
		return -1;
	return gen_check_lids(*switches, *hosts, err);
}

static void switch_name(char *name, size_t size, const struct vlr_xgft_params *xgft,
			unsigned level, uint64_t index)
{
	unsigned digits[VLR_XGFT_MAX_HEIGHT], j;
	char prefix[16];

	for (j = 0; j < xgft->h; j++) {
		digits[j] = (unsigned)(index % radix(xgft, level, j));
		index /= radix(xgft, level, j);
	}
	snprintf(prefix, sizeof(prefix), "xgft_l%u", level);
	gen_grid_name(name, size, prefix, digits, xgft->h);
}

/* The links between level `level` - 1 and level `level` (2..h). */
static int link_level(struct vlr_fabric *fabric, const struct vlr_xgft_params *xgft,
		      unsigned level, const uint32_t *first, struct vlr_error *err)
{
	uint32_t lower_count = (uint32_t)level_nodes(xgft, level - 1), lower;
	unsigned children = xgft->m[level - 1], parents = xgft->w[level - 1], j;
	uint32_t stride = 1;

	for (j = 0; j + 1 < level; j++)
		stride *= xgft->w[j];
	for (lower = 0; lower < lower_count; lower++) {
		uint32_t low = lower % stride, child = (lower / stride) % children;
		uint32_t high = lower / stride / children;
		unsigned parent;

		for (parent = 0; parent < parents; parent++) {
			uint32_t upper = low + stride * (parent + parents * high);

			if (vlr_fabric_link(fabric, first[level - 1] + lower,
					    xgft->m[level - 2] + 1 + parent,
					    first[level] + upper, 1 + child, err))
				return -1;
		}
	}
	return 0;
}

static int add_switches(struct vlr_fabric *fabric, const struct vlr_xgft_params *xgft,
			struct gen_guids *guids, struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	unsigned level;

	for (level = 1; level <= xgft->h; level++) {
		uint64_t count = level_nodes(xgft, level), index;

		for (index = 0; index < count; index++) {
			switch_name(name, sizeof(name), xgft, level, index);
			if (gen_add_switch(fabric, guids, name, switch_ports(xgft, level),
					   err) == VLR_NONE)
				return -1;
		}
	}
	return 0;
}

int vlr_gen_xgft(struct vlr_fabric *fabric, const struct vlr_xgft_params *xgft,
		 struct vlr_error *err)
{
	uint32_t first[VLR_XGFT_MAX_HEIGHT + 2], leaves, sw;
	uint64_t switches, hosts, port_slots = 0;
	struct gen_guids guids;
	unsigned level;

	if (check_xgft(xgft, &switches, &hosts, err))
		return -1;
	first[1] = 0;
	for (level = 1; level <= xgft->h; level++) {
		first[level + 1] = first[level] + (uint32_t)level_nodes(xgft, level);
		port_slots += level_nodes(xgft, level) * (switch_ports(xgft, level) + 1);
	}
	if (vlr_fabric_reserve(fabric, (uint32_t)(switches + hosts),
			       (uint32_t)(port_slots + 2 * hosts), err))
		return -1;
	gen_guids_init(&guids);
	if (add_switches(fabric, xgft, &guids, err))
		return -1;
	for (level = 2; level <= xgft->h; level++)
		if (link_level(fabric, xgft, level, first, err))
			return -1;
	leaves = first[2];
	for (sw = 0; sw < leaves; sw++)
		if (gen_attach_hosts(fabric, &guids, sw, gen_spread(hosts, leaves, sw), err))
			return -1;
	return 0;
}
