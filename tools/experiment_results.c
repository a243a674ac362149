/*
 * experiment_results.c - reading a run's result file back. The files are
 * JSON written by vlroute itself; JSON is YAML, so libyaml, which reads
 * the experiment files, reads them too and no second parser is needed.
 * Scalars keep their text: numbers go into the merged CSV exactly as the
 * measurement wrote them. YAML is more than JSON: a document with an alias
 * (a node given twice, maybe inside itself) or nested deeper than any
 * result is refused, so that writing it back ends.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "experiment.h"

struct exp_doc {
	yaml_document_t doc;
};

/* Checking that a document is a tree, nested at most EXP_DOC_DEPTH deep. */
struct tree_check {
	yaml_document_t *doc;
	unsigned char *seen;		/* per node: reached already */
	const char *path;
	struct vlr_error *err;
};

/*
 * Node index at depth (the root at 1) and below: each node reached once
 * (a second time is by an alias; an alias to a node's own ancestor makes
 * a cycle). Recursion stops at EXP_DOC_DEPTH + 1.
 */
static int check_node(struct tree_check *t, yaml_node_item_t index, unsigned depth)
{
	yaml_node_t *node = yaml_document_get_node(t->doc, index);
	yaml_node_item_t *item;
	yaml_node_pair_t *pair;

	if (t->seen[index - 1])
		return vlr_fail_at(t->err, t->path, node->start_mark.line + 1, "an alias (*) "
				   "of the node here; results are JSON, which has no aliases");
	t->seen[index - 1] = 1;
	if (node->type == YAML_SCALAR_NODE)
		return 0;
	if (depth > EXP_DOC_DEPTH)
		return vlr_fail_at(t->err, t->path, node->start_mark.line + 1, "nested deeper "
				   "than %u objects or arrays", EXP_DOC_DEPTH);
	if (node->type == YAML_SEQUENCE_NODE) {
		for (item = node->data.sequence.items.start; item < node->data.sequence.items.top;
		     item++)
			if (check_node(t, *item, depth + 1))
				return -1;
		return 0;
	}
	for (pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; pair++)
		if (check_node(t, pair->key, depth + 1) || check_node(t, pair->value, depth + 1))
			return -1;
	return 0;
}

/* 0 if doc is such a tree, else -1 with err saying why. */
static int check_tree(yaml_document_t *doc, const char *path, struct vlr_error *err)
{
	struct tree_check t = { doc, NULL, path, err };
	int result;

	t.seen = calloc((size_t)(doc->nodes.top - doc->nodes.start), 1);
	if (!t.seen)
		return vlr_fail(err, "%s: out of memory", path);
	result = check_node(&t, 1, 1);
	free(t.seen);
	return result;
}

struct exp_doc *exp_doc_read(const char *path, struct vlr_error *err)
{
	struct exp_doc *doc = calloc(1, sizeof(*doc));
	yaml_parser_t parser;
	FILE *in = fopen(path, "r");
	int loaded = 0;

	if (!in || !doc) {
		vlr_fail(err, "%s: %s", path, in ? "out of memory" : strerror(errno));
		free(doc);
		if (in)
			fclose(in);
		return NULL;
	}
	if (yaml_parser_initialize(&parser)) {
		yaml_parser_set_input_file(&parser, in);
		loaded = yaml_parser_load(&parser, &doc->doc);
		if (!loaded)
			vlr_fail_at(err, path, parser.problem_mark.line + 1, "%s",
				    parser.problem ? parser.problem : "not JSON");
		yaml_parser_delete(&parser);
	} else
		vlr_fail(err, "%s: out of memory", path);
	fclose(in);
	if (loaded && !yaml_document_get_root_node(&doc->doc)) {
		yaml_document_delete(&doc->doc);
		loaded = 0;
		vlr_fail(err, "%s: empty", path);
	} else if (loaded && check_tree(&doc->doc, path, err)) {
		yaml_document_delete(&doc->doc);
		loaded = 0;
	}
	if (!loaded) {
		free(doc);
		return NULL;
	}
	return doc;
}

void exp_doc_free(struct exp_doc *doc)
{
	if (!doc)
		return;
	yaml_document_delete(&doc->doc);
	free(doc);
}

static yaml_node_t *node_at(const struct exp_doc *doc, yaml_node_t *node, const char *name,
			    size_t length)
{
	yaml_document_t *d = (yaml_document_t *)&doc->doc;
	yaml_node_pair_t *pair;
	yaml_node_t *key;
	char *end;
	unsigned long i;

	if (node->type == YAML_MAPPING_NODE) {
		for (pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top;
		     pair++) {
			key = yaml_document_get_node(d, pair->key);
			if (key->type == YAML_SCALAR_NODE && key->data.scalar.length == length &&
			    !memcmp(key->data.scalar.value, name, length))
				return yaml_document_get_node(d, pair->value);
		}
		return NULL;
	}
	if (node->type != YAML_SEQUENCE_NODE)
		return NULL;
	i = strtoul(name, &end, 10);
	if (end != name + length ||
	    i >= (unsigned long)(node->data.sequence.items.top - node->data.sequence.items.start))
		return NULL;
	return yaml_document_get_node(d, node->data.sequence.items.start[i]);
}

static yaml_node_t *find(const struct exp_doc *doc, const char *path)
{
	yaml_node_t *node = yaml_document_get_root_node((yaml_document_t *)&doc->doc);
	size_t length;

	while (node && *path) {
		length = strcspn(path, ".");
		node = node_at(doc, node, path, length);
		path += length + (path[length] == '.');
	}
	return node;
}

const char *exp_doc_scalar(const struct exp_doc *doc, const char *path)
{
	yaml_node_t *node = find(doc, path);

	return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value :
	       NULL;
}

unsigned exp_doc_count(const struct exp_doc *doc, const char *path)
{
	yaml_node_t *node = find(doc, path);

	if (node && node->type == YAML_SEQUENCE_NODE)
		return (unsigned)(node->data.sequence.items.top - node->data.sequence.items.start);
	if (node && node->type == YAML_MAPPING_NODE)
		return (unsigned)(node->data.mapping.pairs.top - node->data.mapping.pairs.start);
	return 0;
}

const char *exp_doc_key(const struct exp_doc *doc, const char *path, unsigned i)
{
	yaml_node_t *node = find(doc, path), *key;

	if (!node || node->type != YAML_MAPPING_NODE || i >= exp_doc_count(doc, path))
		return NULL;
	key = yaml_document_get_node((yaml_document_t *)&doc->doc,
				     node->data.mapping.pairs.start[i].key);
	return key->type == YAML_SCALAR_NODE ? (const char *)key->data.scalar.value : NULL;
}

static void write_node(const struct exp_doc *doc, yaml_node_t *node, struct vlr_json *json,
		       const char *key)
{
	yaml_document_t *d = (yaml_document_t *)&doc->doc;
	yaml_node_item_t *item;
	yaml_node_pair_t *pair;
	yaml_node_t *k;

	switch (node->type) {
	case YAML_SCALAR_NODE:
		if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
			vlr_json_next(json, key);
			fputs((const char *)node->data.scalar.value, json->out);
		} else
			vlr_json_string_n(json, key, (const char *)node->data.scalar.value,
					  node->data.scalar.length);
		break;
	case YAML_SEQUENCE_NODE:
		vlr_json_open(json, key, '[', VLR_JSON_INLINE);
		for (item = node->data.sequence.items.start; item < node->data.sequence.items.top;
		     item++)
			write_node(doc, yaml_document_get_node(d, *item), json, NULL);
		vlr_json_close(json);
		break;
	case YAML_MAPPING_NODE:
		vlr_json_open(json, key, '{', VLR_JSON_INLINE);
		for (pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top;
		     pair++) {
			k = yaml_document_get_node(d, pair->key);
			if (k->type == YAML_SCALAR_NODE)
				write_node(doc, yaml_document_get_node(d, pair->value), json,
					   (const char *)k->data.scalar.value);
		}
		vlr_json_close(json);
		break;
	default:
		break;
	}
}

void exp_doc_write(const struct exp_doc *doc, const char *path, struct vlr_json *json,
		   const char *key)
{
	yaml_node_t *node = find(doc, path);

	if (node)
		write_node(doc, node, json, key);
}

/* One field from *p on (RFC 4180), into a new string; *p past its separator. */
static char *csv_take(const char **p, int *end_of_row)
{
	const char *s = *p, *start;
	size_t n = 0;
	char *out;
	int quoted = *s == '"';

	s += quoted;
	start = s;
	while (*s && (quoted ? !(*s == '"' && s[1] != '"') : !strchr(",\r\n", *s)))
		s += quoted && *s == '"' ? 2 : 1;	/* a doubled quote is one */
	out = malloc((size_t)(s - start) + 1);
	if (!out)
		return NULL;
	for (; start < s; start++) {
		out[n++] = *start;
		start += quoted && *start == '"';
	}
	out[n] = 0;
	s += quoted && *s == '"';
	*end_of_row = *s != ',';
	s += *s == '\r';
	*p = s + (*s != 0);
	return out;
}

static int csv_push(char ***items, unsigned *count, unsigned *cap, char *item)
{
	char **grown;

	if (!item)
		return -1;
	if (*count == *cap) {
		grown = realloc(*items, (*cap = *cap ? *cap * 2 : 64) * sizeof(*grown));
		if (!grown) {
			free(item);
			return -1;
		}
		*items = grown;
	}
	(*items)[(*count)++] = item;
	return 0;
}

char *exp_slurp(const char *path, size_t *length)
{
	struct stat st;
	char *text;
	FILE *in = fopen(path, "rb");

	if (!in || fstat(fileno(in), &st) || !(text = malloc((size_t)st.st_size + 1))) {
		if (in)
			fclose(in);
		return NULL;
	}
	*length = fread(text, 1, (size_t)st.st_size, in);
	fclose(in);
	text[*length] = 0;
	return text;
}

/* A NUL byte would end the text early: refuse it, naming its line. */
static int csv_nul(const char *text, size_t length, const char *path, struct vlr_error *err)
{
	const char *nul = memchr(text, 0, length);
	unsigned line = 1;

	if (!nul)
		return 0;
	for (; text < nul; text++)
		line += *text == '\n';
	return vlr_fail_at(err, path, line, "a NUL byte; not a CSV file");
}

struct exp_csv *exp_csv_read(const char *path, struct vlr_error *err)
{
	struct exp_csv *csv = calloc(1, sizeof(*csv));
	size_t length;
	char *text = exp_slurp(path, &length);
	const char *p = text;
	unsigned ncap = 0, fcap = 0, in_row = 0, header = 1, line = 1, i;
	int end = 1;

	if (!csv || !text) {
		vlr_fail(err, "%s: %s", path, text ? "out of memory" : strerror(errno));
		free(csv);
		free(text);
		return NULL;
	}
	if (csv_nul(text, length, path, err)) {
		free(csv);
		free(text);
		return NULL;
	}
	/* A comma at the very end is followed by an empty field, the row's last. */
	while (*p || !end) {
		if (csv_push(header ? &csv->names : &csv->fields, header ? &csv->columns :
			     &in_row, header ? &ncap : &fcap, csv_take(&p, &end)))
			goto fail;
		if (!end)
			continue;
		if (!header && in_row != (csv->rows + 1) * csv->columns) {
			vlr_fail_at(err, path, line, "%u fields where the header has %u",
				    in_row - csv->rows * csv->columns, csv->columns);
			goto fail_quiet;
		}
		csv->rows += !header;
		header = 0;
		line++;
	}
	free(text);
	return csv;
fail:
	vlr_fail(err, "%s: out of memory", path);
fail_quiet:
	for (i = 0; i < in_row; i++)
		free(csv->fields[i]);
	csv->rows = 0;
	free(text);
	exp_csv_free(csv);
	return NULL;
}

int exp_csv_read_if(const char *path, struct exp_csv **csv, struct vlr_error *err)
{
	struct stat st;

	*csv = NULL;
	if (stat(path, &st) && errno == ENOENT)
		return 0;
	*csv = exp_csv_read(path, err);
	return *csv ? 0 : -1;
}

void exp_csv_free(struct exp_csv *csv)
{
	unsigned i;

	if (!csv)
		return;
	for (i = 0; i < csv->columns; i++)
		free(csv->names[i]);
	for (i = 0; i < csv->rows * csv->columns; i++)
		free(csv->fields[i]);
	free(csv->names);
	free(csv->fields);
	free(csv);
}

const char *exp_csv_get(const struct exp_csv *csv, unsigned row, const char *name)
{
	unsigned c;

	for (c = 0; c < csv->columns; c++)
		if (!strcmp(csv->names[c], name))
			return row < csv->rows ? csv->fields[row * csv->columns + c] : NULL;
	return NULL;
}
