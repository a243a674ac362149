/*
 * fabric.h - the fabric model: switches, channel adapters, ports, links, LIDs.
 *
 * A fabric is three flat arrays: nodes, ports and a string pool for node
 * names. Every node owns a contiguous run of num_ports + 1 port slots, slot 0
 * being port 0 (a switch's management port; unused on channel adapters), so
 * port p of node n is ports[nodes[n].first_port + p]. A link joins two port
 * slots through their peer fields; parallel links between two nodes are
 * ordinary. Nothing here allocates per port, so fabrics of 50,000 CA ports
 * and 5,000 switches build in a few milliseconds.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_FABRIC_H
#define VLROUTE_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/error.h>

#define VLR_NONE UINT32_MAX		/* "no node", "no port", "no peer" */
#define VLR_MAX_NODE_PORTS 254		/* physical ports per node (IB) */
#define VLR_MAX_NAME 64			/* ibsim's node id and IB NodeDescription */
#define VLR_MAX_UNICAST_LID 0xBFFF	/* 49151 unicast LIDs */
#define VLR_MAX_LMC 7

/* The values are InfiniBand's NodeInfo:NodeType. */
enum vlr_node_type {
	VLR_NODE_CA = 1,
	VLR_NODE_SWITCH = 2,
	VLR_NODE_ROUTER = 3,
};

struct vlr_node {
	uint64_t guid;
	uint32_t first_port;	/* index of this node's port 0 in ports[] */
	uint32_t name;		/* offset of the unique node id in strings */
	uint32_t description;	/* offset of the NodeDescription in strings */
	uint32_t line;		/* line of its record in the source file, 0 if generated */
	uint8_t type;		/* enum vlr_node_type */
	uint8_t num_ports;	/* physical ports, numbered 1..num_ports */
	int8_t enhanced_port0;	/* switches: 1 enhanced, -1 base, 0 not said */
};

struct vlr_port {
	uint64_t guid;		/* 0 when not known */
	uint32_t node;		/* owning node */
	uint32_t peer;		/* index of the linked port, VLR_NONE if none */
	uint32_t line;		/* line that declared it in the source file */
	uint16_t lid;		/* base LID, 0 if none; a switch's is on port 0 */
	uint8_t number;		/* port number on its node */
	uint8_t lmc;
	uint8_t width;		/* ibsim enabled-width code, 0 = default */
	uint8_t speed;		/* ibsim enabled-speed code, 0 = default */
};

struct vlr_fabric {
	struct vlr_node *nodes;
	struct vlr_port *ports;
	char *strings;
	uint32_t num_nodes;
	uint32_t num_ports;	/* port slots, port 0 included */
	uint32_t nodes_capacity;
	uint32_t ports_capacity;
	size_t strings_length;
	size_t strings_capacity;
	uint32_t *name_slots;	/* open-addressing hash: node index + 1, 0 = empty */
	uint32_t name_slots_mask;
	uint8_t lmc;		/* LMC of the CA ports, once LIDs are assigned */
};

struct vlr_fabric *vlr_fabric_new(void);
void vlr_fabric_free(struct vlr_fabric *fabric);

/* Grow the arrays once up front when the final size is known. */
int vlr_fabric_reserve(struct vlr_fabric *fabric, uint32_t nodes,
		       uint32_t port_slots, struct vlr_error *err);

/*
 * Add a node with ports 1..num_ports, all unlinked. Returns its index, or
 * VLR_NONE with err set when the name is taken, empty or too long, or the
 * port count is outside 1..VLR_MAX_NODE_PORTS.
 */
uint32_t vlr_fabric_add_node(struct vlr_fabric *fabric, enum vlr_node_type type,
			     const char *name, unsigned num_ports, uint64_t guid,
			     struct vlr_error *err);

/* Set the NodeDescription when it differs from the node's name. */
int vlr_fabric_set_description(struct vlr_fabric *fabric, uint32_t node,
			       const char *description, struct vlr_error *err);

/* Link port_a of node_a with port_b of node_b; both must be free. */
int vlr_fabric_link(struct vlr_fabric *fabric, uint32_t node_a, unsigned port_a,
		    uint32_t node_b, unsigned port_b, struct vlr_error *err);

/* Index of the node with this name, or VLR_NONE. */
uint32_t vlr_fabric_find(const struct vlr_fabric *fabric, const char *name);

static inline uint32_t vlr_port_index(const struct vlr_fabric *fabric,
				      uint32_t node, unsigned number)
{
	return fabric->nodes[node].first_port + number;
}

static inline struct vlr_port *vlr_port_at(const struct vlr_fabric *fabric,
					   uint32_t node, unsigned number)
{
	return &fabric->ports[vlr_port_index(fabric, node, number)];
}

static inline const char *vlr_node_name(const struct vlr_fabric *fabric,
					uint32_t node)
{
	return fabric->strings + fabric->nodes[node].name;
}

static inline const char *vlr_node_description(const struct vlr_fabric *fabric,
					       uint32_t node)
{
	return fabric->strings + fabric->nodes[node].description;
}

static inline int vlr_node_is_switch(const struct vlr_fabric *fabric,
				     uint32_t node)
{
	return fabric->nodes[node].type == VLR_NODE_SWITCH;
}

const char *vlr_node_type_name(enum vlr_node_type type);

/* Number of LIDs a fabric needs at this LMC: one per switch, 2^LMC per CA port. */
uint64_t vlr_fabric_lids_needed(const struct vlr_fabric *fabric, unsigned lmc);

/*
 * Give every switch one LID and every linked CA or router port 2^lmc
 * consecutive LIDs with an aligned base, deterministically: switches first
 * in node order, then endpoint ports in node and port order. Fails with the
 * numbers when the 49151 unicast LIDs do not suffice or lmc > 7.
 */
int vlr_fabric_assign_lids(struct vlr_fabric *fabric, unsigned lmc,
			   struct vlr_error *err);

#endif
