/*
 * gen_common.c - the pieces every topology generator uses.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_common.h"

#define MAX_GENERATED_NODES 8000000ull

void gen_guids_init(struct gen_guids *guids)
{
	guids->next_switch = 0x200000;	/* ibsim's defaults */
	guids->next_ca = 0x100000;
}

int gen_check_range(const char *parameter, unsigned long long value,
		    unsigned long long min, unsigned long long max,
		    struct vlr_error *err)
{
	if (value >= min && value <= max)
		return 0;
	return vlr_fail(err, "%s is %llu; allowed: %llu..%llu", parameter, value,
			min, max);
}

int gen_check_radix(unsigned long long radix, const char *formula,
		    struct vlr_error *err)
{
	if (radix <= VLR_MAX_NODE_PORTS)
		return 0;
	return vlr_fail(err, "switches would need %llu ports (%s); a switch has at "
			"most %d", radix, formula, VLR_MAX_NODE_PORTS);
}

int gen_check_size(unsigned long long nodes, struct vlr_error *err)
{
	if (nodes <= MAX_GENERATED_NODES)
		return 0;
	return vlr_fail(err, "the fabric would have %llu nodes; the generators stop "
			"at %llu", nodes, MAX_GENERATED_NODES);
}

int gen_check_lids(unsigned long long switches, unsigned long long hosts,
		   struct vlr_error *err)
{
	if (switches <= VLR_MAX_UNICAST_LID && hosts <= VLR_MAX_UNICAST_LID - switches)
		return 0;
	return vlr_fail(err, "the fabric would need %llu LIDs (%llu switches and %llu "
			"hosts, one LID each); a subnet has %d unicast LIDs",
			switches + hosts, switches, hosts, VLR_MAX_UNICAST_LID);
}

uint64_t gen_times(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

uint32_t gen_add_switch(struct vlr_fabric *fabric, struct gen_guids *guids,
			const char *name, unsigned ports, struct vlr_error *err)
{
	uint32_t node = vlr_fabric_add_node(fabric, VLR_NODE_SWITCH, name, ports,
					    guids->next_switch, err);
	unsigned number;

	if (node == VLR_NONE)
		return VLR_NONE;
	for (number = 0; number <= ports; number++)
		vlr_port_at(fabric, node, number)->guid = guids->next_switch;
	guids->next_switch++;
	return node;
}

static uint32_t add_host(struct vlr_fabric *fabric, struct gen_guids *guids,
			 const char *name, struct vlr_error *err)
{
	uint32_t node = vlr_fabric_add_node(fabric, VLR_NODE_CA, name, 1,
					    guids->next_ca, err);

	if (node == VLR_NONE)
		return VLR_NONE;
	vlr_port_at(fabric, node, 1)->guid = guids->next_ca + 1;
	guids->next_ca += 2;	/* ibsim: one GUID per port plus the node's */
	return node;
}

int gen_attach_hosts(struct vlr_fabric *fabric, struct gen_guids *guids,
		     uint32_t sw, unsigned hosts, struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	unsigned i;

	for (i = 0; i < hosts; i++) {
		uint32_t host;

		snprintf(name, sizeof(name), "%s_h%u", vlr_node_name(fabric, sw), i);
		host = add_host(fabric, guids, name, err);
		if (host == VLR_NONE || vlr_fabric_link(fabric, sw, i + 1, host, 1, err))
			return -1;
	}
	return 0;
}

void gen_grid_name(char *name, size_t size, const char *prefix,
		   const unsigned *coords, unsigned dims)
{
	size_t used = (size_t)snprintf(name, size, "%s", prefix);
	unsigned d;

	for (d = 0; d < dims && used < size; d++)
		used += (size_t)snprintf(name + used, size - used, "_%u", coords[d]);
}

void gen_grid_coords(uint32_t index, const struct vlr_grid_params *grid,
		     unsigned *coords)
{
	unsigned d;

	for (d = 0; d < grid->dims; d++) {
		coords[d] = index % grid->sides[d];
		index /= grid->sides[d];
	}
}

uint32_t gen_grid_index(const unsigned *coords, const struct vlr_grid_params *grid)
{
	uint32_t index = 0;
	unsigned d = grid->dims;

	while (d--)
		index = index * grid->sides[d] + coords[d];
	return index;
}

uint64_t gen_grid_switches(const struct vlr_grid_params *grid)
{
	uint64_t switches = 1;
	unsigned d;

	for (d = 0; d < grid->dims; d++) {
		switches *= grid->sides[d];
		if (switches > UINT32_MAX)
			return 0;
	}
	return switches;
}

int gen_check_grid(const struct vlr_grid_params *grid, unsigned links_per_switch,
		   const char *family, struct vlr_error *err)
{
	char parameter[64];
	uint64_t switches;
	unsigned d;

	if (gen_check_range("the number of dimensions", grid->dims, 1, VLR_MAX_DIMS, err))
		return -1;
	for (d = 0; d < grid->dims; d++) {
		snprintf(parameter, sizeof(parameter), "the side of dimension %u", d);
		if (gen_check_range(parameter, grid->sides[d], 2, 1u << 16, err))
			return -1;
	}
	if (gen_check_range("hosts per switch", grid->hosts, 1, VLR_MAX_NODE_PORTS, err))
		return -1;
	switches = gen_grid_switches(grid);
	if (!switches)
		return vlr_fail(err, "the %s would have more than 2^32 switches", family);
	if (gen_check_size(switches * (1ull + grid->hosts), err))
		return -1;
	return gen_check_radix((unsigned long long)grid->hosts + links_per_switch,
			       "hosts + links to other switches", err);
}

int gen_grid(struct vlr_fabric *fabric, const struct vlr_grid_params *grid,
	     const char *prefix, unsigned links_per_switch,
	     gen_grid_linker link_switch, struct vlr_error *err)
{
	char name[VLR_MAX_NAME + 1];
	unsigned coords[VLR_MAX_DIMS];
	unsigned radix = grid->hosts + links_per_switch;
	struct gen_guids guids;
	uint32_t sw, count;

	count = (uint32_t)gen_grid_switches(grid);
	if (vlr_fabric_reserve(fabric, count * (1 + grid->hosts),
			       count * (radix + 1) + count * grid->hosts * 2, err))
		return -1;
	gen_guids_init(&guids);
	for (sw = 0; sw < count; sw++) {
		gen_grid_coords(sw, grid, coords);
		gen_grid_name(name, sizeof(name), prefix, coords, grid->dims);
		if (gen_add_switch(fabric, &guids, name, radix, err) == VLR_NONE)
			return -1;
	}
	for (sw = 0; sw < count; sw++)
		if (link_switch(fabric, grid, sw, err))
			return -1;
	for (sw = 0; sw < count; sw++)
		if (gen_attach_hosts(fabric, &guids, sw, grid->hosts, err))
			return -1;
	return 0;
}

/* ---- group wiring ------------------------------------------------------- */

static unsigned links_at_offset(const struct gen_group_wiring *wiring,
				unsigned offset)
{
	unsigned groups = wiring->groups;
	unsigned each = wiring->ports_per_group / (groups - 1);
	unsigned leftover = wiring->ports_per_group - each * (groups - 1);
	unsigned distance = offset < groups - offset ? offset : groups - offset;
	unsigned links = each;

	if (offset == 0)
		return 0;
	if (distance <= leftover / 2)
		links++;
	if (leftover % 2 && groups % 2 == 0 && distance == groups / 2)
		links++;
	return links;
}

int gen_group_wiring_init(struct gen_group_wiring *wiring, unsigned groups,
			  unsigned ports_per_group, enum vlr_arrangement arrangement,
			  struct vlr_error *err)
{
	unsigned offset;

	wiring->groups = groups;
	wiring->ports_per_group = ports_per_group;
	wiring->arrangement = arrangement;
	wiring->links_before = malloc(sizeof(uint64_t) * (groups + 1));
	if (!wiring->links_before)
		return vlr_fail(err, "out of memory for %u groups", groups);
	wiring->links_before[0] = 0;
	for (offset = 0; offset < groups; offset++)
		wiring->links_before[offset + 1] = wiring->links_before[offset] +
						   links_at_offset(wiring, offset);
	return 0;
}

void gen_group_wiring_free(struct gen_group_wiring *wiring)
{
	free(wiring->links_before);
	wiring->links_before = NULL;
}

unsigned gen_group_wiring_links(const struct gen_group_wiring *wiring,
				unsigned group_a, unsigned group_b)
{
	return links_at_offset(wiring, (group_b + wiring->groups - group_a) %
				       wiring->groups);
}

/* Links from group to the groups at circular offsets [from, from + count). */
static uint64_t links_over_offsets(const struct gen_group_wiring *wiring,
				   unsigned from, unsigned count)
{
	const uint64_t *before = wiring->links_before;
	unsigned groups = wiring->groups;

	if (from + count <= groups)
		return before[from + count] - before[from];
	return before[groups] - before[from] + before[from + count - groups];
}

/*
 * Ports of group that precede its links to peer: palmtree deals ports by
 * increasing offset (peer - group) mod groups, consecutive by increasing
 * peer number.
 */
static uint64_t first_port_towards(const struct gen_group_wiring *wiring,
				   unsigned group, unsigned peer)
{
	unsigned groups = wiring->groups;

	if (wiring->arrangement == VLR_ARRANGEMENT_PALMTREE)
		return wiring->links_before[(peer + groups - group) % groups];
	/* groups 0..peer-1 sit at offsets (groups - group) mod groups onwards */
	return links_over_offsets(wiring, (groups - group) % groups, peer);
}

int gen_group_wiring_peer(const struct gen_group_wiring *wiring, unsigned group,
			  unsigned port, unsigned *peer_group, unsigned *peer_port)
{
	unsigned low = 0, high = wiring->groups;

	if (port >= wiring->links_before[wiring->groups])
		return 0;
	/* the last peer (in dealing order) whose first port is <= port */
	while (high - low > 1) {
		unsigned middle = low + (high - low) / 2;
		unsigned candidate = wiring->arrangement == VLR_ARRANGEMENT_PALMTREE ?
				     (group + middle) % wiring->groups : middle;

		if (first_port_towards(wiring, group, candidate) <= port)
			low = middle;
		else
			high = middle;
	}
	*peer_group = wiring->arrangement == VLR_ARRANGEMENT_PALMTREE ?
		      (group + low) % wiring->groups : low;
	*peer_port = (unsigned)(first_port_towards(wiring, *peer_group, group) +
				(port - first_port_towards(wiring, group, *peer_group)));
	return 1;
}
