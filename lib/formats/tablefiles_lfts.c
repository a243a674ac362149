/*
 * tablefiles_lfts.c - every switch's linear forwarding table as OpenSM's
 * opensm-lfts.dump: writing it byte for byte as OpenSM does and reading it
 * back strictly.
 *
 * The layout, per switch in OpenSM's GUID order:
 *   Unicast lids [0-MAXLID] of switch Lid L guid 0x%016llx ('DESC'):
 *   0x%04x %03u # TYPE portguid 0x%016llx: 'DESC'   one per routed LID
 *   MAXLID lids dumped
 * where TYPE is "Switch", "Channel Adapter" or "Router", and the comment
 * is "unknown node and type" for a LID no port owns. The port is decimal
 * despite its leading zeros (OpenSM reads it with base 10).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tablefiles_lft_internal.h"

/* ---- writing ------------------------------------------------------------ */

static void write_switch(const struct vlr_tables *tables, uint32_t sw,
			 const struct tf_lid_tails *tails, struct tf_out *out)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = tables->switch_node[sw];
	unsigned num_ports = fabric->nodes[node].num_ports;
	const uint8_t *lft = vlr_tables_lft(tables, sw);
	uint32_t lid;

	tf_out_printf(out, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n",
		      tables->max_lid, vlr_port_at(fabric, node, 0)->lid,
		      (unsigned long long)fabric->nodes[node].guid,
		      vlr_node_description(fabric, node));
	for (lid = 0; lid <= tables->max_lid; lid++) {
		size_t tail = tails->offset[lid + 1] - tails->offset[lid];
		char *at;

		if (lft[lid] > num_ports)
			continue;
		at = tf_out_reserve(out, 11 + tail);
		*at++ = '0';
		*at++ = 'x';
		at = tf_put_hex(at, lid, 4);
		*at++ = ' ';
		at = tf_put_dec(at, lft[lid], 3);
		memcpy(at, tails->text + tails->offset[lid], tail);
		out->used = (size_t)(at + tail - out->buf);
	}
	tf_out_printf(out, "%u lids dumped\n", tables->max_lid);
}

int vlr_lfts_write(const struct vlr_tables *tables, FILE *stream, struct vlr_error *err)
{
	struct tf_lid_tails tails = { NULL, NULL };
	uint64_t *guids = malloc(sizeof(uint64_t) * (tables->num_switches + 1));
	uint32_t *order = NULL, i;
	struct tf_out *out = NULL;
	int result = -1;

	if (!guids) {
		vlr_fail(err, "out of memory for the LFT dump");
		goto done;
	}
	for (i = 0; i < tables->num_switches; i++)
		guids[i] = tables->fabric->nodes[tables->switch_node[i]].guid;
	order = tf_wire_order(guids, tables->num_switches, err);
	if (!order || tf_lid_tails_build(tables, &tails, err))
		goto done;
	out = tf_out_new(stream, err);
	if (!out)
		goto done;
	for (i = 0; i < tables->num_switches; i++)
		write_switch(tables, order[i], &tails, out);
	result = tf_out_finish(out, "LFT dump", err);
done:
	free(out);
	tf_lid_tails_free(&tails);
	free(order);
	free(guids);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_tables *tables;
	struct vlr_lines lines;
	struct vlr_guid_map switches;
	struct tf_lid_tails tails;	/* what the writer puts after each LID's port */
	struct vlr_error *err;
	uint8_t *seen;		/* [switch]: block read */
	uint32_t sw;		/* switch of the open block, or VLR_NONE */
	uint32_t block_max;	/* MAXLID of its header */
	uint32_t block_line;
	uint32_t blocks;
};

static const char *switch_name(const struct reader *reader, uint32_t sw)
{
	return vlr_node_name(reader->tables->fabric, reader->tables->switch_node[sw]);
}

static int read_header(struct reader *reader, const char *text)
{
	const char *problem;
	struct tf_lft_header header;

	if (reader->sw != VLR_NONE)
		return vlr_fail_line(&reader->lines,
				     "switch header before the \"lids dumped\" line "
				     "ending the block of line %u", reader->block_line);
	if (!strncmp(text, "Unicast lids [0x", 16))
		return vlr_fail_line(&reader->lines,
				     "this is infiniband-diags output (dump_fts or ibroute), "
				     "not OpenSM's LFT dump: name it %s or %s",
				     VLR_FILE_DUMP_FTS, VLR_FILE_IBROUTE);
	if (tf_lft_parse_header(text, &header, &problem))
		return vlr_fail_line(&reader->lines, "%s", problem);
	if (tf_lft_open_block(reader->tables, &reader->switches, reader->seen,
			      &reader->lines, header.guid, header.lid, &reader->sw))
		return -1;
	reader->block_max = header.max_lid;
	reader->block_line = reader->lines.line;
	reader->blocks++;
	return 0;
}

/* Is rest exactly the comment this writer puts after the LID's port? */
static int is_own_tail(const struct reader *reader, uint32_t lid, const char *rest)
{
	const struct tf_lid_tails *tails = &reader->tails;
	size_t length = tails->offset[lid + 1] - tails->offset[lid] - 1;

	return !strncmp(rest, tails->text + tails->offset[lid], length) && !rest[length];
}

static int read_lid(struct reader *reader, const char *text)
{
	struct vlr_tables *tables = reader->tables;
	const char *problem, *rest;
	struct tf_lid_line entry;
	unsigned num_ports;
	uint8_t *lft;

	if (reader->sw == VLR_NONE)
		return vlr_fail_line(&reader->lines,
				     "LID line outside a switch block (no \"Unicast "
				     "lids\" header opens it)");
	if (tf_lft_parse_lid_head(text, &entry, &rest, &problem))
		return vlr_fail_line(&reader->lines, "%s", problem);
	if (entry.lid > tables->max_lid)
		return vlr_fail_line(&reader->lines,
				     "LID %u is beyond the tables' highest LID %u",
				     entry.lid, tables->max_lid);
	if (!is_own_tail(reader, entry.lid, rest) &&
	    (tf_lft_parse_lid_tail(rest, &entry, &problem) ? vlr_fail_line(&reader->lines,
									   "%s", problem) :
	     tf_lft_check_owner(reader->tables, &reader->lines, &entry)))
		return -1;
	num_ports = tables->fabric->nodes[tables->switch_node[reader->sw]].num_ports;
	if (entry.port > num_ports)
		return vlr_fail_line(&reader->lines,
				     "port %u is beyond the %u ports of switch \"%s\"",
				     entry.port, num_ports, switch_name(reader, reader->sw));
	lft = vlr_tables_lft(tables, reader->sw);
	if (lft[entry.lid] != VLR_NO_PORT)
		return vlr_fail_line(&reader->lines, "LID %u is listed twice for switch \"%s\"",
				     entry.lid, switch_name(reader, reader->sw));
	lft[entry.lid] = (uint8_t)entry.port;
	return 0;
}

/* "N lids dumped" closes the block. */
static int read_footer(struct reader *reader, uint32_t count)
{
	if (reader->sw == VLR_NONE)
		return vlr_fail_line(&reader->lines,
				     "\"lids dumped\" line outside a switch block");
	if (count != reader->block_max)
		return vlr_fail_line(&reader->lines,
				     "\"%u lids dumped\", but the header of line %u says "
				     "[0-%u]", count, reader->block_line, reader->block_max);
	reader->sw = VLR_NONE;
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	uint32_t count = 0;

	switch (tf_lft_classify(&text, &count)) {
	case TF_LFT_SKIP:
		return 0;
	case TF_LFT_HEADER:
		return read_header(reader, text);
	case TF_LFT_LID:
		return read_lid(reader, text);
	case TF_LFT_FOOTER:
		return read_footer(reader, count);
	case TF_LFT_OTHER:
		break;
	}
	if (!strncmp(text, "Multicast mlids", 15))
		return vlr_fail_line(&reader->lines,
				     "this is a multicast (MFT) dump, not an LFT dump");
	return vlr_fail_line(&reader->lines,
			     "unrecognised line (expected a \"Unicast lids\" header, "
			     "a \"0xLID PORT\" line or \"N lids dumped\")");
}

static int read_all(struct reader *reader)
{
	if (vlr_lines_each(&reader->lines, read_line, reader))
		return -1;
	return tf_lft_check_end(reader->tables, &reader->lines, reader->sw,
				reader->block_line, reader->blocks, "switch block", reader->err);
}

int vlr_lfts_read(struct vlr_tables *tables, const char *path, struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.err = err;
	reader.sw = VLR_NONE;
	reader.seen = calloc(tables->num_switches + 1, 1);
	if (!reader.seen)
		return vlr_fail(err, "out of memory reading %s", path);
	if (tf_index_switches(tables, &reader.switches, err)) {
		free(reader.seen);
		return -1;
	}
	result = tf_lid_tails_build(tables, &reader.tails, err);
	if (!result)
		result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = read_all(&reader);
	vlr_lines_close(&reader.lines);
	vlr_guid_map_free(&reader.switches);
	tf_lid_tails_free(&reader.tails);
	free(reader.seen);
	return result;
}
