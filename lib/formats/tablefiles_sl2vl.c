/*
 * tablefiles_sl2vl.c - the SL2VL tables as OpenSM's opensm-sl2vl.dump:
 * writing it byte for byte as OpenSM does and reading it back strictly.
 *
 * One block per port in OpenSM's GUID order, switches by their port 0:
 *   Switch 0x%016llx, base LID %d, "DESC"
 *   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15
 *   #--------------------------------------------------------
 *   %-3d %-3d : then " %-2d" for each of the 16 SLs
 *   #--------------------------------------------------------
 *   (blank line)
 * A switch has a row for every linked out port (port 0 and unlinked ports
 * have none) and every in port 0..N, out port by out port; a "Channel
 * Adapter" or "Router" port has the single row "0   0   :".
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tablefiles_internal.h"

static const char header_line[] =
	"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15";
static const char separator_line[] =
	"#--------------------------------------------------------";

/* ---- writing ------------------------------------------------------------ */

/* value left-aligned in a field of width characters, as "%-Nd". */
static char *put_left(char *at, unsigned value, unsigned width)
{
	char *start = at;

	at = tf_put_dec(at, value, 1);
	while ((unsigned)(at - start) < width)
		*at++ = ' ';
	return at;
}

static void write_row(struct tf_out *out, unsigned in, unsigned out_port,
		      const uint8_t *vls)
{
	char *at = tf_out_reserve(out, 128);
	unsigned sl;

	at = put_left(at, in, 3);
	*at++ = ' ';
	at = put_left(at, out_port, 3);
	*at++ = ' ';
	*at++ = ':';
	for (sl = 0; sl < VLR_NUM_SLS; sl++) {
		*at++ = ' ';
		at = put_left(at, vls[sl], 2);
	}
	*at++ = '\n';
	out->used = (size_t)(at - out->buf);
}

static void write_block(const struct vlr_tables *tables, uint32_t port,
			struct tf_out *out)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = fabric->ports[port].node;
	unsigned num_ports = fabric->nodes[node].num_ports, in, out_port;

	tf_out_printf(out, "%s 0x%016llx, base LID %d, \"%s\"\n%s\n%s\n",
		      tf_opensm_type_name(fabric->nodes[node].type),
		      (unsigned long long)tf_port_guid(fabric, port),
		      fabric->ports[port].lid, vlr_node_description(fabric, node),
		      header_line, separator_line);
	if (vlr_node_is_switch(fabric, node)) {
		uint32_t sw = tables->switch_of_node[node];

		for (out_port = 1; out_port <= num_ports; out_port++) {
			if (vlr_port_at(fabric, node, out_port)->peer == VLR_NONE)
				continue;
			for (in = 0; in <= num_ports; in++)
				write_row(out, in, out_port,
					  vlr_tables_sl2vl(tables, sw, in, out_port));
		}
	} else {
		write_row(out, 0, 0, vlr_tables_port_sl2vl(tables, port));
	}
	tf_out_printf(out, "%s\n\n", separator_line);
}

static int check_vls(const uint8_t *vls, const struct vlr_fabric *fabric, uint32_t port,
		     unsigned in, unsigned out, struct vlr_error *err)
{
	char label[128];
	unsigned sl;

	for (sl = 0; sl < VLR_NUM_SLS; sl++) {
		if (vls[sl] < VLR_NUM_SLS)
			continue;
		tf_port_label(fabric, port, label, sizeof(label));
		return vlr_fail(err, "the SL2VL table of %s maps SL %u from in port %u to "
				"out port %u to VL %u (VLs are 0..15)", label, sl, in, out,
				vls[sl]);
	}
	return 0;
}

/* Every VL the dump would hold is 0..15. */
static int check_block(const struct vlr_tables *tables, uint32_t port,
		       struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = fabric->ports[port].node;
	unsigned num_ports = fabric->nodes[node].num_ports, in, out;

	if (!vlr_node_is_switch(fabric, node))
		return check_vls(vlr_tables_port_sl2vl(tables, port), fabric, port, 0, 0, err);
	for (out = 1; out <= num_ports; out++) {
		if (vlr_port_at(fabric, node, out)->peer == VLR_NONE)
			continue;
		for (in = 0; in <= num_ports; in++)
			if (check_vls(vlr_tables_sl2vl(tables, tables->switch_of_node[node],
						       in, out), fabric, port, in, out, err))
				return -1;
	}
	return 0;
}

/* The ports OpenSM lists: switch port 0s and linked endpoint ports. */
static uint32_t listed_ports(const struct vlr_fabric *fabric, uint32_t *ports,
			     uint64_t *guids)
{
	uint32_t port, count = 0;

	for (port = 0; port < fabric->num_ports; port++) {
		if (!tf_port_owns_lids(fabric, port))
			continue;
		ports[count] = port;
		guids[count++] = tf_port_guid(fabric, port);
	}
	return count;
}

int vlr_sl2vl_write(const struct vlr_tables *tables, FILE *stream, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t *ports = malloc(sizeof(uint32_t) * (fabric->num_ports + 1));
	uint64_t *guids = malloc(sizeof(uint64_t) * (fabric->num_ports + 1));
	uint32_t *order = NULL, count = 0, i;
	struct tf_out *out = NULL;
	int result = -1;

	if (!ports || !guids) {
		vlr_fail(err, "out of memory for the SL2VL dump");
		goto done;
	}
	count = listed_ports(fabric, ports, guids);
	for (i = 0; i < count; i++)
		if (check_block(tables, ports[i], err))
			goto done;
	order = tf_wire_order(guids, count, err);
	if (!order)
		goto done;
	out = tf_out_new(stream, err);
	if (!out)
		goto done;
	for (i = 0; i < count; i++)
		write_block(tables, ports[order[i]], out);
	result = tf_out_finish(out, "SL2VL dump", err);
done:
	free(out);
	free(order);
	free(ports);
	free(guids);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

enum state {
	BETWEEN,		/* expecting a port line */
	EXPECT_HEADER,		/* "#in out : ..." */
	EXPECT_SEPARATOR,	/* the first "#----" */
	IN_ROWS,		/* rows until the closing "#----" */
};

struct reader {
	struct vlr_tables *tables;
	struct vlr_lines lines;
	struct vlr_guid_map ports;
	struct vlr_error *err;
	uint8_t *seen;		/* [port slot]: block read */
	uint32_t port;		/* port of the open block */
	uint32_t block_line;
	enum state state;
};

/* "TYPE 0xGUID, base LID N, \"DESC\"": the type, the GUID, the LID. */
static int parse_port_line(const char *s, int *type, uint64_t *guid, uint32_t *lid)
{
	static const int types[] = { VLR_NODE_SWITCH, VLR_NODE_CA, VLR_NODE_ROUTER };
	unsigned i;

	*type = 0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]) && !*type; i++)
		if (!vlr_lex_word(&s, tf_opensm_type_name(types[i])))
			*type = types[i];
	if (!*type || vlr_lex_word(&s, " 0x") || vlr_lex_hex(&s, 16, guid) ||
	    vlr_lex_word(&s, ", base LID ") || vlr_lex_dec(&s, lid) ||
	    vlr_lex_word(&s, ", \"") || !strchr(s, '"'))
		return -1;
	return 0;
}

static int open_block(struct reader *reader, const char *text)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint32_t lid, port, node;
	uint64_t guid;
	char label[128];
	int type;

	if (parse_port_line(text, &type, &guid, &lid))
		return vlr_fail_line(&reader->lines,
				     "expected a port line: \"Switch|Channel Adapter|"
				     "Router 0xGUID, base LID N, \\\"DESC\\\"\"");
	port = vlr_guid_map_get(&reader->ports, guid);
	if (port == VLR_NONE)
		return vlr_fail_line(&reader->lines, "unknown port GUID 0x%016llx",
				     (unsigned long long)guid);
	node = fabric->ports[port].node;
	tf_port_label(fabric, port, label, sizeof(label));
	if (fabric->nodes[node].type != type)
		return vlr_fail_line(&reader->lines, "port GUID 0x%016llx is %s, a %s, not a %s",
				     (unsigned long long)guid, label,
				     tf_opensm_type_name(fabric->nodes[node].type),
				     tf_opensm_type_name(type));
	if (type != VLR_NODE_SWITCH && fabric->ports[port].peer == VLR_NONE)
		return vlr_fail_line(&reader->lines, "%s (GUID 0x%016llx) is not linked", label,
				     (unsigned long long)guid);
	if (lid != fabric->ports[port].lid)
		return vlr_fail_line(&reader->lines,
				     "%s has LID %u here but LID %u in the tables",
				     label, lid, fabric->ports[port].lid);
	if (reader->seen[port])
		return vlr_fail_line(&reader->lines,
				     "second block for %s (GUID 0x%016llx)", label,
				     (unsigned long long)guid);
	reader->seen[port] = 1;
	reader->port = port;
	reader->block_line = reader->lines.line;
	reader->state = EXPECT_HEADER;
	return 0;
}

/* "IN OUT : VL x 16" */
static int parse_row(struct reader *reader, const char *s, uint32_t *in, uint32_t *out,
		     uint8_t *vls)
{
	uint32_t vl;
	unsigned count = 0;

	if (vlr_lex_dec(&s, in) || *(s = vlr_skip_blanks(s)) == '\0' ||
	    vlr_lex_dec(&s, out) || *(s = vlr_skip_blanks(s)) != ':')
		return vlr_fail_line(&reader->lines,
				     "malformed row (expected \"IN OUT : VL VL ... "
				     "VL\" with 16 VLs)");
	s = vlr_skip_blanks(s + 1);
	while (*s) {
		if (vlr_lex_dec(&s, &vl) || (*s != ' ' && *s != '\t' && *s != '\0'))
			return vlr_fail_line(&reader->lines,
					     "malformed VL in the row (expected decimal "
					     "numbers 0..15)");
		if (vl > 15)
			return vlr_fail_line(&reader->lines, "VL %u is out of range 0..15", vl);
		if (count == VLR_NUM_SLS)
			return vlr_fail_line(&reader->lines,
					     "more than %d VLs in the row", VLR_NUM_SLS);
		vls[count++] = (uint8_t)vl;
		s = vlr_skip_blanks(s);
	}
	if (count < VLR_NUM_SLS)
		return vlr_fail_line(&reader->lines,
				     "short row: %u VLs, expected %d", count, VLR_NUM_SLS);
	return 0;
}

static int read_row(struct reader *reader, const char *text)
{
	struct vlr_tables *tables = reader->tables;
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = fabric->ports[reader->port].node, in, out;
	unsigned num_ports = fabric->nodes[node].num_ports;
	uint8_t vls[VLR_NUM_SLS];

	if (parse_row(reader, text, &in, &out, vls))
		return -1;
	if (!vlr_node_is_switch(fabric, node)) {
		if (in || out)
			return vlr_fail_line(&reader->lines,
					     "the row of an endpoint port is \"0 0\", "
					     "not \"%u %u\"", in, out);
		memcpy(vlr_tables_port_sl2vl(tables, reader->port), vls, VLR_NUM_SLS);
		return 0;
	}
	if (in > num_ports || out > num_ports)
		return vlr_fail_line(&reader->lines,
				     "port %u is beyond the %u ports of switch \"%s\"",
				     in > num_ports ? in : out, num_ports,
				     vlr_node_name(fabric, node));
	memcpy(vlr_tables_sl2vl(tables, tables->switch_of_node[node], in, out), vls,
	       VLR_NUM_SLS);
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	switch (reader->state) {
	case BETWEEN:
		if (*vlr_skip_blanks(text) == '\0')
			return 0;
		return open_block(reader, text);
	case EXPECT_HEADER:
		if (strcmp(text, header_line))
			return vlr_fail_line(&reader->lines,
					     "expected the header \"%s\"", header_line);
		reader->state = EXPECT_SEPARATOR;
		return 0;
	case EXPECT_SEPARATOR:
		if (strcmp(text, separator_line))
			return vlr_fail_line(&reader->lines, "expected the separator \"%s\"",
					     separator_line);
		reader->state = IN_ROWS;
		return 0;
	case IN_ROWS:
		break;
	}
	if (!strcmp(text, separator_line)) {
		reader->state = BETWEEN;
		return 0;
	}
	return read_row(reader, text);
}

static int read_all(struct reader *reader)
{
	if (vlr_lines_each(&reader->lines, read_line, reader))
		return -1;
	if (reader->state != BETWEEN)
		return vlr_fail_at(reader->err, reader->lines.path, reader->block_line,
				   "the file ends inside this block: truncated?");
	return 0;
}

int vlr_sl2vl_read(struct vlr_tables *tables, const char *path, struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.err = err;
	reader.state = BETWEEN;
	reader.seen = calloc(tables->fabric->num_ports + 1, 1);
	if (!reader.seen)
		return vlr_fail(err, "out of memory reading %s", path);
	if (tf_index_ports(tables->fabric, &reader.ports, err)) {
		free(reader.seen);
		return -1;
	}
	result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = read_all(&reader);
	vlr_lines_close(&reader.lines);
	vlr_guid_map_free(&reader.ports);
	free(reader.seen);
	return result;
}
