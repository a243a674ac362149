/*
 * subnet.c - the list of nodes a source of a fabric fills for
 * vlr_fabric_build: nodes keyed by NodeGUID with their ports in a row, the
 * way the capture and the OpenSM plugin find them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vlroute/fabric.h>

int vlr_subnet_init(struct vlr_subnet *subnet, uint32_t nodes, uint32_t port_slots,
		    struct vlr_error *err)
{
	memset(subnet, 0, sizeof(*subnet));
	subnet->nodes = calloc(nodes + 1, sizeof(*subnet->nodes));
	subnet->ports = calloc(port_slots + 1, sizeof(*subnet->ports));
	if (!subnet->nodes || !subnet->ports) {
		vlr_subnet_free(subnet);
		return vlr_fail(err, "out of memory for a subnet of %u nodes and %u port "
				"slots", nodes, port_slots);
	}
	subnet->nodes_capacity = nodes;
	subnet->ports_capacity = port_slots;
	return 0;
}

void vlr_subnet_free(struct vlr_subnet *subnet)
{
	free(subnet->nodes);
	free(subnet->ports);
	memset(subnet, 0, sizeof(*subnet));
}

uint32_t vlr_subnet_add_node(struct vlr_subnet *subnet, enum vlr_node_type type,
			     uint64_t guid, uint8_t num_ports, const char *description,
			     struct vlr_error *err)
{
	struct vlr_subnet_node *node;

	if (subnet->num_nodes == subnet->nodes_capacity ||
	    subnet->ports_capacity - subnet->num_ports < num_ports + 1u) {
		vlr_fail(err, "node 0x%016llx does not fit the %u nodes and %u port slots "
			 "the subnet was made for", (unsigned long long)guid,
			 subnet->nodes_capacity, subnet->ports_capacity);
		return VLR_NONE;
	}
	node = &subnet->nodes[subnet->num_nodes];
	node->guid = guid;
	node->type = (uint8_t)type;
	node->num_ports = num_ports;
	node->first_port = subnet->num_ports;
	node->made = VLR_NONE;
	snprintf(node->description, sizeof(node->description), "%s", description);
	subnet->num_ports += num_ports + 1;
	return subnet->num_nodes++;
}
