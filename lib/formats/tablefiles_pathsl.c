/*
 * tablefiles_pathsl.c - the path SLs as vlroute-path-sl.dump, our own
 * format (OpenSM writes no path-SL table), described in vlroute-pathsl(5):
 *
 *   # comments
 *   vlroute-pathsl 1
 *   lids FIRST LAST
 *   row N SLS          N = 0, 1, 2, ... in order
 *   port 0xGUID N      the row the source port GUID uses
 *
 * SLS is one hex digit per DLID FIRST..LAST; "D*K" stands for K copies of
 * digit D and is followed by a comma when the next digit is 0-9 (which
 * would otherwise read as part of K). The writer uses runs for K >= 4.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "tablefiles_internal.h"

#define FORMAT_NAME "vlroute-pathsl"
#define FORMAT_VERSION 1
#define MIN_RUN 4

/* ---- writing ------------------------------------------------------------ */

static void write_row(struct tf_out *out, uint32_t number, const uint8_t *sls,
		      uint32_t first, uint32_t last)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t lid = first, run;
	char *at;

	tf_out_printf(out, "row %u ", number);
	while (lid <= last) {
		for (run = 1; lid + run <= last && sls[lid + run] == sls[lid]; run++)
			;
		at = tf_out_reserve(out, 16);
		if (run >= MIN_RUN) {
			*at++ = hex[sls[lid]];
			*at++ = '*';
			at = tf_put_dec(at, run, 1);
			if (lid + run <= last && sls[lid + run] < 10)
				*at++ = ',';
		} else {
			memset(at, hex[sls[lid]], run);
			at += run;
		}
		out->used = (size_t)(at - out->buf);
		lid += run;
	}
	tf_out_text(out, "\n", 1);
}

static int write_ports(const struct vlr_tables *tables, struct tf_out *out,
		       struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t port;
	char label[128];

	for (port = 0; port < fabric->num_ports; port++) {
		uint32_t row = tables->port_sl_row[port];

		if (row == VLR_NONE || !vlr_tables_is_source(tables, port))
			continue;
		if (row >= tables->num_sl_rows || !fabric->ports[port].guid) {
			tf_port_label(fabric, port, label, sizeof(label));
			if (row >= tables->num_sl_rows)
				return vlr_fail(err, "%s uses SL row %u of %u", label, row,
						tables->num_sl_rows);
			return vlr_fail(err, "%s has no GUID to file its SL row under", label);
		}
		tf_out_printf(out, "port 0x%016llx %u\n",
			      (unsigned long long)fabric->ports[port].guid, row);
	}
	return 0;
}

int vlr_pathsl_write(const struct vlr_tables *tables, FILE *stream, struct vlr_error *err)
{
	struct tf_out *out;
	uint32_t row;
	int result;

	if (tf_check_sls(tables, err) || !(out = tf_out_new(stream, err)))
		return -1;
	tf_out_printf(out, "# Path SLs: the SL of every (source port, DLID); see "
		      "vlroute-pathsl(5).\n# %u rows of SLs for DLIDs 1..%u, "
		      "then the row of each source port.\n%s %d\nlids 1 %u\n",
		      tables->num_sl_rows, tables->max_lid, FORMAT_NAME, FORMAT_VERSION,
		      tables->max_lid);
	for (row = 0; row < tables->num_sl_rows; row++)
		write_row(out, row, vlr_tables_sl_row(tables, row), 1, tables->max_lid);
	result = write_ports(tables, out, err);
	if (!result)
		result = tf_out_finish(out, "path-SL dump", err);
	free(out);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_tables *tables;
	struct vlr_lines lines;
	struct vlr_guid_map ports;
	struct vlr_error *err;
	int has_version;
	int has_lids;
	uint32_t first, last;
	uint8_t *rows;		/* num_rows rows of lid_stride SLs */
	uint32_t num_rows, rows_capacity;
	uint32_t max_rows;	/* ports that own LIDs: no more rows can be used */
	uint32_t *port_row;	/* [port slot]: row, VLR_NONE */
	uint32_t *port_line;	/* [port slot]: line of its port line */
};

static int sl_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_version(struct reader *reader, const char *s)
{
	uint32_t version;

	if (vlr_lex_word(&s, FORMAT_NAME " ") || vlr_lex_dec(&s, &version) ||
	    *vlr_skip_blanks(s))
		return vlr_fail_line(&reader->lines,
				     "expected \"%s %d\" first: this is not a path-SL "
				     "dump", FORMAT_NAME, FORMAT_VERSION);
	if (version != FORMAT_VERSION)
		return vlr_fail_line(&reader->lines,
				     "%s version %u: this reader knows version %d",
				     FORMAT_NAME, version, FORMAT_VERSION);
	reader->has_version = 1;
	return 0;
}

static int read_lids(struct reader *reader, const char *s)
{
	if (reader->has_lids)
		return vlr_fail_line(&reader->lines, "a second \"lids\" line");
	if (vlr_lex_dec(&s, &reader->first) || (*s != ' ' && *s != '\t'))
		return vlr_fail_line(&reader->lines, "expected \"lids FIRST LAST\"");
	s = vlr_skip_blanks(s);
	if (vlr_lex_dec(&s, &reader->last) || *vlr_skip_blanks(s))
		return vlr_fail_line(&reader->lines, "expected \"lids FIRST LAST\"");
	if (!reader->first || reader->first > reader->last)
		return vlr_fail_line(&reader->lines,
				     "LIDs %u..%u are not a range of unicast LIDs",
				     reader->first, reader->last);
	if (reader->last > reader->tables->max_lid)
		return vlr_fail_line(&reader->lines,
				     "LID %u is beyond the tables' highest LID %u",
				     reader->last, reader->tables->max_lid);
	reader->has_lids = 1;
	return 0;
}

/* The SLs of one row into sls[first..last]. */
static int parse_sls(struct reader *reader, const char *s, uint8_t *sls)
{
	uint32_t lid = reader->first, count, wanted = reader->last - reader->first + 1;
	int sl;

	while (*s && *s != ' ' && *s != '\t') {
		if ((sl = sl_digit(*s)) < 0)
			return vlr_fail_line(&reader->lines,
					     "'%c' after %u SLs is not an SL (one hex "
					     "digit 0-f, or D*COUNT)", *s, lid - reader->first);
		count = 1;
		if (*++s == '*') {
			s++;
			if (vlr_lex_dec(&s, &count) || !count)
				return vlr_fail_line(&reader->lines,
						     "expected a count 1.. after '%c*'",
						     "0123456789abcdef"[sl]);
			s += *s == ',';
		}
		if (count > reader->last + 1 - lid)
			return vlr_fail_line(&reader->lines,
					     "more than the %u SLs of LIDs %u..%u", wanted,
					     reader->first, reader->last);
		memset(sls + lid, sl, count);
		lid += count;
	}
	if (*vlr_skip_blanks(s))
		return vlr_fail_line(&reader->lines, "unexpected text after the SLs");
	if (lid != reader->last + 1)
		return vlr_fail_line(&reader->lines,
				     "%u SLs, but LIDs %u..%u need %u", lid - reader->first,
				     reader->first, reader->last, wanted);
	return 0;
}

static int read_row(struct reader *reader, const char *s)
{
	uint32_t stride = reader->tables->lid_stride, number;
	uint8_t *sls;

	if (vlr_lex_dec(&s, &number) || (*s != ' ' && *s != '\t'))
		return vlr_fail_line(&reader->lines, "expected \"row N SLS\"");
	if (number != reader->num_rows)
		return vlr_fail_line(&reader->lines,
				     "row %u where row %u comes next (rows are numbered "
				     "0, 1, 2, ... in order)", number, reader->num_rows);
	if (number >= reader->max_rows)
		return vlr_fail_line(&reader->lines,
				     "row %u, but the fabric has only %u ports that own LIDs, "
				     "so no more than %u rows can be used", number,
				     reader->max_rows, reader->max_rows);
	if (vlr_array_grow((void **)&reader->rows, &reader->rows_capacity,
			   reader->num_rows + 1, stride, reader->err))
		return -1;
	sls = reader->rows + (uint64_t)reader->num_rows * stride;
	memset(sls, 0, stride);
	if (parse_sls(reader, vlr_skip_blanks(s), sls))
		return -1;
	reader->num_rows++;
	return 0;
}

static int read_port(struct reader *reader, const char *s)
{
	const struct vlr_fabric *fabric = reader->tables->fabric;
	uint32_t row, port;
	uint64_t guid;
	char label[128];

	if (vlr_lex_word(&s, "0x") || vlr_lex_hex(&s, 16, &guid) || (*s != ' ' && *s != '\t'))
		return vlr_fail_line(&reader->lines, "expected \"port 0xGUID ROW\"");
	s = vlr_skip_blanks(s);
	if (vlr_lex_dec(&s, &row) || *vlr_skip_blanks(s))
		return vlr_fail_line(&reader->lines, "expected \"port 0xGUID ROW\"");
	port = vlr_guid_map_get(&reader->ports, guid);
	if (port == VLR_NONE)
		return vlr_fail_line(&reader->lines, "unknown port GUID 0x%016llx",
				     (unsigned long long)guid);
	tf_port_label(fabric, port, label, sizeof(label));
	if (!vlr_tables_is_source(reader->tables, port))
		return vlr_fail_line(&reader->lines,
				     "port GUID 0x%016llx is %s, which is not a linked "
				     "CA or router port", (unsigned long long)guid, label);
	if (row >= reader->num_rows)
		return vlr_fail_line(&reader->lines,
				     "row %u is not defined (%u rows precede this line)",
				     row, reader->num_rows);
	if (reader->port_line[port])
		return vlr_fail_line(&reader->lines,
				     "second port line for %s (first at line %u)", label,
				     reader->port_line[port]);
	reader->port_row[port] = row;
	reader->port_line[port] = reader->lines.line;
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	const char *s = vlr_skip_blanks(text);

	if (*s == '\0' || *s == '#')
		return 0;
	if (!reader->has_version)
		return read_version(reader, s);
	if (!vlr_lex_word(&s, "lids "))
		return read_lids(reader, vlr_skip_blanks(s));
	if (!reader->has_lids)
		return vlr_fail_line(&reader->lines,
				     "expected \"lids FIRST LAST\" before the rows");
	if (!vlr_lex_word(&s, "row "))
		return read_row(reader, vlr_skip_blanks(s));
	if (!vlr_lex_word(&s, "port "))
		return read_port(reader, vlr_skip_blanks(s));
	return vlr_fail_line(&reader->lines,
			     "unrecognised line (expected \"row N SLS\" or \"port "
			     "0xGUID ROW\")");
}

/* Replace the tables' path SLs with what was read. */
static int commit(struct reader *reader)
{
	struct vlr_tables *tables = reader->tables;

	if (vlr_tables_alloc_sl_rows(tables, reader->num_rows, reader->err))
		return -1;
	if (reader->num_rows)
		memcpy(tables->sl_rows, reader->rows,
		       (uint64_t)reader->num_rows * tables->lid_stride);
	memcpy(tables->port_sl_row, reader->port_row,
	       sizeof(uint32_t) * tables->fabric->num_ports);
	return 0;
}

static int read_all(struct reader *reader)
{
	if (vlr_lines_each(&reader->lines, read_line, reader))
		return -1;
	if (!reader->has_lids)
		return vlr_fail(reader->err, "%s: no \"%s %d\" and \"lids FIRST LAST\" lines: "
				"not a path-SL dump", reader->lines.path, FORMAT_NAME,
				FORMAT_VERSION);
	return commit(reader);
}

int vlr_pathsl_read(struct vlr_tables *tables, const char *path, struct vlr_error *err)
{
	uint32_t ports = tables->fabric->num_ports, port;
	struct reader reader;
	int result = -1;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.err = err;
	reader.port_row = malloc(sizeof(uint32_t) * (ports + 1));
	reader.port_line = calloc(ports + 1, sizeof(uint32_t));
	if (!reader.port_row || !reader.port_line) {
		vlr_fail(err, "out of memory reading %s", path);
		goto done;
	}
	for (port = 0; port < ports; port++) {
		reader.port_row[port] = VLR_NONE;
		reader.max_rows += tf_port_owns_lids(tables->fabric, port) != 0;
	}
	if (tf_index_ports(tables->fabric, &reader.ports, err))
		goto done;
	result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = read_all(&reader);
	vlr_lines_close(&reader.lines);
	vlr_guid_map_free(&reader.ports);
done:
	free(reader.rows);
	free(reader.port_row);
	free(reader.port_line);
	return result;
}
