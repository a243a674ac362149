/*
 * tablefiles_sl2vl_compact.c - the SL2VL tables as vlroute-sl2vl.bin, the
 * compact form of opensm-sl2vl.dump (vlroute-tables(5)): the ports the
 * text dump lists, each with its GUID, LID, node type, port count and the
 * out ports it has rows for, then its rows of 16 VLs packed two to a byte,
 * a repeated row written once with its count (a switch whose rows are all
 * alike takes a dozen bytes).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_compact_internal.h"

#define PACKED_ROW (VLR_NUM_SLS / 2)
#define MAX_OUT_PORTS 255

/* ---- writing ------------------------------------------------------------ */

/* The out ports the text dump has rows for: linked ones (0 for an endpoint). */
static unsigned out_ports(const struct vlr_fabric *fabric, uint32_t port, uint8_t *outs)
{
	uint32_t node = fabric->ports[port].node;
	unsigned num_ports = fabric->nodes[node].num_ports, out, count = 0;

	if (!vlr_node_is_switch(fabric, node)) {
		outs[0] = 0;
		return 1;
	}
	for (out = 1; out <= num_ports; out++)
		if (vlr_port_at(fabric, node, out)->peer != VLR_NONE)
			outs[count++] = (uint8_t)out;
	return count;
}

static const uint8_t *row_vls(const struct vlr_tables *tables, uint32_t port,
			      unsigned in, unsigned out)
{
	uint32_t node = tables->fabric->ports[port].node;

	if (!vlr_node_is_switch(tables->fabric, node))
		return vlr_tables_port_sl2vl(tables, port);
	return vlr_tables_sl2vl(tables, tables->switch_of_node[node], in, out);
}

static int pack(const struct vlr_tables *tables, uint32_t port, unsigned in,
		unsigned out, uint8_t packed[PACKED_ROW], struct vlr_error *err)
{
	const uint8_t *vls = row_vls(tables, port, in, out);
	char label[128];
	unsigned sl;

	for (sl = 0; sl < VLR_NUM_SLS; sl++) {
		if (vls[sl] >= VLR_NUM_SLS) {
			tf_port_label(tables->fabric, port, label, sizeof(label));
			return vlr_fail(err, "the SL2VL table of %s maps SL %u from in port %u "
					"to out port %u to VL %u (VLs are 0..15)", label, sl,
					in, out, vls[sl]);
		}
	}
	for (sl = 0; sl < PACKED_ROW; sl++)
		packed[sl] = (uint8_t)(vls[2 * sl] | vls[2 * sl + 1] << 4);
	return 0;
}

/* The rows, out port by out port, in port by in port, runs of equal rows. */
static int write_rows(const struct vlr_tables *tables, uint32_t port, const uint8_t *outs,
		      unsigned num_outs, unsigned ins, struct tf_out *out,
		      struct vlr_error *err)
{
	uint8_t run_row[PACKED_ROW], row[PACKED_ROW];
	unsigned o, in, run = 0;

	for (o = 0; o < num_outs; o++) {
		for (in = 0; in < ins; in++) {
			if (pack(tables, port, in, outs[o], row, err))
				return -1;
			if (run && !memcmp(row, run_row, PACKED_ROW)) {
				run++;
				continue;
			}
			if (run) {
				tf_put_varint(out, run);
				tf_out_text(out, (const char *)run_row, PACKED_ROW);
			}
			memcpy(run_row, row, PACKED_ROW);
			run = 1;
		}
	}
	tf_put_varint(out, run);
	tf_out_text(out, (const char *)run_row, PACKED_ROW);
	return 0;
}

static int write_port(const struct vlr_tables *tables, uint32_t port, struct tf_out *out,
		      struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = fabric->ports[port].node;
	int is_switch = vlr_node_is_switch(fabric, node);
	unsigned num_ports = is_switch ? fabric->nodes[node].num_ports : 0, num_outs;
	uint8_t outs[MAX_OUT_PORTS + 1];

	num_outs = out_ports(fabric, port, outs);
	tf_put_u64(out, tf_port_guid(fabric, port));
	tf_put_u16(out, fabric->ports[port].lid);
	tf_put_u8(out, fabric->nodes[node].type);
	tf_put_u8(out, num_ports);
	tf_put_u8(out, num_outs);
	tf_out_text(out, (const char *)outs, num_outs);
	if (!num_outs)
		return 0;
	return write_rows(tables, port, outs, num_outs, num_ports + 1, out, err);
}

int vlr_sl2vl_compact_write(const struct vlr_tables *tables, FILE *stream,
			    struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	struct tf_compact_header header = { TF_COMPACT_SL2VL, tables->max_lid, 0, 0 };
	struct tf_out *out;
	uint32_t port;
	int result = 0;

	for (port = 0; port < fabric->num_ports; port++)
		header.count += tf_port_owns_lids(fabric, port) != 0;
	out = tf_out_new(stream, err);
	if (!out)
		return -1;
	tf_put_header(out, &header);
	for (port = 0; port < fabric->num_ports && !result; port++)
		if (tf_port_owns_lids(fabric, port))
			result = write_port(tables, port, out, err);
	if (!result)
		result = tf_out_finish(out, "compact SL2VL tables", err);
	free(out);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_tables *tables;
	struct tf_in in;
	struct vlr_guid_map ports;
	uint8_t *seen;		/* [port slot]: record read */
	uint32_t port;		/* the port of the record being read */
	unsigned ins;		/* its in ports (rows per out port) */
	unsigned num_outs;
	uint8_t outs[MAX_OUT_PORTS + 1];
};

/* The port a record names: known, of the type it says, linked, its LID. */
static int read_port(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint64_t at = reader->in.offset, guid;
	uint8_t type;
	uint16_t lid;
	uint32_t node;
	char label[128];

	if (tf_get_u64(&reader->in, &guid) || tf_get_u16(&reader->in, &lid) ||
	    tf_get_u8(&reader->in, &type))
		return -1;
	reader->port = vlr_guid_map_get(&reader->ports, guid);
	if (reader->port == VLR_NONE)
		return tf_in_fail(&reader->in, at, "unknown port GUID 0x%016llx",
				  (unsigned long long)guid);
	node = fabric->ports[reader->port].node;
	tf_port_label(fabric, reader->port, label, sizeof(label));
	if (fabric->nodes[node].type != type)
		return tf_in_fail(&reader->in, at + 10, "%s has node type %u here, but is a "
				  "%s (%u)", label, type,
				  tf_opensm_type_name(fabric->nodes[node].type),
				  fabric->nodes[node].type);
	if (type != VLR_NODE_SWITCH && fabric->ports[reader->port].peer == VLR_NONE)
		return tf_in_fail(&reader->in, at, "%s is not linked", label);
	if (lid != fabric->ports[reader->port].lid)
		return tf_in_fail(&reader->in, at + 8, "%s has LID %u here but LID %u in the "
				  "tables", label, lid, fabric->ports[reader->port].lid);
	if (reader->seen[reader->port])
		return tf_in_fail(&reader->in, at, "a second record for %s", label);
	reader->seen[reader->port] = 1;
	return 0;
}

/* Is out port o of the record wrong: beyond the ports, not rising, or for
   an endpoint anything but the one out port 0? */
static int bad_out(const struct reader *reader, unsigned o, unsigned num_outs,
		   unsigned num_ports, int is_switch)
{
	unsigned out = reader->outs[o];

	if (!is_switch)
		return num_outs != 1 || out;
	return out > num_ports || (o && out <= reader->outs[o - 1]);
}

/* Its port count and out ports: the fabric's count, out ports rising. */
static int read_outs(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint32_t node = fabric->ports[reader->port].node;
	int is_switch = vlr_node_is_switch(fabric, node);
	unsigned expected = is_switch ? fabric->nodes[node].num_ports : 0, o;
	uint64_t at = reader->in.offset;
	uint8_t num_ports, num_outs;

	if (tf_get_u8(&reader->in, &num_ports) || tf_get_u8(&reader->in, &num_outs))
		return -1;
	if (num_ports != expected)
		return tf_in_fail(&reader->in, at, "%u ports here, but \"%s\" has %u in the "
				  "tables%s", num_ports, vlr_node_name(fabric, node), expected,
				  is_switch ? "" : " (an endpoint port's record gives 0)");
	at = reader->in.offset;
	if (tf_get_bytes(&reader->in, reader->outs, num_outs))
		return -1;
	for (o = 0; o < num_outs; o++)
		if (bad_out(reader, o, num_outs, num_ports, is_switch))
			return tf_in_fail(&reader->in, at + o, "out port %u: %s", reader->outs[o],
					  is_switch ? "out ports rise and are the switch's" :
					  "an endpoint port has the one out port 0");
	reader->num_outs = num_outs;
	reader->ins = num_ports + 1u;
	return 0;
}

/* Row number `row` of the record (out port by out port) gets the VLs. */
static void set_row(struct reader *reader, unsigned row, const uint8_t *packed)
{
	struct vlr_tables *tables = reader->tables;
	uint32_t node = tables->fabric->ports[reader->port].node;
	unsigned in = row % reader->ins, out = reader->outs[row / reader->ins], sl;
	uint8_t *vls = vlr_node_is_switch(tables->fabric, node) ?
		       vlr_tables_sl2vl(tables, tables->switch_of_node[node], in, out) :
		       vlr_tables_port_sl2vl(tables, reader->port);

	for (sl = 0; sl < PACKED_ROW; sl++) {
		vls[2 * sl] = packed[sl] & 15;
		vls[2 * sl + 1] = packed[sl] >> 4;
	}
}

static int read_rows(struct reader *reader)
{
	unsigned rows = reader->num_outs * reader->ins, row = 0, i;
	uint8_t packed[PACKED_ROW];
	uint32_t run;

	while (row < rows) {
		if (tf_get_count(&reader->in, rows - row, &run) ||
		    tf_get_bytes(&reader->in, packed, PACKED_ROW))
			return -1;
		for (i = 0; i < run; i++)
			set_row(reader, row++, packed);
	}
	return 0;
}

static int read_all(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	struct tf_compact_header header;
	uint32_t record;

	if (tf_get_header(&reader->in, TF_COMPACT_SL2VL, "SL2VL tables",
			  reader->tables->max_lid, &header))
		return -1;
	if (header.count > fabric->num_ports)
		return tf_in_fail(&reader->in, 12, "%u port records, but the fabric has %u "
				  "ports", header.count, fabric->num_ports);
	for (record = 0; record < header.count; record++) {
		tf_in_context(&reader->in, "port record %u of %u", record + 1, header.count);
		if (read_port(reader) || read_outs(reader) || read_rows(reader))
			return -1;
	}
	return tf_in_check_end(&reader->in);
}

int vlr_sl2vl_compact_read(struct vlr_tables *tables, const char *path,
			   struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.seen = calloc(tables->fabric->num_ports + 1, 1);
	if (!reader.seen)
		return vlr_fail(err, "out of memory reading %s", path);
	if (tf_index_ports(tables->fabric, &reader.ports, err)) {
		free(reader.seen);
		return -1;
	}
	result = tf_in_open(&reader.in, path, err);
	if (!result)
		result = read_all(&reader);
	tf_in_close(&reader.in);
	vlr_guid_map_free(&reader.ports);
	free(reader.seen);
	return result;
}
