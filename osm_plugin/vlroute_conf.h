/*
 * vlroute_conf.h - the plugin's options as read from vlroute.conf(5), and
 * the one table of its keys: what each does, its values, its default and
 * the line that sets it. The reader (config.c) parses with the table and
 * takes its defaults from it; "vlroute osm-config" writes the commented
 * sample file from the same table. No OpenSM type appears here, so the
 * CLI includes this header and links config.c without OpenSM; the
 * plugin's error codes are here too, for its other OpenSM-free parts.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_CONF_H
#define VLROUTE_CONF_H

#include <limits.h>
#include <stddef.h>

#include <vlroute/engines.h>
#include <vlroute/fabric.h>
#include <vlroute/tables.h>
#include <vlroute/util.h>

#define VLR_OSM_PATH_SIZE PATH_MAX

/* Our error codes, in OpenSM's "ERR XXXX:" style; vlroute-osm(8) lists them. */
#define VLR_ERR_VERSION "VLR01"		/* OpenSM version differs from the build's */
#define VLR_ERR_CONFIG "VLR02"		/* vlroute.conf unreadable or wrong */
#define VLR_ERR_VLS "VLR03"		/* the fabric offers too few VLs */
#define VLR_ERR_SUBNET "VLR04"		/* OpenSM's subnet cannot be translated */
#define VLR_ERR_ROUTE "VLR05"		/* the engine cannot route the fabric */
#define VLR_ERR_VERIFY "VLR06"		/* the tables failed verification */
#define VLR_ERR_DUMP "VLR07"		/* a dump file cannot be written */
#define VLR_ERR_REGISTER "VLR08"	/* OpenSM refused to register an engine */
#define VLR_ERR_QOS "VLR09"		/* QoS off: OpenSM will not program SL2VL */
#define VLR_ERR_TABLE_DIR "VLR10"	/* vlr_file: table_dir unreadable or lacking */
#define VLR_ERR_OTHER_SUBNET "VLR11"	/* vlr_file: table_dir is of another subnet */
#define VLR_ERR_UNPROGRAMMABLE "VLR12"	/* vlr_file: table_dir is for ideal VLs only */

struct vlr_osm_config {
	enum vlr_heuristic heuristic;	/* heuristic weakest|strongest|first|all */
	unsigned max_vls;		/* max_vls N (1..15); 0: what the fabric offers */
	int balance;			/* balance yes|no */
	int escape;			/* escape yes|no */
	char path_sl_file[VLR_OSM_PATH_SIZE];	/* path_sl_file PATH; "" if not set */
	char table_dir[VLR_OSM_PATH_SIZE];	/* table_dir DIR (vlr_file); "" if not set */

	/* vlr_minimal and vlr_valiant */
	enum vlr_family family;		/* family F; VLR_FAMILY_NONE: any of the three */
	struct vlr_vl_policy policy;	/* vl_policy, phase_min, vls_per_phase */
	unsigned phase_line;		/* line of the last phase_min or vls_per_phase */
	unsigned dim_order[VLR_MAX_DIMS];	/* dim_order D,D,...: HyperX */
	unsigned dim_order_count;	/* 0: 0, 1, 2, ... */
	int restricted;			/* restricted N; -1: a quarter of the offsets */
};

/* One "KEY VALUE" line of a file, for a key's setter. */
struct vlr_osm_conf_line {
	const char *path;
	unsigned number;
	const char *key;
	const char *value;
};

/*
 * One key, in the order of vlroute.conf(5). A key whose default is a value
 * of its own (heuristic weakest) is written as that line; one whose
 * default is "not set" (max_vls: what the fabric offers) or that needs
 * another key (phase_min needs vl_policy 2phases) is written commented
 * out, with an example value.
 */
struct vlr_osm_conf_key {
	const char *key;
	const char *synopsis;		/* the values: "weakest|strongest|first|all" */
	const char *help;		/* what it does and its range; lines end in \n */
	const char *default_text;	/* the default, in words */
	const char *value;		/* the value written */
	int is_default;			/* 1: "KEY value" is the default line;
					   0: written as "#KEY value" */
	int (*set)(const struct vlr_osm_conf_line *line, struct vlr_osm_config *config,
		   struct vlr_error *err);
};

/* The keys, in the order of the man page; *count gets their number. */
const struct vlr_osm_conf_key *vlr_osm_conf_keys(size_t *count);

/* Every option at its default (the table's default lines applied). */
void vlr_osm_config_default(struct vlr_osm_config *config);

/*
 * Read the options from path into config (defaults first). A missing file
 * is no error unless required (the path came from VLROUTE_OSM_CONF). On a
 * problem err names FILE:LINE and -1 is returned.
 */
int vlr_osm_config_read(const char *path, int required, struct vlr_osm_config *config,
			struct vlr_error *err);

/*
 * The log escaping (escape.c), OpenSM-free too: text into out (size
 * bytes, NUL-terminated, cut at a whole escape): printable ASCII as it is,
 * a backslash as \\, every other byte as \xNN.
 * Every line the plugin logs goes through it.
 */
void vlr_osm_escape(const char *text, char *out, size_t size);

#endif
