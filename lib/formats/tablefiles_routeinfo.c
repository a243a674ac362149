/*
 * tablefiles_routeinfo.c - vlroute-route.info: which engine made a table
 * directory, with which VL policy, LMC and data VLs, and how long it took,
 * so that reports can show routing times and results their provenance,
 * the directory's readers can check its tables against the VLs they were
 * routed for without being told again, and whether its tables can be
 * programmed at all (tables made for the simulator's ideal VLs only carry
 * the mark, which every reader of the directory takes into the tables).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tablefiles_internal.h"

static int join_path(char *buf, size_t size, const char *dir, struct vlr_error *err)
{
	if ((size_t)snprintf(buf, size, "%s/%s", dir, VLR_FILE_ROUTE_INFO) >= size)
		return vlr_fail(err, "%s: the directory name is too long", dir);
	return 0;
}

static int write_info(FILE *out, const struct vlr_route_info *info)
{
	const struct vlr_unprogrammable *mark = &info->unprogrammable;
	char why[128];
	int bad = fprintf(out, "# vlroute-route.info: how these tables were made\n") < 0;

	if (info->engine[0])
		bad |= fprintf(out, "engine %s\n", info->engine) < 0;
	if (info->seconds >= 0)
		bad |= fprintf(out, "seconds %.3f\n", info->seconds) < 0;
	if (info->vl_policy[0])
		bad |= fprintf(out, "vl-policy %s\n", info->vl_policy) < 0;
	if (info->lmc >= 0)
		bad |= fprintf(out, "lmc %d\n", info->lmc) < 0;
	if (info->vls >= 1 && info->vls <= VLR_MAX_DATA_VLS)
		bad |= fprintf(out, "vls %d\n", info->vls) < 0;
	if (!mark->marked)
		return bad;
	vlr_unprogrammable_describe(mark, why, sizeof(why));
	return bad | (fprintf(out, "# %s: for vlroute sim --vl-mode ideal only\n"
			      "programmable no\nneeds-sls %u\nneeds-vls %u\noffered-vls %u\n",
			      why, mark->sls, mark->vls, mark->vls_offered) < 0);
}

int vlr_route_info_write(const char *dir, const struct vlr_route_info *info,
			 struct vlr_error *err)
{
	char path[4096];
	struct vlr_whole_file file;
	int bad;

	if (join_path(path, sizeof(path), dir, err) || vlr_whole_file_open(&file, path, err))
		return -1;
	bad = write_info(file.out, info);
	if (bad)
		vlr_fail(err, "%s: cannot write: %s", path, strerror(errno));
	return vlr_whole_file_close(&file, bad, err);
}

struct info_reader {
	struct vlr_lines lines;
	struct vlr_route_info *info;
};

/* The count after "KEY " in line, into *value. */
static int read_count(struct info_reader *reader, const char *line, size_t key,
		      unsigned *value)
{
	const char *s = line + key;
	uint32_t number;

	if (vlr_lex_dec(&s, &number) || *s)
		return vlr_fail_line(&reader->lines, "%.*s needs a count, not \"%s\"",
				     (int)key - 1, line, line + key);
	*value = number;
	return 0;
}

/* "programmable yes|no", "needs-sls N", "needs-vls N", "offered-vls N". */
static int read_mark_line(struct info_reader *reader, const char *line)
{
	struct vlr_unprogrammable *mark = &reader->info->unprogrammable;

	if (!strncmp(line, "programmable ", 13)) {
		if (strcmp(line + 13, "yes") && strcmp(line + 13, "no"))
			return vlr_fail_line(&reader->lines, "programmable is yes or no, not "
					     "\"%s\"", line + 13);
		mark->marked = !strcmp(line + 13, "no");
		return 0;
	}
	if (!strncmp(line, "needs-sls ", 10))
		return read_count(reader, line, 10, &mark->sls);
	if (!strncmp(line, "needs-vls ", 10))
		return read_count(reader, line, 10, &mark->vls);
	if (!strncmp(line, "offered-vls ", 12))
		return read_count(reader, line, 12, &mark->vls_offered);
	return 0;
}

/* The number low..high after "KEY " in line, into *value. */
static int read_bounded(struct info_reader *reader, const char *line, size_t key,
			int low, int high, int *value)
{
	const char *s = line + key;
	unsigned long number;
	char *end;

	number = strtoul(s, &end, 10);
	if (end == s || *end || *s == '-' || number < (unsigned long)low ||
	    number > (unsigned long)high)
		return vlr_fail_line(&reader->lines, "%.*s needs a number %d..%d, not "
				     "\"%s\"", (int)key - 1, line, low, high, s);
	*value = (int)number;
	return 0;
}

/* "vl-policy TEXT" (to the end of the line), "lmc N" and "vls N". */
static int read_policy_line(struct info_reader *reader, const char *line)
{
	struct vlr_route_info *info = reader->info;

	if (!strncmp(line, "vl-policy ", 10)) {
		if (!line[10] || strlen(line + 10) >= sizeof(info->vl_policy))
			return vlr_fail_line(&reader->lines, "the VL policy is 1 to %zu "
					     "characters", sizeof(info->vl_policy) - 1);
		strcpy(info->vl_policy, line + 10);
	} else if (!strncmp(line, "lmc ", 4)) {
		return read_bounded(reader, line, 4, 0, VLR_MAX_LMC, &info->lmc);
	} else if (!strncmp(line, "vls ", 4)) {
		return read_bounded(reader, line, 4, 1, VLR_MAX_DATA_VLS, &info->vls);
	}
	return 0;
}

/*
 * "engine NAME", "seconds S", "vl-policy TEXT", "lmc N" and "vls N", and
 * the mark; comments and other keys are skipped.
 */
static int read_info_line(void *context, const char *line)
{
	struct info_reader *reader = context;
	struct vlr_lines *lines = &reader->lines;
	struct vlr_route_info *info = reader->info;
	char *end;

	if (!strncmp(line, "engine ", 7)) {
		if (!line[7] || strlen(line + 7) >= sizeof(info->engine) ||
		    strchr(line + 7, ' '))
			return vlr_fail_line(lines, "the engine is one word of at most %zu "
					     "characters", sizeof(info->engine) - 1);
		strcpy(info->engine, line + 7);
	} else if (!strncmp(line, "seconds ", 8)) {
		info->seconds = strtod(line + 8, &end);
		if (end == line + 8 || *end || info->seconds < 0)
			return vlr_fail_line(lines, "seconds needs a number of seconds, not "
					     "\"%s\"", line + 8);
	} else if (read_policy_line(reader, line)) {
		return -1;
	}
	return read_mark_line(reader, line);
}

/* A mark without what the tables need is no mark to trust. */
static int check_mark(const struct info_reader *reader)
{
	const struct vlr_unprogrammable *mark = &reader->info->unprogrammable;

	if (mark->marked && (!mark->vls || (mark->sls <= VLR_NUM_SLS &&
					    mark->vls <= mark->vls_offered)))
		return vlr_fail(reader->lines.err, "%s: \"programmable no\" needs what the "
				"tables need: needs-sls above %d or needs-vls above "
				"offered-vls", reader->lines.path, VLR_NUM_SLS);
	return 0;
}

int vlr_route_info_read(const char *dir, struct vlr_route_info *info,
			struct vlr_error *err)
{
	char path[4096];
	struct info_reader reader;
	int result;

	memset(info, 0, sizeof(*info));
	info->seconds = -1.0;
	info->lmc = -1;
	info->vls = -1;
	if (join_path(path, sizeof(path), dir, err))
		return -1;
	if (access(path, F_OK))
		return 0;
	reader.info = info;
	if (vlr_lines_open(&reader.lines, path, err))
		return -1;
	result = vlr_lines_each(&reader.lines, read_info_line, &reader);
	if (!result)
		result = check_mark(&reader);
	vlr_lines_close(&reader.lines);
	return result;
}
