/*
 * plugin.c - the face OpenSM sees: the osm_event_plugin symbol (event
 * plugin interface version 2), whose construct step checks that the
 * running OpenSM is the one the plugin was built against, allocates the
 * per-plugin context and registers one routing engine vlr_NAME per engine
 * of the library's registry, and vlr_file (which loads a table directory
 * instead of routing), with osm_register_external_routing_engine().
 * OpenSM loads event plugins before it parses its routing_engine list, so
 * the names work there and in -R. OpenSM destroys the engines before the
 * plugin.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_version.h>

#include "vlroute_osm.h"

/*
 * The OpenSM this build is for. OpenSM itself compares the exported
 * osm_version string before it calls us; the construct step checks again
 * with the running OpenSM's own string, so the plugin refuses to touch an
 * OpenSM whose structures it was not compiled for. The test suite builds
 * a copy with VLR_OSM_VERSION_OVERRIDE to see that refusal.
 */
#ifdef VLR_OSM_VERSION_OVERRIDE
#define VLR_OSM_BUILT_FOR VLR_OSM_VERSION_OVERRIDE
#else
#define VLR_OSM_BUILT_FOR OSM_VERSION
#endif

#ifndef VLR_OSM_DEFAULT_CONF
#define VLR_OSM_DEFAULT_CONF "/etc/opensm/vlroute.conf"
#endif

#define PLUGIN_NAME "vlroute_osm"

/* OpenSM's setup step for one of our engines: the callbacks it uses. */
static int setup_engine(struct osm_routing_engine *re, struct osm_opensm *osm)
{
	struct vlr_osm_engine *engine = re->context;

	if (!engine || engine->plugin->osm != osm)
		return -1;
	re->build_lid_matrices = NULL;	/* OpenSM's min-hop matrices (multicast, SA) */
	re->ucast_build_fwd_tables = vlr_osm_engine_route;
	re->ucast_dump_tables = NULL;	/* 3.3 never calls it; see engine_glue.c */
	re->update_sl2vl = vlr_osm_update_sl2vl;
	re->update_vlarb = NULL;
	re->path_sl = vlr_osm_path_sl;
	re->mcast_build_stree = NULL;	/* OpenSM's own multicast trees */
	re->destroy = vlr_osm_engine_destroy;
	vlr_osm_log(osm, OSM_LOG_VERBOSE, engine->name, "set up (options from %s)",
		    engine->plugin->conf_path);
	return 0;
}

static void choose_conf_path(struct vlr_osm *plugin)
{
	const char *env = getenv("VLROUTE_OSM_CONF");

	plugin->conf_required = env && *env;
	snprintf(plugin->conf_path, sizeof(plugin->conf_path), "%s",
		 plugin->conf_required ? env : VLR_OSM_DEFAULT_CONF);
}

/* Register engine i of the plugin as vlr_ROW; 0 when OpenSM took it. */
static int register_engine(struct vlr_osm *plugin, unsigned i, const struct vlr_engine *row)
{
	struct vlr_osm_engine *engine = &plugin->engines[i];
	external_routing_engine_module_t module;
	cl_status_t status;

	engine->plugin = plugin;
	engine->engine = row;
	snprintf(engine->name, sizeof(engine->name), "vlr_%s", row->name);
	module.name = engine->name;
	module.setup = setup_engine;
	module.context = engine;
	status = osm_register_external_routing_engine(plugin->osm, &module, engine);
	if (status == CL_SUCCESS) {
		vlr_osm_log(plugin->osm, OSM_LOG_INFO, PLUGIN_NAME,
			    "routing engine %s registered", engine->name);
		return 0;
	}
	vlr_osm_error(plugin->osm, PLUGIN_NAME, VLR_ERR_REGISTER,
		      "OpenSM refused to register routing engine %s (status %d: "
		      "is the name taken, or the plugin loaded twice?)",
		      engine->name, (int)status);
	return -1;
}

/*
 * Register our engines: the registry's, then vlr_file. OpenSM has no way
 * to unregister one, and it dlcloses a plugin whose construct step fails:
 * so once one engine is registered the plugin must stay loaded, and a
 * later refusal only costs that engine. Returns the number registered.
 */
static unsigned register_engines(struct vlr_osm *plugin)
{
	unsigned count, i, registered = 0;
	const struct vlr_engine *rows = vlr_engines(&count);

	for (i = 0; i < plugin->num_engines; i++) {
		if (!register_engine(plugin, i, i < count ? &rows[i] : &vlr_osm_file_row))
			registered++;
		else if (!registered)
			return 0;
	}
	return registered;
}

static void *construct(osm_opensm_t *osm)
{
	struct vlr_osm *plugin;
	unsigned count;

	if (!osm)
		return NULL;
	/* osm_version is the first member in every OpenSM: safe to read. */
	if (!osm->osm_version || strcmp(osm->osm_version, VLR_OSM_BUILT_FOR)) {
		vlr_osm_error(osm, PLUGIN_NAME, VLR_ERR_VERSION,
			      "built for %s, but the running OpenSM is %s: refusing to "
			      "load; rebuild vlroute against this OpenSM's headers",
			      VLR_OSM_BUILT_FOR,
			      osm->osm_version ? osm->osm_version : "(no version)");
		return NULL;
	}
	vlr_engines(&count);
	count++;	/* vlr_file */
	plugin = calloc(1, sizeof(*plugin) + count * sizeof(plugin->engines[0]));
	if (!plugin) {
		vlr_osm_error(osm, PLUGIN_NAME, VLR_ERR_REGISTER, "out of memory");
		return NULL;
	}
	plugin->osm = osm;
	plugin->num_engines = count;
	choose_conf_path(plugin);
	vlr_osm_log(osm, OSM_LOG_INFO, PLUGIN_NAME, "vlroute %s loaded into %s; options "
		    "from %s%s", PACKAGE_VERSION, VLR_OSM_BUILT_FOR, plugin->conf_path,
		    plugin->conf_required ? " (VLROUTE_OSM_CONF)" : "");
	if (!register_engines(plugin)) {
		free(plugin);
		return NULL;
	}
	return plugin;
}

static void destruct(void *data)
{
	struct vlr_osm *plugin = data;
	unsigned i;

	if (!plugin)
		return;
	for (i = 0; i < plugin->num_engines; i++)
		vlr_osm_routing_free(plugin->engines[i].routing);
	free(plugin);
}

/* The symbol OpenSM looks up (OSM_EVENT_PLUGIN_IMPL_NAME); no events wanted. */
const osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = construct,
	.delete = destruct,
	.report = NULL,
};
