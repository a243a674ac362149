/*
 * tablefiles_dir.c - a table set as a directory of files: ours (written
 * whole, file by file), an OpenSM dump_files_dir, or the LFTs that
 * infiniband-diags' dump_fts or ibroute printed beside a topology.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vlroute/formats.h>

#include "tablefiles_internal.h"

#define PATH_SIZE 4096

/* ---- writing ------------------------------------------------------------ */

static int write_fabric(const struct vlr_tables *tables, FILE *out,
			struct vlr_error *err)
{
	return vlr_netfile_write(tables->fabric, out,
				 "The fabric of a vlroute table set; the LIDs are in the "
				 "comments.\nThe tables are in the opensm-*.dump, guid2lid "
				 "and vlroute-*.dump files beside it.", err);
}

static int write_guid2lid(const struct vlr_tables *tables, FILE *out,
			  struct vlr_error *err)
{
	return vlr_guid2lid_write(tables->fabric, out, err);
}

static int join(char *buf, const char *dir, const char *name, struct vlr_error *err)
{
	if (snprintf(buf, PATH_SIZE, "%s/%s", dir, name) >= PATH_SIZE)
		return vlr_fail(err, "%s/%s: path too long", dir, name);
	return 0;
}

/* "DIR/.BASE.XXXXXX" beside path, for mkstemp. */
static int temporary_name(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	int dir_length = slash ? (int)(slash - path + 1) : 0;
	const char *base = slash ? slash + 1 : path;

	return !*base || snprintf(out, size, "%.*s.%s.XXXXXX", dir_length, path,
				  base) >= (int)size ? -1 : 0;
}

/* A fresh temporary file beside path, with the umask's permissions. */
static FILE *open_temporary(const char *path, char *temporary, size_t size,
			    struct vlr_error *err)
{
	mode_t mask = umask(0);
	FILE *out;
	int fd;

	umask(mask);
	if (temporary_name(path, temporary, size)) {
		vlr_fail(err, "%s: not a usable file name", path);
		return NULL;
	}
	fd = mkstemp(temporary);
	if (fd < 0) {
		vlr_fail(err, "%s: cannot create a temporary file beside it: %s", path,
			 strerror(errno));
		return NULL;
	}
	out = fchmod(fd, 0666 & ~mask) ? NULL : fdopen(fd, "w");
	if (!out) {
		vlr_fail(err, "%s: cannot write: %s", temporary, strerror(errno));
		close(fd);
		unlink(temporary);
	}
	return out;
}

int vlr_tables_write_file(const struct vlr_tables *tables, const char *path,
			  vlr_tables_writer writer, struct vlr_error *err)
{
	char temporary[PATH_SIZE + 16];
	struct vlr_error inner;
	FILE *out = open_temporary(path, temporary, sizeof(temporary), err);
	int result;

	if (!out)
		return -1;
	result = writer(tables, out, &inner);
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

/* DIR/NAME written whole by writer. */
static int write_whole(const struct vlr_tables *tables, const char *dir,
		       const char *name, vlr_tables_writer writer, struct vlr_error *err)
{
	char path[PATH_SIZE];

	if (join(path, dir, name, err))
		return -1;
	return vlr_tables_write_file(tables, path, writer, err);
}

static int make_dir(const char *dir, struct vlr_error *err)
{
	struct stat info;

	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return vlr_fail(err, "%s: cannot create the directory: %s", dir,
				strerror(errno));
	if (stat(dir, &info) || !S_ISDIR(info.st_mode))
		return vlr_fail(err, "%s: exists and is not a directory", dir);
	return 0;
}

/*
 * DIR/vlroute-valiant.dump for tables with route kinds; for others, no such
 * file, lest one of earlier tables be read with these.
 */
static int write_valiant(const struct vlr_tables *tables, const char *dir,
			 struct vlr_error *err)
{
	char path[PATH_SIZE];

	if (tables->lid_kind)
		return write_whole(tables, dir, VLR_FILE_VALIANT, vlr_valiant_write, err);
	if (join(path, dir, VLR_FILE_VALIANT, err))
		return -1;
	if (unlink(path) && errno != ENOENT)
		return vlr_fail(err, "%s: cannot remove it (the tables have no route "
				"kinds): %s", path, strerror(errno));
	return 0;
}

int vlr_tables_write_dir(const struct vlr_tables *tables, const char *dir,
			 struct vlr_error *err)
{
	if (make_dir(dir, err) ||
	    write_whole(tables, dir, VLR_FILE_FABRIC, write_fabric, err) ||
	    write_whole(tables, dir, VLR_FILE_GUID2LID, write_guid2lid, err) ||
	    write_whole(tables, dir, VLR_FILE_LFTS, vlr_lfts_write, err) ||
	    write_whole(tables, dir, VLR_FILE_SL2VL, vlr_sl2vl_write, err) ||
	    write_whole(tables, dir, VLR_FILE_PATH_SL, vlr_pathsl_write, err) ||
	    write_valiant(tables, dir, err))
		return -1;
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The fabric, from fabric_path, DIR/fabric.net or DIR/opensm-subnet.lst. */
static int read_topology(struct vlr_fabric *fabric, const char *dir,
			 const char *fabric_path, struct vlr_tables_dir_notes *notes,
			 int *from_subnet_lst, struct vlr_error *err)
{
	char net[PATH_SIZE], lst[PATH_SIZE];

	*from_subnet_lst = 0;
	if (join(net, dir, VLR_FILE_FABRIC, err) || join(lst, dir, VLR_FILE_SUBNET_LST, err))
		return -1;
	if (!fabric_path && !exists(net) && exists(lst)) {
		*from_subnet_lst = 1;
		snprintf(notes->topology, sizeof(notes->topology), "%s", lst);
		return vlr_subnet_lst_read(fabric, lst, err);
	}
	if (!fabric_path && !exists(net))
		return vlr_fail(err, "%s: holds neither %s nor %s, and no fabric file was "
				"given", dir, VLR_FILE_FABRIC, VLR_FILE_SUBNET_LST);
	snprintf(notes->topology, sizeof(notes->topology), "%s",
		 fabric_path ? fabric_path : net);
	return vlr_netfile_read(fabric, notes->topology, NULL, err);
}

/* The LFT files a directory may hold, and their readers. */
static const struct lft_file {
	const char *name;
	int (*read)(struct vlr_tables *tables, const char *path, struct vlr_error *err);
} lft_files[] = {
	{ VLR_FILE_LFTS, vlr_lfts_read },
	{ VLR_FILE_DUMP_FTS, vlr_diags_lfts_read },
	{ VLR_FILE_IBROUTE, vlr_diags_lfts_read },
};

#define NUM_LFT_FILES (sizeof(lft_files) / sizeof(lft_files[0]))

/*
 * The one LFT file DIR holds (two would leave the choice to a guess); with
 * none, opensm-lfts.dump, whose reader then says it cannot open it.
 */
static const struct lft_file *find_lfts(const char *dir, struct vlr_error *err)
{
	const struct lft_file *found = NULL;
	char path[PATH_SIZE];
	unsigned i;

	for (i = 0; i < NUM_LFT_FILES; i++) {
		if (join(path, dir, lft_files[i].name, err))
			return NULL;
		if (!exists(path))
			continue;
		if (found) {
			vlr_fail(err, "%s: holds both %s and %s; keep the LFTs to read and "
				 "move the other away", dir, found->name, lft_files[i].name);
			return NULL;
		}
		found = &lft_files[i];
	}
	return found ? found : &lft_files[0];
}

/*
 * LIDs from DIR/guid2lid, or LMCs from opensm-lfts.dump for a subnet.lst
 * (the diags' dumps list only the LIDs the switches route: a subnet.lst
 * with them keeps LMC 0).
 */
static int read_lids(struct vlr_fabric *fabric, const char *dir, int from_subnet_lst,
		     struct vlr_tables_dir_notes *notes, struct vlr_error *err)
{
	char path[PATH_SIZE];

	if (join(path, dir, VLR_FILE_GUID2LID, err))
		return -1;
	if (exists(path)) {
		notes->has_guid2lid = 1;
		return vlr_guid2lid_read(fabric, path, &notes->guid2lid, err);
	}
	if (!from_subnet_lst || strcmp(notes->lfts, VLR_FILE_LFTS))
		return 0;
	if (join(path, dir, VLR_FILE_LFTS, err))
		return -1;
	notes->lmc_inferred = 1;
	return vlr_lfts_infer_lmc(fabric, path, err);
}

typedef int (*table_reader)(struct vlr_tables *tables, const char *path,
			    struct vlr_error *err);

/* Read DIR/NAME if it exists (or must); *found says whether it did. */
static int read_table(struct vlr_tables *tables, const char *dir, const char *name,
		      table_reader fn, int required, int *found, struct vlr_error *err)
{
	char path[PATH_SIZE];

	if (join(path, dir, name, err))
		return -1;
	*found = required || exists(path);
	return *found ? fn(tables, path, err) : 0;
}

static int read_tables(struct vlr_tables *tables, const char *dir,
		       const struct lft_file *lfts, struct vlr_tables_dir_notes *notes,
		       struct vlr_error *err)
{
	int found;

	return read_table(tables, dir, lfts->name, lfts->read, 1, &found, err) ||
	       read_table(tables, dir, VLR_FILE_SL2VL, vlr_sl2vl_read, 0,
			  &notes->has_sl2vl, err) ||
	       read_table(tables, dir, VLR_FILE_PATH_SL, vlr_pathsl_read, 0,
			  &notes->has_path_sl, err) ||
	       read_table(tables, dir, VLR_FILE_VALIANT, vlr_valiant_read, 0,
			  &notes->has_valiant, err) ? -1 : 0;
}

struct vlr_tables *vlr_tables_read_dir(const char *dir, const char *fabric_path,
				       unsigned num_vls,
				       struct vlr_tables_dir_notes *notes,
				       struct vlr_error *err)
{
	struct vlr_tables_dir_notes scratch;
	struct vlr_fabric *fabric = vlr_fabric_new();
	struct vlr_tables *tables;
	const struct lft_file *lfts;
	struct vlr_error inner;
	int from_subnet_lst;

	if (!notes)
		notes = &scratch;
	memset(notes, 0, sizeof(*notes));
	if (!fabric) {
		vlr_fail(err, "out of memory for the fabric");
		return NULL;
	}
	lfts = find_lfts(dir, err);
	if (lfts)
		notes->lfts = lfts->name;
	if (!lfts || read_topology(fabric, dir, fabric_path, notes, &from_subnet_lst, err) ||
	    read_lids(fabric, dir, from_subnet_lst, notes, err)) {
		vlr_fabric_free(fabric);
		return NULL;
	}
	tables = vlr_tables_new(fabric, num_vls, &inner);
	if (!tables) {
		vlr_fail(err, "%s: %s", dir, inner.message);
		vlr_fabric_free(fabric);
		return NULL;
	}
	tables->owns_fabric = 1;
	if (read_tables(tables, dir, lfts, notes, err)) {
		vlr_tables_free(tables);
		return NULL;
	}
	return tables;
}
