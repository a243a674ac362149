/*
 * capture_fabric.c - the discovered fabric as a struct vlr_fabric: nodes
 * in a fixed order (switches, then channel adapters and routers, each by
 * NodeGUID), named by their NodeDescription when no other node has it and
 * it can be a node id, else "S-<guid>" (switches) or "H-<guid>" (others) as
 * for OpenSM's subnet.lst; port GUIDs, LIDs and LMCs from PortInfo; the
 * links discovery found.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_internal.h"

struct keyed {
	const char *text;	/* the description (naming) */
	uint64_t guid;		/* switches first, then by GUID (order) */
	uint32_t node;
	uint8_t later;		/* 0: switch, 1: endpoint */
};

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

static int by_text(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int order = strcmp(x->text, y->text);

	return order ? order : (x->node > y->node) - (x->node < y->node);
}

static int by_kind_and_guid(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->later != y->later)
		return x->later - y->later;
	return (x->guid > y->guid) - (x->guid < y->guid);
}

/* unique[node]: no other node has its description. */
static void mark_unique(const struct cap_fabric *cap, struct keyed *keys, uint8_t *unique)
{
	uint32_t i, j, n = cap->num_nodes;

	for (i = 0; i < n; i++) {
		keys[i].text = cap->nodes[i].description;
		keys[i].node = i;
	}
	qsort(keys, n, sizeof(*keys), by_text);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(keys[i].text, keys[j].text); j++)
			;
		unique[keys[i].node] = j - i == 1;
	}
}

static void sort_nodes(const struct cap_fabric *cap, struct keyed *keys)
{
	uint32_t i;

	for (i = 0; i < cap->num_nodes; i++) {
		keys[i].node = i;
		keys[i].guid = cap->nodes[i].guid;
		keys[i].later = cap->nodes[i].type != VLR_NODE_SWITCH;
	}
	qsort(keys, cap->num_nodes, sizeof(*keys), by_kind_and_guid);
}

static void copy_ports(const struct cap_fabric *cap, uint32_t index,
		       struct vlr_fabric *fabric, uint32_t made)
{
	const struct cap_node *node = &cap->nodes[index];
	unsigned number;

	for (number = 0; number <= node->num_ports; number++) {
		const struct cap_port *from = cap_port_at(cap, index, number);
		struct vlr_port *to = vlr_port_at(fabric, made, number);

		if (node->type == VLR_NODE_SWITCH) {
			to->guid = node->port_guid;
			if (!number) {
				to->lid = from->lid;
				to->lmc = from->lmc;
			}
		} else if (number && from->reached) {
			to->guid = from->guid;
			to->lid = from->lid;
			to->lmc = from->lmc;
		}
	}
}

static int add_node(struct cap_fabric *cap, uint32_t index, int unique,
		    struct vlr_fabric *fabric, struct vlr_error *err)
{
	struct cap_node *node = &cap->nodes[index];
	char name[VLR_MAX_NAME + 1];
	uint32_t made;

	if (unique && name_ok(node->description) &&
	    vlr_fabric_find(fabric, node->description) == VLR_NONE)
		snprintf(name, sizeof(name), "%s", node->description);
	else
		snprintf(name, sizeof(name), "%c-%016llx",
			 node->type == VLR_NODE_SWITCH ? 'S' : 'H',
			 (unsigned long long)node->guid);
	made = vlr_fabric_add_node(fabric, (enum vlr_node_type)node->type, name,
				   node->num_ports, node->guid, err);
	if (made == VLR_NONE)
		return -1;
	if (description_ok(node->description) &&
	    vlr_fabric_set_description(fabric, made, node->description, err))
		return -1;
	node->fabric_node = made;
	copy_ports(cap, index, fabric, made);
	return 0;
}

static int add_links(const struct cap_fabric *cap, struct vlr_fabric *fabric,
		     struct vlr_error *err)
{
	uint32_t slot;

	for (slot = 0; slot < cap->num_ports; slot++) {
		const struct cap_port *port = &cap->ports[slot];
		uint32_t peer_slot;

		if (port->peer_node == VLR_NONE)
			continue;
		peer_slot = cap->nodes[port->peer_node].first_port + port->peer_port;
		if (peer_slot < slot)
			continue;
		if (vlr_fabric_link(fabric, cap->nodes[port->node].fabric_node, port->number,
				    cap->nodes[port->peer_node].fabric_node, port->peer_port,
				    err))
			return -1;
	}
	return 0;
}

/* Every linked endpoint port needs its LIDs: a subnet manager gives them. */
static int check_lids(struct vlr_fabric *fabric, struct vlr_error *err)
{
	uint32_t slot;

	for (slot = 0; slot < fabric->num_ports; slot++) {
		const struct vlr_port *port = &fabric->ports[slot];

		if (!port->number || port->peer == VLR_NONE ||
		    vlr_node_is_switch(fabric, port->node))
			continue;
		if (!port->lid)
			return vlr_fail(err, "port %u of \"%s\" has no LID: no subnet manager "
					"has brought the fabric up yet", port->number,
					vlr_node_name(fabric, port->node));
		if (port->lmc > fabric->lmc)
			fabric->lmc = port->lmc;
	}
	return 0;
}

struct vlr_fabric *cap_build_fabric(struct cap_fabric *cap, struct vlr_error *err)
{
	struct keyed *keys = malloc(sizeof(*keys) * (cap->num_nodes + 1));
	uint8_t *unique = calloc(cap->num_nodes + 1, 1);
	struct vlr_fabric *fabric = vlr_fabric_new();
	uint32_t i;
	int result = -1;

	if (!keys || !unique || !fabric) {
		vlr_fail(err, "out of memory building the fabric");
		goto done;
	}
	if (vlr_fabric_reserve(fabric, cap->num_nodes, cap->num_ports, err))
		goto done;
	mark_unique(cap, keys, unique);
	sort_nodes(cap, keys);
	for (i = 0; i < cap->num_nodes; i++)
		if (add_node(cap, keys[i].node, unique[keys[i].node], fabric, err))
			goto done;
	result = add_links(cap, fabric, err) || check_lids(fabric, err) ? -1 : 0;
done:
	free(keys);
	free(unique);
	if (result) {
		vlr_fabric_free(fabric);
		return NULL;
	}
	return fabric;
}
