/*
 * tablefiles_convert.c - a table directory in the other form: its LFTs,
 * SL2VL and path SLs read in whichever form they are and written in the
 * one asked for, the files that have one form only copied byte for byte,
 * so that converting there and back gives the same files.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "tablefiles_internal.h"

#define PATH_SIZE 4096
#define COPY_CHUNK 65536

/* The files of a table directory that have one form, copied as they are. */
static const char *const copied_files[] = {
	VLR_FILE_FABRIC, VLR_FILE_GUID2LID, VLR_FILE_VALIANT, VLR_FILE_ROUTE_INFO, NULL,
};

static int copy_stream(FILE *in, FILE *out)
{
	char buf[COPY_CHUNK];
	size_t got;

	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, got, out) != got)
			return -1;
	return ferror(in) ? -1 : 0;
}

/* dir/name into into/name, if it exists. */
static int copy_file(const char *dir, const char *into, const char *name,
		     struct vlr_error *err)
{
	char from[PATH_SIZE], to[PATH_SIZE];
	FILE *in, *out;
	int failed;

	if (snprintf(from, sizeof(from), "%s/%s", dir, name) >= PATH_SIZE ||
	    snprintf(to, sizeof(to), "%s/%s", into, name) >= PATH_SIZE)
		return vlr_fail(err, "%s/%s: path too long", dir, name);
	in = fopen(from, "rb");
	if (!in)
		return errno == ENOENT ? 0 : vlr_fail(err, "%s: cannot open: %s", from,
						       strerror(errno));
	out = fopen(to, "wbx");
	if (!out) {
		vlr_fail(err, "%s: cannot create: %s", to, strerror(errno));
		fclose(in);
		return -1;
	}
	failed = copy_stream(in, out);
	if (failed)
		vlr_fail(err, "cannot copy %s to %s: %s", from, to, strerror(errno));
	fclose(in);
	return vlr_file_sync_close(out, failed, to, err);
}

/* Only our own directories, which have fabric.net ... */
static int check_fabric(const char *dir, struct vlr_error *err)
{
	char path[PATH_SIZE];

	snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_FABRIC);
	if (access(path, F_OK))
		return vlr_fail(err, "%s: holds no %s: only table directories vlroute wrote "
				"can be converted (an OpenSM dump_files_dir keeps its own "
				"files)", dir, VLR_FILE_FABRIC);
	return 0;
}

/* ... and LFTs in one of our forms. */
static int check_lfts(const char *dir, const struct vlr_tables_dir_notes *notes,
		      struct vlr_error *err)
{
	if (strcmp(notes->lfts, VLR_FILE_LFTS) && strcmp(notes->lfts, VLR_FILE_LFTS_COMPACT))
		return vlr_fail(err, "%s: its LFTs are %s, an infiniband-diags dump, which has "
				"no other form", dir, notes->lfts);
	return 0;
}

static int write_converted(const struct vlr_tables *tables, const char *dir,
			   enum vlr_tables_form form, const char *into,
			   const struct vlr_tables_dir_notes *notes, struct vlr_error *err)
{
	const int present[TF_FORM_FILES] = { 1, notes->has_sl2vl, notes->has_path_sl };
	unsigned i;

	for (i = 0; i < TF_FORM_FILES; i++)
		if (present[i] && tf_write_into(tables, into, tf_form_files[i].name[form],
						tf_form_files[i].write[form], err))
			return -1;
	for (i = 0; copied_files[i]; i++)
		if (copy_file(dir, into, copied_files[i], err))
			return -1;
	return 0;
}

int vlr_tables_convert_files(const char *dir, enum vlr_tables_form form, const char *into,
			     struct vlr_tables_dir_notes *notes, struct vlr_error *err)
{
	struct vlr_tables_dir_notes scratch;
	struct vlr_tables *tables;
	int result;

	if (!notes)
		notes = &scratch;
	if (check_fabric(dir, err))
		return -1;
	tables = vlr_tables_read_dir(dir, NULL, VLR_MAX_DATA_VLS, notes, err);
	if (!tables)
		return -1;
	result = check_lfts(dir, notes, err) ||
		 write_converted(tables, dir, form, into, notes, err) ? -1 : 0;
	vlr_tables_free(tables);
	return result;
}
