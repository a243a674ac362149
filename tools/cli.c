/*
 * cli.c - messages, option values, the old short options and the version
 * every subcommand prints, lists of words, whole-file output, and the
 * provenance and report stream of results for the CLI.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commit.h"

void cli_error(const char *command, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s: ", command);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}

int cli_unsigned(const char *command, const char *option, const char *text,
		 unsigned long long min, unsigned long long max,
		 unsigned long long *value)
{
	char *end;

	errno = 0;
	*value = strtoull(text, &end, 10);
	if (!*text || *end || errno || text[0] == '-') {
		cli_error(command, "%s needs a whole number, not \"%s\"", option, text);
		return -1;
	}
	if (*value < min || *value > max) {
		cli_error(command, "%s is %s; allowed: %llu..%llu", option, text, min, max);
		return -1;
	}
	return 0;
}

void cli_list_add(char *out, size_t size, unsigned index, unsigned count,
		  const char *separator, const char *last, const char *item)
{
	size_t used = index ? strlen(out) : 0;

	snprintf(out + used, size - used, "%s%s",
		 !index ? "" : index + 1 == count ? last : separator, item);
}

void cli_engine_names(char *out, size_t size, const char *separator, const char *last)
{
	unsigned count, i;
	const struct vlr_engine *engines = vlr_engines(&count);

	out[0] = '\0';
	for (i = 0; i < count; i++)
		cli_list_add(out, size, i, count, separator, last, engines[i].name);
}

void cli_unknown_option(const char *command, char **argv, int optopt_value)
{
	extern int optind;

	if (optopt_value)
		cli_error(command, "unknown option or missing value: -%c (see --help)",
			  optopt_value);
	else
		cli_error(command, "unknown option or missing value: %s (see --help)",
			  argv[optind - 1]);
}

static void warn_renamed(const char *command, const struct cli_renamed *r)
{
	const char *space = r->value ? " " : "", *value = r->value ? r->value : "";

	if (r->now == r->old)
		cli_error(command, "note: -%c%s%s is now --%s; before this release it was "
			  "%s; this note will go in the next release", r->old, space, value,
			  r->name, r->was);
	else
		cli_error(command, "-%c%s%s is deprecated, use -%c%s%s (--%s); it will go "
			  "in the next release", r->old, space, value, r->now, space, value,
			  r->name);
}

int cli_getopt(const char *command, int argc, char **argv, const char *short_options,
	       const struct option *long_options, const struct cli_renamed *renamed)
{
	int index = -1, option = getopt_long(argc, argv, short_options, long_options, &index);
	const struct cli_renamed *r;

	if (index >= 0 || !renamed)	/* long options were never renamed */
		return option;
	for (r = renamed; r->old; r++)
		if (r->old == option && (!r->old_value || r->old_value(optarg))) {
			warn_renamed(command, r);
			return r->now;
		}
	return option;
}

int cli_version(void)
{
	printf("%s\n", PACKAGE_STRING);
	printf("commit:  %s\n", VLR_COMMIT);
	printf("plugin:  built against %s (OSM_VERSION of the OpenSM headers)\n",
	       VLR_OSM_HEADER_VERSION);
	return CLI_OK;
}

int cli_provenance_init(const char *command, const char *command_line,
			struct vlr_provenance *provenance)
{
	struct vlr_error err;

	if (!vlr_provenance_init(provenance, PACKAGE_VERSION, VLR_COMMIT, command_line, &err))
		return 0;
	cli_error(command, "%s", err.message);
	return -1;
}

int cli_provenance_tables(const char *command, struct vlr_provenance *provenance,
			  const char *dir, const char *fabric)
{
	struct vlr_provenance_tables *tables;
	struct vlr_error err;

	tables = vlr_provenance_add_tables(provenance, &err);
	if (tables && !vlr_tables_provenance(dir, fabric, tables, &err))
		return 0;
	cli_error(command, "%s", err.message);
	return -1;
}

int cli_provenance_dir_write(const char *command, const char *command_line,
			     const char *dir, const char *output,
			     const struct vlr_provenance_tables *hashed, char *hash)
{
	struct vlr_provenance provenance;
	struct vlr_provenance_tables *entry;
	struct vlr_error err;
	int status = -1;

	if (cli_provenance_init(command, command_line, &provenance))
		return -1;
	entry = vlr_provenance_add_tables(&provenance, &err);
	if (entry) {
		*entry = *hashed;
		snprintf(entry->path, sizeof(entry->path), "%s", output);
		if (hash)
			snprintf(hash, VLR_SHA256_HEX, "%s", entry->sha256);
		status = vlr_provenance_file_write(dir, &provenance, &err);
	}
	if (status)
		cli_error(command, "%s", err.message);
	vlr_provenance_free(&provenance);
	return status;
}

int cli_provenance_fabric(const char *command, struct vlr_provenance *provenance,
			  const char *fabric, const char *model)
{
	struct vlr_provenance_tables *tables;
	struct vlr_error err;

	tables = vlr_provenance_add_tables(provenance, &err);
	if (tables && !vlr_sha256_file(fabric, tables->fabric_sha256, &err)) {
		snprintf(tables->fabric, sizeof(tables->fabric), "%s", fabric);
		snprintf(tables->engine, sizeof(tables->engine), "reference");
		snprintf(tables->vl_policy, sizeof(tables->vl_policy), "%s", model);
		tables->lmc = 0;
		return 0;
	}
	cli_error(command, "%s", err.message);
	return -1;
}

int cli_is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

FILE *cli_report_stream(const char *json)
{
	return cli_is_stdout(json) ? stderr : stdout;
}

int cli_usage(FILE *out, const char *text, int status)
{
	fputs(text, out);
	return status;
}

struct vlr_fabric *cli_read_fabric(const char *command, const char *path)
{
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_netfile_notes notes;
	struct vlr_error err;

	if (!fabric) {
		cli_error(command, "out of memory");
		return NULL;
	}
	if (vlr_netfile_read(fabric, path, &notes, &err)) {
		cli_error(command, "%s", err.message);
		vlr_fabric_free(fabric);
		return NULL;
	}
	if (notes.ignored_commands)
		cli_error(command, "note: %u ibsim console command(s) (\"do ...\", first "
			  "at %s) describe run-time events and were not applied",
			  notes.ignored_commands, notes.first_ignored);
	return fabric;
}

FILE *cli_result_open(const char *command, const char *path, struct vlr_whole_file *file)
{
	struct vlr_error err;

	if (!path || !strcmp(path, "-"))
		return stdout;
	if (vlr_whole_file_open(file, path, &err)) {
		cli_error(command, "%s", err.message);
		return NULL;
	}
	return file->out;
}

int cli_result_close(const char *command, const char *path, struct vlr_whole_file *file,
		     FILE *out, int failed)
{
	struct vlr_error err;

	snprintf(err.message, sizeof(err.message), "%s: cannot write", path);
	if (out == stdout ? !failed : !vlr_whole_file_close(file, failed, &err))
		return 0;
	cli_error(command, "%s", err.message);
	return -1;
}

int cli_write_fabric(const char *command, const struct vlr_fabric *fabric,
		     const char *path, const char *header)
{
	struct vlr_whole_file file;
	struct vlr_error err;
	FILE *out = cli_result_open(command, path, &file);

	if (!out)
		return -1;
	if (!vlr_netfile_write(fabric, out, header, &err))
		return cli_result_close(command, path ? path : "-", &file, out, 0);
	cli_error(command, "%s", err.message);
	if (out != stdout)
		vlr_whole_file_close(&file, -1, NULL);
	return -1;
}

/*
 * Node-name maps rename the nodes of the fabric in memory, after every
 * input is read, because the reports that print names (verify's, analyze's
 * JSON, the simulator's deadlock report) live in the library and name
 * nodes by vlr_node_name: one rename reaches them all, where a display-name
 * array would have to be threaded through each. The price is that such a
 * fabric no longer describes the files, so only commands that write no
 * fabric or table file rename (capture renames after writing).
 */
int cli_node_name_map_read(const char *command, const char *path,
			   struct vlr_node_name_map **map)
{
	struct vlr_error err;

	*map = NULL;
	if (!path)
		return 0;
	*map = vlr_node_name_map_read(path, &err);
	if (!*map) {
		cli_error(command, "%s", err.message);
		return -1;
	}
	return 0;
}

int cli_node_name_map_apply(const char *command, const struct vlr_node_name_map *map,
			    struct vlr_fabric *fabric, unsigned *matched)
{
	struct vlr_error err;

	*matched = 0;
	if (!map)
		return 0;
	if (vlr_node_name_map_apply(map, fabric, matched, &err)) {
		cli_error(command, "%s", err.message);
		return -1;
	}
	return 0;
}

int cli_rename_nodes(const char *command, const char *path, struct vlr_fabric *fabric,
		     unsigned *matched)
{
	struct vlr_node_name_map *map;
	int result;

	*matched = 0;
	if (cli_node_name_map_read(command, path, &map))
		return -1;
	result = cli_node_name_map_apply(command, map, fabric, matched);
	vlr_node_name_map_free(map);
	return result;
}
