/*
 * file_engine.c - vlr_file's load step and its verdict on a directory
 * that lacks SL2VL or path SLs (see file_engine.h). A directory is
 * programmed only if it can be read whole, its fabric is the live subnet
 * node for node, link for link and LID for LID (else an LFT entry would
 * send a LID out of the wrong port), and it holds every table its routes
 * need; each refusal is one sentence naming the directory and the first
 * thing wrong, so that the administrator can fix it from OpenSM's log.
 * Tables marked unprogrammable (vlroute route --allow-unprogrammable,
 * for the simulator's ideal VLs) are refused whatever else they hold.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "file_engine.h"

const struct vlr_engine vlr_osm_file_row = {
	.name = "file",
	.summary = "programs a verified table directory",
	.deadlock_free = 1,
};

void vlr_osm_file_free(struct vlr_osm_file *file)
{
	vlr_tables_free(file->tables);
	file->tables = NULL;
}

/* The directory's tables, and who routed them. */
static int read_dir(const char *dir, unsigned num_vls, struct vlr_osm_file *file,
		    struct vlr_error *err)
{
	struct vlr_error why;

	file->tables = vlr_tables_read_dir(dir, NULL, num_vls, &file->notes, &why);
	if (!file->tables)
		return vlr_fail(err, "cannot load the tables of %s: %s", dir, why.message);
	if (vlr_route_info_read(dir, &file->info, &why))
		return vlr_fail(err, "cannot load the tables of %s: %s", dir, why.message);
	return 0;
}

/* Tables made for ideal VLs only, which nothing may program: -1. */
static int refuse_unprogrammable(const char *dir, const struct vlr_tables *tables,
				 struct vlr_error *err)
{
	char need[128];

	if (!tables->unprogrammable.marked)
		return 0;
	vlr_unprogrammable_describe(&tables->unprogrammable, need, sizeof(need));
	return vlr_fail(err, "the tables of %s are %s: they were routed with "
			"--allow-unprogrammable for vlroute sim --vl-mode ideal, and no SL2VL "
			"tables or path SLs can carry their VL policy; route the subnet into "
			"it again with a policy that fits", dir, need);
}

int vlr_osm_file_load(const struct vlr_osm_config *config, const char *conf_path,
		      const struct vlr_fabric *live, unsigned num_vls,
		      struct vlr_osm_file *file, const char **code, struct vlr_error *err)
{
	const char *dir = config->table_dir;
	struct vlr_error why;

	memset(file, 0, sizeof(*file));
	*code = VLR_ERR_CONFIG;
	if (!dir[0])
		return vlr_fail(err, "%s sets no table_dir: vlr_file has no tables to "
				"program; add \"table_dir /path/to/tables\" naming a "
				"directory written by vlroute route -o", conf_path);
	*code = VLR_ERR_TABLE_DIR;
	if (read_dir(dir, num_vls, file, err)) {
		vlr_osm_file_free(file);
		return -1;
	}
	*code = VLR_ERR_UNPROGRAMMABLE;
	if (refuse_unprogrammable(dir, file->tables, err)) {
		vlr_osm_file_free(file);
		return -1;
	}
	*code = VLR_ERR_OTHER_SUBNET;
	if (vlr_fabric_same_subnet(file->tables->fabric, dir, live, "the live subnet",
				   &why)) {
		vlr_osm_file_free(file);
		return vlr_fail(err, "the tables of %s are not for this subnet: %s; route "
				"this subnet into it again (vlroute route --guid2lid with "
				"OpenSM's LID cache)", dir, why.message);
	}
	*code = NULL;
	return 0;
}

/*
 * "no opensm-sl2vl.dump", "no vlroute-path-sl.dump" or both, named in the
 * form of the directory's LFTs (vlroute-sl2vl.bin beside vlroute-lfts.bin).
 */
static void missing(const struct vlr_tables_dir_notes *notes, char *out, size_t size)
{
	int compact = !strcmp(notes->lfts, VLR_FILE_LFTS_COMPACT);
	const char *sl2vl = compact ? VLR_FILE_SL2VL_COMPACT : VLR_FILE_SL2VL;
	const char *path_sl = compact ? VLR_FILE_PATH_SL_COMPACT : VLR_FILE_PATH_SL;

	if (!notes->has_sl2vl && !notes->has_path_sl)
		snprintf(out, size, "neither %s nor %s", sl2vl, path_sl);
	else
		snprintf(out, size, "no %s", notes->has_sl2vl ? path_sl : sl2vl);
}

/* What the missing files leave: every path on SL 0, SL i on VL i. */
static const char *assumed(const struct vlr_tables_dir_notes *notes)
{
	if (!notes->has_sl2vl && !notes->has_path_sl)
		return "every path would be on SL 0 and VL 0";
	return notes->has_sl2vl ? "every path would be on SL 0" :
	       "every SL would be on the VL of its number";
}

int vlr_osm_file_complete(const char *dir, const struct vlr_tables_dir_notes *notes,
			  const struct vlr_verify_report *check, struct vlr_error *err)
{
	char lacks[96], outcome[160];

	if ((notes->has_sl2vl && notes->has_path_sl) ||
	    (check->cdg_acyclic && check->sls_used <= 1 && check->vls_used <= 1))
		return 0;
	missing(notes, lacks, sizeof(lacks));
	if (!check->cdg_acyclic)
		snprintf(outcome, sizeof(outcome), "and then its routes form a channel "
			 "dependency cycle");
	else
		snprintf(outcome, sizeof(outcome), "yet its tables use %u SLs and %u VLs",
			 check->sls_used, check->vls_used);
	return vlr_fail(err, "%s has %s, so %s, %s: a directory without all three "
			"tables is taken only for routes on one SL and one VL without a "
			"cycle; write it with vlroute route -o or vlroute capture -o, "
			"which write them all", dir, lacks, assumed(notes), outcome);
}
