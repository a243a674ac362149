/*
 * tablefiles_lfts_compact.c - every switch's LFT as vlroute-lfts.bin, the
 * compact form of opensm-lfts.dump (vlroute-tables(5)): the header, the
 * port GUID owning each LID (so that the reader checks the LIDs as the
 * text reader checks its comments), then per switch its node GUID, its
 * LID and its row of out ports, raw or as runs. Written switch by switch
 * and read straight into the tables: nothing but one row is held.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_compact_internal.h"

/* ---- writing ------------------------------------------------------------ */

static void write_owners(const struct vlr_tables *tables, struct tf_out *out)
{
	uint32_t lid, port;

	for (lid = 0; lid <= tables->max_lid; lid++) {
		port = tables->lid_owner[lid];
		tf_put_u64(out, port == VLR_NONE ? 0 : tf_port_guid(tables->fabric, port));
	}
}

/* As the text dump, an entry beyond the switch's ports is no route. */
static void write_switch(const struct vlr_tables *tables, uint32_t sw, uint8_t *row,
			 struct tf_out *out)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = tables->switch_node[sw], lid;
	unsigned num_ports = fabric->nodes[node].num_ports;
	const uint8_t *lft = vlr_tables_lft(tables, sw);

	for (lid = 0; lid <= tables->max_lid; lid++)
		row[lid] = lft[lid] > num_ports ? VLR_NO_PORT : lft[lid];
	tf_put_u64(out, fabric->nodes[node].guid);
	tf_put_u16(out, vlr_port_at(fabric, node, 0)->lid);
	tf_put_row(out, row, tables->lid_stride);
}

int vlr_lfts_compact_write(const struct vlr_tables *tables, FILE *stream,
			   struct vlr_error *err)
{
	struct tf_compact_header header = { TF_COMPACT_LFTS, tables->max_lid,
					    tables->num_switches, 0 };
	uint8_t *row = malloc(tables->lid_stride);
	struct tf_out *out;
	uint32_t sw;
	int result;

	if (!row)
		return vlr_fail(err, "out of memory for the compact LFTs");
	out = tf_out_new(stream, err);
	if (!out) {
		free(row);
		return -1;
	}
	tf_put_header(out, &header);
	write_owners(tables, out);
	for (sw = 0; sw < tables->num_switches; sw++)
		write_switch(tables, sw, row, out);
	result = tf_out_finish(out, "compact LFTs", err);
	free(out);
	free(row);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_tables *tables;
	struct tf_in in;
	struct vlr_guid_map switches;
	uint8_t *seen;		/* [switch]: record read */
	uint32_t sw;		/* the switch of the record being read */
};

static int read_owner(struct reader *reader, uint32_t lid)
{
	const struct vlr_tables *tables = reader->tables;
	uint32_t port = tables->lid_owner[lid];
	uint64_t at = reader->in.offset, guid, expected;
	char label[128];

	if (tf_get_u64(&reader->in, &guid))
		return -1;
	expected = port == VLR_NONE ? 0 : tf_port_guid(tables->fabric, port);
	if (guid == expected)
		return 0;
	if (port == VLR_NONE)
		return tf_in_fail(&reader->in, at, "LID %u belongs to port GUID 0x%016llx here, "
				  "but to no port in the tables", lid, (unsigned long long)guid);
	tf_port_label(tables->fabric, port, label, sizeof(label));
	return tf_in_fail(&reader->in, at, "LID %u belongs to port GUID 0x%016llx here, but "
			  "to %s (GUID 0x%016llx) in the tables", lid, (unsigned long long)guid,
			  label, (unsigned long long)expected);
}

static int check_port(const struct tf_in *in, uint64_t offset, uint32_t lid,
		      unsigned port, void *context)
{
	const struct reader *reader = context;
	const struct vlr_tables *tables = reader->tables;
	uint32_t node = tables->switch_node[reader->sw];
	unsigned num_ports = tables->fabric->nodes[node].num_ports;

	if (port <= num_ports || port == VLR_NO_PORT)
		return 0;
	return tf_in_fail(in, offset, "LID %u leaves switch \"%s\" by port %u, beyond its %u "
			  "ports", lid, vlr_node_name(tables->fabric, node), port, num_ports);
}

/* The switch a record names, which must not have come before. */
static int read_switch(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint64_t at = reader->in.offset, guid;
	uint32_t node;
	uint16_t lid;

	if (tf_get_u64(&reader->in, &guid))
		return -1;
	reader->sw = vlr_guid_map_get(&reader->switches, guid);
	if (reader->sw == VLR_NONE)
		return tf_in_fail(&reader->in, at, "unknown switch GUID 0x%016llx",
				  (unsigned long long)guid);
	node = reader->tables->switch_node[reader->sw];
	if (reader->seen[reader->sw])
		return tf_in_fail(&reader->in, at, "a second record for switch \"%s\"",
				  vlr_node_name(fabric, node));
	reader->seen[reader->sw] = 1;
	at = reader->in.offset;
	if (tf_get_u16(&reader->in, &lid))
		return -1;
	if (lid != vlr_port_at(fabric, node, 0)->lid)
		return tf_in_fail(&reader->in, at, "switch \"%s\" has LID %u here but LID %u in "
				  "the tables", vlr_node_name(fabric, node), lid,
				  vlr_port_at(fabric, node, 0)->lid);
	return 0;
}

static int read_all(struct reader *reader)
{
	struct vlr_tables *tables = reader->tables;
	struct tf_compact_header header;
	uint32_t lid, record;

	if (tf_get_header(&reader->in, TF_COMPACT_LFTS, "LFTs", tables->max_lid, &header))
		return -1;
	if (header.count > tables->num_switches)
		return tf_in_fail(&reader->in, 12, "%u switch records, but the fabric has %u "
				  "switches", header.count, tables->num_switches);
	tf_in_context(&reader->in, "the owners of the LIDs");
	for (lid = 0; lid <= tables->max_lid; lid++)
		if (read_owner(reader, lid))
			return -1;
	for (record = 0; record < header.count; record++) {
		tf_in_context(&reader->in, "switch record %u of %u", record + 1, header.count);
		if (read_switch(reader) ||
		    tf_get_row(&reader->in, vlr_tables_lft(tables, reader->sw),
			       tables->lid_stride, check_port, reader))
			return -1;
	}
	return tf_in_check_end(&reader->in);
}

int vlr_lfts_compact_read(struct vlr_tables *tables, const char *path,
			  struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.seen = calloc(tables->num_switches + 1, 1);
	if (!reader.seen)
		return vlr_fail(err, "out of memory reading %s", path);
	if (tf_index_switches(tables, &reader.switches, err)) {
		free(reader.seen);
		return -1;
	}
	result = tf_in_open(&reader.in, path, err);
	if (!result)
		result = read_all(&reader);
	tf_in_close(&reader.in);
	vlr_guid_map_free(&reader.switches);
	free(reader.seen);
	return result;
}
