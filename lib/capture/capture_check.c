/*
 * capture_check.c - the last step of a capture: read NodeInfo along every
 * directed path once more (to every switch, and through every cabled
 * endpoint port) and compare. A node that now answers with another GUID,
 * or an endpoint reached through another of its ports, means the fabric
 * changed while it was read, and the tables may mix two fabrics: the
 * capture fails saying which node, instead of writing them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "capture_internal.h"

struct checker {
	struct cap_engine *engine;
	const struct cap_fabric *cap;
	uint32_t next_node;	/* the node refill takes next */
};

static int submit(struct checker *checker, uint32_t node, unsigned via, uint32_t slot)
{
	return cap_engine_submit_smp(checker->engine, CAP_Q_CHECK, CAP_ATTR_NODE_INFO, node,
				     via, 0, slot);
}

static int refill(void *context)
{
	struct checker *checker = context;
	const struct cap_fabric *cap = checker->cap;
	uint32_t node = checker->next_node;
	unsigned number;

	if (node >= cap->num_nodes)
		return 0;
	checker->next_node++;
	if (cap->nodes[node].type == VLR_NODE_SWITCH)
		return submit(checker, node, 0, cap->nodes[node].first_port);
	for (number = 1; number <= cap->nodes[node].num_ports; number++) {
		const struct cap_port *port = cap_port_at(cap, node, number);
		uint32_t slot = cap->nodes[node].first_port + number;

		if (node == cap->local_node && number == cap->local_port) {
			if (submit(checker, node, 0, slot))
				return -1;
		} else if (port->peer_node != VLR_NONE && port->reached &&
			   submit(checker, port->peer_node, port->peer_port, slot)) {
			return -1;
		}
	}
	return 0;
}

static int answer(void *context, const struct cap_query *query, const uint8_t *mad,
		  size_t length)
{
	struct checker *checker = context;
	const struct cap_fabric *cap = checker->cap;
	const struct cap_port *expected = &cap->ports[query->arg];
	const struct cap_node *node = &cap->nodes[expected->node];
	struct cap_node_info info;
	char label[160];

	if (cap_engine_check_smp(checker->engine, query, mad, length))
		return -1;
	cap_decode_node_info(cap_smp_data(mad), &info);
	if (info.node_guid == node->guid &&
	    (node->type == VLR_NODE_SWITCH || info.local_port == expected->number))
		return 0;
	checker->engine->changed = 1;
	cap_node_label(cap, expected->node, label, sizeof(label));
	if (info.node_guid != node->guid)
		return cap_engine_fail(checker->engine, query, "now answers as NodeGUID "
				       "0x%016llx, not as %s: the fabric changed during the "
				       "capture", (unsigned long long)info.node_guid, label);
	return cap_engine_fail(checker->engine, query, "now reaches port %u of %s, not "
			       "port %u: the fabric changed during the capture",
			       info.local_port, label, expected->number);
}

int cap_check_unchanged(struct cap_engine *engine, const struct cap_fabric *fabric)
{
	struct checker checker = { engine, fabric, 0 };

	return cap_engine_run(engine, answer, refill, &checker);
}
