/*
 * file_engine.h - vlr_file, the plugin's engine that loads instead of
 * routing: the table directory of vlroute.conf's table_dir (written by
 * "vlroute route -o" or "vlroute capture -o") with its LFTs, SL2VL tables
 * and path SLs, held against the subnet OpenSM found. engine_glue.c runs
 * the load in place of a routing engine's route step; translating the
 * subnet, verifying, programming, dumping and reporting are the steps
 * every engine shares. Unlike "opensm -R file", which programs the LFTs
 * alone (the SA answers SL 0, SL2VL follows OpenSM's QoS defaults), the
 * SL2VL tables and path SLs are programmed too, so tables that need
 * several VLs stay deadlock-free.
 *
 * No OpenSM type appears here, so that test_osm_file checks every refusal
 * without OpenSM.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_FILE_ENGINE_H
#define VLROUTE_FILE_ENGINE_H

#include <vlroute/engines.h>
#include <vlroute/formats.h>
#include <vlroute/verify.h>

#include "vlroute_conf.h"

/*
 * vlr_file's row beside the library's registry: no run function (it loads
 * instead of routing), and deadlock-free: its tables must pass every
 * check of the verifier before a single LFT entry is written.
 */
extern const struct vlr_engine vlr_osm_file_row;

/* What a load found. */
struct vlr_osm_file {
	struct vlr_tables *tables;	/* own the directory's fabric */
	struct vlr_tables_dir_notes notes;
	struct vlr_route_info info;	/* the engine that routed it, if known */
};

/*
 * Load config->table_dir (its tables with num_vls data VLs) and check that
 * its fabric is `live`, the subnet OpenSM found (vlr_fabric_same_subnet).
 * 0 with file->tables set; else -1 with file->tables NULL, *code the
 * refusal's VLRnn (VLR02: no table_dir in conf_path; VLR10: the directory
 * cannot be read, with the reader's FILE:LINE; VLR12: its tables are
 * marked not programmable, what they need; VLR11: it describes another
 * subnet, with the first difference) and err the sentence.
 */
int vlr_osm_file_load(const struct vlr_osm_config *config, const char *conf_path,
		      const struct vlr_fabric *live, unsigned num_vls,
		      struct vlr_osm_file *file, const char **code, struct vlr_error *err);

/*
 * After verification: may tables read without SL2VL or without path SLs
 * be programmed? Without path SLs every path is on SL 0; without SL2VL
 * SL i is on VL i. That stands for tables that then use one SL and one
 * VL without a dependency cycle; for any other, -1 with err (VLR10) naming
 * what the directory lacks and what its tables need.
 */
int vlr_osm_file_complete(const char *dir, const struct vlr_tables_dir_notes *notes,
			  const struct vlr_verify_report *check, struct vlr_error *err);

void vlr_osm_file_free(struct vlr_osm_file *file);

#endif
