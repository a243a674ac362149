/*
 * tablefiles_routeinfo.c - vlroute-route.info: which engine made a table
 * directory, with which VL policy and LMC, and how long it took, so that
 * reports can show routing times and results their provenance.
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

int vlr_route_info_write(const char *dir, const struct vlr_route_info *info,
			 struct vlr_error *err)
{
	char path[4096];
	struct vlr_whole_file file;
	int bad;

	if (join_path(path, sizeof(path), dir, err) || vlr_whole_file_open(&file, path, err))
		return -1;
	bad = fprintf(file.out, "# vlroute-route.info: how these tables were made\n"
		      "engine %s\nseconds %.3f\n", info->engine, info->seconds) < 0;
	if (info->vl_policy[0])
		bad |= fprintf(file.out, "vl-policy %s\n", info->vl_policy) < 0;
	if (info->lmc >= 0)
		bad |= fprintf(file.out, "lmc %d\n", info->lmc) < 0;
	if (bad)
		vlr_fail(err, "%s: cannot write: %s", path, strerror(errno));
	return vlr_whole_file_close(&file, bad, err);
}

struct info_reader {
	struct vlr_lines lines;
	struct vlr_route_info *info;
};

/* "vl-policy TEXT" (to the end of the line) and "lmc N". */
static int read_policy_line(struct info_reader *reader, const char *line)
{
	struct vlr_route_info *info = reader->info;
	unsigned long lmc;
	char *end;

	if (!strncmp(line, "vl-policy ", 10)) {
		if (!line[10] || strlen(line + 10) >= sizeof(info->vl_policy))
			return vlr_fail_line(&reader->lines, "the VL policy is 1 to %zu "
					     "characters", sizeof(info->vl_policy) - 1);
		strcpy(info->vl_policy, line + 10);
	} else if (!strncmp(line, "lmc ", 4)) {
		lmc = strtoul(line + 4, &end, 10);
		if (end == line + 4 || *end || line[4] == '-' || lmc > VLR_MAX_LMC)
			return vlr_fail_line(&reader->lines, "lmc needs a number 0..%d, not "
					     "\"%s\"", VLR_MAX_LMC, line + 4);
		info->lmc = (int)lmc;
	}
	return 0;
}

/*
 * "engine NAME", "seconds S", "vl-policy TEXT" and "lmc N"; comments and
 * other keys are skipped.
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
	} else {
		return read_policy_line(reader, line);
	}
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
	if (join_path(path, sizeof(path), dir, err))
		return -1;
	if (access(path, F_OK))
		return 0;
	reader.info = info;
	if (vlr_lines_open(&reader.lines, path, err))
		return -1;
	result = vlr_lines_each(&reader.lines, read_info_line, &reader);
	vlr_lines_close(&reader.lines);
	return result;
}
