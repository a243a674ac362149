/*
 * config.c - the plugin's options, read from vlroute.conf(5): one
 * "KEY VALUE" pair a line, blank lines and lines starting with '#'
 * ignored, a later line overriding an earlier one. Anything else (an
 * unknown key, a bad value, a missing value, phase_min or vls_per_phase
 * without "vl_policy 2phases") is refused with FILE:LINE, so that the
 * engine refuses to route rather than guess.
 *
 * The table of keys below is the one list of the options: the reader
 * parses with it and takes its defaults from it, and "vlroute osm-config"
 * writes the sample file from it (see vlroute_conf.h).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vlroute/topology.h>

#include "vlroute_conf.h"

#define CONF_LINE_SIZE 4096

static int set_heuristic(const struct vlr_osm_conf_line *line,
			 struct vlr_osm_config *config, struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_heuristic_parse(line->value, &config->heuristic, &why))
		return vlr_fail_at(err, line->path, line->number, "heuristic is %s",
				   why.message);
	return 0;
}

/* A decimal number from min to max, digits only; -1 if not. */
static int parse_number(const char *text, unsigned min, unsigned max, unsigned *number)
{
	uint64_t value;

	if (vlr_lex_number(&text, 10, max, &value) || *text || value < min)
		return -1;
	*number = (unsigned)value;
	return 0;
}

static int set_max_vls(const struct vlr_osm_conf_line *line,
		       struct vlr_osm_config *config, struct vlr_error *err)
{
	if (parse_number(line->value, 1, VLR_MAX_DATA_VLS, &config->max_vls))
		return vlr_fail_at(err, line->path, line->number, "max_vls is a number "
				   "of data VLs from 1 to %d, not \"%s\"", VLR_MAX_DATA_VLS,
				   line->value);
	return 0;
}

/* A yes|no key's value into *flag. */
static int set_yes_no(const struct vlr_osm_conf_line *line, int *flag,
		      struct vlr_error *err)
{
	if (!strcmp(line->value, "yes"))
		*flag = 1;
	else if (!strcmp(line->value, "no"))
		*flag = 0;
	else
		return vlr_fail_at(err, line->path, line->number,
				   "%s is yes or no, not \"%s\"", line->key, line->value);
	return 0;
}

static int set_balance(const struct vlr_osm_conf_line *line,
		       struct vlr_osm_config *config, struct vlr_error *err)
{
	return set_yes_no(line, &config->balance, err);
}

static int set_escape(const struct vlr_osm_conf_line *line,
		      struct vlr_osm_config *config, struct vlr_error *err)
{
	return set_yes_no(line, &config->escape, err);
}

/* The line's value into out (size bytes): an absolute path. */
static int set_path(const struct vlr_osm_conf_line *line, char *out, size_t size,
		    struct vlr_error *err)
{
	if (line->value[0] != '/')
		return vlr_fail_at(err, line->path, line->number, "%s must be an absolute "
				   "path, not \"%s\"", line->key, line->value);
	if (strlen(line->value) >= size)
		return vlr_fail_at(err, line->path, line->number, "%s is too long",
				   line->key);
	strcpy(out, line->value);
	return 0;
}

static int set_path_sl_file(const struct vlr_osm_conf_line *line,
			    struct vlr_osm_config *config, struct vlr_error *err)
{
	return set_path(line, config->path_sl_file, sizeof(config->path_sl_file), err);
}

static int set_table_dir(const struct vlr_osm_conf_line *line,
			 struct vlr_osm_config *config, struct vlr_error *err)
{
	return set_path(line, config->table_dir, sizeof(config->table_dir), err);
}

static int set_family(const struct vlr_osm_conf_line *line,
		      struct vlr_osm_config *config, struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_topology_family_parse(line->value, &config->family, &why))
		return vlr_fail_at(err, line->path, line->number, "family is %s",
				   why.message);
	return 0;
}

static int set_vl_policy(const struct vlr_osm_conf_line *line,
			 struct vlr_osm_config *config, struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_vl_policy_parse(line->value, &config->policy.kind, &why))
		return vlr_fail_at(err, line->path, line->number, "vl_policy: %s",
				   why.message);
	return 0;
}

static int set_phase_min(const struct vlr_osm_conf_line *line,
			 struct vlr_osm_config *config, struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_phase_min_parse(line->value, &config->policy.phase_min, &why))
		return vlr_fail_at(err, line->path, line->number, "phase_min: %s",
				   why.message);
	config->phase_line = line->number;
	return 0;
}

static int set_vls_per_phase(const struct vlr_osm_conf_line *line,
			     struct vlr_osm_config *config, struct vlr_error *err)
{
	if (parse_number(line->value, 1, VLR_MAX_VLS_PER_PHASE,
			 &config->policy.vls_per_phase))
		return vlr_fail_at(err, line->path, line->number, "vls_per_phase is a "
				   "number of VLs from 1 to %d, not \"%s\"",
				   VLR_MAX_VLS_PER_PHASE, line->value);
	config->phase_line = line->number;
	return 0;
}

static int set_dim_order(const struct vlr_osm_conf_line *line,
			 struct vlr_osm_config *config, struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_dim_order_parse(line->value, config->dim_order, &config->dim_order_count,
				&why))
		return vlr_fail_at(err, line->path, line->number, "dim_order is %s",
				   why.message);
	return 0;
}

static int set_restricted(const struct vlr_osm_conf_line *line,
			  struct vlr_osm_config *config, struct vlr_error *err)
{
	unsigned restricted;

	if (parse_number(line->value, 0, VLR_MAX_RESTRICTED, &restricted))
		return vlr_fail_at(err, line->path, line->number, "restricted is a number "
				   "of LID offsets from 0 to %d, not \"%s\"",
				   VLR_MAX_RESTRICTED, line->value);
	config->restricted = (int)restricted;
	return 0;
}

/* Every key, in the order of vlroute.conf(5) (whose OPTIONS say more). */
static const struct vlr_osm_conf_key keys[] = {
	{ "heuristic", "weakest|strongest|first|all",
	  "Which edge of each channel-dependency cycle vlr_dfsssp cuts, moving\n"
	  "the routes that induce it to the next layer: the edge induced by the\n"
	  "fewest routes (weakest), by the most (strongest), the first edge of\n"
	  "the cycle found (first), or each of the three in turn, keeping the\n"
	  "result with the fewest layers (all, three times the work).\n",
	  "weakest", "weakest", 1, set_heuristic },
	{ "max_vls", "N",
	  "Use at most N data VLs, 1 to 15. vlr_dfsssp takes escape paths when\n"
	  "its layers need more (or fails, ERR VLR03, with escape no), vlr_file\n"
	  "fails when the tables of table_dir use more;\n"
	  "a smaller max_vls leaves VLs for other uses.\n",
	  "what the fabric offers: the fewest data VLs of\n"
	  "any switch-to-switch link, no more than OpenSM configures", "8", 0,
	  set_max_vls },
	{ "balance", "yes|no",
	  "yes: once the layers are found, vlr_dfsssp spreads the routes over\n"
	  "the spare VLs (up to max_vls) so that each VL carries a similar share;\n"
	  "no: use only as many VLs as there are layers.\n",
	  "yes", "yes", 1, set_balance },
	{ "escape", "yes|no",
	  "yes: when the layers need more VLs than max_vls allows, vlr_dfsssp\n"
	  "routes the destinations that do not fit again on the last VL, by\n"
	  "escape paths that keep it acyclic, deadlock-free within the VLs it\n"
	  "has; no: it fails\n"
	  "(ERR VLR03) and OpenSM falls back to the next routing_engine.\n",
	  "yes", "yes", 1, set_escape },
	{ "path_sl_file", "PATH",
	  "Write the path-SL file (vlroute-pathsl(5)) to PATH, an absolute path,\n"
	  "after every successful routing, whatever OpenSM's log level.\n",
	  "dump_files_dir/vlroute-path-sl.dump, written\n"
	  "only when OpenSM writes its own dumps (log level with 0x40)",
	  "/var/lib/opensm/vlroute-path-sl.dump", 0, set_path_sl_file },
	{ "table_dir", "DIR",
	  "vlr_file only: the table directory it programs, an absolute path: one\n"
	  "written by \"vlroute route -o\" (or \"vlroute capture -o\") for this\n"
	  "subnet and its LIDs. vlr_file loads its LFTs, SL2VL tables and path\n"
	  "SLs at every routing, checks them against the subnet OpenSM found and\n"
	  "verifies them, and refuses (OpenSM falls back) on any difference.\n",
	  "not set: vlr_file refuses to run (ERR VLR02)",
	  "/var/lib/vlroute/tables", 0, set_table_dir },
	{ "family", "hyperx|dragonfly|dragonfly+",
	  "vlr_minimal and vlr_valiant only (as this and the keys below): the\n"
	  "topology the fabric must be; another is refused (ERR VLR05) and\n"
	  "OpenSM falls back to the next engine of its list.\n",
	  "whichever of the three the fabric is", "dragonfly", 0, set_family },
	{ "vl_policy", "ladder|ladder-reuse|2phases|layers",
	  "The VL of every hop, compiled into path SLs and SL2VL tables: hop i on\n"
	  "VL i (ladder, ladder-reuse), one set of VLs per Valiant phase\n"
	  "(2phases), or one VL per route by cycle breaking (layers). A policy\n"
	  "that needs more VLs than the fabric offers, or more than 16 SLs, is\n"
	  "refused (ERR VLR03).\n",
	  "for vlr_minimal the fewest VLs the topology's\n"
	  "minimal routes need (HyperX and Dragonfly+ 1, Dragonfly 2), for\n"
	  "vlr_valiant 2phases",
	  "2phases", 0, set_vl_policy },
	{ "phase_min", "minfirst|minlast|minboth",
	  "With vl_policy 2phases only: minimal routes use the VLs of the first\n"
	  "phase (minfirst), of the second (minlast), or the first for LID\n"
	  "offset 0 and the second for routes that start on the trunk (minboth).\n",
	  "minfirst", "minfirst", 0, set_phase_min },
	{ "vls_per_phase", "K",
	  "With vl_policy 2phases only: K VLs per phase, 1 to 7.\n",
	  "2 on a Dragonfly or Dragonfly+, 1 on a HyperX", "2", 0, set_vls_per_phase },
	{ "dim_order", "D,D,...",
	  "HyperX: the order in which minimal routes correct the dimensions,\n"
	  "every dimension of the HyperX (0 to 7) once, for example 1,0.\n",
	  "the dimensions in order (0,1,2,...)", "1,0", 0, set_dim_order },
	{ "restricted", "N",
	  "vlr_valiant: of the 2^LMC-1 Valiant LID offsets of every port, the\n"
	  "last N route through an intermediate in the destination's partition\n"
	  "(Restricted Valiant), 0 to 127; at least one offset stays unrestricted.\n",
	  "a quarter of the offsets, rounded up (none at LMC 1)", "1", 0,
	  set_restricted },
};

const struct vlr_osm_conf_key *vlr_osm_conf_keys(size_t *count)
{
	*count = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

/* The table's default values are valid (test_osm_config reads them back). */
void vlr_osm_config_default(struct vlr_osm_config *config)
{
	struct vlr_osm_conf_line line = { "built-in defaults", 0, NULL, NULL };
	struct vlr_error ignored;
	size_t i;

	memset(config, 0, sizeof(*config));
	config->restricted = -1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!keys[i].is_default)
			continue;
		line.key = keys[i].key;
		line.value = keys[i].value;
		keys[i].set(&line, config, &ignored);
	}
}

/* Split text (one line, newline removed) into key and value; 1 if blank. */
static int split(char *text, struct vlr_osm_conf_line *line, struct vlr_error *err)
{
	char *key = text, *value, *rest;

	while (isspace((unsigned char)*key))
		key++;
	if (!*key || *key == '#')
		return 1;
	value = key;
	while (*value && !isspace((unsigned char)*value))
		value++;
	if (*value)
		*value++ = '\0';
	while (isspace((unsigned char)*value))
		value++;
	rest = value;
	while (*rest && !isspace((unsigned char)*rest))
		rest++;
	if (*rest)
		*rest++ = '\0';
	while (isspace((unsigned char)*rest))
		rest++;
	line->key = key;
	line->value = value;
	if (!*value)
		return vlr_fail_at(err, line->path, line->number, "\"%s\" needs a value",
				   key);
	if (*rest)
		return vlr_fail_at(err, line->path, line->number, "expected \"KEY VALUE\", "
				   "found more after \"%s %s\"", key, value);
	return 0;
}

static int apply(const struct vlr_osm_conf_line *line, struct vlr_osm_config *config,
		 struct vlr_error *err)
{
	size_t i, used = 0, count = sizeof(keys) / sizeof(keys[0]);
	char known[256] = "";

	for (i = 0; i < count; i++)
		if (!strcmp(line->key, keys[i].key))
			return keys[i].set(line, config, err);
	for (i = 0; i < count && used < sizeof(known); i++)
		used += (size_t)snprintf(known + used, sizeof(known) - used, "%s%s",
					 i ? ", " : "", keys[i].key);
	return vlr_fail_at(err, line->path, line->number, "unknown key \"%s\" (known: "
			   "%s)", line->key, known);
}

static int read_lines(FILE *in, const char *path, struct vlr_osm_config *config,
		      struct vlr_error *err)
{
	char text[CONF_LINE_SIZE];
	struct vlr_osm_conf_line line;
	size_t length;
	int blank;

	line.path = path;
	line.number = 0;
	while (fgets(text, sizeof(text), in)) {
		line.number++;
		length = strlen(text);
		if (length && text[length - 1] == '\n')
			text[--length] = '\0';
		else if (!feof(in))
			return vlr_fail_at(err, line.path, line.number, "line too long");
		blank = split(text, &line, err);
		if (blank < 0)
			return -1;
		if (!blank && apply(&line, config, err))
			return -1;
	}
	if (ferror(in))
		return vlr_fail(err, "%s: cannot read: %s", path, strerror(errno));
	if (config->phase_line && config->policy.kind != VLR_VLP_TWO_PHASES)
		return vlr_fail_at(err, path, config->phase_line, "phase_min and "
				   "vls_per_phase need \"vl_policy 2phases\"");
	return 0;
}

int vlr_osm_config_read(const char *path, int required, struct vlr_osm_config *config,
			struct vlr_error *err)
{
	FILE *in;
	int result;

	vlr_osm_config_default(config);
	in = fopen(path, "r");
	if (!in) {
		if (errno == ENOENT && !required)
			return 0;
		return vlr_fail(err, "%s: cannot open: %s", path, strerror(errno));
	}
	result = read_lines(in, path, config, err);
	fclose(in);
	return result;
}
