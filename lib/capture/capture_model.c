/*
 * capture_model.c - the fabric as discovery finds it: nodes keyed by
 * NodeGUID, their port slots, the directed path that reaches each node,
 * and how messages name nodes and paths.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_internal.h"

int cap_fabric_init(struct cap_fabric *fabric, struct vlr_error *err)
{
	memset(fabric, 0, sizeof(*fabric));
	fabric->local_node = VLR_NONE;
	return vlr_guid_map_init(&fabric->by_guid, 1024, err);
}

void cap_fabric_free(struct cap_fabric *fabric)
{
	free(fabric->nodes);
	free(fabric->ports);
	vlr_guid_map_free(&fabric->by_guid);
	memset(fabric, 0, sizeof(*fabric));
}

static int grow(void **array, uint32_t *capacity, uint32_t need, size_t element,
		struct vlr_error *err)
{
	uint32_t bigger = *capacity ? *capacity : 256;
	void *fresh;

	if (need <= *capacity)
		return 0;
	while (bigger < need)
		bigger *= 2;
	fresh = realloc(*array, (size_t)bigger * element);
	if (!fresh)
		return vlr_fail(err, "out of memory for %u discovered nodes or ports", need);
	*array = fresh;
	*capacity = bigger;
	return 0;
}

static void init_ports(struct cap_fabric *fabric, uint32_t node)
{
	const struct cap_node *record = &fabric->nodes[node];
	unsigned number;

	for (number = 0; number <= record->num_ports; number++) {
		struct cap_port *port = &fabric->ports[record->first_port + number];

		memset(port, 0, sizeof(*port));
		port->node = node;
		port->number = (uint8_t)number;
		port->peer_node = VLR_NONE;
	}
}

uint32_t cap_fabric_add(struct cap_fabric *fabric, uint64_t guid, uint8_t type,
			uint8_t num_ports, uint32_t from, unsigned via,
			struct vlr_error *err)
{
	uint32_t node = fabric->num_nodes, taken;
	struct cap_node *record;
	unsigned hops;

	if (grow((void **)&fabric->nodes, &fabric->nodes_capacity, node + 1,
		 sizeof(*fabric->nodes), err) ||
	    grow((void **)&fabric->ports, &fabric->ports_capacity,
		 fabric->num_ports + num_ports + 1u, sizeof(*fabric->ports), err))
		return VLR_NONE;
	record = &fabric->nodes[node];
	memset(record, 0, sizeof(*record));
	cap_path(fabric, from, via, record->path, &hops);
	if (hops > CAP_MAX_HOPS) {
		char label[160];

		cap_node_label(fabric, from, label, sizeof(label));
		vlr_fail(err, "the node behind port %u of %s is more than %d hops from the "
			 "local port: beyond the reach of directed routes", via, label,
			 CAP_MAX_HOPS);
		return VLR_NONE;
	}
	taken = vlr_guid_map_put(&fabric->by_guid, guid, node, err);
	if (taken == VLR_GUID_MAP_FAILED)
		return VLR_NONE;
	if (taken != VLR_NONE) {
		vlr_fail(err, "NodeGUID 0x%016llx is already known", (unsigned long long)guid);
		return VLR_NONE;
	}
	record->guid = guid;
	record->type = type;
	record->num_ports = num_ports;
	record->hops = (uint8_t)hops;
	record->first_port = fabric->num_ports;
	record->fabric_node = VLR_NONE;
	fabric->num_ports += num_ports + 1u;
	fabric->num_nodes++;
	init_ports(fabric, node);
	return node;
}

void cap_path(const struct cap_fabric *fabric, uint32_t node, unsigned via,
	      uint8_t path[CAP_MAX_HOPS + 1], unsigned *hops)
{
	unsigned length = 0;

	memset(path, 0, CAP_MAX_HOPS + 1);
	if (node != VLR_NONE) {
		length = fabric->nodes[node].hops;
		memcpy(path, fabric->nodes[node].path, length + 1u);
	}
	if (via) {
		if (length < CAP_MAX_HOPS)
			path[length + 1] = (uint8_t)via;
		length++;
	}
	*hops = length;
}

void cap_path_text(const uint8_t *path, unsigned hops, char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "0");
	unsigned i;

	for (i = 1; i <= hops && i <= CAP_MAX_HOPS && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, ",%u", path[i]);
}

void cap_node_label(const struct cap_fabric *fabric, uint32_t node, char *buf,
		    size_t size)
{
	const struct cap_node *record;
	const char *type;

	if (node == VLR_NONE) {
		snprintf(buf, size, "the local node");
		return;
	}
	record = &fabric->nodes[node];
	type = record->type == VLR_NODE_SWITCH ? "switch" :
	       record->type == VLR_NODE_ROUTER ? "router" : "CA";
	if (record->description[0])
		snprintf(buf, size, "%s 0x%016llx (\"%s\")", type,
			 (unsigned long long)record->guid, record->description);
	else
		snprintf(buf, size, "%s 0x%016llx", type, (unsigned long long)record->guid);
}
