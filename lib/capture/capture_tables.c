/*
 * capture_tables.c - read the tables a subnet manager programmed: the
 * linear forwarding table of every switch (64 LIDs per block, blocks up to
 * its LinearFDBTop and the fabric's highest LID), the SL2VL table of every
 * switch for every in port 0..N to every linked out port (attribute
 * modifier in << 8 | out), and the SL2VL table of every linked endpoint
 * port that has one (modifier 0, read through the port itself).
 *
 * Queries are made switch by switch as the engine asks for more, so the
 * half million SL2VL reads of a large fabric never wait in memory at once.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "capture_internal.h"

#define LFT_BLOCK 64

struct table_reader {
	struct cap_engine *engine;
	const struct cap_fabric *cap;
	struct vlr_tables *tables;
	uint32_t next_node;	/* the node refill takes next */
};

static int ask_switch(struct table_reader *reader, uint32_t node)
{
	const struct cap_node *record = &reader->cap->nodes[node];
	uint32_t top = record->lin_top < reader->tables->max_lid ? record->lin_top :
		       reader->tables->max_lid;
	unsigned in, out, block;

	for (block = 0; record->lin_top && block <= top / LFT_BLOCK; block++)
		if (cap_engine_submit_smp(reader->engine, CAP_Q_LFT, CAP_ATTR_LFT, node, 0,
					  block, block))
			return -1;
	for (out = 1; out <= record->num_ports; out++) {
		if (cap_port_at(reader->cap, node, out)->peer_node == VLR_NONE)
			continue;
		for (in = 0; in <= record->num_ports; in++)
			if (cap_engine_submit_smp(reader->engine, CAP_Q_SL2VL, CAP_ATTR_SL2VL,
						  node, 0, in << 8 | out, in << 8 | out))
				return -1;
	}
	return 0;
}

/* An endpoint port is addressed through the switch port it is cabled to. */
static int ask_endpoint(struct table_reader *reader, uint32_t node)
{
	const struct cap_fabric *cap = reader->cap;
	unsigned number;

	for (number = 1; number <= cap->nodes[node].num_ports; number++) {
		const struct cap_port *port = cap_port_at(cap, node, number);
		uint32_t slot = cap->nodes[node].first_port + number;
		int local = node == cap->local_node && number == cap->local_port;

		if (port->peer_node == VLR_NONE || !port->reached ||
		    !(port->cap_mask & CAP_CAP_HAS_SL_MAP))
			continue;
		if (cap_engine_submit_smp(reader->engine, CAP_Q_SL2VL, CAP_ATTR_SL2VL,
					  local ? node : port->peer_node,
					  local ? 0 : port->peer_port, 0, slot))
			return -1;
	}
	return 0;
}

static int refill(void *context)
{
	struct table_reader *reader = context;

	if (reader->next_node >= reader->cap->num_nodes)
		return 0;
	reader->next_node++;
	if (reader->cap->nodes[reader->next_node - 1].type == VLR_NODE_SWITCH)
		return ask_switch(reader, reader->next_node - 1);
	return ask_endpoint(reader, reader->next_node - 1);
}

static uint32_t switch_index(const struct table_reader *reader, uint32_t node)
{
	return reader->tables->switch_of_node[reader->cap->nodes[node].fabric_node];
}

static void take_lft(struct table_reader *reader, const struct cap_query *query,
		     const uint8_t *data)
{
	const struct cap_node *record = &reader->cap->nodes[query->node];
	uint8_t *lft = vlr_tables_lft(reader->tables, switch_index(reader, query->node));
	unsigned i;

	for (i = 0; i < LFT_BLOCK; i++) {
		uint32_t lid = query->arg * LFT_BLOCK + i;

		if (lid > reader->tables->max_lid || lid > record->lin_top)
			break;
		if (lid)	/* LID 0 is no unicast LID */
			lft[lid] = data[i];
	}
}

static void take_sl2vl(struct table_reader *reader, const struct cap_query *query,
		       const uint8_t *data)
{
	const struct cap_fabric *cap = reader->cap;
	const struct vlr_tables *tables = reader->tables;
	const struct cap_port *port;

	if (query->mod) {
		cap_decode_sl2vl(data, vlr_tables_sl2vl(tables, switch_index(reader, query->node),
							query->arg >> 8, query->arg & 0xff));
		return;
	}
	port = &cap->ports[query->arg];
	cap_decode_sl2vl(data, vlr_tables_port_sl2vl(tables, vlr_port_index(tables->fabric,
		cap->nodes[port->node].fabric_node, port->number)));
}

static int answer(void *context, const struct cap_query *query, const uint8_t *mad,
		  size_t length)
{
	struct table_reader *reader = context;

	if (cap_engine_check_smp(reader->engine, query, mad, length))
		return -1;
	if (query->kind == CAP_Q_LFT)
		take_lft(reader, query, cap_smp_data(mad));
	else if (query->kind == CAP_Q_SL2VL)
		take_sl2vl(reader, query, cap_smp_data(mad));
	else
		return cap_engine_fail(reader->engine, query, "an answer the table reads did "
				       "not ask for");
	return 0;
}

int cap_read_tables(struct cap_engine *engine, const struct cap_fabric *fabric,
		    struct vlr_tables *tables)
{
	struct table_reader reader = { engine, fabric, tables, 0 };

	return cap_engine_run(engine, answer, refill, &reader);
}
