/*
 * provenance.c - what made a result, from what, where and when: the
 * version and commit, the command line, the table sets (their hashes and
 * how they were routed), the seeds, the host and the date, and that
 * record as JSON. The formats part fills in the table sets (it reads
 * table directories); the CLI passes the version, the commit and the
 * command line.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vlroute/util.h>

/* A word a POSIX shell reads as itself (the characters Python's shlex.quote leaves). */
static int shell_safe(const char *word)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_@%+=:,./-";

	return *word && word[strspn(word, safe)] == '\0';
}

/* Bytes word takes quoted: the quotes, and '"'"' for each quote in it. */
static size_t quoted_size(const char *word)
{
	size_t size = strlen(word);
	const char *q;

	if (shell_safe(word))
		return size;
	for (q = word; (q = strchr(q, '\'')) != NULL; q++)
		size += 4;
	return size + 2;
}

static char *put_quoted(char *out, const char *word)
{
	size_t length = strlen(word);

	if (shell_safe(word)) {
		memcpy(out, word, length);
		return out + length;
	}
	*out++ = '\'';
	for (; *word; word++) {
		if (*word == '\'') {
			memcpy(out, "'\"'\"'", 5);
			out += 5;
		} else {
			*out++ = *word;
		}
	}
	*out++ = '\'';
	return out;
}

char *vlr_shell_join(int argc, char *const *argv)
{
	size_t size = 1;
	char *text, *end;
	int i;

	for (i = 0; i < argc; i++)
		size += quoted_size(argv[i]) + 1;
	text = malloc(size);
	if (!text)
		return NULL;
	end = text;
	for (i = 0; i < argc; i++) {
		if (i)
			*end++ = ' ';
		end = put_quoted(end, argv[i]);
	}
	*end = '\0';
	return text;
}

int vlr_provenance_init(struct vlr_provenance *p, const char *version, const char *commit,
			const char *command_line, struct vlr_error *err)
{
	time_t now = time(NULL);
	struct tm utc;

	memset(p, 0, sizeof(*p));
	snprintf(p->version, sizeof(p->version), "%s", version);
	snprintf(p->commit, sizeof(p->commit), "%s", commit);
	p->command_line = strdup(command_line);
	if (!p->command_line)
		return vlr_fail(err, "out of memory for the command line");
	if (gethostname(p->host, sizeof(p->host)))
		p->host[0] = '\0';
	p->host[sizeof(p->host) - 1] = '\0';
	if (!gmtime_r(&now, &utc) ||
	    !strftime(p->date, sizeof(p->date), "%Y-%m-%dT%H:%M:%SZ", &utc))
		p->date[0] = '\0';
	return 0;
}

struct vlr_provenance_tables *vlr_provenance_add_tables(struct vlr_provenance *p,
							 struct vlr_error *err)
{
	struct vlr_provenance_tables *grown, *t;

	grown = realloc(p->tables, (p->num_tables + 1) * sizeof(*grown));
	if (!grown) {
		vlr_fail(err, "out of memory for the provenance of %u table sets",
			 p->num_tables + 1);
		return NULL;
	}
	p->tables = grown;
	t = &grown[p->num_tables++];
	memset(t, 0, sizeof(*t));
	t->lmc = -1;
	return t;
}

void vlr_provenance_free(struct vlr_provenance *p)
{
	free(p->command_line);
	free(p->tables);
	p->command_line = NULL;
	p->tables = NULL;
	p->num_tables = 0;
}

/* text, or null when it is empty (not known). */
static void string_or_null(struct vlr_json *json, const char *key, const char *text)
{
	if (text && *text)
		vlr_json_string(json, key, text);
	else
		vlr_json_null(json, key);
}

static void write_tables(const struct vlr_provenance_tables *t, struct vlr_json *json)
{
	vlr_json_open(json, NULL, '{', VLR_JSON_INLINE);
	string_or_null(json, "path", t->path);
	string_or_null(json, "sha256", t->sha256);
	string_or_null(json, "fabric", t->fabric);
	string_or_null(json, "fabric_sha256", t->fabric_sha256);
	string_or_null(json, "engine", t->engine);
	string_or_null(json, "vl_policy", t->vl_policy);
	if (t->lmc >= 0)
		vlr_json_uint(json, "lmc", (unsigned)t->lmc);
	else
		vlr_json_null(json, "lmc");
	vlr_json_close(json);
}

void vlr_provenance_write_json(const struct vlr_provenance *p, const char *key,
			       struct vlr_json *json)
{
	unsigned i;

	vlr_json_open(json, key, '{', VLR_JSON_LINES);
	string_or_null(json, "version", p->version);
	string_or_null(json, "commit", p->commit);
	string_or_null(json, "command_line", p->command_line);
	vlr_json_open(json, "tables", '[', VLR_JSON_LINES);
	for (i = 0; i < p->num_tables; i++)
		write_tables(&p->tables[i], json);
	vlr_json_close(json);
	vlr_json_open(json, "seeds", '[', VLR_JSON_INLINE);
	for (i = 0; i < p->num_seeds; i++)
		vlr_json_uint(json, NULL, p->first_seed + i);
	vlr_json_close(json);
	string_or_null(json, "host", p->host);
	string_or_null(json, "date", p->date);
	vlr_json_close(json);
}
