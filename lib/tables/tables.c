/*
 * tables.c - allocating a table set for a fabric and indexing its LIDs,
 * and the next hops between switches that routing without tables uses.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vlroute/tables.h>

void vlr_tables_free(struct vlr_tables *tables)
{
	if (!tables)
		return;
	free(tables->lid_owner);
	free(tables->switch_node);
	free(tables->switch_of_node);
	free(tables->lft);
	free(tables->sl_rows);
	free(tables->port_sl_row);
	free(tables->sl2vl_offset);
	free(tables->sl2vl);
	free(tables->port_sl2vl);
	free(tables->lid_kind);
	free(tables->lid_via);
	if (tables->owns_fabric)
		vlr_fabric_free(tables->fabric);
	free(tables);
}

int vlr_tables_is_source(const struct vlr_tables *tables, uint32_t port)
{
	const struct vlr_port *record = &tables->fabric->ports[port];

	return record->number > 0 && record->peer != VLR_NONE &&
	       !vlr_node_is_switch(tables->fabric, record->node);
}

/* LIDs a port slot owns: a switch's port 0, or a linked endpoint port. */
static unsigned lids_of(const struct vlr_tables *tables, uint32_t port)
{
	const struct vlr_port *record = &tables->fabric->ports[port];
	int is_switch = vlr_node_is_switch(tables->fabric, record->node);

	if (!record->lid)
		return 0;
	if (is_switch ? record->number != 0 : !vlr_tables_is_source(tables, port))
		return 0;
	return 1u << record->lmc;
}

static void port_label(const struct vlr_fabric *fabric, uint32_t port, char *buf,
		       size_t size)
{
	snprintf(buf, size, "\"%s\" port %u", vlr_node_name(fabric, fabric->ports[port].node),
		 fabric->ports[port].number);
}

static int index_lids(struct vlr_tables *tables, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t port, max_lid = 0;
	unsigned i;

	for (port = 0; port < fabric->num_ports; port++) {
		unsigned count = lids_of(tables, port);

		if (count && fabric->ports[port].lid + count - 1 > max_lid)
			max_lid = fabric->ports[port].lid + count - 1;
		if (!count && vlr_tables_is_source(tables, port) && !fabric->ports[port].lid) {
			char label[128];

			port_label(fabric, port, label, sizeof(label));
			return vlr_fail(err, "%s has no LID", label);
		}
	}
	if (!max_lid)
		return vlr_fail(err, "no port of the fabric has a LID");
	if (max_lid > VLR_MAX_UNICAST_LID)
		return vlr_fail(err, "LID %u is beyond the unicast range (1..%d)", max_lid,
				VLR_MAX_UNICAST_LID);
	tables->max_lid = (uint16_t)max_lid;
	tables->lid_stride = max_lid + 1;
	tables->lid_owner = malloc(sizeof(uint32_t) * tables->lid_stride);
	if (!tables->lid_owner)
		return vlr_fail(err, "out of memory for %u LIDs", max_lid);
	for (i = 0; i <= max_lid; i++)
		tables->lid_owner[i] = VLR_NONE;
	for (port = 0; port < fabric->num_ports; port++) {
		unsigned count = lids_of(tables, port);

		for (i = 0; i < count; i++) {
			uint32_t lid = fabric->ports[port].lid + i;

			if (tables->lid_owner[lid] != VLR_NONE) {
				char first[128], second[128];

				port_label(fabric, tables->lid_owner[lid], first, sizeof(first));
				port_label(fabric, port, second, sizeof(second));
				return vlr_fail(err, "LID %u belongs to both %s and %s", lid,
						first, second);
			}
			tables->lid_owner[lid] = port;
		}
	}
	return 0;
}

static int index_switches(struct vlr_tables *tables, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint64_t sl2vl_bytes = 0;
	uint32_t node, sw;

	tables->switch_node = malloc(sizeof(uint32_t) * (fabric->num_nodes + 1));
	tables->switch_of_node = malloc(sizeof(uint32_t) * (fabric->num_nodes + 1));
	if (!tables->switch_node || !tables->switch_of_node)
		return vlr_fail(err, "out of memory for the switch index");
	for (node = 0; node < fabric->num_nodes; node++) {
		tables->switch_of_node[node] = VLR_NONE;
		if (vlr_node_is_switch(fabric, node)) {
			tables->switch_node[tables->num_switches] = node;
			tables->switch_of_node[node] = tables->num_switches++;
		}
	}
	tables->sl2vl_offset = malloc(sizeof(uint64_t) * (tables->num_switches + 1));
	if (!tables->sl2vl_offset)
		return vlr_fail(err, "out of memory for the SL2VL index");
	for (sw = 0; sw < tables->num_switches; sw++) {
		uint64_t ports = fabric->nodes[tables->switch_node[sw]].num_ports + 1u;

		tables->sl2vl_offset[sw] = sl2vl_bytes;
		sl2vl_bytes += ports * ports * VLR_NUM_SLS;
	}
	tables->sl2vl_size = sl2vl_bytes;
	tables->lft = malloc((uint64_t)tables->num_switches * tables->lid_stride + 1);
	tables->sl2vl = malloc(sl2vl_bytes + 1);
	tables->port_sl2vl = malloc((uint64_t)fabric->num_ports * VLR_NUM_SLS + 1);
	if (!tables->lft || !tables->sl2vl || !tables->port_sl2vl)
		return vlr_fail(err, "out of memory for the LFTs and SL2VL tables of %u "
				"switches", tables->num_switches);
	return 0;
}

/*
 * Eight switches at a time, so that each column gets eight bytes in one
 * store instead of one byte a store to a line far from the last.
 */
void vlr_tables_lft_columns(const struct vlr_tables *tables, uint32_t first,
			    uint32_t count, uint8_t *columns)
{
	uint32_t sw, k, j;

	for (sw = 0; sw + 8 <= tables->num_switches; sw += 8) {
		const uint8_t *rows[8];
		uint8_t eight[8];

		for (j = 0; j < 8; j++)
			rows[j] = vlr_tables_lft(tables, sw + j) + first;
		for (k = 0; k < count; k++) {
			for (j = 0; j < 8; j++)
				eight[j] = rows[j][k];
			memcpy(columns + (uint64_t)k * tables->num_switches + sw, eight, 8);
		}
	}
	for (; sw < tables->num_switches; sw++) {
		const uint8_t *row = vlr_tables_lft(tables, sw) + first;

		for (k = 0; k < count; k++)
			columns[(uint64_t)k * tables->num_switches + sw] = row[k];
	}
}

void vlr_tables_set_lft_columns(struct vlr_tables *tables, uint32_t first,
				uint32_t count, const uint8_t *columns)
{
	uint32_t sw, k;

	for (sw = 0; sw < tables->num_switches; sw++) {
		uint8_t *row = vlr_tables_lft(tables, sw) + first;

		for (k = 0; k < count; k++)
			row[k] = columns[(uint64_t)k * tables->num_switches + sw];
	}
}

void vlr_tables_reset(struct vlr_tables *tables)
{
	uint8_t pattern[VLR_NUM_SLS];
	uint64_t at;
	uint32_t port;
	unsigned sl;

	memset(tables->lft, VLR_NO_PORT, (uint64_t)tables->num_switches * tables->lid_stride);
	free(tables->sl_rows);
	tables->sl_rows = NULL;
	tables->num_sl_rows = 0;
	for (port = 0; port < tables->fabric->num_ports; port++)
		tables->port_sl_row[port] = VLR_NONE;
	for (sl = 0; sl < VLR_NUM_SLS; sl++)
		pattern[sl] = sl < tables->num_vls ? (uint8_t)sl : 0;
	for (at = 0; at < tables->sl2vl_size; at += VLR_NUM_SLS)
		memcpy(tables->sl2vl + at, pattern, VLR_NUM_SLS);
	for (at = 0; at < (uint64_t)tables->fabric->num_ports; at++)
		memcpy(tables->port_sl2vl + at * VLR_NUM_SLS, pattern, VLR_NUM_SLS);
	free(tables->lid_kind);
	free(tables->lid_via);
	tables->lid_kind = NULL;
	tables->lid_via = NULL;
	memset(&tables->policy, 0, sizeof(tables->policy));
	memset(&tables->unprogrammable, 0, sizeof(tables->unprogrammable));
}

int vlr_tables_alloc_sl_rows(struct vlr_tables *tables, uint32_t rows,
			     struct vlr_error *err)
{
	uint8_t *fresh = calloc((uint64_t)rows * tables->lid_stride + 1, 1);

	if (!fresh)
		return vlr_fail(err, "out of memory for %u path-SL rows", rows);
	free(tables->sl_rows);
	tables->sl_rows = fresh;
	tables->num_sl_rows = rows;
	return 0;
}

struct vlr_tables *vlr_tables_new(struct vlr_fabric *fabric, unsigned num_vls,
				  struct vlr_error *err)
{
	struct vlr_tables *tables = calloc(1, sizeof(*tables));

	if (!tables) {
		vlr_fail(err, "out of memory for the tables");
		return NULL;
	}
	tables->fabric = fabric;
	tables->num_vls = (uint8_t)num_vls;
	if (num_vls < 1 || num_vls > VLR_MAX_DATA_VLS) {
		vlr_fail(err, "%u VLs is out of range 1..%d", num_vls, VLR_MAX_DATA_VLS);
		goto fail;
	}
	if (index_lids(tables, err) || index_switches(tables, err))
		goto fail;
	tables->port_sl_row = malloc(sizeof(uint32_t) * (fabric->num_ports + 1));
	if (!tables->port_sl_row) {
		vlr_fail(err, "out of memory for the path-SL index");
		goto fail;
	}
	vlr_tables_reset(tables);
	return tables;
fail:
	vlr_tables_free(tables);
	return NULL;
}

int vlr_switch_routes_init(struct vlr_switch_routes *routes, uint32_t num_switches,
			   struct vlr_error *err)
{
	uint64_t entries = (uint64_t)num_switches * num_switches;

	routes->num_switches = num_switches;
	routes->port = entries <= SIZE_MAX ? calloc(entries ? entries : 1, 1) : NULL;
	routes->hops = entries <= SIZE_MAX ? calloc(entries ? entries : 1, 1) : NULL;
	if (!routes->port || !routes->hops) {
		vlr_switch_routes_free(routes);
		return vlr_fail(err, "out of memory for the next hops between %u switches",
				num_switches);
	}
	return 0;
}

void vlr_switch_routes_free(struct vlr_switch_routes *routes)
{
	free(routes->port);
	free(routes->hops);
	routes->port = NULL;
	routes->hops = NULL;
	routes->num_switches = 0;
}
