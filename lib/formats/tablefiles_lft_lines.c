/*
 * tablefiles_lft_lines.c - the lines of OpenSM's opensm-lfts.dump: the
 * comment tails the writer puts after every LID's port, and parsing
 * headers, LID lines and footers.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_lft_internal.h"

/* ---- the writer's tails ------------------------------------------------- */

int tf_lid_tails_build(const struct vlr_tables *tables, struct tf_lid_tails *tails,
		       struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	size_t capacity = (size_t)tables->lid_stride * (40 + 2 * VLR_MAX_NAME) + 1;
	size_t used = 0;
	uint32_t lid;

	tails->text = malloc(capacity);
	tails->offset = malloc(sizeof(uint32_t) * (tables->lid_stride + 1));
	if (!tails->text || !tails->offset)
		return vlr_fail(err, "out of memory for the LFT dump");
	for (lid = 0; lid < tables->lid_stride; lid++) {
		uint32_t owner = tables->lid_owner[lid];
		int length;

		tails->offset[lid] = (uint32_t)used;
		if (owner == VLR_NONE) {
			length = snprintf(tails->text + used, capacity - used,
					  " # unknown node and type\n");
		} else {
			uint32_t node = fabric->ports[owner].node;

			length = snprintf(tails->text + used, capacity - used,
					  " # %s portguid 0x%016llx: '%s'\n",
					  tf_opensm_type_name(fabric->nodes[node].type),
					  (unsigned long long)tf_port_guid(fabric, owner),
					  vlr_node_description(fabric, node));
		}
		used += (size_t)length;
	}
	tails->offset[tables->lid_stride] = (uint32_t)used;
	return 0;
}

void tf_lid_tails_free(struct tf_lid_tails *tails)
{
	free(tails->text);
	free(tails->offset);
	tails->text = NULL;
	tails->offset = NULL;
}

/* ---- parsing ------------------------------------------------------------ */

int tf_lft_parse_header(const char *s, struct tf_lft_header *header, const char **problem)
{
	*problem = "malformed switch header (expected \"Unicast lids [0-MAXLID] of "
		   "switch Lid LID guid 0xGUID ('DESC'):\")";
	if (vlr_lex_word(&s, "Unicast lids [0-") || vlr_lex_dec(&s, &header->max_lid) ||
	    vlr_lex_word(&s, "] of switch Lid ") || vlr_lex_dec(&s, &header->lid) ||
	    vlr_lex_word(&s, " guid 0x") || vlr_lex_hex(&s, 16, &header->guid) ||
	    (*s != ' ' && *s != '\t' && *s != '\0'))
		return -1;
	if (header->max_lid > VLR_MAX_UNICAST_LID) {
		*problem = "the switch header's LID range goes beyond the unicast LIDs "
			   "(0..49151)";
		return -1;
	}
	return 0;
}

/* Where "portguid 0x" ends in an OpenSM comment ("TYPE portguid 0x..."). */
static const char *find_port_guid(const char *s)
{
	static const char *const types[] = { "Channel Adapter", "Switch", "Router" };
	static const char key[] = " portguid 0x";
	const char *at;
	unsigned i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t length = strlen(types[i]);

		if (!strncmp(s, types[i], length) && !strncmp(s + length, key, sizeof(key) - 1))
			return s + length + sizeof(key) - 1;
	}
	at = strstr(s, key + 1);
	return at ? at + sizeof(key) - 2 : NULL;
}

static int parse_comment(const char *s, struct tf_lid_line *entry, const char **problem)
{
	const char *at;

	s = vlr_skip_blanks(s + 1);
	if (!vlr_lex_word(&s, "unknown node and type")) {
		entry->unknown = 1;
		return 0;
	}
	at = find_port_guid(s);
	if (!at)
		return 0;
	if (vlr_lex_hex(&at, 16, &entry->guid) ||
	    (*at != ':' && *at != ' ' && *at != '\t' && *at != '\0')) {
		*problem = "malformed portguid in the comment";
		return -1;
	}
	entry->has_guid = 1;
	return 0;
}

/* "0xLID PORT": *rest is left right after the port. */
int tf_lft_parse_lid_head(const char *s, struct tf_lid_line *entry, const char **rest,
			  const char **problem)
{
	uint64_t lid;

	memset(entry, 0, sizeof(*entry));
	*problem = "malformed LID line (expected \"0xLID PORT # ...\")";
	s += 2;
	if (vlr_lex_hex(&s, 8, &lid) || (*s != ' ' && *s != '\t'))
		return -1;
	s = vlr_skip_blanks(s);
	if (vlr_lex_dec(&s, &entry->port) || (*s != ' ' && *s != '\t' && *s != '\0'))
		return -1;
	if (lid == 0 || lid > VLR_MAX_UNICAST_LID) {
		*problem = lid ? "LID beyond the unicast LIDs (1..49151)" :
				 "LID 0 is not a unicast LID";
		return -1;
	}
	entry->lid = (uint32_t)lid;
	*rest = s;
	return 0;
}

/* What follows the port: nothing, or a comment. */
int tf_lft_parse_lid_tail(const char *s, struct tf_lid_line *entry, const char **problem)
{
	s = vlr_skip_blanks(s);
	if (*s && *s != '#') {
		*problem = "unexpected text after the port (a comment starts with '#')";
		return -1;
	}
	return *s == '#' ? parse_comment(s, entry, problem) : 0;
}

int tf_lft_parse_lid_line(const char *s, struct tf_lid_line *entry, const char **problem)
{
	const char *rest;

	return tf_lft_parse_lid_head(s, entry, &rest, problem) ||
	       tf_lft_parse_lid_tail(rest, entry, problem) ? -1 : 0;
}

/* "N lids dumped" */
static int is_footer(const char *s, uint32_t *count)
{
	return !vlr_lex_dec(&s, count) && !strcmp(s, " lids dumped");
}

enum tf_lft_line tf_lft_classify(const char **text, uint32_t *count)
{
	const char *s = *text;

	while (*s == ' ' || *s == '\t')
		s++;
	*text = s;
	if (*s == '\0' || *s == '#')
		return TF_LFT_SKIP;
	if (s[0] == '0' && s[1] == 'x')
		return TF_LFT_LID;
	if (!strncmp(s, "Unicast lids", 12))
		return TF_LFT_HEADER;
	if (is_footer(s, count))
		return TF_LFT_FOOTER;
	return TF_LFT_OTHER;
}

/* ---- checking ----------------------------------------------------------- */

static const char *switch_name(const struct vlr_tables *tables, uint32_t sw)
{
	return vlr_node_name(tables->fabric, tables->switch_node[sw]);
}

int tf_lft_open_block(struct vlr_tables *tables, const struct vlr_guid_map *switches,
		      uint8_t *seen, const struct vlr_lines *lines, uint64_t guid,
		      uint32_t lid, uint32_t *sw)
{
	uint32_t own;

	*sw = vlr_guid_map_get(switches, guid);
	if (*sw == VLR_NONE)
		return vlr_fail_line(lines, "unknown switch GUID 0x%016llx",
				     (unsigned long long)guid);
	if (seen[*sw])
		return vlr_fail_line(lines, "second block for switch \"%s\" (GUID 0x%016llx)",
				     switch_name(tables, *sw), (unsigned long long)guid);
	own = vlr_port_at(tables->fabric, tables->switch_node[*sw], 0)->lid;
	if (lid != VLR_NONE && lid != own)
		return vlr_fail_line(lines, "switch \"%s\" has LID %u here but LID %u in the "
				     "tables", switch_name(tables, *sw), lid, own);
	seen[*sw] = 1;
	memset(vlr_tables_lft(tables, *sw), VLR_NO_PORT, tables->lid_stride);
	return 0;
}

int tf_lft_check_end(const struct vlr_tables *tables, const struct vlr_lines *lines,
		     uint32_t open_sw, uint32_t block_line, uint32_t blocks,
		     const char *none, struct vlr_error *err)
{
	if (open_sw != VLR_NONE)
		return vlr_fail_at(err, lines->path, block_line,
				   "the file ends inside this block of switch \"%s\" (no "
				   "\"lids dumped\" line): truncated?",
				   switch_name(tables, open_sw));
	if (!blocks && tables->num_switches)
		return vlr_fail(err, "%s: holds no %s", lines->path, none);
	return 0;
}

int tf_lft_check_owner(const struct vlr_tables *tables, const struct vlr_lines *lines,
		       const struct tf_lid_line *entry)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t owner = tables->lid_owner[entry->lid];
	char label[128];

	if (!entry->has_guid && !entry->unknown)
		return 0;
	if (owner == VLR_NONE) {
		if (entry->unknown)
			return 0;
		return vlr_fail_line(lines, "LID %u belongs to no port in the tables, but "
				     "the dump gives it to port GUID 0x%016llx", entry->lid,
				     (unsigned long long)entry->guid);
	}
	if (!entry->unknown && tf_port_guid(fabric, owner) == entry->guid)
		return 0;
	tf_port_label(fabric, owner, label, sizeof(label));
	if (entry->unknown)
		return vlr_fail_line(lines, "LID %u belongs to %s in the tables, but the "
				     "dump says \"unknown node and type\"", entry->lid, label);
	return vlr_fail_line(lines, "LID %u belongs to %s (GUID 0x%016llx) in the "
			     "tables, but the dump gives it to port GUID 0x%016llx",
			     entry->lid, label,
			     (unsigned long long)tf_port_guid(fabric, owner),
			     (unsigned long long)entry->guid);
}
