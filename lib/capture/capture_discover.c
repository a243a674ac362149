/*
 * capture_discover.c - discover a fabric breadth-first with directed-route
 * SMPs from the local port; no LFT and no subnet manager needed.
 *
 * NodeInfo along the empty path names the local node. Every new node gets
 * its NodeDescription read, a switch its SwitchInfo and the PortInfo of
 * ports 0..N, an endpoint the PortInfo of the port it was reached through.
 * Through every switch port whose link is up (PortState INIT or later) and
 * not yet known, NodeInfo finds the node at the other end; on a local CA
 * only the capture's own port leads out. Endpoints do not forward directed
 * SMPs, so every endpoint port is reached, and later addressed, through
 * the switch port it is cabled to.
 *
 * A node met again must be the same kind of node, and a port can only be
 * cabled to one peer: anything else means the fabric changed while it was
 * read (or two nodes share a GUID), and the capture stops saying where.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "capture_internal.h"

struct discovery {
	struct cap_engine *engine;
	struct cap_fabric *fabric;
};

static int node_changed(struct discovery *run, const struct cap_query *query,
			uint32_t node, const struct cap_node_info *info)
{
	char label[160];

	run->engine->changed = 1;
	cap_node_label(run->fabric, node, label, sizeof(label));
	return cap_engine_fail(run->engine, query, "found %s again, now as a node of type %u "
			       "with %u ports (was type %u with %u): the fabric changed "
			       "during the capture", label, info->type, info->num_ports,
			       run->fabric->nodes[node].type, run->fabric->nodes[node].num_ports);
}

/* Record the cable from port via of from to port number of node. */
static int link(struct discovery *run, const struct cap_query *query, uint32_t node,
		unsigned number)
{
	struct cap_fabric *fabric = run->fabric;
	struct cap_port *near = cap_port_at(fabric, query->node, query->via);
	struct cap_port *far = cap_port_at(fabric, node, number);
	char label[160], other[160];

	if (near->peer_node == node && near->peer_port == number)
		return 0;
	if (query->node == node)
		return cap_engine_fail(run->engine, query, "port %u is cabled to port %u of the "
				       "same node; vlroute's fabric model cannot hold that",
				       query->via, number);
	if (near->peer_node != VLR_NONE || far->peer_node != VLR_NONE) {
		const struct cap_port *taken = far->peer_node != VLR_NONE ? far : near;
		char target[160];

		run->engine->changed = 1;
		cap_node_label(fabric, node, target, sizeof(target));
		cap_node_label(fabric, taken->node, label, sizeof(label));
		cap_node_label(fabric, taken->peer_node, other, sizeof(other));
		return cap_engine_fail(run->engine, query, "leads to port %u of %s, but port %u "
				       "of %s was found cabled to port %u of %s: the fabric "
				       "changed during the capture, or two nodes share a GUID",
				       number, target, taken->number, label, taken->peer_port,
				       other);
	}
	near->peer_node = node;
	near->peer_port = (uint8_t)number;
	far->peer_node = query->node;
	far->peer_port = (uint8_t)query->via;
	return 0;
}

/* What a new node needs read; from and via address an endpoint. */
static int ask_about(struct discovery *run, uint32_t node, uint32_t from, unsigned via)
{
	const struct cap_node *record = &run->fabric->nodes[node];
	unsigned number;

	if (record->type != VLR_NODE_SWITCH)
		return cap_engine_submit_smp(run->engine, CAP_Q_NODE_DESC, CAP_ATTR_NODE_DESC,
					     from, via, 0, node);
	if (cap_engine_submit_smp(run->engine, CAP_Q_NODE_DESC, CAP_ATTR_NODE_DESC, node, 0,
				  0, node) ||
	    cap_engine_submit_smp(run->engine, CAP_Q_SWITCH_INFO, CAP_ATTR_SWITCH_INFO, node,
				  0, 0, node))
		return -1;
	for (number = 0; number <= record->num_ports; number++)
		if (cap_engine_submit_smp(run->engine, CAP_Q_PORT_INFO, CAP_ATTR_PORT_INFO,
					  node, 0, number, record->first_port + number))
			return -1;
	return 0;
}

/* An endpoint port reached for the first time: its GUID and PortInfo. */
static int reach_endpoint_port(struct discovery *run, uint32_t node,
			       const struct cap_node_info *info, uint32_t from, unsigned via)
{
	struct cap_port *port = cap_port_at(run->fabric, node, info->local_port);

	if (port->reached)
		return 0;
	port->reached = 1;
	port->guid = info->port_guid;
	return cap_engine_submit_smp(run->engine, CAP_Q_PORT_INFO, CAP_ATTR_PORT_INFO, from,
				     via, info->local_port,
				     run->fabric->nodes[node].first_port + info->local_port);
}

static int check_node_info(struct discovery *run, const struct cap_query *query,
			   const struct cap_node_info *info)
{
	if (info->type < VLR_NODE_CA || info->type > VLR_NODE_ROUTER || !info->num_ports ||
	    !info->node_guid)
		return cap_engine_fail(run->engine, query, "answered NodeType %u, NumPorts %u, "
				       "NodeGUID 0x%016llx: not a node vlroute knows", info->type,
				       info->num_ports, (unsigned long long)info->node_guid);
	if (info->local_port > info->num_ports ||
	    (info->type != VLR_NODE_SWITCH && !info->local_port))
		return cap_engine_fail(run->engine, query, "answered LocalPortNum %u of a node "
				       "with %u ports", info->local_port, info->num_ports);
	return 0;
}

static int on_local_node(struct discovery *run, const struct cap_node_info *info)
{
	struct cap_fabric *fabric = run->fabric;
	uint32_t node = cap_fabric_add(fabric, info->node_guid, info->type, info->num_ports,
				       VLR_NONE, 0, run->engine->err);

	if (node == VLR_NONE)
		return -1;
	fabric->local_node = node;
	fabric->local_port = info->local_port;
	if (info->type == VLR_NODE_SWITCH) {
		fabric->nodes[node].port_guid = info->port_guid;
		return ask_about(run, node, VLR_NONE, 0);
	}
	return ask_about(run, node, node, 0) ||
	       reach_endpoint_port(run, node, info, node, 0);
}

static int on_node_info(struct discovery *run, const struct cap_query *query,
			const uint8_t *data)
{
	struct cap_fabric *fabric = run->fabric;
	struct cap_node_info info;
	uint32_t node;
	int fresh = 0;

	cap_decode_node_info(data, &info);
	if (check_node_info(run, query, &info))
		return -1;
	if (query->node == VLR_NONE)
		return on_local_node(run, &info);
	node = vlr_guid_map_get(&fabric->by_guid, info.node_guid);
	if (node == VLR_NONE) {
		node = cap_fabric_add(fabric, info.node_guid, info.type, info.num_ports,
				      query->node, query->via, run->engine->err);
		if (node == VLR_NONE)
			return cap_engine_fail(run->engine, query, "%s",
					       run->engine->err->message);
		fabric->nodes[node].port_guid = info.port_guid;
		fresh = 1;
	} else if (fabric->nodes[node].type != info.type ||
		   fabric->nodes[node].num_ports != info.num_ports) {
		return node_changed(run, query, node, &info);
	}
	if (link(run, query, node, info.local_port))
		return -1;
	if (fresh && ask_about(run, node, query->node, query->via))
		return -1;
	if (info.type != VLR_NODE_SWITCH)
		return reach_endpoint_port(run, node, &info, query->node, query->via);
	return 0;
}

static int on_port_info(struct discovery *run, const struct cap_query *query,
			const uint8_t *data)
{
	struct cap_fabric *fabric = run->fabric;
	struct cap_port *port = &fabric->ports[query->arg];
	const struct cap_node *node = &fabric->nodes[port->node];
	struct cap_port_info info;

	cap_decode_port_info(data, &info);
	port->lid = info.lid;
	port->lmc = info.lmc;
	port->state = info.state;
	port->op_vls = info.op_vls;
	port->vl_cap = info.vl_cap;
	port->cap_mask = info.cap_mask;
	if (port->node == fabric->local_node && port->number == fabric->local_port) {
		fabric->sm_lid = info.sm_lid;
		fabric->sm_sl = info.sm_sl;
	}
	if (info.state < CAP_PORT_INIT || !port->number || port->peer_node != VLR_NONE)
		return 0;
	if (node->type == VLR_NODE_SWITCH ||
	    (port->node == fabric->local_node && port->number == fabric->local_port))
		return cap_engine_submit_smp(run->engine, CAP_Q_NODE_INFO, CAP_ATTR_NODE_INFO,
					     port->node, port->number, 0, 0);
	return 0;
}

static int answer(void *context, const struct cap_query *query, const uint8_t *mad,
		  size_t length)
{
	struct discovery *run = context;
	const uint8_t *data = cap_smp_data(mad);

	if (cap_engine_check_smp(run->engine, query, mad, length))
		return -1;
	switch (query->kind) {
	case CAP_Q_NODE_INFO:
		return on_node_info(run, query, data);
	case CAP_Q_NODE_DESC:
		cap_decode_node_desc(data, run->fabric->nodes[query->arg].description);
		return 0;
	case CAP_Q_SWITCH_INFO:
		run->fabric->nodes[query->arg].lin_top = cap_decode_lin_top(data);
		return 0;
	case CAP_Q_PORT_INFO:
		return on_port_info(run, query, data);
	default:
		break;
	}
	return cap_engine_fail(run->engine, query, "an answer discovery did not ask for");
}

int cap_discover(struct cap_engine *engine, struct cap_fabric *fabric)
{
	struct discovery run = { engine, fabric };

	if (cap_engine_submit_smp(engine, CAP_Q_NODE_INFO, CAP_ATTR_NODE_INFO, VLR_NONE, 0, 0, 0))
		return -1;
	return cap_engine_run(engine, answer, NULL, &run);
}
