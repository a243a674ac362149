/*
 * fabric_compare.c - are two fabrics the same subnet? Tables made for one
 * fabric (a table directory routed offline) may be programmed into another
 * (the subnet a subnet manager discovered) only if the two agree in every
 * node, link, port GUID, LID and LMC the tables name; otherwise an LFT
 * entry would send a LID out of the wrong port. The two are matched by
 * NodeGUID, so their node order and names may differ. The first difference
 * is named as a sentence, nodes before links before LIDs (a missing node
 * explains its missing links), each in the node order of the expected
 * fabric.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <vlroute/fabric.h>

/* One side of the comparison: a fabric, what to call it, its nodes by GUID. */
struct side {
	const struct vlr_fabric *fabric;
	const char *label;		/* "/var/lib/vlroute/tables", "the live subnet" */
	struct vlr_guid_map nodes;	/* NodeGUID -> node index */
};

struct comparison {
	struct side expected, found;
	struct vlr_error *err;
};

#define LABEL_SIZE (VLR_MAX_NAME + 48)

/* "switch 0x0002c90000000001 (\"sw1\")" */
static void node_label(const struct side *side, uint32_t node, char *out, size_t size)
{
	const struct vlr_node *record = &side->fabric->nodes[node];

	snprintf(out, size, "%s 0x%016" PRIx64 " (\"%s\")",
		 vlr_node_type_name((enum vlr_node_type)record->type), record->guid,
		 vlr_node_description(side->fabric, node));
}

static int index_nodes(struct side *side, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = side->fabric;
	uint32_t node, taken;

	if (vlr_guid_map_init(&side->nodes, fabric->num_nodes, err))
		return -1;
	for (node = 0; node < fabric->num_nodes; node++) {
		uint64_t guid = fabric->nodes[node].guid;

		if (!guid)
			return vlr_fail(err, "node \"%s\" of %s has no GUID, so it cannot be "
					"matched", vlr_node_name(fabric, node), side->label);
		taken = vlr_guid_map_put(&side->nodes, guid, node, err);
		if (taken == VLR_GUID_MAP_FAILED)
			return -1;
		if (taken != VLR_NONE)
			return vlr_fail(err, "nodes \"%s\" and \"%s\" of %s have the same GUID "
					"0x%016" PRIx64, vlr_node_name(fabric, taken),
					vlr_node_name(fabric, node), side->label, guid);
	}
	return 0;
}

/* The counterpart of node `node` of `from` in `to`, or VLR_NONE. */
static uint32_t counterpart(const struct side *from, uint32_t node, const struct side *to)
{
	return vlr_guid_map_get(&to->nodes, from->fabric->nodes[node].guid);
}

/* Every node of `from` is in `to`: the first that is not. */
static int nodes_present(const struct comparison *c, const struct side *from,
			 const struct side *to)
{
	char label[LABEL_SIZE];
	uint32_t node;

	for (node = 0; node < from->fabric->num_nodes; node++) {
		if (counterpart(from, node, to) != VLR_NONE)
			continue;
		node_label(from, node, label, sizeof(label));
		return vlr_fail(c->err, "%s is in %s but not in %s", label, from->label,
				to->label);
	}
	return 0;
}

/* The same type and port count on both sides. */
static int same_node(const struct comparison *c, uint32_t node, uint32_t other)
{
	const struct vlr_node *a = &c->expected.fabric->nodes[node];
	const struct vlr_node *b = &c->found.fabric->nodes[other];
	char label[LABEL_SIZE];

	if (a->type != b->type)
		return vlr_fail(c->err, "node 0x%016" PRIx64 " (\"%s\") is a %s in %s but "
				"a %s in %s", a->guid, vlr_node_description(c->expected.fabric, node),
				vlr_node_type_name((enum vlr_node_type)a->type), c->expected.label,
				vlr_node_type_name((enum vlr_node_type)b->type), c->found.label);
	node_label(&c->expected, node, label, sizeof(label));
	if (a->num_ports != b->num_ports)
		return vlr_fail(c->err, "%s has %u ports in %s but %u in %s", label,
				a->num_ports, c->expected.label, b->num_ports, c->found.label);
	return 0;
}

/* "port 2 of CA 0x... (\"h1\")", or "not linked" */
static void peer_label(const struct side *side, const struct vlr_port *port, char *out,
		       size_t size)
{
	char label[LABEL_SIZE];
	const struct vlr_port *peer;

	if (port->peer == VLR_NONE) {
		snprintf(out, size, "not linked (down or no cable)");
		return;
	}
	peer = &side->fabric->ports[port->peer];
	node_label(side, peer->node, label, sizeof(label));
	snprintf(out, size, "linked to port %u of %s", peer->number, label);
}

/* Both ports unlinked, or linked to the same port of the same node. */
static int same_peer(const struct comparison *c, const struct vlr_port *a,
		     const struct vlr_port *b)
{
	const struct vlr_fabric *fa = c->expected.fabric, *fb = c->found.fabric;
	char label[LABEL_SIZE], here[LABEL_SIZE + 48], there[LABEL_SIZE + 48];

	if (a->peer == VLR_NONE && b->peer == VLR_NONE)
		return 0;
	if (a->peer != VLR_NONE && b->peer != VLR_NONE &&
	    fa->nodes[fa->ports[a->peer].node].guid == fb->nodes[fb->ports[b->peer].node].guid &&
	    fa->ports[a->peer].number == fb->ports[b->peer].number)
		return 0;
	node_label(&c->expected, a->node, label, sizeof(label));
	peer_label(&c->expected, a, here, sizeof(here));
	peer_label(&c->found, b, there, sizeof(there));
	return vlr_fail(c->err, "port %u of %s is %s in %s, but %s in %s", a->number, label,
			here, c->expected.label, there, c->found.label);
}

static int same_links(const struct comparison *c, uint32_t node, uint32_t other)
{
	unsigned number;

	for (number = 1; number <= c->expected.fabric->nodes[node].num_ports; number++)
		if (same_peer(c, vlr_port_at(c->expected.fabric, node, number),
			      vlr_port_at(c->found.fabric, other, number)))
			return -1;
	return 0;
}

/* The port GUID (endpoints), LID and LMC of a port that owns LIDs. */
static int same_lids(const struct comparison *c, uint32_t node, uint32_t other,
		     unsigned number)
{
	const struct vlr_port *a = vlr_port_at(c->expected.fabric, node, number);
	const struct vlr_port *b = vlr_port_at(c->found.fabric, other, number);
	char label[LABEL_SIZE], where[LABEL_SIZE + 32];

	node_label(&c->expected, node, label, sizeof(label));
	if (number)
		snprintf(where, sizeof(where), "port %u of %s", number, label);
	else
		snprintf(where, sizeof(where), "%s", label);
	if (number && a->guid != b->guid)
		return vlr_fail(c->err, "%s has port GUID 0x%016" PRIx64 " in %s but 0x%016"
				PRIx64 " in %s", where, a->guid, c->expected.label, b->guid,
				c->found.label);
	if (a->lid != b->lid || a->lmc != b->lmc)
		return vlr_fail(c->err, "%s has LID %u (LMC %u) in %s but LID %u (LMC %u) "
				"in %s", where, a->lid, a->lmc, c->expected.label, b->lid, b->lmc,
				c->found.label);
	return 0;
}

/* Switch port 0, and every linked port of a CA or router. */
static int same_node_lids(const struct comparison *c, uint32_t node, uint32_t other)
{
	const struct vlr_fabric *fabric = c->expected.fabric;
	unsigned number;

	if (vlr_node_is_switch(fabric, node))
		return same_lids(c, node, other, 0);
	for (number = 1; number <= fabric->nodes[node].num_ports; number++)
		if (vlr_port_at(fabric, node, number)->peer != VLR_NONE &&
		    same_lids(c, node, other, number))
			return -1;
	return 0;
}

typedef int (*node_check)(const struct comparison *c, uint32_t node, uint32_t other);

/* One check over every node of the expected fabric and its counterpart. */
static int each_node(const struct comparison *c, node_check check)
{
	uint32_t node;

	for (node = 0; node < c->expected.fabric->num_nodes; node++)
		if (check(c, node, counterpart(&c->expected, node, &c->found)))
			return -1;
	return 0;
}

static int compare(struct comparison *c)
{
	if (index_nodes(&c->expected, c->err) || index_nodes(&c->found, c->err))
		return -1;
	return nodes_present(c, &c->expected, &c->found) ||
	       nodes_present(c, &c->found, &c->expected) ||
	       each_node(c, same_node) || each_node(c, same_links) ||
	       each_node(c, same_node_lids) ? -1 : 0;
}

int vlr_fabric_same_subnet(const struct vlr_fabric *expected, const char *expected_label,
			   const struct vlr_fabric *found, const char *found_label,
			   struct vlr_error *err)
{
	struct comparison c;
	int result;

	memset(&c, 0, sizeof(c));
	c.expected.fabric = expected;
	c.expected.label = expected_label;
	c.found.fabric = found;
	c.found.label = found_label;
	c.err = err;
	result = compare(&c);
	vlr_guid_map_free(&c.expected.nodes);
	vlr_guid_map_free(&c.found.nodes);
	return result;
}
