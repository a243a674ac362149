/*
 * subnet_to_fabric.c - OpenSM's discovered subnet as a vlroute fabric:
 * the nodes of p_osm->subn with their GUIDs, descriptions and port counts,
 * each port's GUID, the LID and LMC OpenSM assigned, its cable and whether
 * it is up and healthy, and the data VLs a switch-to-switch link offers,
 * handed to vlr_fabric_build. That orders and names the nodes as every
 * source of a fabric does (switches, then the rest, each by NodeGUID; by
 * their NodeDescription when unique and usable as a node id, else
 * "S-<guid>"/"H-<guid>"), so the fabric does not depend on the order of
 * OpenSM's maps, and it takes the links whose two ports are up.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>

#include "vlroute_osm.h"

struct translation {
	osm_opensm_t *osm;
	struct vlr_osm_subnet *subnet;
	struct vlr_subnet list;		/* what vlr_fabric_build takes */
	struct vlr_error *err;
};

/* The NodeDescription as text: at most 64 bytes, not always terminated. */
static void copy_description(const osm_node_t *node, char *out)
{
	size_t length = strnlen((const char *)node->node_desc.description,
				IB_NODE_DESCRIPTION_SIZE);

	memcpy(out, node->node_desc.description, length);
	out[length] = '\0';
}

/* INIT, ARMED or ACTIVE and healthy is up; DOWN is not; others are errors. */
static int port_up(struct translation *t, osm_physp_t *physp, int *up)
{
	uint8_t state = ib_port_info_get_port_state(&physp->port_info);

	if (state != IB_LINK_DOWN && (state < IB_LINK_INIT || state > IB_LINK_ACT_DEFER))
		return vlr_fail(t->err, "port %u of node 0x%016" PRIx64 " (%s) is in port "
				"state %u, which vlroute does not expect (INIT, ARMED, "
				"ACTIVE or DOWN)", physp->port_num,
				cl_ntoh64(osm_node_get_node_guid(physp->p_node)),
				physp->p_node->print_desc ? physp->p_node->print_desc : "",
				state);
	*up = state != IB_LINK_DOWN && osm_link_is_healthy(physp);
	return 0;
}

/*
 * Data VLs a switch port can use on its link: what it operates now, and no
 * more than OpenSM's link manager will configure (the smaller VLCap of the
 * two ends, OpenSM's max_op_vls); 0 if neither says.
 */
static unsigned port_vls(struct translation *t, const osm_physp_t *physp)
{
	uint8_t op = ib_port_info_get_op_vls(&physp->port_info);
	unsigned now = vlr_vls_of_code(op);
	unsigned most = vlr_vls_of_code(osm_physp_calc_link_op_vls(&t->osm->log,
								   &t->osm->subn, physp, op));

	if (!now || (most && most < now))
		return most;
	return now;
}

/* The cable on physp, if any: its peer, whether it is up, its data VLs. */
static int fill_link(struct translation *t, uint32_t index, osm_physp_t *physp,
		     struct vlr_subnet_port *to)
{
	const struct vlr_subnet_node *node = &t->list.nodes[index];
	osm_physp_t *remote = physp->p_remote_physp;
	int up_here, up_there;

	if (!remote)
		return 0;
	if (remote->p_remote_physp != physp || !remote->p_node)
		return vlr_fail(t->err, "port %u of node 0x%016" PRIx64 " (%s) names a "
				"peer that does not name it back", physp->port_num,
				node->guid, node->description);
	to->peer_guid = cl_ntoh64(osm_node_get_node_guid(remote->p_node));
	to->peer_port = remote->port_num;
	if (remote->p_node == physp->p_node)
		return 0;	/* a loopback, which vlr_fabric_build skips */
	if (port_up(t, physp, &up_here) || port_up(t, remote, &up_there))
		return -1;
	to->up = (uint8_t)up_here;
	if (up_here && up_there && node->type == VLR_NODE_SWITCH &&
	    osm_node_get_type(remote->p_node) == IB_NODE_TYPE_SWITCH)
		to->vls = (uint8_t)port_vls(t, physp);
	return 0;
}

/* Every valid port's GUID, LID, LMC and cable. */
static int fill_ports(struct translation *t, osm_node_t *node, uint32_t index)
{
	const struct vlr_subnet_node *record = &t->list.nodes[index];
	uint32_t number;

	for (number = 0; number < osm_node_get_num_physp(node) &&
	     number <= record->num_ports; number++) {
		osm_physp_t *physp = osm_node_get_physp_ptr(node, number);
		struct vlr_subnet_port *to = vlr_subnet_port_at(&t->list, index, number);

		if (!physp)
			continue;
		to->guid = cl_ntoh64(osm_physp_get_port_guid(physp));
		to->lid = cl_ntoh16(physp->port_info.base_lid);
		to->lmc = ib_port_info_get_lmc(&physp->port_info);
		if (number && fill_link(t, index, physp, to))
			return -1;
	}
	return 0;
}

static int fill_nodes(struct translation *t)
{
	cl_qmap_t *map = &t->osm->subn.node_guid_tbl;
	char description[IB_NODE_DESCRIPTION_SIZE + 1];
	uint32_t count = (uint32_t)cl_qmap_count(map), index;
	uint64_t slots = 0;
	cl_map_item_t *item;

	if (!count)
		return vlr_fail(t->err, "OpenSM's subnet has no nodes");
	for (item = cl_qmap_head(map); item != cl_qmap_end(map); item = cl_qmap_next(item))
		slots += (uint64_t)((osm_node_t *)item)->node_info.num_ports + 1;
	if (slots > UINT32_MAX)
		return vlr_fail(t->err, "too many ports (%" PRIu64 ")", slots);
	if (vlr_subnet_init(&t->list, count, (uint32_t)slots, t->err))
		return -1;
	for (item = cl_qmap_head(map); item != cl_qmap_end(map); item = cl_qmap_next(item)) {
		osm_node_t *node = (osm_node_t *)item;

		copy_description(node, description);
		index = vlr_subnet_add_node(&t->list, (enum vlr_node_type)osm_node_get_type(node),
					    cl_ntoh64(osm_node_get_node_guid(node)),
					    node->node_info.num_ports, description, t->err);
		if (index == VLR_NONE || fill_ports(t, node, index))
			return -1;
	}
	return 0;
}

static int translate(struct translation *t)
{
	struct vlr_osm_subnet *subnet = t->subnet;
	struct vlr_subnet_report report;

	if (fill_nodes(t))
		return -1;
	subnet->fabric = vlr_fabric_build(&t->list, &report, t->err);
	if (!subnet->fabric)
		return -1;
	subnet->links = report.links;
	subnet->links_skipped = report.links_skipped;
	subnet->vls_offered = report.switch_vls ? report.switch_vls : VLR_MAX_DATA_VLS;
	return 0;
}

int vlr_osm_subnet_read(osm_opensm_t *osm, struct vlr_osm_subnet *subnet,
			struct vlr_error *err)
{
	struct translation t;
	int result;

	memset(subnet, 0, sizeof(*subnet));
	memset(&t, 0, sizeof(t));
	t.osm = osm;
	t.subnet = subnet;
	t.err = err;
	result = translate(&t);
	vlr_subnet_free(&t.list);
	if (result)
		vlr_osm_subnet_free(subnet);
	return result;
}

void vlr_osm_subnet_free(struct vlr_osm_subnet *subnet)
{
	vlr_fabric_free(subnet->fabric);
	memset(subnet, 0, sizeof(*subnet));
}
