/*
 * tablefiles_diags.c - reading the LFT dumps of infiniband-diags: what
 * dump_fts prints for every switch and ibroute for one, as admins keep them
 * on disk (dump_fts.out, ibroute.out in a table directory).
 *
 * Both tools print, per switch (rdma-core's dump_fts.c and ibroute.c):
 *   Unicast lids [0xSTART-0xEND] of switch PORTID guid 0x%016llx (NAME):
 *     Lid  Out   Destination
 *          Port     Info
 *   0x%04x %03u : (TYPE portguid 0x%016llx: 'NAME')    one per LID
 *   N valid lids dumped                                 ("N lids dumped" with -a)
 * where PORTID is "Lid L" or "DR path slid S; dlid D; P,P,..." and INFO
 * may also be "(path #I out of K)" (the further LIDs of a port with an
 * LMC), "(unknown node and type)", "(node info not available fabric scan)",
 * "(illegal port)" or "(path #I - illegal port)" (-a: an entry whose port
 * is beyond the switch's, i.e. no route), or nothing (-n). NAME may come
 * from the tools' own node-name map, so switches are known by GUID only.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_lft_internal.h"

struct reader {
	struct vlr_tables *tables;
	struct vlr_lines lines;
	struct vlr_guid_map switches;
	struct vlr_error *err;
	uint8_t *seen;		/* [switch]: block read */
	uint32_t sw;		/* switch of the open block, or VLR_NONE */
	int multicast;		/* inside a "Multicast mlids" block */
	uint32_t first, last;	/* the header's LID range */
	uint32_t entries;	/* LID lines of the open block */
	uint32_t block_line;
	uint32_t blocks;
};

/* The header after "Unicast lids [0x". */
struct header {
	uint32_t first, last;
	uint32_t lid;		/* from "Lid L", VLR_NONE for a directed route */
	uint64_t guid;
};

static const char *switch_name(const struct reader *reader, uint32_t sw)
{
	return vlr_node_name(reader->tables->fabric, reader->tables->switch_node[sw]);
}

static int lex_lid(const char **s, uint32_t *lid)
{
	uint64_t value;

	if (vlr_lex_word(s, "0x") || vlr_lex_hex(s, 8, &value) || value > VLR_MAX_UNICAST_LID)
		return -1;
	*lid = (uint32_t)value;
	return 0;
}

static int parse_header(const char *s, struct header *header)
{
	const char *guid;
	size_t length;

	header->lid = VLR_NONE;
	if (vlr_lex_word(&s, "Unicast lids [") || lex_lid(&s, &header->first) ||
	    vlr_lex_word(&s, "-") || lex_lid(&s, &header->last) ||
	    vlr_lex_word(&s, "] of switch ") || header->first > header->last)
		return -1;
	guid = strstr(s, " guid 0x");
	if (!guid)
		return -1;
	if (!vlr_lex_word(&s, "Lid ") &&
	    (vlr_lex_dec(&s, &header->lid) || *s != ' '))
		return -1;
	s = guid + 8;
	if (vlr_lex_hex(&s, 16, &header->guid) || vlr_lex_word(&s, " ("))
		return -1;
	length = strlen(s);
	return length >= 2 && !strcmp(s + length - 2, "):") ? 0 : -1;
}

static int read_header(struct reader *reader, const char *text)
{
	struct header header;

	if (reader->sw != VLR_NONE)
		return vlr_fail_line(&reader->lines, "switch header before the \"lids "
				     "dumped\" line ending the block of line %u",
				     reader->block_line);
	if (parse_header(text, &header))
		return vlr_fail_line(&reader->lines, "malformed switch header (expected "
				     "\"Unicast lids [0xFIRST-0xLAST] of switch Lid LID guid "
				     "0xGUID (NAME):\", or \"DR path ...\" for \"Lid LID\")");
	if (tf_lft_open_block(reader->tables, &reader->switches, reader->seen,
			      &reader->lines, header.guid, header.lid, &reader->sw))
		return -1;
	reader->first = header.first;
	reader->last = header.last;
	reader->entries = 0;
	reader->block_line = reader->lines.line;
	reader->blocks++;
	return 0;
}

/* INFO after "0xLID PORT": nothing, or ": (...)" with perhaps a portguid. */
static int parse_info(const char *s, struct tf_lid_line *entry)
{
	const char *guid;

	s = vlr_skip_blanks(s);
	if (!*s)
		return 0;
	if (vlr_lex_word(&s, ": (") || s[strlen(s) - 1] != ')')
		return -1;
	guid = strstr(s, "portguid 0x");
	if (!guid)
		return 0;
	guid += 11;
	if (vlr_lex_hex(&guid, 16, &entry->guid) || (*guid != ':' && *guid != ')'))
		return -1;
	entry->has_guid = 1;
	return 0;
}

/* Set the entry, or refuse it; no route for LID 0 and illegal ports. */
static int apply_entry(struct reader *reader, const struct tf_lid_line *entry)
{
	struct vlr_tables *tables = reader->tables;
	unsigned num_ports = tables->fabric->nodes[tables->switch_node[reader->sw]].num_ports;
	uint8_t *lft = vlr_tables_lft(tables, reader->sw);

	if (entry->lid < reader->first || entry->lid > reader->last)
		return vlr_fail_line(&reader->lines, "LID %u is outside the range "
				     "[0x%x-0x%x] of the header of line %u", entry->lid,
				     reader->first, reader->last, reader->block_line);
	if (entry->lid == 0 || entry->port > num_ports)
		return 0;
	if (entry->lid > tables->max_lid)
		return vlr_fail_line(&reader->lines, "LID %u is beyond the tables' "
				     "highest LID %u", entry->lid, tables->max_lid);
	if (lft[entry->lid] != VLR_NO_PORT)
		return vlr_fail_line(&reader->lines, "LID %u is listed twice for switch "
				     "\"%s\"", entry->lid, switch_name(reader, reader->sw));
	if (tf_lft_check_owner(tables, &reader->lines, entry))
		return -1;
	lft[entry->lid] = (uint8_t)entry->port;
	return 0;
}

static int read_lid(struct reader *reader, const char *s)
{
	struct tf_lid_line entry;

	memset(&entry, 0, sizeof(entry));
	if (reader->sw == VLR_NONE)
		return vlr_fail_line(&reader->lines, "LID line outside a switch block (no "
				     "\"Unicast lids\" header opens it)");
	if (lex_lid(&s, &entry.lid) || (*s != ' ' && *s != '\t'))
		return vlr_fail_line(&reader->lines, "malformed LID line (expected "
				     "\"0xLID PORT : (INFO)\")");
	s = vlr_skip_blanks(s);
	if (vlr_lex_dec(&s, &entry.port) || entry.port > 255 ||
	    (*s && *s != ' ' && *s != '\t') || parse_info(s, &entry))
		return vlr_fail_line(&reader->lines, "malformed LID line (expected "
				     "\"0xLID PORT : (INFO)\")");
	reader->entries++;
	return apply_entry(reader, &entry);
}

/* "N valid lids dumped", "N lids dumped", and the same with "mlids". */
static int parse_footer(const char *s, const char *what, uint32_t *count)
{
	if (vlr_lex_dec(&s, count) || vlr_lex_word(&s, " "))
		return -1;
	vlr_lex_word(&s, "valid ");
	return vlr_lex_word(&s, what) || *vlr_skip_blanks(s) ? -1 : 0;
}

static int read_footer(struct reader *reader, uint32_t count)
{
	if (reader->sw == VLR_NONE)
		return vlr_fail_line(&reader->lines, "\"lids dumped\" line outside a "
				     "switch block");
	if (count != reader->entries)
		return vlr_fail_line(&reader->lines, "\"%u lids dumped\", but the block of "
				     "line %u has %u LID lines", count, reader->block_line,
				     reader->entries);
	reader->sw = VLR_NONE;
	return 0;
}

/* Inside a multicast block: skip to its "mlids dumped" line. */
static int read_multicast(struct reader *reader, const char *s)
{
	uint32_t count;

	if (!parse_footer(s, "mlids dumped", &count))
		reader->multicast = 0;
	return 0;
}

/* The column headings under a switch header. */
static int is_heading(const char *s)
{
	return !strncmp(s, "Lid  Out", 8) || !strncmp(s, "Port     Info", 13);
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	const char *s = vlr_skip_blanks(text);
	uint32_t count;

	if (reader->multicast)
		return read_multicast(reader, s);
	if (*s == '\0' || *s == '#')
		return 0;
	if (!strncmp(s, "0x", 2))
		return read_lid(reader, s);
	if (!strncmp(s, "Unicast lids", 12))
		return read_header(reader, s);
	if (!parse_footer(s, "lids dumped", &count))
		return read_footer(reader, count);
	if (reader->sw != VLR_NONE && is_heading(s))
		return 0;
	if (reader->sw == VLR_NONE && !strncmp(s, "Multicast mlids", 15)) {
		reader->multicast = 1;
		return 0;
	}
	return vlr_fail_line(&reader->lines, "unrecognised line (expected a \"Unicast "
			     "lids\" header, its column headings, a \"0xLID PORT\" line "
			     "or \"N valid lids dumped\")");
}

static int read_all(struct reader *reader)
{
	if (vlr_lines_each(&reader->lines, read_line, reader))
		return -1;
	return tf_lft_check_end(reader->tables, &reader->lines, reader->sw,
				reader->block_line, reader->blocks, "unicast switch block "
				"(dump_fts or ibroute output without -M)", reader->err);
}

int vlr_diags_lfts_read(struct vlr_tables *tables, const char *path,
			struct vlr_error *err)
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
	result = tf_index_switches(tables, &reader.switches, err);
	if (!result) {
		result = vlr_lines_open(&reader.lines, path, err);
		if (!result)
			result = read_all(&reader);
		vlr_lines_close(&reader.lines);
		vlr_guid_map_free(&reader.switches);
	}
	free(reader.seen);
	return result;
}
