/*
 * callbacks.c - what OpenSM asks a routing engine between routings,
 * answered from the last verified tables: the SL of a path (for the SA's
 * PathRecords; OpenSM hands the LIDs in network byte order), the SL2VL
 * table of every switch (in port, out port) pair and endpoint port (for
 * QoS setup), and the engine's destroy step.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>

#include "vlroute_osm.h"

uint8_t vlr_osm_path_sl(void *context, uint8_t path_sl_hint, const ib_net16_t slid,
			const ib_net16_t dlid)
{
	const struct vlr_osm_engine *engine = context;
	const struct vlr_tables *tables;
	uint16_t source_lid = cl_ntoh16(slid), target_lid = cl_ntoh16(dlid);
	uint32_t source;

	(void)path_sl_hint;	/* the layer is not negotiable: deadlock freedom */
	if (!engine->routing)
		return 0;
	tables = engine->routing->tables;
	if (!source_lid || !target_lid || target_lid > tables->max_lid ||
	    tables->lid_owner[target_lid] == VLR_NONE)
		return 0;
	source = vlr_tables_lid_port(tables, source_lid);
	if (source == VLR_NONE || !vlr_tables_is_source(tables, source))
		return 0;
	return vlr_tables_path_sl(tables, source, target_lid);
}

static void fill(ib_slvl_table_t *table, const uint8_t *vls)
{
	unsigned sl;

	for (sl = 0; sl < VLR_NUM_SLS; sl += 2)
		table->raw_vl_by_sl[sl / 2] = (uint8_t)((vls[sl] & 0xf) << 4 |
							(vls[sl + 1] & 0xf));
}

void vlr_osm_update_sl2vl(void *context, osm_physp_t *port, uint8_t in_port_num,
			  uint8_t out_port_num, ib_slvl_table_t *table)
{
	const struct vlr_osm_engine *engine = context;
	const struct vlr_osm_routing *routing = engine->routing;
	const struct vlr_tables *tables;
	osm_node_t *node;
	uint32_t index;

	if (!routing || !port || !port->p_node || !table)
		return;
	tables = routing->tables;
	node = port->p_node;
	if (osm_node_get_type(node) == IB_NODE_TYPE_SWITCH) {
		unsigned ports;

		index = vlr_guid_map_get(&routing->switches,
					 cl_ntoh64(osm_node_get_node_guid(node)));
		if (index == VLR_NONE)
			return;
		ports = tables->fabric->nodes[tables->switch_node[index]].num_ports;
		if (in_port_num > ports || out_port_num > ports)
			return;
		fill(table, vlr_tables_sl2vl(tables, index, in_port_num, out_port_num));
		return;
	}
	index = vlr_guid_map_get(&routing->endports,
				 cl_ntoh64(osm_physp_get_port_guid(port)));
	if (index != VLR_NONE)
		fill(table, vlr_tables_port_sl2vl(tables, index));
}

void vlr_osm_engine_destroy(void *context)
{
	struct vlr_osm_engine *engine = context;

	vlr_osm_routing_free(engine->routing);
	engine->routing = NULL;
}
