/*
 * subnet_to_fabric.c - OpenSM's discovered subnet as a vlroute fabric:
 * the nodes of p_osm->subn with their GUIDs, descriptions and port counts,
 * the links whose two ports are up and healthy, the LIDs and LMCs OpenSM
 * assigned, and the data VLs the switch-to-switch links offer.
 *
 * Nodes are named like opensm-subnet.lst's reader names them: by their
 * NodeDescription when it is unique and usable as a node id, else
 * "S-<guid>" (switches) or "H-<guid>" (others). Their order (switches,
 * then the rest, each by NodeGUID) does not depend on OpenSM's maps.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>

#include "vlroute_osm.h"

struct source_node {
	osm_node_t *node;
	uint64_t guid;			/* NodeGUID, host order */
	int is_switch;
	char description[IB_NODE_DESCRIPTION_SIZE + 1];
	int unique;			/* no other node has this description */
};

struct translation {
	osm_opensm_t *osm;
	struct vlr_osm_subnet *subnet;
	struct source_node *nodes;
	uint32_t count;
	struct vlr_error *err;
};

static int compare_by_kind_and_guid(const void *a, const void *b)
{
	const struct source_node *x = a, *y = b;

	if (x->is_switch != y->is_switch)
		return x->is_switch ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int compare_descriptions(const void *a, const void *b)
{
	const struct source_node *const *x = a, *const *y = b;

	return strcmp((*x)->description, (*y)->description);
}

/* Mark the nodes whose description no other node has. */
static int mark_unique(struct translation *t)
{
	struct source_node **sorted = malloc(sizeof(*sorted) * (t->count + 1));
	uint32_t i, j, k;

	if (!sorted)
		return vlr_fail(t->err, "out of memory naming %u nodes", t->count);
	for (i = 0; i < t->count; i++)
		sorted[i] = &t->nodes[i];
	qsort(sorted, t->count, sizeof(*sorted), compare_descriptions);
	for (i = 0; i < t->count; i = j) {
		for (j = i + 1; j < t->count &&
		     !strcmp(sorted[i]->description, sorted[j]->description); j++)
			;
		for (k = i; k < j; k++)
			sorted[k]->unique = j - i == 1;
	}
	free(sorted);
	return 0;
}

/* The NodeDescription as text: at most 64 bytes, not always terminated. */
static void copy_description(const osm_node_t *node, char *out)
{
	size_t length = strnlen((const char *)node->node_desc.description,
				IB_NODE_DESCRIPTION_SIZE);

	memcpy(out, node->node_desc.description, length);
	out[length] = '\0';
}

static int collect_nodes(struct translation *t)
{
	cl_qmap_t *map = &t->osm->subn.node_guid_tbl;
	cl_map_item_t *item;
	uint32_t n = 0;

	t->count = (uint32_t)cl_qmap_count(map);
	if (!t->count)
		return vlr_fail(t->err, "OpenSM's subnet has no nodes");
	t->nodes = calloc(t->count, sizeof(*t->nodes));
	if (!t->nodes)
		return vlr_fail(t->err, "out of memory for %u nodes", t->count);
	for (item = cl_qmap_head(map); item != cl_qmap_end(map) && n < t->count;
	     item = cl_qmap_next(item), n++) {
		osm_node_t *node = (osm_node_t *)item;
		uint8_t type = osm_node_get_type(node);

		if (type != IB_NODE_TYPE_CA && type != IB_NODE_TYPE_SWITCH &&
		    type != IB_NODE_TYPE_ROUTER)
			return vlr_fail(t->err, "node 0x%016" PRIx64 " has node type %u, "
					"not CA, switch or router",
					cl_ntoh64(osm_node_get_node_guid(node)), type);
		t->nodes[n].node = node;
		t->nodes[n].guid = cl_ntoh64(osm_node_get_node_guid(node));
		t->nodes[n].is_switch = type == IB_NODE_TYPE_SWITCH;
		copy_description(node, t->nodes[n].description);
	}
	t->count = n;
	qsort(t->nodes, t->count, sizeof(*t->nodes), compare_by_kind_and_guid);
	return mark_unique(t);
}

static int usable_description(const char *text)
{
	return text[0] && strlen(text) <= VLR_MAX_NAME && !strchr(text, '"');
}

/* Port GUID and LID of every valid port; one GUID per switch. */
static int add_ports(struct translation *t, const struct source_node *source,
		     uint32_t made)
{
	struct vlr_fabric *fabric = t->subnet->fabric;
	osm_node_t *node = source->node;
	uint32_t number;

	for (number = 0; number < osm_node_get_num_physp(node) &&
	     number <= fabric->nodes[made].num_ports; number++) {
		osm_physp_t *physp = osm_node_get_physp_ptr(node, number);
		struct vlr_port *port = vlr_port_at(fabric, made, number);

		if (!physp)
			continue;
		port->guid = cl_ntoh64(osm_physp_get_port_guid(physp));
		if (source->is_switch ? number != 0 : number == 0)
			continue;
		port->lid = cl_ntoh16(physp->port_info.base_lid);
		port->lmc = ib_port_info_get_lmc(&physp->port_info);
	}
	if (source->is_switch) {
		uint64_t guid = vlr_port_at(fabric, made, 0)->guid;

		for (number = 1; number <= fabric->nodes[made].num_ports; number++)
			vlr_port_at(fabric, made, number)->guid = guid;
	}
	return 0;
}

static int add_node(struct translation *t, const struct source_node *source)
{
	struct vlr_fabric *fabric = t->subnet->fabric;
	char name[VLR_MAX_NAME + 1];
	struct vlr_error inner;
	uint32_t made;
	uint8_t type = osm_node_get_type(source->node);
	unsigned ports = source->node->node_info.num_ports;

	if (source->unique && usable_description(source->description) &&
	    !strpbrk(source->description, "#@"))
		snprintf(name, sizeof(name), "%s", source->description);
	else
		snprintf(name, sizeof(name), "%c-%016" PRIx64, source->is_switch ? 'S' : 'H',
			 source->guid);
	made = vlr_fabric_add_node(fabric, (enum vlr_node_type)type, name, ports,
				   source->guid, &inner);
	if (made == VLR_NONE)
		return vlr_fail(t->err, "node 0x%016" PRIx64 ": %s", source->guid,
				inner.message);
	if (usable_description(source->description) && strcmp(name, source->description) &&
	    vlr_fabric_set_description(fabric, made, source->description, &inner))
		return vlr_fail(t->err, "node 0x%016" PRIx64 ": %s", source->guid,
				inner.message);
	if (vlr_osm_guid_index_add(&t->subnet->nodes, source->guid, made, t->err))
		return -1;
	return add_ports(t, source, made);
}

/* IB's OperationalVLs and VLCap codes: 1 = VL0, 2 = VL0-1, 3 = VL0-3, ... */
static unsigned vls_of_code(unsigned code)
{
	if (code < 1 || code > 5)
		return 0;
	return code == 5 ? VLR_MAX_DATA_VLS : 1u << (code - 1);
}

/*
 * Data VLs a switch-to-switch link can use: what its two ports operate now,
 * and no more than OpenSM's link manager will configure (the smaller VLCap,
 * OpenSM's max_op_vls).
 */
static unsigned link_vls(struct translation *t, const osm_physp_t *a, const osm_physp_t *b)
{
	unsigned vls = VLR_MAX_DATA_VLS, v;
	const osm_physp_t *ends[2] = { a, b };
	int i;

	for (i = 0; i < 2; i++) {
		uint8_t op = ib_port_info_get_op_vls(&ends[i]->port_info);

		v = vls_of_code(op);
		if (v && v < vls)
			vls = v;
		v = vls_of_code(osm_physp_calc_link_op_vls(&t->osm->log, &t->osm->subn,
							   ends[i], op));
		if (v && v < vls)
			vls = v;
	}
	return vls;
}

static int port_is_up(struct translation *t, const osm_physp_t *physp, int *up)
{
	uint8_t state = ib_port_info_get_port_state(&physp->port_info);

	if (state == IB_LINK_DOWN) {
		*up = 0;
		return 0;
	}
	if (state < IB_LINK_INIT || state > IB_LINK_ACT_DEFER)
		return vlr_fail(t->err, "port %u of node 0x%016" PRIx64 " (%s) is in port "
				"state %u, which vlroute does not expect (INIT, ARMED, "
				"ACTIVE or DOWN)", physp->port_num,
				cl_ntoh64(osm_node_get_node_guid(physp->p_node)),
				physp->p_node->print_desc ? physp->p_node->print_desc : "",
				state);
	*up = 1;
	return 0;
}

/* The link on port `number` of our node `index`, if it is to be taken. */
static int add_link(struct translation *t, uint32_t index, uint32_t number)
{
	const struct source_node *source = &t->nodes[index];
	osm_physp_t *physp = osm_node_get_physp_ptr(source->node, number);
	osm_physp_t *remote = physp ? physp->p_remote_physp : NULL;
	struct vlr_osm_subnet *subnet = t->subnet;
	uint32_t other;
	int up_here, up_there;
	struct vlr_error inner;

	if (!remote)
		return 0;
	if (remote->p_remote_physp != physp || !remote->p_node)
		return vlr_fail(t->err, "port %u of node 0x%016" PRIx64 " (%s) names a "
				"peer that does not name it back", number, source->guid,
				source->description);
	other = vlr_osm_guid_index_find(&subnet->nodes,
					cl_ntoh64(osm_node_get_node_guid(remote->p_node)));
	if (other == VLR_NONE)
		return vlr_fail(t->err, "port %u of node 0x%016" PRIx64 " (%s) leads to "
				"node 0x%016" PRIx64 ", which is not in the subnet", number,
				source->guid, source->description,
				cl_ntoh64(osm_node_get_node_guid(remote->p_node)));
	if (other < index || (other == index && remote->port_num <= number))
		return 0;	/* taken from the other end, or a loopback */
	if (other == index) {
		subnet->links_skipped++;
		return 0;
	}
	if (port_is_up(t, physp, &up_here) || port_is_up(t, remote, &up_there))
		return -1;
	if (!up_here || !up_there || !osm_link_is_healthy(physp) ||
	    !osm_link_is_healthy(remote)) {
		subnet->links_skipped++;
		return 0;
	}
	if (remote->port_num > subnet->fabric->nodes[other].num_ports)
		return vlr_fail(t->err, "node 0x%016" PRIx64 " has a link on port %u beyond "
				"its %u ports", t->nodes[other].guid, remote->port_num,
				subnet->fabric->nodes[other].num_ports);
	if (vlr_fabric_link(subnet->fabric, index, number, other, remote->port_num, &inner))
		return vlr_fail(t->err, "%s", inner.message);
	subnet->links++;
	if (source->is_switch && t->nodes[other].is_switch) {
		unsigned vls = link_vls(t, physp, remote);

		if (vls < subnet->vls_offered)
			subnet->vls_offered = vls;
	}
	return 0;
}

/* Endpoint ports that carry traffic, by port GUID (for path SL and SL2VL). */
static int index_endports(struct translation *t)
{
	const struct vlr_fabric *fabric = t->subnet->fabric;
	uint32_t node, number;

	for (node = 0; node < fabric->num_nodes; node++) {
		if (vlr_node_is_switch(fabric, node))
			continue;
		for (number = 1; number <= fabric->nodes[node].num_ports; number++) {
			const struct vlr_port *port = vlr_port_at(fabric, node, number);

			if (port->peer != VLR_NONE && port->guid &&
			    vlr_osm_guid_index_add(&t->subnet->endports, port->guid,
						   vlr_port_index(fabric, node, number),
						   t->err))
				return -1;
		}
	}
	return vlr_osm_guid_index_sort(&t->subnet->endports, "linked ports", t->err);
}

static int translate(struct translation *t)
{
	struct vlr_osm_subnet *subnet = t->subnet;
	uint64_t slots = 0;
	uint32_t i, number, max_lmc = 0;

	if (collect_nodes(t))
		return -1;
	for (i = 0; i < t->count; i++)
		slots += (uint64_t)t->nodes[i].node->node_info.num_ports + 1;
	if (slots > UINT32_MAX)
		return vlr_fail(t->err, "too many ports (%" PRIu64 ")", slots);
	if (vlr_fabric_reserve(subnet->fabric, t->count, (uint32_t)slots, t->err))
		return -1;
	for (i = 0; i < t->count; i++)
		if (add_node(t, &t->nodes[i]))
			return -1;
	if (vlr_osm_guid_index_sort(&subnet->nodes, "nodes", t->err))
		return -1;
	for (i = 0; i < t->count; i++)
		for (number = 1; number < osm_node_get_num_physp(t->nodes[i].node); number++)
			if (add_link(t, i, number))
				return -1;
	for (i = 0; i < subnet->fabric->num_ports; i++) {
		const struct vlr_port *port = &subnet->fabric->ports[i];

		if (port->number && port->peer != VLR_NONE &&
		    !vlr_node_is_switch(subnet->fabric, port->node) && port->lmc > max_lmc)
			max_lmc = port->lmc;
	}
	subnet->fabric->lmc = (uint8_t)max_lmc;
	return index_endports(t);
}

int vlr_osm_subnet_read(osm_opensm_t *osm, struct vlr_osm_subnet *subnet,
			struct vlr_error *err)
{
	struct translation t;
	int result;

	memset(subnet, 0, sizeof(*subnet));
	memset(&t, 0, sizeof(t));
	subnet->fabric = vlr_fabric_new();
	if (!subnet->fabric)
		return vlr_fail(err, "out of memory for the fabric");
	subnet->vls_offered = VLR_MAX_DATA_VLS;
	t.osm = osm;
	t.subnet = subnet;
	t.err = err;
	result = translate(&t);
	free(t.nodes);
	if (result)
		vlr_osm_subnet_free(subnet);
	return result;
}

void vlr_osm_subnet_free(struct vlr_osm_subnet *subnet)
{
	vlr_fabric_free(subnet->fabric);
	vlr_osm_guid_index_free(&subnet->nodes);
	vlr_osm_guid_index_free(&subnet->endports);
	memset(subnet, 0, sizeof(*subnet));
}
