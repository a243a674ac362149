/*
 * vlroute_osm.h - the OpenSM plugin's internals, shared by its files:
 * the per-plugin context, the per-engine state, and the functions each
 * file offers the others (the options read from vlroute.conf are in
 * vlroute_conf.h, which has no OpenSM type).
 *
 * The plugin is the only part of vlroute that sees OpenSM's types. One
 * context (struct vlr_osm) exists per loaded plugin; it owns one engine
 * (struct vlr_osm_engine) per row of the library's engine registry, which
 * it registers as routing engine vlr_NAME, and vlr_file, which loads a
 * table directory instead of routing (file_engine.h); each engine owns
 * the tables of its last verified routing, if any.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_OSM_H
#define VLROUTE_OSM_H

#include <limits.h>
#include <stdint.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include <vlroute/engines.h>
#include <vlroute/fabric.h>
#include <vlroute/tables.h>

#include "file_engine.h"
#include "vlroute_conf.h"

/* ---- OpenSM's subnet as a fabric (subnet_to_fabric.c) -------------------- */

struct vlr_osm_subnet {
	struct vlr_fabric *fabric;
	unsigned vls_offered;		/* data VLs of the switch-to-switch links */
	unsigned links;			/* links taken */
	unsigned links_skipped;		/* cabled, but down or unhealthy */
};

/*
 * Translate p_osm->subn: every node, every link whose two ports are up
 * (INIT, ARMED or ACTIVE) and healthy, the LIDs and LMCs OpenSM assigned,
 * GUIDs and descriptions. Switches come first, then the other nodes, each
 * in ascending NodeGUID order, so the fabric does not depend on the order
 * of OpenSM's maps. Fails with the reason in err.
 */
int vlr_osm_subnet_read(osm_opensm_t *osm, struct vlr_osm_subnet *subnet,
			struct vlr_error *err);
void vlr_osm_subnet_free(struct vlr_osm_subnet *subnet);

/* ---- engines (plugin.c, engine_glue.c, callbacks.c) ---------------------- */

/* "vlr_" and the name of a registry row. */
#define VLR_OSM_NAME_SIZE 64

/* A verified routing and the lookups the callbacks need, by its fabric's GUIDs. */
struct vlr_osm_routing {
	struct vlr_tables *tables;		/* owns its fabric */
	struct vlr_guid_map switches;	/* NodeGUID -> switch index */
	struct vlr_guid_map endports;	/* PortGUID -> port slot */
};

struct vlr_osm;

struct vlr_osm_engine {
	struct vlr_osm *plugin;
	const struct vlr_engine *engine;	/* its row of the library's registry,
					   or vlr_osm_file_row (no run: it loads) */
	char name[VLR_OSM_NAME_SIZE];	/* "vlr_" and the row's name */
	struct vlr_osm_routing *routing;	/* last verified routing, NULL */
};

struct vlr_osm {
	osm_opensm_t *osm;
	char conf_path[VLR_OSM_PATH_SIZE];
	int conf_required;		/* conf_path came from VLROUTE_OSM_CONF */
	unsigned num_engines;
	struct vlr_osm_engine engines[];	/* one per registry row, in its order,
					   then vlr_file */
};

/* OpenSM's ucast_build_fwd_tables: 0 routed (or loaded) and programmed, -1 not. */
int vlr_osm_engine_route(void *context);

/* OpenSM's path_sl, update_sl2vl and destroy. */
uint8_t vlr_osm_path_sl(void *context, uint8_t path_sl_hint, const ib_net16_t slid,
			const ib_net16_t dlid);
void vlr_osm_update_sl2vl(void *context, osm_physp_t *port, uint8_t in_port_num,
			  uint8_t out_port_num, ib_slvl_table_t *table);
void vlr_osm_engine_destroy(void *context);

void vlr_osm_routing_free(struct vlr_osm_routing *routing);

/* ---- logging (log.c; the escaping is in vlroute_conf.h) ------------------- */

/* One line into OpenSM's log: "SOURCE: message". */
void vlr_osm_log(osm_opensm_t *osm, osm_log_level_t level, const char *source,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* An error line: "SOURCE: ERR CODE: message". */
void vlr_osm_error(osm_opensm_t *osm, const char *source, const char *code,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
