/*
 * fabric.c - building the fabric model: nodes, ports, links and the name
 * index that finds a node by its name.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include <vlroute/fabric.h>

#include "util/array.h"

struct vlr_fabric *vlr_fabric_new(void)
{
	return calloc(1, sizeof(struct vlr_fabric));
}

void vlr_fabric_free(struct vlr_fabric *fabric)
{
	if (!fabric)
		return;
	free(fabric->nodes);
	free(fabric->ports);
	free(fabric->strings);
	free(fabric->name_slots);
	free(fabric);
}

const char *vlr_node_type_name(enum vlr_node_type type)
{
	switch (type) {
	case VLR_NODE_CA:
		return "CA";
	case VLR_NODE_SWITCH:
		return "switch";
	case VLR_NODE_ROUTER:
		return "router";
	}
	return "node";
}

static uint32_t hash_name(const char *name)
{
	uint32_t hash = 2166136261u;	/* FNV-1a */

	while (*name) {
		hash ^= (unsigned char)*name++;
		hash *= 16777619u;
	}
	return hash;
}

static void index_name(struct vlr_fabric *fabric, uint32_t node)
{
	uint32_t slot = hash_name(vlr_node_name(fabric, node)) & fabric->name_slots_mask;

	while (fabric->name_slots[slot])
		slot = (slot + 1) & fabric->name_slots_mask;
	fabric->name_slots[slot] = node + 1;
}

/* Keep the name index at most half full. */
static int grow_name_index(struct vlr_fabric *fabric, uint32_t nodes,
			   struct vlr_error *err)
{
	uint32_t size = fabric->name_slots_mask + 1;
	uint32_t node;

	if (fabric->name_slots && (uint64_t)nodes * 2 <= size)
		return 0;
	size = 1024;
	while (size < (uint64_t)nodes * 2)
		size *= 2;
	free(fabric->name_slots);
	fabric->name_slots = calloc(size, sizeof(uint32_t));
	if (!fabric->name_slots) {
		fabric->name_slots_mask = 0;
		return vlr_fail(err, "out of memory for the name index of %u nodes", nodes);
	}
	fabric->name_slots_mask = size - 1;
	for (node = 0; node < fabric->num_nodes; node++)
		index_name(fabric, node);
	return 0;
}

int vlr_fabric_reserve(struct vlr_fabric *fabric, uint32_t nodes,
		       uint32_t port_slots, struct vlr_error *err)
{
	if (vlr_array_grow((void **)&fabric->nodes, &fabric->nodes_capacity, nodes,
		 sizeof(struct vlr_node), err) ||
	    vlr_array_grow((void **)&fabric->ports, &fabric->ports_capacity, port_slots,
		 sizeof(struct vlr_port), err))
		return -1;
	return grow_name_index(fabric, nodes, err);
}

uint32_t vlr_fabric_find(const struct vlr_fabric *fabric, const char *name)
{
	uint32_t slot, entry;

	if (!fabric->name_slots)
		return VLR_NONE;
	slot = hash_name(name) & fabric->name_slots_mask;
	while ((entry = fabric->name_slots[slot])) {
		if (!strcmp(vlr_node_name(fabric, entry - 1), name))
			return entry - 1;
		slot = (slot + 1) & fabric->name_slots_mask;
	}
	return VLR_NONE;
}

static int store_string(struct vlr_fabric *fabric, const char *text,
			uint32_t *offset, struct vlr_error *err)
{
	size_t length = strlen(text) + 1;
	size_t capacity = fabric->strings_capacity ? fabric->strings_capacity : 4096;
	char *bigger;

	if (fabric->strings_length + length > UINT32_MAX)
		return vlr_fail(err, "too many node names");
	while (fabric->strings_length + length > capacity)
		capacity *= 2;
	if (capacity != fabric->strings_capacity) {
		bigger = realloc(fabric->strings, capacity);
		if (!bigger)
			return vlr_fail(err, "out of memory for node names");
		fabric->strings = bigger;
		fabric->strings_capacity = capacity;
	}
	memcpy(fabric->strings + fabric->strings_length, text, length);
	*offset = (uint32_t)fabric->strings_length;
	fabric->strings_length += length;
	return 0;
}

static int check_name(const char *what, const char *name, struct vlr_error *err)
{
	size_t length = strlen(name);

	if (!length)
		return vlr_fail(err, "empty %s", what);
	if (length > VLR_MAX_NAME)
		return vlr_fail(err, "%s \"%s\" is longer than %d characters",
				what, name, VLR_MAX_NAME);
	if (strchr(name, '"'))
		return vlr_fail(err, "%s \"%s\" contains a double quote", what, name);
	return 0;
}

uint32_t vlr_fabric_add_node(struct vlr_fabric *fabric, enum vlr_node_type type,
			     const char *name, unsigned num_ports, uint64_t guid,
			     struct vlr_error *err)
{
	uint32_t node = fabric->num_nodes;
	uint32_t slots = num_ports + 1;
	struct vlr_node *record;
	unsigned number;

	if (num_ports < 1 || num_ports > VLR_MAX_NODE_PORTS) {
		vlr_fail(err, "%s \"%s\" has %u ports; allowed: 1..%d",
			 vlr_node_type_name(type), name, num_ports, VLR_MAX_NODE_PORTS);
		return VLR_NONE;
	}
	if (check_name("node name", name, err))
		return VLR_NONE;
	if (vlr_fabric_find(fabric, name) != VLR_NONE) {
		vlr_fail(err, "duplicate node name \"%s\"", name);
		return VLR_NONE;
	}
	if (fabric->num_ports > UINT32_MAX - slots - 1 ||
	    vlr_fabric_reserve(fabric, node + 1, fabric->num_ports + slots, err))
		return VLR_NONE;

	record = &fabric->nodes[node];
	memset(record, 0, sizeof(*record));
	if (store_string(fabric, name, &record->name, err))
		return VLR_NONE;
	record->description = record->name;
	record->guid = guid;
	record->type = (uint8_t)type;
	record->num_ports = (uint8_t)num_ports;
	record->first_port = fabric->num_ports;
	for (number = 0; number < slots; number++) {
		struct vlr_port *port = &fabric->ports[fabric->num_ports + number];

		memset(port, 0, sizeof(*port));
		port->node = node;
		port->peer = VLR_NONE;
		port->number = (uint8_t)number;
	}
	fabric->num_ports += slots;
	fabric->num_nodes++;
	index_name(fabric, node);
	return node;
}

int vlr_fabric_set_description(struct vlr_fabric *fabric, uint32_t node,
			       const char *description, struct vlr_error *err)
{
	if (!strcmp(description, vlr_node_name(fabric, node)))
		return 0;
	if (check_name("node description", description, err))
		return -1;
	return store_string(fabric, description, &fabric->nodes[node].description, err);
}

/* The name index afresh; the first node holding a name taken before, or VLR_NONE. */
static uint32_t reindex_names(struct vlr_fabric *fabric)
{
	uint32_t node, clash = VLR_NONE;

	if (!fabric->name_slots)
		return VLR_NONE;
	memset(fabric->name_slots, 0, sizeof(uint32_t) * (fabric->name_slots_mask + 1));
	for (node = 0; node < fabric->num_nodes; node++) {
		if (clash == VLR_NONE &&
		    vlr_fabric_find(fabric, vlr_node_name(fabric, node)) != VLR_NONE)
			clash = node;
		index_name(fabric, node);
	}
	return clash;
}

int vlr_fabric_rename(struct vlr_fabric *fabric, const char *const *names,
		      struct vlr_error *err)
{
	uint32_t *old = malloc(sizeof(uint32_t) * ((size_t)fabric->num_nodes + 1));
	uint32_t node, clash;
	int failed = 0;

	if (!old)
		return vlr_fail(err, "out of memory renaming %u nodes", fabric->num_nodes);
	for (node = 0; node < fabric->num_nodes; node++)
		old[node] = fabric->nodes[node].name;
	for (node = 0; node < fabric->num_nodes && !failed; node++)
		failed = names[node] && (check_name("node name", names[node], err) ||
					 store_string(fabric, names[node],
						      &fabric->nodes[node].name, err));
	clash = failed ? VLR_NONE : reindex_names(fabric);
	if (clash != VLR_NONE)
		failed = vlr_fail(err, "two nodes would be named \"%s\"",
				  vlr_node_name(fabric, clash));
	if (failed) {
		for (node = 0; node < fabric->num_nodes; node++)
			fabric->nodes[node].name = old[node];
		reindex_names(fabric);
	}
	free(old);
	return failed ? -1 : 0;
}

static int check_port(const struct vlr_fabric *fabric, uint32_t node,
		      unsigned number, struct vlr_error *err)
{
	const struct vlr_node *record = &fabric->nodes[node];

	if (number < 1 || number > record->num_ports)
		return vlr_fail(err, "port %u of %s \"%s\" is outside its ports 1..%u",
				number, vlr_node_type_name(record->type),
				vlr_node_name(fabric, node), record->num_ports);
	if (vlr_port_at(fabric, node, number)->peer != VLR_NONE)
		return vlr_fail(err, "port %u of \"%s\" is already linked", number,
				vlr_node_name(fabric, node));
	return 0;
}

int vlr_fabric_link(struct vlr_fabric *fabric, uint32_t node_a, unsigned port_a,
		    uint32_t node_b, unsigned port_b, struct vlr_error *err)
{
	uint32_t a, b;

	if (node_a == node_b)
		return vlr_fail(err, "port %u of \"%s\" would link to its own node",
				port_a, vlr_node_name(fabric, node_a));
	if (check_port(fabric, node_a, port_a, err) ||
	    check_port(fabric, node_b, port_b, err))
		return -1;
	a = vlr_port_index(fabric, node_a, port_a);
	b = vlr_port_index(fabric, node_b, port_b);
	fabric->ports[a].peer = b;
	fabric->ports[b].peer = a;
	return 0;
}
