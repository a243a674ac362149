/*
 * tablefiles_dir.c - a table set as a directory of files: ours (written
 * whole: every file into a sibling temporary directory that is then
 * swapped into place, see util's vlr_whole_dir; its LFTs, SL2VL and path
 * SLs compact or as text), an OpenSM dump_files_dir, or the LFTs that
 * infiniband-diags' dump_fts or ibroute printed beside a topology.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vlroute/formats.h>

#include "tablefiles_internal.h"

#define PATH_SIZE 4096

/* ---- writing ------------------------------------------------------------ */

/*
 * The comment names the text dumps whatever the form: fabric.net stays the
 * same file, and its SHA-256 (the provenance's fabric_sha256) the same
 * hash, as in the directories of earlier releases.
 */
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

int vlr_tables_write_file(const struct vlr_tables *tables, const char *path,
			  vlr_tables_writer writer, struct vlr_error *err)
{
	struct vlr_whole_file file;
	struct vlr_error inner;

	if (vlr_whole_file_open(&file, path, err))
		return -1;
	if (vlr_whole_file_close(&file, writer(tables, file.out, &inner), &inner))
		return vlr_fail(err, "%s: %s", path, inner.message);
	return 0;
}

int tf_write_into(const struct vlr_tables *tables, const char *dir, const char *name,
		  vlr_tables_writer writer, struct vlr_error *err)
{
	char path[PATH_SIZE];
	struct vlr_error inner;
	FILE *out;
	int failed = 0;

	if (join(path, dir, name, err))
		return -1;
	out = fopen(path, "wx");
	if (!out)
		return vlr_fail(err, "%s: cannot create: %s", path, strerror(errno));
	if (writer(tables, out, &inner))
		failed = vlr_fail(err, "%s: %s", path, inner.message);
	return vlr_file_sync_close(out, failed, path, err);
}

/* What a table directory may hold, so what a new one may replace. */
static const char *const table_dir_files[] = {
	VLR_FILE_FABRIC, VLR_FILE_GUID2LID, VLR_FILE_LFTS, VLR_FILE_SL2VL,
	VLR_FILE_PATH_SL, VLR_FILE_LFTS_COMPACT, VLR_FILE_SL2VL_COMPACT,
	VLR_FILE_PATH_SL_COMPACT, VLR_FILE_VALIANT, VLR_FILE_ROUTE_INFO, VLR_FILE_PROVENANCE,
	NULL,
};

int vlr_tables_dir_open(struct vlr_whole_dir *dir, const char *path,
			struct vlr_error *err)
{
	return vlr_whole_dir_open(dir, path, table_dir_files, err);
}

/*
 * Tables for ideal VLs only have no SLs to program: no SL2VL or path-SL
 * dump (a reader that knows no mark then finds them incomplete, as the
 * plugin's vlr_file of earlier releases refuses them), and the mark in
 * vlroute-route.info, with the VLs they were made for, which the caller
 * may rewrite with what it knows.
 */
static int write_unprogrammable(const struct vlr_tables *tables, const char *dir,
				struct vlr_error *err)
{
	struct vlr_route_info info;

	memset(&info, 0, sizeof(info));
	info.seconds = -1;
	info.vls = tables->num_vls;
	info.unprogrammable = tables->unprogrammable;
	return vlr_route_info_write(dir, &info, err);
}

const struct tf_form_file tf_form_files[TF_FORM_FILES] = {
	{ { VLR_FILE_LFTS_COMPACT, VLR_FILE_LFTS },
	  { vlr_lfts_compact_write, vlr_lfts_write },
	  { vlr_lfts_compact_read, vlr_lfts_read } },
	{ { VLR_FILE_SL2VL_COMPACT, VLR_FILE_SL2VL },
	  { vlr_sl2vl_compact_write, vlr_sl2vl_write },
	  { vlr_sl2vl_compact_read, vlr_sl2vl_read } },
	{ { VLR_FILE_PATH_SL_COMPACT, VLR_FILE_PATH_SL },
	  { vlr_pathsl_compact_write, vlr_pathsl_write },
	  { vlr_pathsl_compact_read, vlr_pathsl_read } },
};

static int write_form(const struct vlr_tables *tables, const char *dir,
		      enum tf_form_table table, enum vlr_tables_form form,
		      struct vlr_error *err)
{
	const struct tf_form_file *file = &tf_form_files[table];

	return tf_write_into(tables, dir, file->name[form], file->write[form], err);
}

int vlr_tables_write_files(const struct vlr_tables *tables, const char *dir,
			   enum vlr_tables_form form, struct vlr_error *err)
{
	int programmable = !tables->unprogrammable.marked;

	if (tf_write_into(tables, dir, VLR_FILE_FABRIC, write_fabric, err) ||
	    tf_write_into(tables, dir, VLR_FILE_GUID2LID, write_guid2lid, err) ||
	    write_form(tables, dir, TF_FORM_LFTS, form, err) ||
	    (programmable && write_form(tables, dir, TF_FORM_SL2VL, form, err)) ||
	    (programmable && write_form(tables, dir, TF_FORM_PATH_SL, form, err)) ||
	    (!programmable && write_unprogrammable(tables, dir, err)))
		return -1;
	if (tables->lid_kind)
		return tf_write_into(tables, dir, VLR_FILE_VALIANT, vlr_valiant_write, err);
	return 0;
}

int vlr_tables_write_dir(const struct vlr_tables *tables, const char *dir,
			 enum vlr_tables_form form, struct vlr_error *err)
{
	struct vlr_whole_dir out;

	if (vlr_tables_dir_open(&out, dir, err))
		return -1;
	return vlr_whole_dir_close(&out, vlr_tables_write_files(tables, out.temporary, form,
								err), err);
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
	{ VLR_FILE_LFTS_COMPACT, vlr_lfts_compact_read },
	{ VLR_FILE_LFTS, vlr_lfts_read },
	{ VLR_FILE_DUMP_FTS, vlr_diags_lfts_read },
	{ VLR_FILE_IBROUTE, vlr_diags_lfts_read },
};

#define NUM_LFT_FILES (sizeof(lft_files) / sizeof(lft_files[0]))
#define OPENSM_LFTS (&lft_files[1])	/* opensm-lfts.dump's row */

/*
 * The one LFT file DIR holds (two would leave the choice to a guess); with
 * none, opensm-lfts.dump (OpenSM's dump_files_dir may lack it), whose
 * reader then says it cannot open it.
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
	return found ? found : OPENSM_LFTS;
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

/*
 * The SL2VL or path SLs in whichever form DIR holds them (both would
 * leave the choice to a guess); *name is the file read, or NULL.
 */
static int read_form(struct vlr_tables *tables, const char *dir, enum tf_form_table table,
		     int *found, const char **name, struct vlr_error *err)
{
	const struct tf_form_file *file = &tf_form_files[table];
	char path[2][PATH_SIZE];
	int form, there[2];

	*found = 0;
	*name = NULL;
	for (form = 0; form < 2; form++) {
		if (join(path[form], dir, file->name[form], err))
			return -1;
		there[form] = exists(path[form]);
	}
	if (there[0] && there[1])
		return vlr_fail(err, "%s: holds both %s and %s; keep the form to read and "
				"move the other away", dir, file->name[0], file->name[1]);
	for (form = 0; form < 2; form++) {
		if (!there[form])
			continue;
		*found = 1;
		*name = file->name[form];
		return file->read[form](tables, path[form], err);
	}
	return 0;
}

static int read_tables(struct vlr_tables *tables, const char *dir,
		       const struct lft_file *lfts, struct vlr_tables_dir_notes *notes,
		       struct vlr_error *err)
{
	int found;

	return read_table(tables, dir, lfts->name, lfts->read, 1, &found, err) ||
	       read_form(tables, dir, TF_FORM_SL2VL, &notes->has_sl2vl, &notes->sl2vl, err) ||
	       read_form(tables, dir, TF_FORM_PATH_SL, &notes->has_path_sl, &notes->path_sl,
			 err) ||
	       read_table(tables, dir, VLR_FILE_VALIANT, vlr_valiant_read, 0,
			  &notes->has_valiant, err) ? -1 : 0;
}

/*
 * Empty tables of the fabric, with num_vls data VLs or, for 0, those
 * DIR/vlroute-route.info says the tables were routed for (else
 * VLR_TABLES_DEFAULT_VLS), and the mark of tables made for ideal VLs only
 * from the same file; NULL having said why, the fabric still the caller's.
 */
static struct vlr_tables *new_tables(struct vlr_fabric *fabric, const char *dir,
				     unsigned num_vls, struct vlr_error *err)
{
	struct vlr_route_info info;
	struct vlr_tables *tables;
	struct vlr_error inner;

	if (vlr_route_info_read(dir, &info, err))
		return NULL;
	if (!num_vls)
		num_vls = info.vls > 0 ? (unsigned)info.vls : VLR_TABLES_DEFAULT_VLS;
	tables = vlr_tables_new(fabric, num_vls, &inner);
	if (!tables) {
		vlr_fail(err, "%s: %s", dir, inner.message);
		return NULL;
	}
	tables->unprogrammable = info.unprogrammable;
	return tables;
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
	tables = new_tables(fabric, dir, num_vls, err);
	if (!tables) {
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
