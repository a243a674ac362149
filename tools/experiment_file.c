/*
 * experiment_file.c - reading an experiment file (YAML, by libyaml's
 * document loader) into sections of alternatives of keys.
 *
 * The file is a mapping: "title" (optional), "fabric", "route" and one
 * measurement, "sim" or "analyze"; "route" may be left out when the
 * measurement is sim, whose runs then simulate the fabric file by the
 * reference model (no table set). A section is a mapping, or a list of
 * mappings (alternatives, each swept). A key is an option of the command
 * its section runs, spelt as its long option without the dashes, with one
 * value or a list of values (swept); a flag takes true or false. Every key
 * is checked against the command's own option table here, so that a typo
 * is refused at FILE:LINE before anything runs. Keys the experiment sets
 * itself (output, json, threads, ...) are refused.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdarg.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli.h"
#include "experiment.h"

#define MAX_SEEDS 100000

struct reader {
	const char *path;
	yaml_document_t *doc;
	struct experiment *exp;
	struct vlr_error *err;
};

static const char *const section_names[EXP_SECTIONS] = { "fabric", "route", "measure" };

/* Keys the experiment itself gives, per section. */
static const char *const managed_keys[EXP_SECTIONS][10] = {
	{ "output", "version", "help", NULL },
	{ "output", "guid2lid", "version", "help", NULL },
	{ "json", "csv", "plot", "quiet", "threads", "fabric", "trace", "version", "help", NULL },
};

const char *exp_measure_name(enum exp_measure measure)
{
	return measure == EXP_SIM ? "sim" : "analyze";
}

int exp_has_route(const struct experiment *exp)
{
	return exp->sections[EXP_ROUTE].num_alts > 0;
}

const char *exp_section_name(const struct experiment *exp, enum exp_section_kind kind)
{
	return kind == EXP_MEASURE ? exp_measure_name(exp->measure) : section_names[kind];
}

static unsigned line_of(const yaml_node_t *node)
{
	return (unsigned)node->start_mark.line + 1;
}

static int fail_at(struct reader *r, const yaml_node_t *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct reader *r, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlr_vfail_at(r->err, r->path, line_of(node), fmt, ap);
	va_end(ap);
	return -1;
}

static const char *scalar(const yaml_node_t *node)
{
	return (const char *)node->data.scalar.value;
}

static char *copy(struct reader *r, const char *text)
{
	char *c = strdup(text);

	if (!c)
		vlr_fail(r->err, "out of memory reading %s", r->path);
	return c;
}

/* The option named key in options, or NULL. */
static const struct option *find_option(const struct option *options, const char *key)
{
	for (; options && options->name; options++)
		if (!strcmp(options->name, key))
			return options;
	return NULL;
}

static int is_managed(enum exp_section_kind kind, const char *key)
{
	const char *const *m;

	for (m = managed_keys[kind]; *m; m++)
		if (!strcmp(*m, key))
			return 1;
	return 0;
}

static const struct option *options_of(struct reader *r, enum exp_section_kind kind,
				       const char *family)
{
	if (kind == EXP_ROUTE)
		return cmd_route_options();
	if (kind == EXP_MEASURE)
		return r->exp->measure == EXP_SIM ? cmd_sim_options() : cmd_analyze_options();
	return family ? cmd_gen_options(family) : NULL;
}

/* A flag's value: true/false (and YAML 1.1's yes/no, on/off). */
static int flag_value(const char *text)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };
	unsigned i;

	for (i = 0; yes[i]; i++)
		if (!strcmp(text, yes[i]))
			return 1;
	for (i = 0; no[i]; i++)
		if (!strcmp(text, no[i]))
			return 0;
	return -1;
}

static int check_value(struct reader *r, enum exp_section_kind kind, const yaml_node_t *node,
		       const char *key, const struct option *option)
{
	const char *value = scalar(node);

	if (option && option->has_arg == no_argument && flag_value(value) < 0)
		return fail_at(r, node, "%s is a flag: true or false, not \"%s\"", key, value);
	if (!*value)
		return fail_at(r, node, "%s needs a value", key);
	if (kind == EXP_MEASURE && (!strcmp(key, "load") || !strcmp(key, "seed")) &&
	    strpbrk(value, ",:"))
		return fail_at(r, node, "%s takes one value per run; sweep with a YAML list "
			       "such as [0.2, 0.5, 1], not \"%s\"", key, value);
	return 0;
}

static int add_values(struct reader *r, enum exp_section_kind kind, struct exp_key *key,
		      const yaml_node_t *value, const struct option *option)
{
	yaml_node_item_t *item;
	yaml_node_t *node;

	if (value->type == YAML_SCALAR_NODE) {
		if (check_value(r, kind, value, key->name, option))
			return -1;
		key->values = calloc(1, sizeof(*key->values));
		if (!key->values || !(key->values[0] = copy(r, scalar(value))))
			return vlr_fail(r->err, "out of memory reading %s", r->path);
		key->num_values = 1;
		return 0;
	}
	if (value->type != YAML_SEQUENCE_NODE ||
	    value->data.sequence.items.top == value->data.sequence.items.start)
		return fail_at(r, value, "%s needs a value or a non-empty list of values",
			       key->name);
	key->values = calloc((size_t)(value->data.sequence.items.top -
				      value->data.sequence.items.start), sizeof(*key->values));
	if (!key->values)
		return vlr_fail(r->err, "out of memory reading %s", r->path);
	for (item = value->data.sequence.items.start; item < value->data.sequence.items.top;
	     item++) {
		node = yaml_document_get_node(r->doc, *item);
		if (node->type != YAML_SCALAR_NODE)
			return fail_at(r, node, "a value of %s is a list or mapping; values are "
				       "single words or numbers", key->name);
		if (check_value(r, kind, node, key->name, option))
			return -1;
		if (!(key->values[key->num_values++] = copy(r, scalar(node))))
			return -1;
	}
	return 0;
}

static struct exp_key *find_key(struct exp_alt *alt, const char *name)
{
	unsigned i;

	for (i = 0; i < alt->num_keys; i++)
		if (!strcmp(alt->keys[i].name, name))
			return &alt->keys[i];
	return NULL;
}

/* The fabric section's family: "gen: FAMILY", or NULL for "file:". */
static const char *fabric_family(struct reader *r, const yaml_node_t *map, int *has_file)
{
	yaml_node_pair_t *pair;
	const yaml_node_t *k, *v;
	const char *family = NULL;

	*has_file = 0;
	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(r->doc, pair->key);
		v = yaml_document_get_node(r->doc, pair->value);
		if (k->type != YAML_SCALAR_NODE)
			continue;
		if (!strcmp(scalar(k), "file"))
			*has_file = 1;
		else if (!strcmp(scalar(k), "gen") && v->type == YAML_SCALAR_NODE)
			family = scalar(v);
	}
	return family;
}

static int check_key(struct reader *r, enum exp_section_kind kind, const yaml_node_t *k,
		     const char *family, int has_file, const struct option **option)
{
	const char *name = scalar(k);
	char what[64];

	*option = NULL;
	if (kind == EXP_FABRIC && (!strcmp(name, "gen") || !strcmp(name, "file")))
		return 0;
	if (kind == EXP_MEASURE && !strcmp(name, "seeds") && r->exp->measure == EXP_SIM)
		return 0;
	if (kind == EXP_FABRIC && has_file)
		return fail_at(r, k, "fabric: \"%s\" does not go with file: (a fabric is read "
			       "from a file or generated with gen:)", name);
	if (is_managed(kind, name))
		return fail_at(r, k, "%s: the experiment sets \"%s\" itself", exp_section_name(
				       r->exp, kind), name);
	*option = find_option(options_of(r, kind, family), name);
	if (*option)
		return 0;
	if (kind == EXP_FABRIC)
		snprintf(what, sizeof(what), "vlroute gen %s", family);
	else
		snprintf(what, sizeof(what), "vlroute %s", exp_section_name(r->exp, kind));
	return fail_at(r, k, "\"%s\" is no option of %s (see its --help)", name, what);
}

static int read_pair(struct reader *r, enum exp_section_kind kind, struct exp_alt *alt,
		     const yaml_node_pair_t *pair, const char *family, int has_file)
{
	const yaml_node_t *k = yaml_document_get_node(r->doc, pair->key);
	const yaml_node_t *v = yaml_document_get_node(r->doc, pair->value);
	const struct option *option;
	struct exp_key *key;

	if (k->type != YAML_SCALAR_NODE)
		return fail_at(r, k, "keys are words");
	if (find_key(alt, scalar(k)) || (alt->label && !strcmp(scalar(k), "label")))
		return fail_at(r, k, "\"%s\" given twice", scalar(k));
	if (!strcmp(scalar(k), "label")) {
		if (v->type != YAML_SCALAR_NODE)
			return fail_at(r, v, "label is one word or phrase");
		alt->label = copy(r, scalar(v));
		return alt->label ? 0 : -1;
	}
	if (check_key(r, kind, k, family, has_file, &option))
		return -1;
	key = &alt->keys[alt->num_keys++];
	key->line = line_of(k);
	key->flag = option && option->has_arg == no_argument;
	key->name = copy(r, scalar(k));
	if (!key->name)
		return -1;
	return add_values(r, kind, key, v, option);
}

/* Remove alt's key k, keeping the order of the others. */
static void remove_key(struct exp_alt *alt, struct exp_key *key)
{
	unsigned v;

	for (v = 0; v < key->num_values; v++)
		free(key->values[v]);
	free(key->values);
	free(key->name);
	alt->num_keys--;
	memmove(key, key + 1, (size_t)(alt->keys + alt->num_keys - key) * sizeof(*key));
}

/* N numbers from first on, as the values of key. */
static int count_values(struct reader *r, struct exp_key *key, unsigned long long first,
			unsigned long long n)
{
	unsigned long long i;

	for (i = 0; i < key->num_values; i++)
		free(key->values[i]);
	free(key->values);
	key->num_values = 0;
	key->values = calloc(n, sizeof(*key->values));
	if (!key->values)
		return vlr_fail(r->err, "out of memory reading %s", r->path);
	for (i = 0; i < n; i++) {
		if (!(key->values[i] = malloc(24)))
			return vlr_fail(r->err, "out of memory reading %s", r->path);
		snprintf(key->values[i], 24, "%llu", first + i);
		key->num_values++;
	}
	return 0;
}

/* sim "seeds: N": seed takes the N values from seed (default 1) on. */
static int expand_seeds(struct reader *r, struct exp_alt *alt)
{
	struct exp_key *seeds = find_key(alt, "seeds"), *seed = find_key(alt, "seed");
	unsigned long long n, first = 1;
	char *end;

	if (!seeds)
		return 0;
	errno = 0;
	n = strtoull(seeds->values[0], &end, 10);
	if (seeds->num_values != 1 || *end || errno || n < 1 || n > MAX_SEEDS)
		return vlr_fail_at(r->err, r->path, seeds->line, "seeds is a count of seeds, "
				   "1..%u", MAX_SEEDS);
	if (seed && seed->num_values != 1)
		return vlr_fail_at(r->err, r->path, seeds->line, "give seed as a list or "
				   "seeds: N (from seed on), not both");
	if (seed && (first = strtoull(seed->values[0], &end, 10), *end))
		return vlr_fail_at(r->err, r->path, seed->line, "seed is a number, not \"%s\"",
				   seed->values[0]);
	if (!seed) {
		free(seeds->name);
		seeds->name = copy(r, "seed");
		return seeds->name ? count_values(r, seeds, first, n) : -1;
	}
	remove_key(alt, seeds);
	return count_values(r, find_key(alt, "seed"), first, n);
}

static int read_alt(struct reader *r, enum exp_section_kind kind, const yaml_node_t *map,
		    struct exp_alt *alt)
{
	yaml_node_pair_t *pair;
	const char *family;
	int has_file = 0;

	alt->line = line_of(map);
	if (map->type != YAML_MAPPING_NODE)
		return fail_at(r, map, "%s: a mapping of keys (or a list of them) here",
			       exp_section_name(r->exp, kind));
	family = kind == EXP_FABRIC ? fabric_family(r, map, &has_file) : NULL;
	if (kind == EXP_FABRIC && !family && !has_file)
		return fail_at(r, map, "fabric: give file: NET or gen: FAMILY");
	if (kind == EXP_FABRIC && family && has_file)
		return fail_at(r, map, "fabric: file: and gen: exclude each other");
	if (family && !cmd_gen_options(family))
		return fail_at(r, map, "fabric: vlroute gen knows no family \"%s\"", family);
	alt->keys = calloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start),
			   sizeof(*alt->keys));
	if (!alt->keys)
		return vlr_fail(r->err, "out of memory reading %s", r->path);
	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++)
		if (read_pair(r, kind, alt, pair, family, has_file))
			return -1;
	return kind == EXP_MEASURE ? expand_seeds(r, alt) : 0;
}

static int read_section(struct reader *r, enum exp_section_kind kind, const yaml_node_t *key,
			const yaml_node_t *node)
{
	struct exp_section *section = &r->exp->sections[kind];
	yaml_node_item_t *item;
	size_t n = 1;

	section->line = line_of(key);
	if (node->type == YAML_SEQUENCE_NODE)
		n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
	if (!n)
		return fail_at(r, node, "%s: an empty list", exp_section_name(r->exp, kind));
	section->alts = calloc(n, sizeof(*section->alts));
	if (!section->alts)
		return vlr_fail(r->err, "out of memory reading %s", r->path);
	if (node->type != YAML_SEQUENCE_NODE) {
		section->num_alts = 1;
		return read_alt(r, kind, node, &section->alts[0]);
	}
	for (item = node->data.sequence.items.start; item < node->data.sequence.items.top; item++)
		if (read_alt(r, kind, yaml_document_get_node(r->doc, *item),
			     &section->alts[section->num_alts++]))
			return -1;
	return 0;
}

static int section_of(struct reader *r, const char *name, enum exp_section_kind *kind)
{
	if (!strcmp(name, "fabric"))
		*kind = EXP_FABRIC;
	else if (!strcmp(name, "route"))
		*kind = EXP_ROUTE;
	else if (!strcmp(name, "sim") || !strcmp(name, "analyze")) {
		if (r->exp->sections[EXP_MEASURE].alts)
			return -1;
		*kind = EXP_MEASURE;
		r->exp->measure = !strcmp(name, "sim") ? EXP_SIM : EXP_ANALYZE;
	} else
		return -1;
	return 0;
}

/* results: a directory relative to the folder (or absolute). */
static int set_results(struct reader *r, const char *dir)
{
	size_t n = strlen(r->exp->folder) + strlen(dir) + 2;

	free(r->exp->results);
	r->exp->results = malloc(n);
	if (!r->exp->results)
		return vlr_fail(r->err, "out of memory reading %s", r->path);
	if (dir[0] == '/')
		snprintf(r->exp->results, n, "%s", dir);
	else
		snprintf(r->exp->results, n, "%s/%s", r->exp->folder, dir);
	return 0;
}

/* Whether the top mapping root has key k before pair (libyaml keeps both). */
static int given_before(struct reader *r, const yaml_node_t *root, const yaml_node_pair_t *pair,
			const yaml_node_t *k)
{
	const yaml_node_pair_t *p;
	const yaml_node_t *e;

	for (p = root->data.mapping.pairs.start; p < pair; p++) {
		e = yaml_document_get_node(r->doc, p->key);
		if (e->type == YAML_SCALAR_NODE && !strcmp(scalar(e), scalar(k)))
			return 1;
	}
	return 0;
}

static int read_top_pair(struct reader *r, const yaml_node_t *root, const yaml_node_pair_t *pair)
{
	const yaml_node_t *k = yaml_document_get_node(r->doc, pair->key);
	const yaml_node_t *v = yaml_document_get_node(r->doc, pair->value);
	enum exp_section_kind kind;

	if (k->type != YAML_SCALAR_NODE)
		return fail_at(r, k, "keys are words");
	if (given_before(r, root, pair, k))
		return fail_at(r, k, "\"%s\" given twice", scalar(k));
	if (!strcmp(scalar(k), "title") || !strcmp(scalar(k), "description") ||
	    !strcmp(scalar(k), "results")) {
		if (v->type != YAML_SCALAR_NODE || !*scalar(v))
			return fail_at(r, v, "%s is text", scalar(k));
		if (!strcmp(scalar(k), "title") && !(r->exp->title = copy(r, scalar(v))))
			return -1;
		if (!strcmp(scalar(k), "results"))
			return set_results(r, scalar(v));
		return 0;
	}
	if (section_of(r, scalar(k), &kind))
		return fail_at(r, k, "\"%s\": an experiment has title, description, results, "
			       "fabric, route and one of sim or analyze", scalar(k));
	return read_section(r, kind, k, v);
}

static int read_top(struct reader *r)
{
	const yaml_node_t *root = yaml_document_get_root_node(r->doc);
	yaml_node_pair_t *pair;
	unsigned kind;

	if (!root)
		return vlr_fail_at(r->err, r->path, 1, "empty experiment file");
	if (root->type != YAML_MAPPING_NODE)
		return fail_at(r, root, "an experiment is a mapping of title, fabric, route "
			       "and sim or analyze");
	for (pair = root->data.mapping.pairs.start; pair < root->data.mapping.pairs.top; pair++)
		if (read_top_pair(r, root, pair))
			return -1;
	if (!r->exp->results && set_results(r, "merged"))
		return -1;
	for (kind = 0; kind < EXP_SECTIONS; kind++)
		if (!r->exp->sections[kind].alts && kind != EXP_ROUTE)
			return vlr_fail_at(r->err, r->path, line_of(root), "no %s section",
					   kind == EXP_MEASURE ? "sim or analyze" :
					   section_names[kind]);
	if (!r->exp->sections[EXP_ROUTE].alts && r->exp->measure == EXP_ANALYZE)
		return vlr_fail_at(r->err, r->path, r->exp->sections[EXP_MEASURE].line,
				   "analyze rates a table set: it needs a route section (only "
				   "sim runs without one, by the reference model)");
	return 0;
}

static int load(struct reader *r, FILE *in)
{
	yaml_parser_t parser;
	int result = 0;

	if (!yaml_parser_initialize(&parser))
		return vlr_fail(r->err, "out of memory reading %s", r->path);
	yaml_parser_set_input_file(&parser, in);
	if (!yaml_parser_load(&parser, r->doc))
		result = vlr_fail_at(r->err, r->path, parser.problem_mark.line + 1, "%s%s%s",
				     parser.problem ? parser.problem : "not YAML",
				     parser.context ? " " : "",
				     parser.context ? parser.context : "");
	yaml_parser_delete(&parser);
	return result;
}

static int set_folder(struct experiment *exp, struct vlr_error *err)
{
	char *c = strdup(exp->path);

	if (!c)
		return vlr_fail(err, "out of memory reading %s", exp->path);
	exp->folder = realpath(dirname(c), NULL);
	free(c);
	return exp->folder ? 0 : vlr_fail(err, "%s: %s", exp->path, strerror(errno));
}

struct experiment *exp_read(const char *path, struct vlr_error *err)
{
	struct reader r = { path, NULL, NULL, err };
	yaml_document_t doc;
	FILE *in = fopen(path, "r");
	int result;

	if (!in) {
		vlr_fail(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	r.doc = &doc;
	r.exp = calloc(1, sizeof(*r.exp));
	if (!r.exp || !(r.exp->path = strdup(path))) {
		vlr_fail(err, "out of memory reading %s", path);
		result = -1;
	} else {
		result = set_folder(r.exp, err);	/* says why itself */
	}
	if (result) {
		fclose(in);
		exp_free(r.exp);
		return NULL;
	}
	result = load(&r, in);
	fclose(in);
	if (!result) {
		result = read_top(&r);
		yaml_document_delete(&doc);
	}
	if (result) {
		exp_free(r.exp);
		return NULL;
	}
	return r.exp;
}

static void free_alt(struct exp_alt *alt)
{
	unsigned k, v;

	for (k = 0; k < alt->num_keys; k++) {
		for (v = 0; v < alt->keys[k].num_values; v++)
			free(alt->keys[k].values[v]);
		free(alt->keys[k].values);
		free(alt->keys[k].name);
	}
	free(alt->keys);
	free(alt->label);
}

void exp_free(struct experiment *exp)
{
	unsigned s, a;

	if (!exp)
		return;
	for (s = 0; s < EXP_SECTIONS; s++) {
		for (a = 0; a < exp->sections[s].num_alts; a++)
			free_alt(&exp->sections[s].alts[a]);
		free(exp->sections[s].alts);
	}
	free(exp->title);
	free(exp->results);
	free(exp->folder);
	free(exp->path);
	free(exp);
}
