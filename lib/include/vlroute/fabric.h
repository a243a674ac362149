/*
 * fabric.h - the fabric model: nodes, ports, links and LIDs, what they add up to, and the families fabrics come in.
 *
 * The fabric model: switches, channel adapters, ports, links, LIDs.
 *
 * A fabric is three flat arrays: nodes, ports and a string pool for node
 * names. Every node owns a contiguous run of num_ports + 1 port slots, slot 0
 * being port 0 (a switch's management port; unused on channel adapters), so
 * port p of node n is ports[nodes[n].first_port + p]. A link joins two port
 * slots through their peer fields; parallel links between two nodes are
 * ordinary. Nothing here allocates per port, so fabrics of 50,000 CA ports
 * and 5,000 switches build in a few milliseconds.
 *
 * Building a fabric from a subnet a subnet manager or a capture found
 * (vlr_fabric_build): one rule for the order, the names, ports and links;
 * and whether two fabrics are the same subnet (vlr_fabric_same_subnet).
 *
 * Counting and measuring a fabric: nodes, links, radix, diameter.
 *
 * The families of fabrics vlroute knows and the parameters that
 * pick one member: what the generators build, what recognition finds and
 * what the low-diameter engines route.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_FABRIC_H
#define VLROUTE_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/util.h>

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

/*
 * Give node i the name names[i] (NULL: keep its name); the descriptions stay.
 * All or nothing: refuses a name that is empty, too long or holds a double
 * quote, and names that two nodes would share.
 */
int vlr_fabric_rename(struct vlr_fabric *fabric, const char *const *names,
		      struct vlr_error *err);

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

/*
 * GUID -> index maps (open addressing): a node's or port's GUID to its node
 * index, port slot or switch index. GUID 0 is never a key.
 */
struct vlr_guid_map {
	uint64_t *keys;		/* 0 = empty */
	uint32_t *values;
	uint32_t mask;
	uint32_t count;
};

/* Room for `expected` GUIDs before it grows. */
int vlr_guid_map_init(struct vlr_guid_map *map, uint32_t expected,
		      struct vlr_error *err);
void vlr_guid_map_free(struct vlr_guid_map *map);

/* The value of guid, or VLR_NONE (also for 0 and a map never initialised). */
uint32_t vlr_guid_map_get(const struct vlr_guid_map *map, uint64_t guid);

/*
 * Insert guid -> value (guid != 0). Returns VLR_NONE when inserted, the
 * value already there when the GUID is taken, or VLR_GUID_MAP_FAILED with
 * err set when out of memory.
 */
uint32_t vlr_guid_map_put(struct vlr_guid_map *map, uint64_t guid, uint32_t value,
			  struct vlr_error *err);

#define VLR_GUID_MAP_FAILED (VLR_NONE - 1)

/*
 * A subnet as a subnet manager or a capture found it, for vlr_fabric_build:
 * nodes keyed by NodeGUID, each with port slots 0..num_ports in a row of
 * ports (as in a fabric), each port naming the node and port at the other
 * end of its cable. What is not known stays 0.
 */
struct vlr_subnet_port {
	uint64_t guid;		/* PortGUID; a switch's port 0 GUID stands for all its ports */
	uint64_t peer_guid;	/* NodeGUID at the other end of the cable, 0: none */
	uint16_t lid;		/* base LID: a switch's port 0, an endpoint's ports 1.. */
	uint8_t lmc;
	uint8_t peer_port;
	uint8_t up;		/* may carry traffic: up (INIT, ARMED, ACTIVE) and healthy */
	uint8_t vls;		/* data VLs it runs on its link, 0 if not known */
};

struct vlr_subnet_node {
	uint64_t guid;		/* NodeGUID, not 0 */
	uint32_t first_port;	/* index of its port 0 in ports[] */
	uint32_t made;		/* set by vlr_fabric_build: its index in the fabric */
	uint8_t type;		/* NodeInfo:NodeType (enum vlr_node_type) */
	uint8_t num_ports;
	char description[VLR_MAX_NAME + 1];	/* NodeDescription */
};

struct vlr_subnet {
	struct vlr_subnet_node *nodes;
	struct vlr_subnet_port *ports;
	uint32_t num_nodes, nodes_capacity;
	uint32_t num_ports, ports_capacity;	/* port slots, port 0 included */
	int lids_required;	/* a linked endpoint port without a LID is an error */
};

/* Room for `nodes` nodes and `port_slots` port slots (each node's ports + 1). */
int vlr_subnet_init(struct vlr_subnet *subnet, uint32_t nodes, uint32_t port_slots,
		    struct vlr_error *err);
void vlr_subnet_free(struct vlr_subnet *subnet);

/*
 * Append a node, its ports all 0 (the description is cut to 64 bytes).
 * Returns its index, or VLR_NONE with err set when the room of
 * vlr_subnet_init is used up.
 */
uint32_t vlr_subnet_add_node(struct vlr_subnet *subnet, enum vlr_node_type type,
			     uint64_t guid, uint8_t num_ports, const char *description,
			     struct vlr_error *err);

static inline struct vlr_subnet_port *vlr_subnet_port_at(const struct vlr_subnet *subnet,
							 uint32_t node, unsigned number)
{
	return &subnet->ports[subnet->nodes[node].first_port + number];
}

/* What vlr_fabric_build found besides the fabric. */
struct vlr_subnet_report {
	unsigned links;		/* links taken */
	unsigned links_skipped;	/* cabled, but down, unhealthy or a loopback */
	unsigned vls;		/* fewest data VLs a port of a taken link runs; 0: none known */
	unsigned switch_vls;	/* the same over the switch-to-switch links */
};

/*
 * The fabric of a subnet, the same for every source of one: switches
 * first, then channel adapters and routers, each by NodeGUID; a node named
 * by its NodeDescription when no other node has it and it can be a node
 * id of a net file, else "S-<guid>" (switches) or "H-<guid>" (the others)
 * as OpenSM's subnet.lst has it; port GUIDs, the LIDs and LMCs assigned
 * (fabric->lmc the largest of the linked endpoint ports); the links whose
 * two ports are up (loopbacks are skipped). Sets every node's `made`.
 * Returns NULL with err naming the node and port on a bad peer, an
 * unknown node type, a GUID taken twice, or (lids_required) a missing LID.
 */
struct vlr_fabric *vlr_fabric_build(struct vlr_subnet *subnet,
				    struct vlr_subnet_report *report,
				    struct vlr_error *err);

/*
 * Are two fabrics the same subnet, so that tables made for `expected` may
 * be programmed into `found`? Nodes are matched by NodeGUID (order and
 * names may differ). 0 when every node is in both with the same type and
 * port count, every port is linked to the same port of the same node in
 * both or in neither (a link that is down is no link), and every port
 * that owns LIDs (a switch's port 0, a linked CA or router port) has the
 * same LID and LMC, and an endpoint port the same port GUID. Else -1 with
 * err naming the first difference, nodes before links before LIDs, in the
 * node order of `expected`, for example "port 6 of switch
 * 0x0000000000100000 ("sw1") is linked to port 7 of switch ... in LABEL,
 * but not linked (down or no cable) in LABEL"; the labels name the two
 * sides ("/var/lib/tables", "the live subnet"). A node without a GUID, or
 * two nodes of one side with the same GUID, are refused too.
 */
int vlr_fabric_same_subnet(const struct vlr_fabric *expected, const char *expected_label,
			   const struct vlr_fabric *found, const char *found_label,
			   struct vlr_error *err);

/*
 * Data VLs of an InfiniBand OperationalVLs or VLCap code: 1 = VL0,
 * 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14; 0 for 0, 15 for the
 * reserved codes.
 */
unsigned vlr_vls_of_code(unsigned code);

struct vlr_fabric_summary {
	uint32_t switches;
	uint32_t cas;
	uint32_t routers;
	uint32_t endpoint_ports;	/* linked CA and router ports */
	uint32_t links;
	uint32_t switch_links;		/* switch to switch */
	uint32_t endpoint_links;	/* switch to CA or router */
	uint32_t direct_links;		/* CA or router to CA or router */
	uint32_t radix;			/* most ports declared on a switch */
	uint32_t used_ports_min;	/* fewest linked ports on a switch */
	uint32_t used_ports_max;	/* most linked ports on a switch */
};

void vlr_fabric_summarise(const struct vlr_fabric *fabric,
			  struct vlr_fabric_summary *summary);

/*
 * The switch graph: switches are vertices, switch-to-switch links edges,
 * built once per fabric and shared by topology recognition, the engines,
 * the verifier and the simulator. Switches are numbered in node order.
 * A link is one direction of a cable (parallel cables are separate links),
 * numbered switch by switch in port order, so the links leaving switch s
 * are offset[s] .. offset[s+1] and the k-th of them leaves through its
 * k-th switch-facing port. Parts that keep something per link (routes,
 * loads, buffers) index it by this link number.
 */
struct vlr_switch_graph {
	const struct vlr_fabric *fabric;
	uint32_t num_switches;
	uint32_t num_links;		/* offset[num_switches] */
	uint32_t *node_of;		/* [switch]: its node */
	uint32_t *switch_of;		/* [node]: its switch or VLR_NONE */
	uint8_t *hosts;			/* [switch]: links to CAs and routers */
	uint32_t *offset;		/* [switch]: its first link; num_switches + 1 */
	uint32_t *from;			/* [link]: the switch it leaves */
	uint32_t *neighbour;		/* [link]: the switch it leads to */
	uint8_t *port;			/* [link]: the port it leaves through */
	uint8_t *neighbour_port;	/* [link]: the port it arrives on */
	uint32_t *back;			/* [link]: the same cable the other way */
	uint32_t *link_of_port;		/* [port slot]: the link leaving through it,
					   VLR_NONE */
};

int vlr_switch_graph_build(const struct vlr_fabric *fabric,
			   struct vlr_switch_graph *graph, struct vlr_error *err);
void vlr_switch_graph_free(struct vlr_switch_graph *graph);

static inline uint32_t vlr_switch_degree(const struct vlr_switch_graph *graph,
					 uint32_t sw)
{
	return graph->offset[sw + 1] - graph->offset[sw];
}

/* Port slot a link leaves through. */
static inline uint32_t vlr_link_slot(const struct vlr_switch_graph *graph,
				     uint32_t link)
{
	return vlr_port_index(graph->fabric, graph->node_of[graph->from[link]],
			      graph->port[link]);
}

/*
 * Longest shortest path between two switches, in switch-to-switch hops, and
 * the number of connected components of the switch graph. The diameter
 * covers the largest distance within components.
 */
int vlr_switch_diameter(const struct vlr_switch_graph *graph, uint32_t *diameter,
			uint32_t *components, struct vlr_error *err);

/*
 * 0 when every switch reaches every other; else -1 with err naming the
 * first switch that cannot reach the first switch. One breadth-first
 * search: cheap enough to run before anything big is allocated for a
 * fabric that cannot be routed.
 */
int vlr_switch_graph_check_connected(const struct vlr_switch_graph *graph,
				     struct vlr_error *err);

#define VLR_MAX_DIMS 8

enum vlr_family {
	VLR_FAMILY_NONE = 0,
	VLR_FAMILY_HYPERX,
	VLR_FAMILY_TORUS,
	VLR_FAMILY_DRAGONFLY,
	VLR_FAMILY_DRAGONFLYPLUS,
	VLR_FAMILY_FATTREE,
	VLR_FAMILY_RANDOM,
	VLR_FAMILY_XGFT,
	VLR_FAMILY_KAUTZ,
};

/* How groups' global ports pair up (see vlroute(1) for the formulas). */
enum vlr_arrangement {
	VLR_ARRANGEMENT_PALMTREE = 0,
	VLR_ARRANGEMENT_CONSECUTIVE,
};

/* HyperX (Hamming graph) and torus: a switch per point of the grid. */
struct vlr_grid_params {
	unsigned dims;
	unsigned sides[VLR_MAX_DIMS];
	unsigned hosts;			/* per switch */
};

struct vlr_dragonfly_params {
	unsigned p;			/* hosts per router */
	unsigned a;			/* routers per group */
	unsigned h;			/* global links per router */
	unsigned g;			/* groups; 0 = a*h + 1 */
	enum vlr_arrangement arrangement;
};

struct vlr_dragonflyplus_params {
	unsigned leaves;		/* leaf switches per group */
	unsigned spines;		/* spine switches per group */
	unsigned hosts;			/* hosts per leaf */
	unsigned globals;		/* global links per spine */
	unsigned groups;		/* 0 = spines*globals + 1 */
	enum vlr_arrangement arrangement;
};

struct vlr_fattree_params {
	unsigned k;			/* arity: k hosts or k up links per switch */
	unsigned n;			/* levels */
};

struct vlr_random_params {
	unsigned switches;
	unsigned degree;		/* switch-to-switch links per switch (the
					   most per switch when links is set) */
	unsigned hosts;			/* per switch */
	uint64_t seed;
	int seed_unknown;		/* recognised, not generated: no seed */
	unsigned links;			/* 0: regular; else this many links in all */
};

#define VLR_XGFT_MAX_HEIGHT 8

/*
 * Extended generalized fat tree XGFT(h; m[0..h-1]; w[0..h-1]) after Ohring
 * et al.: level 0 holds the hosts, a level-i node has m[i-1] children and
 * a level-(i-1) node w[i-1] parents (w[0] is 1: a host has one port).
 */
struct vlr_xgft_params {
	unsigned h;			/* height: levels of switches */
	unsigned m[VLR_XGFT_MAX_HEIGHT];
	unsigned w[VLR_XGFT_MAX_HEIGHT];
	unsigned endpoints;		/* hosts kept; 0 = all m[0]*...*m[h-1] */
};

/*
 * Kautz graph K(b, n) of switches: words of n symbols 0..b, no symbol twice
 * in a row, an arc from s1..sn to s2..sn x for each x != sn, each arc a
 * link; (b+1)*b^(n-1) switches, diameter n along the arcs.
 */
struct vlr_kautz_params {
	unsigned b;			/* out-degree: b+1 symbols */
	unsigned n;			/* word length */
	unsigned hosts;			/* per switch, when endpoints is 0 */
	unsigned endpoints;		/* spread over the switches; 0 = hosts each */
};

struct vlr_family_params {
	enum vlr_family family;
	union {
		struct vlr_grid_params grid;	/* HyperX and torus */
		struct vlr_dragonfly_params dragonfly;
		struct vlr_dragonflyplus_params dragonflyplus;
		struct vlr_fattree_params fattree;
		struct vlr_random_params random;
		struct vlr_xgft_params xgft;
		struct vlr_kautz_params kautz;
	} u;
};

/* "dragonfly p=6 a=12 h=6 g=73 arrangement=palmtree", and so on. */
void vlr_family_describe(const struct vlr_family_params *params, char *buf,
			 size_t size);

const char *vlr_arrangement_name(enum vlr_arrangement arrangement);

#endif
