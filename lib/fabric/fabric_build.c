/*
 * fabric_build.c - a subnet's fabric, one rule for every source of one
 * (the capture, the OpenSM plugin): nodes in a fixed order (switches, then
 * channel adapters and routers, each by NodeGUID), named by their
 * NodeDescription when no other node has it and it can be a node id, else
 * "S-<guid>" (switches) or "H-<guid>" (others) as in OpenSM's subnet.lst;
 * their ports with GUIDs, LIDs and LMCs; the links whose two ports are up;
 * the fewest data VLs those links run.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vlroute/fabric.h>

#include "util/array.h"

struct build {
	struct vlr_subnet *subnet;
	struct vlr_fabric *fabric;
	struct vlr_subnet_report *report;
	struct vlr_guid_map by_guid;	/* NodeGUID -> subnet node */
	uint32_t *order;		/* fabric node -> subnet node */
	uint8_t *unique;		/* subnet node: no other has its description */
	struct vlr_error *err;
};

/* "switch 0x0002c903000a1b2c ("sw1")", the description when there is one. */
static void label(const struct vlr_subnet_node *node, char *buf, size_t size)
{
	const char *type = vlr_node_type_name((enum vlr_node_type)node->type);

	if (node->description[0])
		snprintf(buf, size, "%s 0x%016llx (\"%s\")", type,
			 (unsigned long long)node->guid, node->description);
	else
		snprintf(buf, size, "%s 0x%016llx", type, (unsigned long long)node->guid);
}

static int index_nodes(struct build *b)
{
	const struct vlr_subnet *subnet = b->subnet;
	uint32_t i, taken;

	if (vlr_guid_map_init(&b->by_guid, subnet->num_nodes, b->err))
		return -1;
	for (i = 0; i < subnet->num_nodes; i++) {
		const struct vlr_subnet_node *node = &subnet->nodes[i];

		if (node->type < VLR_NODE_CA || node->type > VLR_NODE_ROUTER)
			return vlr_fail(b->err, "node 0x%016llx has node type %u, not CA, "
					"switch or router", (unsigned long long)node->guid,
					node->type);
		if (!node->guid)
			return vlr_fail(b->err, "a %s has NodeGUID 0",
					vlr_node_type_name((enum vlr_node_type)node->type));
		taken = vlr_guid_map_put(&b->by_guid, node->guid, i, b->err);
		if (taken == VLR_GUID_MAP_FAILED)
			return -1;
		if (taken != VLR_NONE)
			return vlr_fail(b->err, "two nodes have NodeGUID 0x%016llx",
					(unsigned long long)node->guid);
	}
	return 0;
}

/* Switches, then the others, each by NodeGUID. */
static void sort_nodes(struct build *b, struct vlr_keyed *keys)
{
	const struct vlr_subnet *subnet = b->subnet;
	uint32_t i, switches = 0, next[2] = { 0, 0 };

	for (i = 0; i < subnet->num_nodes; i++)
		switches += subnet->nodes[i].type == VLR_NODE_SWITCH;
	next[1] = switches;
	for (i = 0; i < subnet->num_nodes; i++) {
		int other = subnet->nodes[i].type != VLR_NODE_SWITCH;

		keys[next[other]].key = subnet->nodes[i].guid;
		keys[next[other]++].index = i;
	}
	vlr_sort_keyed(keys, switches);
	vlr_sort_keyed(keys + switches, subnet->num_nodes - switches);
	for (i = 0; i < subnet->num_nodes; i++)
		b->order[i] = keys[i].index;
}

static int by_description(const void *a, const void *b)
{
	const struct vlr_subnet_node *const *x = a, *const *y = b;

	return strcmp((*x)->description, (*y)->description);
}

/* unique[node]: no other node has its description. */
static int mark_unique(struct build *b)
{
	struct vlr_subnet_node *nodes = b->subnet->nodes;
	uint32_t i, j, k, n = b->subnet->num_nodes;
	const struct vlr_subnet_node **sorted = malloc(sizeof(*sorted) * (n + 1));

	if (!sorted)
		return vlr_fail(b->err, "out of memory naming %u nodes", n);
	for (i = 0; i < n; i++)
		sorted[i] = &nodes[i];
	qsort(sorted, n, sizeof(*sorted), by_description);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(sorted[i]->description, sorted[j]->description);
		     j++)
			;
		for (k = i; k < j; k++)
			b->unique[sorted[k] - nodes] = j - i == 1;
	}
	free(sorted);
	return 0;
}

/* A NodeDescription vlr_fabric_set_description takes. */
static int description_ok(const char *text)
{
	return text[0] && strlen(text) <= VLR_MAX_NAME && !strchr(text, '"');
}

/* One that can also be a node id of an ibsim net file. */
static int name_ok(const char *text)
{
	return description_ok(text) && !strpbrk(text, "#@");
}

/* Port GUIDs (a switch's port 0 GUID on all its ports), LIDs and LMCs. */
static void copy_ports(struct build *b, const struct vlr_subnet_node *node)
{
	int is_switch = node->type == VLR_NODE_SWITCH;
	unsigned number;

	for (number = 0; number <= node->num_ports; number++) {
		const struct vlr_subnet_port *from = &b->subnet->ports[node->first_port + number];
		struct vlr_port *to = vlr_port_at(b->fabric, node->made, number);

		to->guid = is_switch ? b->subnet->ports[node->first_port].guid : from->guid;
		if (is_switch ? number == 0 : number != 0) {
			to->lid = from->lid;
			to->lmc = from->lmc;
		}
	}
}

static int add_node(struct build *b, uint32_t index)
{
	struct vlr_subnet_node *node = &b->subnet->nodes[index];
	struct vlr_fabric *fabric = b->fabric;
	char name[VLR_MAX_NAME + 1], where[160];
	struct vlr_error inner;

	if (b->unique[index] && name_ok(node->description) &&
	    vlr_fabric_find(fabric, node->description) == VLR_NONE)
		snprintf(name, sizeof(name), "%s", node->description);
	else
		snprintf(name, sizeof(name), "%c-%016llx",
			 node->type == VLR_NODE_SWITCH ? 'S' : 'H',
			 (unsigned long long)node->guid);
	node->made = vlr_fabric_add_node(fabric, (enum vlr_node_type)node->type, name,
					 node->num_ports, node->guid, &inner);
	if (node->made == VLR_NONE ||
	    (description_ok(node->description) &&
	     vlr_fabric_set_description(fabric, node->made, node->description, &inner))) {
		label(node, where, sizeof(where));
		return vlr_fail(b->err, "%s: %s", where, inner.message);
	}
	copy_ports(b, node);
	return 0;
}

/* The port port `number` of `node` is cabled to, which must name it back. */
static int find_peer(struct build *b, uint32_t node, unsigned number, uint32_t *other,
		     const struct vlr_subnet_port **back)
{
	const struct vlr_subnet *subnet = b->subnet;
	const struct vlr_subnet_port *port = vlr_subnet_port_at(subnet, node, number);
	char here[160], there[160];

	label(&subnet->nodes[node], here, sizeof(here));
	*other = vlr_guid_map_get(&b->by_guid, port->peer_guid);
	if (*other == VLR_NONE)
		return vlr_fail(b->err, "port %u of %s leads to node 0x%016llx, which is not "
				"in the subnet", number, here,
				(unsigned long long)port->peer_guid);
	label(&subnet->nodes[*other], there, sizeof(there));
	if (port->peer_port < 1 || port->peer_port > subnet->nodes[*other].num_ports)
		return vlr_fail(b->err, "port %u of %s leads to port %u of %s, which has "
				"ports 1..%u", number, here, port->peer_port, there,
				subnet->nodes[*other].num_ports);
	*back = vlr_subnet_port_at(subnet, *other, port->peer_port);
	if ((*back)->peer_guid != subnet->nodes[node].guid || (*back)->peer_port != number)
		return vlr_fail(b->err, "port %u of %s leads to port %u of %s, which does "
				"not lead back", number, here, port->peer_port, there);
	return 0;
}

static void fewest(unsigned *vls, unsigned a, unsigned b)
{
	if (a && (!*vls || a < *vls))
		*vls = a;
	if (b && (!*vls || b < *vls))
		*vls = b;
}

/* The link on port `number` of subnet node `node`, if it is to be taken. */
static int add_link(struct build *b, uint32_t node, unsigned number)
{
	const struct vlr_subnet_node *nodes = b->subnet->nodes;
	const struct vlr_subnet_port *port = vlr_subnet_port_at(b->subnet, node, number);
	const struct vlr_subnet_port *back = NULL;
	uint32_t other;

	if (!port->peer_guid)
		return 0;
	if (find_peer(b, node, number, &other, &back))
		return -1;
	if (nodes[other].made < nodes[node].made ||
	    (other == node && port->peer_port <= number))
		return 0;	/* taken from the other end */
	if (other == node || !port->up || !back->up) {
		b->report->links_skipped++;
		return 0;
	}
	if (vlr_fabric_link(b->fabric, nodes[node].made, number, nodes[other].made,
			    port->peer_port, b->err))
		return -1;
	b->report->links++;
	fewest(&b->report->vls, port->vls, back->vls);
	if (nodes[node].type == VLR_NODE_SWITCH && nodes[other].type == VLR_NODE_SWITCH)
		fewest(&b->report->switch_vls, port->vls, back->vls);
	return 0;
}

/* Every linked endpoint port's LIDs; the largest LMC is the fabric's. */
static int check_lids(struct build *b)
{
	struct vlr_fabric *fabric = b->fabric;
	uint32_t slot;

	for (slot = 0; slot < fabric->num_ports; slot++) {
		const struct vlr_port *port = &fabric->ports[slot];

		if (!port->number || port->peer == VLR_NONE ||
		    vlr_node_is_switch(fabric, port->node))
			continue;
		if (!port->lid && b->subnet->lids_required)
			return vlr_fail(b->err, "port %u of \"%s\" has no LID: no subnet "
					"manager has brought the fabric up yet", port->number,
					vlr_node_name(fabric, port->node));
		if (port->lmc > fabric->lmc)
			fabric->lmc = port->lmc;
	}
	return 0;
}

static int build(struct build *b)
{
	uint32_t i, n = b->subnet->num_nodes;
	unsigned number;
	struct vlr_keyed *keys = malloc(sizeof(*keys) * (n + 1));
	int result = -1;

	if (!keys || !b->order || !b->unique) {
		vlr_fail(b->err, "out of memory building a fabric of %u nodes", n);
		goto done;
	}
	if (index_nodes(b) || mark_unique(b) ||
	    vlr_fabric_reserve(b->fabric, n, b->subnet->num_ports, b->err))
		goto done;
	sort_nodes(b, keys);
	for (i = 0; i < n; i++)
		if (add_node(b, b->order[i]))
			goto done;
	for (i = 0; i < n; i++)
		for (number = 1; number <= b->subnet->nodes[b->order[i]].num_ports; number++)
			if (add_link(b, b->order[i], number))
				goto done;
	result = check_lids(b);
done:
	free(keys);
	return result;
}

struct vlr_fabric *vlr_fabric_build(struct vlr_subnet *subnet,
				    struct vlr_subnet_report *report,
				    struct vlr_error *err)
{
	struct build b;
	int result;

	memset(report, 0, sizeof(*report));
	memset(&b, 0, sizeof(b));
	b.subnet = subnet;
	b.report = report;
	b.err = err;
	b.fabric = vlr_fabric_new();
	b.order = malloc(sizeof(*b.order) * (subnet->num_nodes + 1));
	b.unique = calloc(subnet->num_nodes + 1, 1);
	result = b.fabric ? build(&b) : vlr_fail(err, "out of memory for a fabric");
	vlr_guid_map_free(&b.by_guid);
	free(b.order);
	free(b.unique);
	if (result) {
		vlr_fabric_free(b.fabric);
		return NULL;
	}
	return b.fabric;
}

unsigned vlr_vls_of_code(unsigned code)
{
	static const unsigned vls[] = { 0, 1, 2, 4, 8, 15 };

	return code < sizeof(vls) / sizeof(vls[0]) ? vls[code] : 15;
}
