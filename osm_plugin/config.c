/*
 * config.c - the plugin's options, read from vlroute.conf(5): one
 * "KEY VALUE" pair a line, blank lines and lines starting with '#'
 * ignored, a later line overriding an earlier one. Anything else (an
 * unknown key, a bad value, a missing value, phase_min or vls_per_phase
 * without "vl_policy 2phases") is refused with FILE:LINE, so that the
 * engine refuses to route rather than guess.
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

#include "vlroute_osm.h"

#define CONF_LINE_SIZE 4096

struct conf_line {
	const char *path;
	unsigned number;
	const char *key;
	const char *value;
};

static int set_heuristic(const struct conf_line *line, struct vlr_osm_config *config,
			 struct vlr_error *err)
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

static int set_max_vls(const struct conf_line *line, struct vlr_osm_config *config,
		       struct vlr_error *err)
{
	if (parse_number(line->value, 1, VLR_MAX_DATA_VLS, &config->max_vls))
		return vlr_fail_at(err, line->path, line->number, "max_vls is a number "
				   "of data VLs from 1 to %d, not \"%s\"", VLR_MAX_DATA_VLS,
				   line->value);
	return 0;
}

static int set_balance(const struct conf_line *line, struct vlr_osm_config *config,
		       struct vlr_error *err)
{
	if (!strcmp(line->value, "yes"))
		config->balance = 1;
	else if (!strcmp(line->value, "no"))
		config->balance = 0;
	else
		return vlr_fail_at(err, line->path, line->number,
				   "balance is yes or no, not \"%s\"", line->value);
	return 0;
}

static int set_path_sl_file(const struct conf_line *line, struct vlr_osm_config *config,
			    struct vlr_error *err)
{
	if (line->value[0] != '/')
		return vlr_fail_at(err, line->path, line->number, "path_sl_file must be "
				   "an absolute path, not \"%s\"", line->value);
	if (strlen(line->value) >= sizeof(config->path_sl_file))
		return vlr_fail_at(err, line->path, line->number,
				   "path_sl_file is too long");
	strcpy(config->path_sl_file, line->value);
	return 0;
}

static int set_family(const struct conf_line *line, struct vlr_osm_config *config,
		      struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_topology_family_parse(line->value, &config->family, &why))
		return vlr_fail_at(err, line->path, line->number, "family is %s",
				   why.message);
	return 0;
}

static int set_vl_policy(const struct conf_line *line, struct vlr_osm_config *config,
			 struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_vl_policy_parse(line->value, &config->policy.kind, &why))
		return vlr_fail_at(err, line->path, line->number, "vl_policy: %s",
				   why.message);
	return 0;
}

static int set_phase_min(const struct conf_line *line, struct vlr_osm_config *config,
			 struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_phase_min_parse(line->value, &config->policy.phase_min, &why))
		return vlr_fail_at(err, line->path, line->number, "phase_min: %s",
				   why.message);
	config->phase_line = line->number;
	return 0;
}

static int set_vls_per_phase(const struct conf_line *line, struct vlr_osm_config *config,
			     struct vlr_error *err)
{
	if (parse_number(line->value, 1, VLR_MAX_VLS_PER_PHASE,
			 &config->policy.vls_per_phase))
		return vlr_fail_at(err, line->path, line->number, "vls_per_phase is a "
				   "number of VLs from 1 to %d, not \"%s\"",
				   VLR_MAX_VLS_PER_PHASE, line->value);
	config->phase_line = line->number;
	return 0;
}

static int set_dim_order(const struct conf_line *line, struct vlr_osm_config *config,
			 struct vlr_error *err)
{
	struct vlr_error why;

	if (vlr_dim_order_parse(line->value, config->dim_order, &config->dim_order_count,
				&why))
		return vlr_fail_at(err, line->path, line->number, "dim_order is %s",
				   why.message);
	return 0;
}

static int set_restricted(const struct conf_line *line, struct vlr_osm_config *config,
			  struct vlr_error *err)
{
	unsigned restricted;

	if (parse_number(line->value, 0, VLR_MAX_RESTRICTED, &restricted))
		return vlr_fail_at(err, line->path, line->number, "restricted is a number "
				   "of LID offsets from 0 to %d, not \"%s\"",
				   VLR_MAX_RESTRICTED, line->value);
	config->restricted = (int)restricted;
	return 0;
}

static const struct {
	const char *key;
	int (*set)(const struct conf_line *line, struct vlr_osm_config *config,
		   struct vlr_error *err);
} keys[] = {
	{ "heuristic", set_heuristic },
	{ "max_vls", set_max_vls },
	{ "balance", set_balance },
	{ "path_sl_file", set_path_sl_file },
	{ "family", set_family },
	{ "vl_policy", set_vl_policy },
	{ "phase_min", set_phase_min },
	{ "vls_per_phase", set_vls_per_phase },
	{ "dim_order", set_dim_order },
	{ "restricted", set_restricted },
};

/* Split text (one line, newline removed) into key and value; 1 if blank. */
static int split(char *text, struct conf_line *line, struct vlr_error *err)
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

static int apply(const struct conf_line *line, struct vlr_osm_config *config,
		 struct vlr_error *err)
{
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(line->key, keys[i].key))
			return keys[i].set(line, config, err);
	return vlr_fail_at(err, line->path, line->number, "unknown key \"%s\" (known: "
			   "heuristic, max_vls, balance, path_sl_file, family, vl_policy, "
			   "phase_min, vls_per_phase, dim_order, restricted)", line->key);
}

static int read_lines(FILE *in, const char *path, struct vlr_osm_config *config,
		      struct vlr_error *err)
{
	char text[CONF_LINE_SIZE];
	struct conf_line line;
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

	memset(config, 0, sizeof(*config));
	config->heuristic = VLR_HEURISTIC_WEAKEST;
	config->balance = 1;
	config->restricted = -1;
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
