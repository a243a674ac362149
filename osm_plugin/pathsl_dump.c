/*
 * pathsl_dump.c - the path-SL file the plugin writes beside OpenSM's own
 * dumps (OpenSM 3.3 dumps LFTs and SL2VL tables but no path SLs). It is
 * written whole: into a temporary file in the same directory, renamed over
 * the old one only once complete, so a reader never sees half a file.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vlroute/tablefiles.h>

#include "vlroute_osm.h"

/* "DIR/.BASE.XXXXXX" beside path, for mkstemp. */
static int temporary_name(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	int dir_length = slash ? (int)(slash - path + 1) : 0;
	const char *base = slash ? slash + 1 : path;

	if (!*base)
		return -1;
	if (snprintf(out, size, "%.*s.%s.XXXXXX", dir_length, path, base) >= (int)size)
		return -1;
	return 0;
}

int vlr_osm_pathsl_dump(const struct vlr_tables *tables, const char *path,
			struct vlr_error *err)
{
	char temporary[VLR_OSM_PATH_SIZE + 16];
	struct vlr_error inner;
	FILE *out;
	int fd, result;

	if (temporary_name(path, temporary, sizeof(temporary)))
		return vlr_fail(err, "%s: not a usable file name", path);
	fd = mkstemp(temporary);
	if (fd < 0)
		return vlr_fail(err, "%s: cannot create a temporary file beside it: %s",
				path, strerror(errno));
	if (fchmod(fd, 0644)) {
		result = vlr_fail(err, "%s: cannot set its mode: %s", temporary,
				  strerror(errno));
		close(fd);
		unlink(temporary);
		return result;
	}
	out = fdopen(fd, "w");
	if (!out) {
		result = vlr_fail(err, "%s: cannot write: %s", temporary, strerror(errno));
		close(fd);
		unlink(temporary);
		return result;
	}
	result = vlr_pathsl_write(tables, out, &inner);
	if (fclose(out) && !result)
		result = vlr_fail(&inner, "cannot write: %s", strerror(errno));
	if (!result && rename(temporary, path))
		result = vlr_fail(&inner, "cannot rename %s into place: %s", temporary,
				  strerror(errno));
	if (result) {
		unlink(temporary);
		return vlr_fail(err, "%s: %s", path, inner.message);
	}
	return 0;
}
