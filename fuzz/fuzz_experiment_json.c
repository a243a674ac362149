/*
 * fuzz_experiment_json.c - libFuzzer harness of the reader of run results
 * of vlroute experiment (exp_doc_read: the JSON of sim or analyze, read by
 * libyaml) and of what merge does with a result: scalars, counts and keys
 * at dotted paths (exp_doc_scalar, exp_doc_count, exp_doc_key) and nodes
 * written into summary.json (exp_doc_write). The reader may refuse an
 * input, with a message naming the file, but never crash, leak or hang;
 * at the paths merge reads and at every path of the document (up to
 * MAX_VISITS of them) the queries agree: a scalar has no items, and no
 * key lies past the last pair.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "fuzz_util.h"

#define MAX_VISITS 4096
#define FILE_NAME "run.json"

/* Where merge reads (experiment_merge.c), with a sequence index or two. */
static const char *const merge_paths[] = {
	"", "run", "settings", "commands", "result", "result.runs", "result.runs.0",
	"result.runs.0.bins", "result.runs.0.bins.0", "result.runs.0.bins.1",
	"result.runs.0.bin", "result.runs.0.warmup_bins", "result.runs.0.cycles",
	"result.runs.0.accepted", "result.runs.0.seconds", "result.runs.0.latency_avg",
	"result.patterns", "result.patterns.0", "result.patterns.0.name",
	"result.deadlock_free", "result.linkload.hops_mean", "result.provenance",
	"result.provenance.tables.0.sha256", "result.runs.99999999999999999999",
	"result.runs.-1", "result..runs", ".", NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* Where exp_doc_write writes: nowhere, opened once per process. */
static FILE *sink(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w")))
		fuzz_die("cannot open", "/dev/null");
	return null;
}

static void check_path(const struct exp_doc *doc, const char *path)
{
	unsigned n = exp_doc_count(doc, path), i;
	const char *scalar = exp_doc_scalar(doc, path);

	if (scalar && n)
		fuzz_die("a scalar with items", path);
	for (i = 0; i < n && i < 8; i++)
		exp_doc_key(doc, path, i);
	if (exp_doc_key(doc, path, n))
		fuzz_die("a key past the last pair", path);
}

/*
 * Every path from path down, depth first, while *visits lasts: a
 * mapping's items by their keys (those a dotted path can name), a
 * sequence's by index.
 */
static void walk(const struct exp_doc *doc, const char *path, unsigned *visits)
{
	char child[512];
	const char *key;
	unsigned n, i;

	if (++*visits > MAX_VISITS)
		return;
	check_path(doc, path);
	n = exp_doc_count(doc, path);
	for (i = 0; i < n && *visits <= MAX_VISITS; i++) {
		key = exp_doc_key(doc, path, i);
		if (key && (!*key || strchr(key, '.')))
			continue;
		if (snprintf(child, sizeof(child), "%s%s%s", path, *path ? "." : "",
			     key ? key : "") >= (int)sizeof(child))
			continue;
		if (!key)
			snprintf(child, sizeof(child), "%s%s%u", path, *path ? "." : "", i);
		walk(doc, child, visits);
	}
}

/* As merge writes a run into summary.json. */
static void write_run(const struct exp_doc *doc)
{
	struct vlr_json json;
	unsigned i;

	vlr_json_start(&json, sink());
	vlr_json_open(&json, NULL, '{', VLR_JSON_LINES);
	vlr_json_open(&json, "runs", '[', VLR_JSON_LINES);
	vlr_json_open(&json, NULL, '{', VLR_JSON_INLINE);
	for (i = 0; merge_paths[i]; i++)
		exp_doc_write(doc, merge_paths[i], &json, merge_paths[i]);
	vlr_json_close(&json);
	vlr_json_close(&json);
	vlr_json_close(&json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exp_doc *doc;
	struct vlr_error err;
	unsigned i, visits = 0;

	fuzz_write(fuzz_path(FILE_NAME), data, size);
	doc = exp_doc_read(fuzz_path(FILE_NAME), &err);
	if (!doc) {
		if (!strstr(err.message, FILE_NAME))
			fuzz_die("a refusal that does not name the file", err.message);
		return 0;
	}
	for (i = 0; merge_paths[i]; i++)
		check_path(doc, merge_paths[i]);
	walk(doc, "", &visits);
	write_run(doc);
	exp_doc_free(doc);
	return 0;
}
