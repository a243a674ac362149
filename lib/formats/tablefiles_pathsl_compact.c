/*
 * tablefiles_pathsl_compact.c - the path SLs as vlroute-path-sl.bin, the
 * compact form of vlroute-path-sl.dump (vlroute-tables(5)): the header,
 * the SL rows (the SLs of LIDs 1..MAXLID, raw or as runs), then the row
 * of each source port by GUID. The reader replaces the SL rows and every
 * port's row, all or nothing.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_compact_internal.h"

/* ---- writing ------------------------------------------------------------ */

/* Is the port listed: a source with a row. Fails as the text writer does. */
static int listed(const struct vlr_tables *tables, uint32_t port, int *is_listed,
		  struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t row = tables->port_sl_row[port];
	char label[128];

	*is_listed = row != VLR_NONE && vlr_tables_is_source(tables, port);
	if (!*is_listed || (row < tables->num_sl_rows && fabric->ports[port].guid))
		return 0;
	tf_port_label(fabric, port, label, sizeof(label));
	if (row >= tables->num_sl_rows)
		return vlr_fail(err, "%s uses SL row %u of %u", label, row, tables->num_sl_rows);
	return vlr_fail(err, "%s has no GUID to file its SL row under", label);
}

static int count_ports(const struct vlr_tables *tables, uint32_t *count,
		       struct vlr_error *err)
{
	uint32_t port;
	int is_listed;

	*count = 0;
	for (port = 0; port < tables->fabric->num_ports; port++) {
		if (listed(tables, port, &is_listed, err))
			return -1;
		*count += is_listed != 0;
	}
	return 0;
}

static void write_body(const struct vlr_tables *tables, struct tf_out *out)
{
	uint32_t row, port;
	int is_listed;

	for (row = 0; row < tables->num_sl_rows; row++)
		tf_put_row(out, vlr_tables_sl_row(tables, row) + 1, tables->max_lid);
	for (port = 0; port < tables->fabric->num_ports; port++) {
		listed(tables, port, &is_listed, NULL);
		if (!is_listed)
			continue;
		tf_put_u64(out, tables->fabric->ports[port].guid);
		tf_put_u32(out, tables->port_sl_row[port]);
	}
}

int vlr_pathsl_compact_write(const struct vlr_tables *tables, FILE *stream,
			     struct vlr_error *err)
{
	struct tf_compact_header header = { TF_COMPACT_PATH_SL, tables->max_lid,
					    tables->num_sl_rows, 0 };
	struct tf_out *out;
	int result;

	if (tf_check_sls(tables, err) || count_ports(tables, &header.count2, err) ||
	    !(out = tf_out_new(stream, err)))
		return -1;
	tf_put_header(out, &header);
	write_body(tables, out);
	result = tf_out_finish(out, "compact path SLs", err);
	free(out);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_tables *tables;
	struct tf_in in;
	struct vlr_guid_map ports;
	uint8_t *rows;		/* the rows read, lid_stride SLs each */
	uint32_t num_rows;
	uint32_t *port_row;	/* [port slot]: row, VLR_NONE */
};

static int check_sl(const struct tf_in *in, uint64_t offset, uint32_t index,
		    unsigned sl, void *context)
{
	(void)context;
	if (sl < VLR_NUM_SLS)
		return 0;
	return tf_in_fail(in, offset, "SL %u for LID %u is out of range 0..15", sl, index + 1);
}

static int read_rows(struct reader *reader)
{
	uint32_t stride = reader->tables->lid_stride, row;

	reader->rows = calloc((uint64_t)reader->num_rows * stride + 1, 1);
	if (!reader->rows)
		return vlr_fail(reader->in.err, "out of memory for %u path-SL rows of %s",
				reader->num_rows, reader->in.path);
	for (row = 0; row < reader->num_rows; row++) {
		tf_in_context(&reader->in, "SL row %u of %u", row, reader->num_rows);
		if (tf_get_row(&reader->in, reader->rows + (uint64_t)row * stride + 1,
			       stride - 1, check_sl, NULL))
			return -1;
	}
	return 0;
}

static int read_port(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint64_t at = reader->in.offset, guid;
	uint32_t port, row;
	char label[128];

	if (tf_get_u64(&reader->in, &guid) || tf_get_u32(&reader->in, &row))
		return -1;
	port = vlr_guid_map_get(&reader->ports, guid);
	if (port == VLR_NONE)
		return tf_in_fail(&reader->in, at, "unknown port GUID 0x%016llx",
				  (unsigned long long)guid);
	tf_port_label(fabric, port, label, sizeof(label));
	if (!vlr_tables_is_source(reader->tables, port))
		return tf_in_fail(&reader->in, at, "port GUID 0x%016llx is %s, which is not a "
				  "linked CA or router port", (unsigned long long)guid, label);
	if (row >= reader->num_rows)
		return tf_in_fail(&reader->in, at + 8, "row %u of %s is not among the %u rows",
				  row, label, reader->num_rows);
	if (reader->port_row[port] != VLR_NONE)
		return tf_in_fail(&reader->in, at, "a second record for %s", label);
	reader->port_row[port] = row;
	return 0;
}

/* At most one row per port that owns LIDs, as the text reader allows. */
static int check_counts(struct reader *reader, const struct tf_compact_header *header)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint32_t port, owners = 0;

	for (port = 0; port < fabric->num_ports; port++)
		owners += tf_port_owns_lids(fabric, port) != 0;
	if (header->count > owners)
		return tf_in_fail(&reader->in, 12, "%u rows, but the fabric has only %u ports "
				  "that own LIDs, so no more than %u rows can be used",
				  header->count, owners, owners);
	if (header->count2 > fabric->num_ports)
		return tf_in_fail(&reader->in, 16, "%u port records, but the fabric has %u "
				  "ports", header->count2, fabric->num_ports);
	reader->num_rows = header->count;
	return 0;
}

static void commit(struct reader *reader)
{
	struct vlr_tables *tables = reader->tables;

	free(tables->sl_rows);
	tables->sl_rows = reader->rows;
	tables->num_sl_rows = reader->num_rows;
	reader->rows = NULL;
	memcpy(tables->port_sl_row, reader->port_row,
	       sizeof(uint32_t) * tables->fabric->num_ports);
}

static int read_all(struct reader *reader)
{
	struct tf_compact_header header;
	uint32_t record;

	if (tf_get_header(&reader->in, TF_COMPACT_PATH_SL, "path SLs",
			  reader->tables->max_lid, &header) ||
	    check_counts(reader, &header) || read_rows(reader))
		return -1;
	for (record = 0; record < header.count2; record++) {
		tf_in_context(&reader->in, "port record %u of %u", record + 1, header.count2);
		if (read_port(reader))
			return -1;
	}
	if (tf_in_check_end(&reader->in))
		return -1;
	commit(reader);
	return 0;
}

int vlr_pathsl_compact_read(struct vlr_tables *tables, const char *path,
			    struct vlr_error *err)
{
	uint32_t ports = tables->fabric->num_ports, port;
	struct reader reader;
	int result = -1;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.port_row = malloc(sizeof(uint32_t) * (ports + 1));
	if (!reader.port_row)
		return vlr_fail(err, "out of memory reading %s", path);
	for (port = 0; port < ports; port++)
		reader.port_row[port] = VLR_NONE;
	if (!tf_index_ports(tables->fabric, &reader.ports, err)) {
		result = tf_in_open(&reader.in, path, err);
		if (!result)
			result = read_all(&reader);
		tf_in_close(&reader.in);
		vlr_guid_map_free(&reader.ports);
	}
	free(reader.rows);
	free(reader.port_row);
	return result;
}
