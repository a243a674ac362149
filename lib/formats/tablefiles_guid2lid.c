/*
 * tablefiles_guid2lid.c - LIDs as OpenSM's guid2lid cache file.
 *
 * OpenSM keeps it as a key/value database: an entry is a line starting in
 * the first column with the key, the rest of the line its value, and ends
 * at the next empty line. For guid2lid the key is the port GUID exactly as
 * "0x%016llx" (OpenSM looks entries up by that string, so any other
 * spelling is never found) and the value "0x%04x 0x%04x": the port's
 * first and last LID, 2^LMC of them. OpenSM writes the entries in hash
 * order, each followed by an empty line; we write them in port order.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tablefiles_internal.h"

/* ---- writing ------------------------------------------------------------ */

int vlr_guid2lid_write(const struct vlr_fabric *fabric, FILE *stream,
		       struct vlr_error *err)
{
	struct tf_out *out = tf_out_new(stream, err);
	uint32_t port;
	int result;

	if (!out)
		return -1;
	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *record = &fabric->ports[port];
		uint64_t guid = tf_port_guid(fabric, port);
		char label[128];

		if (!record->lid || !tf_port_owns_lids(fabric, port))
			continue;
		if (!guid) {
			free(out);
			tf_port_label(fabric, port, label, sizeof(label));
			return vlr_fail(err, "%s has a LID but no GUID to file it under",
					label);
		}
		tf_out_printf(out, "0x%016llx 0x%04x 0x%04x\n\n", (unsigned long long)guid,
			      record->lid, record->lid + (1u << record->lmc) - 1);
	}
	result = tf_out_finish(out, "guid2lid file", err);
	free(out);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_fabric *fabric;
	struct vlr_guid2lid_notes *notes;
	struct vlr_lines lines;
	struct vlr_guid_map ports;
	uint32_t *entry_line;	/* [port slot]: line of its entry, 0 if none */
	struct vlr_error *err;
	int in_entry;		/* the last line was an entry: an empty line ends it */
};

/* A LID as OpenSM's strtoul(.., 0) reads it: 0x hex, 0 octal or decimal. */
static int lex_lid(const char **s, uint32_t *lid)
{
	uint64_t value;

	if (vlr_lex_number(s, 0, 0xffff, &value))
		return -1;
	*lid = (uint32_t)value;
	return 0;
}

/* "0xGUID FIRST LAST" */
static int parse_entry(struct reader *reader, const char *s, uint64_t *guid,
		       uint32_t *first, uint32_t *last)
{
	const char *key = s;

	if (vlr_lex_word(&s, "0x") || vlr_lex_hex(&s, 16, guid) || s - key != 18 ||
	    (*s != ' ' && *s != '\t'))
		return vlr_fail_line(&reader->lines,
				     "expected \"0x\" and 16 hex digits of a port GUID "
				     "(OpenSM finds entries only in that spelling), then "
				     "the first and last LID");
	if (strpbrk(key, "ABCDEF") && strpbrk(key, "ABCDEF") < s)
		return vlr_fail_line(&reader->lines,
				     "upper-case hex digits in the GUID: OpenSM finds "
				     "entries only as \"0x%%016llx\" spells them");
	s = vlr_skip_blanks(s);
	if (lex_lid(&s, first) || (*s != ' ' && *s != '\t' && *s != '\0'))
		return vlr_fail_line(&reader->lines, "expected the first LID after the GUID");
	s = vlr_skip_blanks(s);
	if (lex_lid(&s, last) || *vlr_skip_blanks(s) != '\0')
		return vlr_fail_line(&reader->lines,
				     "expected the last LID after the first, and "
				     "nothing after it");
	return 0;
}

/* first..last: 2^LMC unicast LIDs from an aligned base. Returns the LMC. */
static int check_range(struct reader *reader, uint32_t first, uint32_t last)
{
	uint32_t count, lmc = 0;

	if (!first || last > VLR_MAX_UNICAST_LID || first > last)
		return vlr_fail_line(&reader->lines,
				     "LIDs 0x%04x..0x%04x are not a range of unicast "
				     "LIDs (1..0x%04x)", first, last, VLR_MAX_UNICAST_LID);
	count = last - first + 1;
	while ((1u << lmc) < count)
		lmc++;
	if ((1u << lmc) != count || lmc > VLR_MAX_LMC)
		return vlr_fail_line(&reader->lines,
				     "%u LIDs 0x%04x..0x%04x: an LMC gives a port a "
				     "power of two of them, at most %d", count, first, last,
				     1 << VLR_MAX_LMC);
	if (first & (count - 1))
		return vlr_fail_line(&reader->lines,
				     "LIDs 0x%04x..0x%04x do not start at a multiple "
				     "of %u, as LMC %u requires", first, last, count, lmc);
	return (int)lmc;
}

static void note_unknown(struct reader *reader)
{
	struct vlr_guid2lid_notes *notes = reader->notes;

	if (notes && !notes->unknown++)
		snprintf(notes->first_unknown, sizeof(notes->first_unknown), "%s:%u",
			 reader->lines.path, reader->lines.line);
}

static int read_entry(struct reader *reader, const char *text)
{
	struct vlr_fabric *fabric = reader->fabric;
	uint32_t first = 0, last = 0, port;
	uint64_t guid = 0;
	char label[128];
	int lmc;

	if (parse_entry(reader, text, &guid, &first, &last))
		return -1;
	if ((lmc = check_range(reader, first, last)) < 0)
		return -1;
	if (reader->notes)
		reader->notes->entries++;
	port = vlr_guid_map_get(&reader->ports, guid);
	if (port == VLR_NONE) {
		note_unknown(reader);
		return 0;
	}
	tf_port_label(fabric, port, label, sizeof(label));
	if (reader->entry_line[port])
		return vlr_fail_line(&reader->lines,
				     "second entry for GUID 0x%016llx (%s; first at "
				     "line %u)", (unsigned long long)guid, label,
				     reader->entry_line[port]);
	reader->entry_line[port] = reader->lines.line;
	fabric->ports[port].lid = (uint16_t)first;
	fabric->ports[port].lmc = (uint8_t)lmc;
	if (!vlr_node_is_switch(fabric, fabric->ports[port].node) && lmc > fabric->lmc)
		fabric->lmc = (uint8_t)lmc;
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	if (text[0] == '\0') {
		reader->in_entry = 0;
		return 0;
	}
	if (reader->in_entry)
		return vlr_fail_line(&reader->lines,
				     "a second line in one entry (OpenSM would append "
				     "it to the LIDs); entries end with an empty line");
	if (text[0] == ' ' || text[0] == '\t')
		return vlr_fail_line(&reader->lines,
				     "line starts with white space; OpenSM refuses it");
	reader->in_entry = 1;
	return read_entry(reader, text);
}

static int read_all(struct reader *reader)
{
	return vlr_lines_each(&reader->lines, read_line, reader);
}

int vlr_guid2lid_read(struct vlr_fabric *fabric, const char *path,
		      struct vlr_guid2lid_notes *notes, struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.fabric = fabric;
	reader.notes = notes;
	reader.err = err;
	if (notes)
		memset(notes, 0, sizeof(*notes));
	reader.entry_line = calloc(fabric->num_ports + 1, sizeof(uint32_t));
	if (!reader.entry_line)
		return vlr_fail(err, "out of memory reading %s", path);
	if (tf_index_ports(fabric, &reader.ports, err)) {
		free(reader.entry_line);
		return -1;
	}
	result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = read_all(&reader);
	vlr_lines_close(&reader.lines);
	vlr_guid_map_free(&reader.ports);
	free(reader.entry_line);
	return result;
}
