/*
 * capture_fabric.c - the discovered fabric as a struct vlr_fabric: the
 * nodes discovery found, keyed by NodeGUID, handed to vlr_fabric_build
 * (which orders, names and links them as for every source of a fabric)
 * with the port GUIDs, LIDs, LMCs and data VLs from PortInfo and the
 * cables discovery followed. A capture needs a fabric a subnet manager
 * brought up: every linked endpoint port must have its LID.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "capture_internal.h"

static void fill_ports(const struct cap_fabric *cap, uint32_t index,
		       struct vlr_subnet *subnet, uint32_t made)
{
	const struct cap_node *node = &cap->nodes[index];
	unsigned number;

	for (number = 0; number <= node->num_ports; number++) {
		const struct cap_port *from = cap_port_at(cap, index, number);
		struct vlr_subnet_port *to = vlr_subnet_port_at(subnet, made, number);

		to->guid = node->type == VLR_NODE_SWITCH ? node->port_guid : from->guid;
		to->lid = from->lid;
		to->lmc = from->lmc;
		if (from->peer_node != VLR_NONE) {
			to->peer_guid = cap->nodes[from->peer_node].guid;
			to->peer_port = from->peer_port;
			to->up = 1;
			to->vls = (uint8_t)vlr_vls_of_code(from->op_vls ? from->op_vls :
							   from->vl_cap);
		}
	}
}

static int fill_subnet(const struct cap_fabric *cap, struct vlr_subnet *subnet,
		       struct vlr_error *err)
{
	uint32_t i, made;

	if (vlr_subnet_init(subnet, cap->num_nodes, cap->num_ports, err))
		return -1;
	subnet->lids_required = 1;
	for (i = 0; i < cap->num_nodes; i++) {
		const struct cap_node *node = &cap->nodes[i];

		made = vlr_subnet_add_node(subnet, (enum vlr_node_type)node->type, node->guid,
					   node->num_ports, node->description, err);
		if (made == VLR_NONE)
			return -1;
		fill_ports(cap, i, subnet, made);
	}
	return 0;
}

struct vlr_fabric *cap_build_fabric(struct cap_fabric *cap, unsigned *vls,
				    struct vlr_error *err)
{
	struct vlr_subnet_report report;
	struct vlr_fabric *fabric = NULL;
	struct vlr_subnet subnet;
	uint32_t i;

	if (!fill_subnet(cap, &subnet, err))
		fabric = vlr_fabric_build(&subnet, &report, err);
	if (fabric) {
		for (i = 0; i < cap->num_nodes; i++)
			cap->nodes[i].fabric_node = subnet.nodes[i].made;
		*vls = report.vls;
	}
	vlr_subnet_free(&subnet);
	return fabric;
}
