/*
 * tablefiles_valiant.c - the route kind and intermediate switch of every
 * LID, and the VL policy, as vlroute-valiant.dump, our own format
 * described in vlroute-valiant(5):
 *
 *   # comments
 *   policy KIND VLS                     (ladder, ladder-reuse, layers, none)
 *   policy 2phases PHASEMIN K VLS
 *   0xLID minimal
 *   0xLID valiant|restricted 0xGUID     the intermediate switch's node GUID
 *
 * The policy line comes first and once; LIDs the file does not list are
 * minimal.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_internal.h"

#define MAX_WORDS 5		/* the longest line: the 2phases policy line */

/* What is wrong with a policy, into buf; 0 if nothing. */
static int policy_problem(const struct vlr_vl_policy *policy, char *buf, size_t size)
{
	const char *name = vlr_vl_policy_name(policy->kind);
	unsigned per_phase = policy->vls_per_phase;

	if ((unsigned)policy->kind > VLR_VLP_LAYERS)
		snprintf(buf, size, "unknown VL policy kind %d", (int)policy->kind);
	else if (policy->vls > VLR_MAX_DATA_VLS)
		snprintf(buf, size, "VL policy %s uses %u VLs, more than the %d data VLs",
			 name, policy->vls, VLR_MAX_DATA_VLS);
	else if (policy->kind != VLR_VLP_NONE && !policy->vls)
		snprintf(buf, size, "VL policy %s uses no VL", name);
	else if (policy->kind != VLR_VLP_TWO_PHASES)
		return 0;
	else if ((unsigned)policy->phase_min > VLR_MIN_BOTH)
		snprintf(buf, size, "unknown phase choice %d for minimal routes",
			 (int)policy->phase_min);
	else if (!per_phase || 2 * per_phase > policy->vls)
		snprintf(buf, size, "VL policy 2phases needs K >= 1 VLs per phase and at "
			 "least 2K VLs in all, not K = %u and %u VLs", per_phase,
			 policy->vls);
	else
		return 0;
	return -1;
}

/* ---- writing ------------------------------------------------------------ */

static int check_lid(const struct vlr_tables *tables, uint32_t lid,
		     struct vlr_error *err)
{
	uint8_t kind = tables->lid_kind[lid];
	uint32_t via = tables->lid_via[lid];

	if (kind > VLR_LID_RESTRICTED)
		return vlr_fail(err, "LID %u has unknown route kind %u", lid, kind);
	if (kind == VLR_LID_MINIMAL && via != VLR_NONE)
		return vlr_fail(err, "LID %u is minimal but has intermediate switch %u",
				lid, via);
	if (kind == VLR_LID_MINIMAL)
		return 0;
	if (via >= tables->num_switches)
		return vlr_fail(err, "LID %u is %s, but its intermediate switch %u is not "
				"one of the %u switches", lid, vlr_lid_kind_name(kind), via,
				tables->num_switches);
	if (!tables->fabric->nodes[tables->switch_node[via]].guid)
		return vlr_fail(err, "switch \"%s\", the intermediate of LID %u, has no "
				"GUID to name it by",
				vlr_node_name(tables->fabric, tables->switch_node[via]), lid);
	return 0;
}

static int check_tables(const struct vlr_tables *tables, struct vlr_error *err)
{
	char problem[256];
	uint32_t lid;

	if (!tables->lid_kind || !tables->lid_via)
		return vlr_fail(err, "the tables carry no route kinds (only the minimal "
				"and valiant engines give them)");
	if (policy_problem(&tables->policy, problem, sizeof(problem)))
		return vlr_fail(err, "%s", problem);
	for (lid = 1; lid <= tables->max_lid; lid++)
		if (tables->lid_owner[lid] != VLR_NONE && check_lid(tables, lid, err))
			return -1;
	return 0;
}

static void write_policy(struct tf_out *out, const struct vlr_vl_policy *policy)
{
	const char *name = vlr_vl_policy_name(policy->kind);

	if (policy->kind == VLR_VLP_TWO_PHASES)
		tf_out_printf(out, "policy %s %s %u %u\n", name,
			      vlr_phase_min_name(policy->phase_min),
			      policy->vls_per_phase, policy->vls);
	else
		tf_out_printf(out, "policy %s %u\n", name, policy->vls);
}

static void write_lid(struct tf_out *out, const struct vlr_tables *tables,
		      uint32_t lid)
{
	enum vlr_lid_kind kind = (enum vlr_lid_kind)tables->lid_kind[lid];
	uint32_t via = tables->lid_via[lid];

	if (kind == VLR_LID_MINIMAL)
		tf_out_printf(out, "0x%04x %s\n", lid, vlr_lid_kind_name(kind));
	else
		tf_out_printf(out, "0x%04x %s 0x%016llx\n", lid, vlr_lid_kind_name(kind),
			      (unsigned long long)
			      tables->fabric->nodes[tables->switch_node[via]].guid);
}

int vlr_valiant_write(const struct vlr_tables *tables, FILE *stream,
		      struct vlr_error *err)
{
	struct tf_out *out;
	uint32_t lid;
	int result;

	if (check_tables(tables, err) || !(out = tf_out_new(stream, err)))
		return -1;
	tf_out_printf(out, "# Valiant routes: the route kind of every LID and the "
		      "node GUID of its\n# intermediate switch; see "
		      "vlroute-valiant(5).\n");
	write_policy(out, &tables->policy);
	for (lid = 1; lid <= tables->max_lid; lid++)
		if (tables->lid_owner[lid] != VLR_NONE)
			write_lid(out, tables, lid);
	result = tf_out_finish(out, "Valiant dump", err);
	free(out);
	return result;
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
	struct vlr_tables *tables;
	struct vlr_lines lines;
	struct vlr_guid_map switches;	/* node GUID -> switch index */
	struct vlr_error *err;
	uint32_t policy_line;		/* 0 until the policy line */
	struct vlr_vl_policy policy;
	uint8_t *kind;			/* [lid]: enum vlr_lid_kind */
	uint32_t *via;			/* [lid]: switch index, VLR_NONE */
	uint32_t *lid_line;		/* [lid]: line listing it, 0 */
};

/* The blank-separated words of a line. */
struct words {
	const char *at[MAX_WORDS];
	int length[MAX_WORDS];
	unsigned count;			/* all of them, even beyond MAX_WORDS */
};

static void split(const char *s, struct words *words)
{
	words->count = 0;
	for (s = vlr_skip_blanks(s); *s; s = vlr_skip_blanks(s)) {
		const char *start = s;

		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (words->count < MAX_WORDS) {
			words->at[words->count] = start;
			words->length[words->count] = (int)(s - start);
		}
		words->count++;
	}
}

static int word_is(const struct words *words, unsigned i, const char *text)
{
	return (size_t)words->length[i] == strlen(text) &&
	       !strncmp(words->at[i], text, strlen(text));
}

/* Word i as a decimal number. */
static int word_dec(const struct words *words, unsigned i, uint32_t *value)
{
	const char *s = words->at[i];

	return vlr_lex_dec(&s, value) || s != words->at[i] + words->length[i] ? -1 : 0;
}

/* Word i as 0x and 1..digits hex digits. */
static int word_hex(const struct words *words, unsigned i, unsigned digits,
		    uint64_t *value)
{
	const char *s = words->at[i];

	return vlr_lex_word(&s, "0x") || vlr_lex_hex(&s, digits, value) ||
	       s != words->at[i] + words->length[i] ? -1 : 0;
}

static int policy_kind_of(const struct words *words, unsigned i)
{
	int kind;

	for (kind = VLR_VLP_NONE; kind <= VLR_VLP_LAYERS; kind++)
		if (word_is(words, i, vlr_vl_policy_name((enum vlr_vl_policy_kind)kind)))
			return kind;
	return -1;
}

static int phase_min_of(const struct words *words, unsigned i)
{
	int phase_min;

	for (phase_min = VLR_MIN_FIRST; phase_min <= VLR_MIN_BOTH; phase_min++)
		if (word_is(words, i, vlr_phase_min_name((enum vlr_phase_min)phase_min)))
			return phase_min;
	return -1;
}

static int lid_kind_of(const struct words *words, unsigned i)
{
	int kind;

	for (kind = VLR_LID_MINIMAL; kind <= VLR_LID_RESTRICTED; kind++)
		if (word_is(words, i, vlr_lid_kind_name((enum vlr_lid_kind)kind)))
			return kind;
	return -1;
}

static int malformed_policy(struct reader *reader)
{
	return vlr_fail_line(&reader->lines,
			     "malformed policy line (expected \"policy KIND VLS\" or "
			     "\"policy 2phases PHASEMIN K VLS\")");
}

/* "policy KIND [PHASEMIN K] VLS" */
static int read_policy(struct reader *reader, const struct words *words)
{
	struct vlr_vl_policy *policy = &reader->policy;
	int kind, phase_min = VLR_MIN_FIRST;
	uint32_t per_phase = 0, vls;
	char problem[256];

	if (reader->policy_line)
		return vlr_fail_line(&reader->lines, "a second policy line (the first is "
				     "line %u)", reader->policy_line);
	if (words->count < 2)
		return malformed_policy(reader);
	if ((kind = policy_kind_of(words, 1)) < 0)
		return vlr_fail_line(&reader->lines,
				     "unknown VL policy \"%.*s\" (none, ladder, "
				     "ladder-reuse, 2phases or layers)", words->length[1],
				     words->at[1]);
	if (words->count != (kind == VLR_VLP_TWO_PHASES ? 5u : 3u) ||
	    word_dec(words, words->count - 1, &vls) ||
	    (kind == VLR_VLP_TWO_PHASES && word_dec(words, 3, &per_phase)))
		return malformed_policy(reader);
	if (kind == VLR_VLP_TWO_PHASES && (phase_min = phase_min_of(words, 2)) < 0)
		return vlr_fail_line(&reader->lines,
				     "unknown phase choice \"%.*s\" for minimal routes "
				     "(minfirst, minlast or minboth)", words->length[2],
				     words->at[2]);
	policy->kind = (enum vlr_vl_policy_kind)kind;
	policy->phase_min = (enum vlr_phase_min)phase_min;
	policy->vls_per_phase = per_phase;
	policy->vls = vls;
	if (policy_problem(policy, problem, sizeof(problem)))
		return vlr_fail_line(&reader->lines, "%s", problem);
	reader->policy_line = reader->lines.line;
	return 0;
}

static int malformed_lid(struct reader *reader)
{
	return vlr_fail_line(&reader->lines,
			     "malformed LID line (expected \"0xLID minimal\" or "
			     "\"0xLID valiant|restricted 0xGUID\")");
}

/* Which switch the GUID in word 2 names, into reader->via[lid]. */
static int read_via(struct reader *reader, const struct words *words, uint32_t lid)
{
	uint64_t guid;
	uint32_t sw;

	if (word_hex(words, 2, 16, &guid))
		return malformed_lid(reader);
	sw = vlr_guid_map_get(&reader->switches, guid);
	if (sw == VLR_NONE)
		return vlr_fail_line(&reader->lines,
				     "0x%016llx, the intermediate of LID %u, is not the node "
				     "GUID of a switch of the fabric",
				     (unsigned long long)guid, lid);
	reader->via[lid] = sw;
	return 0;
}

/* "0xLID KIND [0xGUID]" */
static int read_lid(struct reader *reader, const struct words *words)
{
	const struct vlr_tables *tables = reader->tables;
	uint64_t lid;
	int kind;

	if (words->count < 2 || words->count > 3 || word_hex(words, 0, 4, &lid))
		return malformed_lid(reader);
	if (lid > tables->max_lid)
		return vlr_fail_line(&reader->lines,
				     "LID %u is beyond the tables' highest LID %u",
				     (unsigned)lid, tables->max_lid);
	if (tables->lid_owner[lid] == VLR_NONE)
		return vlr_fail_line(&reader->lines, "LID %u belongs to no port",
				     (unsigned)lid);
	if (reader->lid_line[lid])
		return vlr_fail_line(&reader->lines, "LID %u is listed twice (first at "
				     "line %u)", (unsigned)lid, reader->lid_line[lid]);
	if ((kind = lid_kind_of(words, 1)) < 0)
		return vlr_fail_line(&reader->lines,
				     "unknown route kind \"%.*s\" (minimal, valiant or "
				     "restricted)", words->length[1], words->at[1]);
	if (kind == VLR_LID_MINIMAL && words->count == 3)
		return vlr_fail_line(&reader->lines, "LID %u is minimal: it has no "
				     "intermediate switch", (unsigned)lid);
	if (kind != VLR_LID_MINIMAL && words->count == 2)
		return vlr_fail_line(&reader->lines, "LID %u is %s: it needs the node GUID "
				     "of its intermediate switch", (unsigned)lid,
				     vlr_lid_kind_name((enum vlr_lid_kind)kind));
	if (kind != VLR_LID_MINIMAL && read_via(reader, words, (uint32_t)lid))
		return -1;
	reader->kind[lid] = (uint8_t)kind;
	reader->lid_line[lid] = reader->lines.line;
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	struct words words;

	split(text, &words);
	if (!words.count || words.at[0][0] == '#')
		return 0;
	if (word_is(&words, 0, "policy"))
		return read_policy(reader, &words);
	if (!reader->policy_line)
		return vlr_fail_line(&reader->lines,
				     "expected the policy line (\"policy KIND ... VLS\") "
				     "before the LIDs");
	return read_lid(reader, &words);
}

/* Replace the tables' route kinds, intermediates and policy with what was read. */
static void commit(struct reader *reader)
{
	struct vlr_tables *tables = reader->tables;

	free(tables->lid_kind);
	free(tables->lid_via);
	tables->lid_kind = reader->kind;
	tables->lid_via = reader->via;
	tables->policy = reader->policy;
	reader->kind = NULL;
	reader->via = NULL;
}

static int read_all(struct reader *reader)
{
	if (vlr_lines_each(&reader->lines, read_line, reader))
		return -1;
	if (!reader->policy_line)
		return vlr_fail(reader->err, "%s: no policy line: not a Valiant dump",
				reader->lines.path);
	commit(reader);
	return 0;
}

int vlr_valiant_read(struct vlr_tables *tables, const char *path, struct vlr_error *err)
{
	uint32_t stride = tables->lid_stride, lid;
	struct reader reader;
	int result = -1;

	memset(&reader, 0, sizeof(reader));
	reader.tables = tables;
	reader.err = err;
	reader.kind = calloc(stride, 1);
	reader.via = malloc(sizeof(uint32_t) * stride);
	reader.lid_line = calloc(stride, sizeof(uint32_t));
	if (!reader.kind || !reader.via || !reader.lid_line) {
		vlr_fail(err, "out of memory reading %s", path);
		goto done;
	}
	for (lid = 0; lid < stride; lid++)
		reader.via[lid] = VLR_NONE;
	if (tf_index_switches(tables, &reader.switches, err))
		goto done;
	result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = read_all(&reader);
	vlr_lines_close(&reader.lines);
	vlr_guid_map_free(&reader.switches);
done:
	free(reader.kind);
	free(reader.via);
	free(reader.lid_line);
	return result;
}
