/*
 * engine_glue.c - one routing run, as OpenSM's ucast_build_fwd_tables:
 * read the options, translate OpenSM's subnet, route it with vlroute's
 * engine (the registry row of this routing engine, with the options of
 * vlroute.conf) - or, for vlr_file, load the table directory made for it
 * (file_engine.c) - verify the tables in memory, index them by GUID for
 * the callbacks, and only if they pass copy every switch's LFT into
 * OpenSM's new_lft in one go. Any failure logs an "ERR VLRnn" line and
 * returns -1 before a single LFT entry is written, so OpenSM falls back
 * to the next engine of its list. Each run starts from scratch; the
 * previous run's tables are freed first.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <opensm/osm_switch.h>
#include <vlroute/formats.h>
#include <vlroute/topology.h>
#include <vlroute/verify.h>

#include "vlroute_osm.h"

/* Everything one run builds, freed together. */
struct run {
	struct vlr_osm_engine *engine;
	osm_opensm_t *osm;
	struct vlr_osm_config config;
	int config_read;
	struct vlr_osm_subnet subnet;
	struct vlr_osm_routing *routing;
	struct vlr_engine_report report;
	struct vlr_osm_file file;	/* vlr_file: what the load found */
	struct vlr_verify_report check;
	unsigned vls;
	double started, seconds_translate, seconds_load, seconds_verify;
};

/* The engine's registry row: what it promises and what it reports. */
static const struct vlr_engine *row(const struct run *run)
{
	return run->engine->engine;
}

void vlr_osm_routing_free(struct vlr_osm_routing *routing)
{
	if (!routing)
		return;
	vlr_tables_free(routing->tables);
	vlr_guid_map_free(&routing->switches);
	vlr_guid_map_free(&routing->endports);
	free(routing);
}

/* Where the path-SL file goes this run, or "" for nowhere. */
static void path_sl_target(const struct run *run, char *out, size_t size)
{
	const char *dir = run->osm->subn.opt.dump_files_dir;

	out[0] = '\0';
	if (run->config_read && run->config.path_sl_file[0])
		snprintf(out, size, "%s", run->config.path_sl_file);
	else if (osm_log_is_active(&run->osm->log, OSM_LOG_ROUTING) && dir && *dir)
		snprintf(out, size, "%s/%s", dir, VLR_FILE_PATH_SL);
}

/* The route-kind file (minimal, valiant) goes beside the path-SL file. */
static void valiant_target(const struct run *run, char *out, size_t size)
{
	char path_sl[VLR_OSM_PATH_SIZE];
	const char *slash;

	out[0] = '\0';
	path_sl_target(run, path_sl, sizeof(path_sl));
	slash = strrchr(path_sl, '/');
	if (slash)
		snprintf(out, size, "%.*s/%s", (int)(slash - path_sl), path_sl,
			 VLR_FILE_VALIANT);
}

typedef void (*dump_target)(const struct run *run, char *out, size_t size);

/* No dump may be left describing tables that are no longer in force. */
static void remove_stale(const struct run *run, dump_target target)
{
	char path[VLR_OSM_PATH_SIZE];

	target(run, path, sizeof(path));
	if (path[0] && unlink(path) == 0)
		vlr_osm_log(run->osm, OSM_LOG_INFO, run->engine->name,
			    "removed %s: it described tables no longer in force", path);
}

static int read_options(struct run *run)
{
	struct vlr_osm *plugin = run->engine->plugin;
	struct vlr_error err;

	if (vlr_osm_config_read(plugin->conf_path, plugin->conf_required, &run->config,
				&err)) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_CONFIG,
			      "%s; %s refuses to route until the configuration is fixed",
			      err.message, run->engine->name);
		return -1;
	}
	run->config_read = 1;
	return 0;
}

static int translate(struct run *run)
{
	struct vlr_error err;
	double start = vlr_clock_seconds();

	if (vlr_osm_subnet_read(run->osm, &run->subnet, &err)) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET,
			      "cannot translate OpenSM's subnet: %s", err.message);
		return -1;
	}
	run->vls = run->subnet.vls_offered;
	if (run->config.max_vls && run->config.max_vls < run->vls)
		run->vls = run->config.max_vls;
	run->routing = calloc(1, sizeof(*run->routing));
	if (!run->routing) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET,
			      "out of memory for the routing");
		return -1;
	}
	run->seconds_translate = vlr_clock_seconds() - start;
	return 0;
}

/* Empty tables for the translated subnet, whose fabric they take over. */
static int tables_for_subnet(struct run *run)
{
	struct vlr_error err;

	run->routing->tables = vlr_tables_new(run->subnet.fabric, run->vls, &err);
	if (!run->routing->tables) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET,
			      "cannot index OpenSM's subnet: %s", err.message);
		return -1;
	}
	run->routing->tables->owns_fabric = 1;
	run->subnet.fabric = NULL;
	return 0;
}

static int limited_by_max_vls(const struct run *run)
{
	return run->config.max_vls && run->config.max_vls < run->subnet.vls_offered;
}

/* Where the VL limit came from, for the advice of a VLR03 line. */
static void vl_limit(const struct run *run, char *out, size_t size)
{
	if (limited_by_max_vls(run))
		snprintf(out, size, "max_vls %u in %s allows only %u (the switch-to-switch "
			 "links offer %u)", run->config.max_vls,
			 run->engine->plugin->conf_path, run->vls, run->subnet.vls_offered);
	else
		snprintf(out, size, "the switch-to-switch links offer only %u", run->vls);
}

static void explain_vl_shortage(const struct run *run, const struct vlr_error *err)
{
	char limit[VLR_OSM_PATH_SIZE + 128];

	vl_limit(run, limit, sizeof(limit));
	if (row(run)->layers)
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_VLS,
			      "%s needs %u VLs to be deadlock-free, but %s - %s, set "
			      "escape yes in %s, or use routing_engine %s,minhop", row(run)->name,
			      run->report.layers, limit,
			      limited_by_max_vls(run) ? "raise max_vls" :
			      "raise max_op_vls (as far as the ports' VLCap allows)",
			      run->engine->plugin->conf_path, run->engine->name);
	else
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_VLS,
			      "%s; %s - choose another vl_policy in %s, raise max_op_vls "
			      "or max_vls, or use routing_engine %s,minhop", err->message,
			      limit, run->engine->plugin->conf_path, run->engine->name);
}

/* Tables that use a VL beyond those offered: ERR VLR03. */
static void explain_vl_use(const struct run *run)
{
	const struct vlr_verify_report *check = &run->check;
	char limit[VLR_OSM_PATH_SIZE + 128];

	vl_limit(run, limit, sizeof(limit));
	vlr_osm_error(run->osm, run->engine->name, VLR_ERR_VLS,
		      "the tables use %u VLs (mask 0x%04x), but %s - %s%s", check->vls_used,
		      check->vl_mask, limit, limited_by_max_vls(run) ? "raise max_vls" :
		      "raise max_op_vls (as far as the ports' VLCap allows)",
		      row(run)->run ? "" : ", or route the table directory again for "
		      "fewer VLs (vlroute route --vls)");
}

static void engine_options(const struct run *run, struct vlr_engine_options *options)
{
	const struct vlr_osm_config *config = &run->config;

	unsigned accepted = row(run)->options;

	vlr_engine_options_init(options);
	options->heuristic = config->heuristic;
	options->no_balance = !config->balance;
	if (accepted & VLR_ENGINE_OPT_NO_ESCAPE)
		options->no_escape = !config->escape;
	if (accepted & VLR_ENGINE_OPT_FAMILY)
		options->family = config->family;
	if (accepted & VLR_ENGINE_OPT_DIM_ORDER) {
		memcpy(options->dim_order, config->dim_order, sizeof(options->dim_order));
		options->dim_order_count = config->dim_order_count;
	}
	if (accepted & VLR_ENGINE_OPT_VL_POLICY)
		options->policy = config->policy;
	if (accepted & VLR_ENGINE_OPT_RESTRICTED)
		options->restricted = config->restricted;
}

/* Why the engine refused, or why its VL policy was refused: ERR VLR03 or VLR05. */
static void explain_refusal(const struct run *run, const struct vlr_error *err)
{
	if (row(run)->deadlock_free &&
	    (run->report.layers > run->vls || run->report.sls_used > VLR_NUM_SLS))
		explain_vl_shortage(run, err);
	else if (row(run)->needs_family && run->config.family != VLR_FAMILY_NONE)
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_ROUTE,
			      "cannot route the fabric as \"family %s\" of %s asks: %s",
			      vlr_topology_family_name(run->config.family),
			      run->engine->plugin->conf_path, err->message);
	else
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_ROUTE,
			      "cannot route the fabric: %s", err->message);
}

static int route(struct run *run)
{
	struct vlr_engine_options options;
	struct vlr_error err;

	if (tables_for_subnet(run))
		return -1;
	engine_options(run, &options);
	if (!row(run)->run(run->routing->tables, &options, &run->report, &err))
		return 0;
	explain_refusal(run, &err);
	return -1;
}

/* vlr_file: the tables of table_dir, if they are for the translated subnet. */
static int load(struct run *run)
{
	struct vlr_error err;
	const char *code;
	double start = vlr_clock_seconds();

	if (vlr_osm_file_load(&run->config, run->engine->plugin->conf_path,
			      run->subnet.fabric, run->vls, &run->file, &code, &err)) {
		vlr_osm_error(run->osm, run->engine->name, code, "%s", err.message);
		return -1;
	}
	run->routing->tables = run->file.tables;
	run->file.tables = NULL;
	run->seconds_load = vlr_clock_seconds() - start;
	return 0;
}

/* The step that makes the tables: a routing engine routes, vlr_file loads. */
static int make_tables(struct run *run)
{
	return row(run)->run ? route(run) : load(run);
}

/* The first line of the verifier's problem list. */
static void first_problem(const struct vlr_verify_report *check, char *out, size_t size)
{
	size_t length = strcspn(check->problems, "\n");

	if (length >= size)
		length = size - 1;
	memcpy(out, check->problems, length);
	out[length] = '\0';
}

static int verify(struct run *run)
{
	struct vlr_verify_report *check = &run->check;
	struct vlr_error err;
	char problem[512];
	double start = vlr_clock_seconds();
	int passed;

	if (vlr_verify(run->routing->tables, check, &err)) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_VERIFY,
			      "cannot verify the tables: %s", err.message);
		return -1;
	}
	run->seconds_verify = vlr_clock_seconds() - start;
	if (!row(run)->run && vlr_osm_file_complete(run->config.table_dir, &run->file.notes,
						    check, &err)) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_TABLE_DIR, "%s",
			      err.message);
		return -1;
	}
	if (row(run)->verify_policy && vlr_verify_policy(run->routing->tables, check, &err)) {
		explain_refusal(run, &err);
		return -1;
	}
	passed = row(run)->deadlock_free ? vlr_verify_passed(check) : check->bad_routes == 0;
	if (passed)
		return 0;
	if (check->bad_routes) {
		first_problem(check, problem, sizeof(problem));
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_VERIFY,
			      "the tables failed verification: %" PRIu64 " of %" PRIu64
			      " routes are not delivered (%" PRIu64 " loops, %" PRIu64
			      " dead ends, %" PRIu64 " misdelivered), first: %s",
			      check->bad_routes, check->routes, check->loops,
			      check->dead_ends, check->misdelivered, problem);
	} else if (!check->cdg_acyclic) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_VERIFY,
			      "the tables failed verification: channel dependency "
			      "cycle %s", check->cycle);
	} else {
		explain_vl_use(run);
	}
	return -1;
}

/* NodeGUID -> switch index, for the LFTs and the SL2VL callback. */
static int index_switches(struct run *run)
{
	const struct vlr_tables *tables = run->routing->tables;
	struct vlr_error err;
	uint32_t sw, taken = VLR_NONE;
	uint64_t guid = 0;

	if (vlr_guid_map_init(&run->routing->switches, tables->num_switches, &err))
		taken = VLR_GUID_MAP_FAILED;
	for (sw = 0; sw < tables->num_switches && taken == VLR_NONE; sw++) {
		guid = tables->fabric->nodes[tables->switch_node[sw]].guid;
		taken = vlr_guid_map_put(&run->routing->switches, guid, sw, &err);
	}
	if (taken == VLR_NONE)
		return 0;
	if (taken != VLR_GUID_MAP_FAILED)
		vlr_fail(&err, "two switches have GUID 0x%016" PRIx64, guid);
	vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET, "%s", err.message);
	return -1;
}

/* Linked CA and router ports by PortGUID, for the path-SL and SL2VL callbacks. */
static int index_endports(struct run *run)
{
	const struct vlr_fabric *fabric = run->routing->tables->fabric;
	struct vlr_guid_map *map = &run->routing->endports;
	struct vlr_error err;
	uint32_t node, number, slot, taken = VLR_NONE;
	uint64_t guid = 0;

	if (vlr_guid_map_init(map, fabric->num_ports, &err))
		taken = VLR_GUID_MAP_FAILED;
	for (node = 0; node < fabric->num_nodes && taken == VLR_NONE; node++) {
		if (vlr_node_is_switch(fabric, node))
			continue;
		for (number = 1; number <= fabric->nodes[node].num_ports &&
		     taken == VLR_NONE; number++) {
			slot = vlr_port_index(fabric, node, number);
			guid = fabric->ports[slot].guid;
			if (fabric->ports[slot].peer != VLR_NONE && guid)
				taken = vlr_guid_map_put(map, guid, slot, &err);
		}
	}
	if (taken == VLR_NONE)
		return 0;
	if (taken != VLR_GUID_MAP_FAILED)
		vlr_fail(&err, "two linked ports have GUID 0x%016" PRIx64, guid);
	vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET, "%s", err.message);
	return -1;
}

/* The GUID maps of the routing, from the fabric of its tables. */
static int index_routing(struct run *run)
{
	return index_switches(run) || index_endports(run) ? -1 : 0;
}

/* Our switch index of an OpenSM switch whose LFT can take our tables. */
static uint32_t our_switch(const struct run *run, const osm_switch_t *sw)
{
	const struct vlr_tables *tables = run->routing->tables;
	uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
	uint32_t index = vlr_guid_map_get(&run->routing->switches, guid);

	if (index == VLR_NONE) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET,
			      "switch 0x%016" PRIx64 " (%s) is not in the translated "
			      "subnet", guid, sw->p_node->print_desc);
		return VLR_NONE;
	}
	if (!sw->new_lft || sw->lft_size <= tables->max_lid) {
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_SUBNET,
			      "switch 0x%016" PRIx64 " (%s) has room for %u LFT entries, "
			      "the tables need %u", guid, sw->p_node->print_desc,
			      sw->new_lft ? sw->lft_size : 0, tables->max_lid + 1u);
		return VLR_NONE;
	}
	return index;
}

/* Check every switch first, then write every new_lft: all or nothing. */
static int program_lfts(struct run *run)
{
	cl_qmap_t *map = &run->osm->subn.sw_guid_tbl;
	const struct vlr_tables *tables = run->routing->tables;
	cl_map_item_t *item;

	for (item = cl_qmap_head(map); item != cl_qmap_end(map); item = cl_qmap_next(item))
		if (our_switch(run, (osm_switch_t *)item) == VLR_NONE)
			return -1;
	for (item = cl_qmap_head(map); item != cl_qmap_end(map); item = cl_qmap_next(item)) {
		osm_switch_t *sw = (osm_switch_t *)item;
		uint32_t index = our_switch(run, sw);

		memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
		memcpy(sw->new_lft + 1, vlr_tables_lft(tables, index) + 1, tables->max_lid);
	}
	return 0;
}

static void dump(const struct run *run, dump_target target, vlr_tables_writer writer,
		 const char *what)
{
	char path[VLR_OSM_PATH_SIZE];
	struct vlr_error err;

	target(run, path, sizeof(path));
	if (!path[0])
		return;
	if (vlr_tables_write_file(run->routing->tables, path, writer, &err))
		vlr_osm_error(run->osm, run->engine->name, VLR_ERR_DUMP, "%s", err.message);
	else
		vlr_osm_log(run->osm, OSM_LOG_VERBOSE, run->engine->name, "%s written to %s",
			    what, path);
}

/* The path SLs; the route kinds of minimal and valiant tables, if any. */
static void dump_files(const struct run *run)
{
	dump(run, path_sl_target, vlr_pathsl_write, "path SLs");
	if (run->routing->tables->lid_kind)
		dump(run, valiant_target, vlr_valiant_write, "route kinds");
	else
		remove_stale(run, valiant_target);
}

/* minimal, valiant: "hyperx sides=4x4 hosts=2, VL policy ladder (4 VLs) on 3 SLs, ..." */
static void describe_low_diameter(const struct run *run, char *out, size_t size)
{
	const struct vlr_engine_report *report = &run->report;
	char family[160], policy[96], offsets[96] = "";

	vlr_family_describe(&report->family, family, sizeof(family));
	vlr_vl_policy_describe(&run->routing->tables->policy, policy, sizeof(policy));
	if (report->valiant_offsets)
		snprintf(offsets, sizeof(offsets), ", LID offsets 1..%u valiant, %u of them "
			 "restricted (the last)", report->valiant_offsets,
			 report->restricted_offsets);
	snprintf(out, size, "%s, VL policy %s on %u SLs and %u of %u VLs%s, ", family,
		 policy, report->sls_used, report->vls_used, run->vls, offsets);
}

/* "routed", or for vlr_file "programmed /var/lib/tables (routed by dfsssp) onto" */
static void describe_action(const struct run *run, char *out, size_t size)
{
	const char *engine = run->file.info.engine;

	if (row(run)->run)
		snprintf(out, size, "routed");
	else if (engine[0])
		snprintf(out, size, "programmed %s (routed by %s) onto", run->config.table_dir,
			 engine);
	else
		snprintf(out, size, "programmed %s onto", run->config.table_dir);
}

/* What the engine did beyond shortest paths (vlr_file: the SLs and VLs), or "". */
static void describe_engine(const struct run *run, char *out, size_t size)
{
	out[0] = '\0';
	if (!row(run)->run)
		snprintf(out, size, "%u SLs on %u of %u VLs, ", run->check.sls_used,
			 run->check.vls_used, run->vls);
	else if (row(run)->layers)
		snprintf(out, size, "%u layers on %u of %u VLs (heuristic %s, "
			 "%" PRIu64 " cycles broken, %" PRIu32 " LIDs on escape paths), ",
			 run->report.layers, run->report.vls_used, run->vls,
			 vlr_heuristic_name(run->report.heuristic), run->report.cycles_broken,
			 run->report.escaped_lids);
	else if (row(run)->needs_family)
		describe_low_diameter(run, out, size);
}

/* "NOT deadlock-free (sssp: use vlr_dfsssp)": the verdict on tables with a cycle. */
static void not_deadlock_free(const struct run *run, char *out, size_t size)
{
	const char *alternative = row(run)->safe_alternative;

	if (alternative)
		snprintf(out, size, "NOT deadlock-free (%s: use vlr_%s)", row(run)->name,
			 alternative);
	else
		snprintf(out, size, "NOT deadlock-free");
}

/* "translate 0.03, paths 0.26, layers 2.99, verify 0.58" (vlr_file: load) */
static void describe_seconds(const struct run *run, char *out, size_t size)
{
	if (row(run)->run)
		snprintf(out, size, "translate %.2f, paths %.2f, layers %.2f, verify %.2f",
			 run->seconds_translate, run->report.seconds_paths,
			 run->report.seconds_layers, run->seconds_verify);
	else
		snprintf(out, size, "translate %.2f, load %.2f, verify %.2f",
			 run->seconds_translate, run->seconds_load, run->seconds_verify);
}

static void report_success(const struct run *run)
{
	const struct vlr_tables *tables = run->routing->tables;
	const struct vlr_verify_report *check = &run->check;
	char action[VLR_OSM_PATH_SIZE + 64], engine[512], seconds[128];
	char verdict[128] = "deadlock-free";

	describe_action(run, action, sizeof(action));
	describe_engine(run, engine, sizeof(engine));
	describe_seconds(run, seconds, sizeof(seconds));
	if (!check->cdg_acyclic)
		not_deadlock_free(run, verdict, sizeof(verdict));
	vlr_osm_log(run->osm, OSM_LOG_INFO, run->engine->name,
		    "%s %u switches, LIDs 1..%u, %u links (%u skipped): %sverified %" PRIu64
		    " routes, hops %u..%u, %s; %.2f s (%s)", action, tables->num_switches,
		    tables->max_lid, run->subnet.links, run->subnet.links_skipped, engine,
		    check->routes, check->hops_min, check->hops_max, verdict,
		    vlr_clock_seconds() - run->started, seconds);
}

int vlr_osm_engine_route(void *context)
{
	struct vlr_osm_engine *engine = context;
	struct run run;
	int result;

	memset(&run, 0, sizeof(run));
	run.engine = engine;
	run.osm = engine->plugin->osm;
	run.started = vlr_clock_seconds();
	vlr_osm_routing_free(engine->routing);
	engine->routing = NULL;

	result = read_options(&run) || translate(&run) || make_tables(&run) ||
		 verify(&run) || index_routing(&run) || program_lfts(&run) ? -1 : 0;
	if (result) {
		remove_stale(&run, path_sl_target);
		remove_stale(&run, valiant_target);
		vlr_osm_routing_free(run.routing);
	} else {
		report_success(&run);
		if (row(&run)->deadlock_free && !run.osm->subn.opt.qos)
			vlr_osm_error(run.osm, engine->name, VLR_ERR_QOS,
				      "QoS is off, so OpenSM will not program the SL2VL "
				      "tables that give every hop its VL: these routes are "
				      "NOT deadlock-free - enable QoS (-Q or 'qos TRUE')");
		dump_files(&run);
		engine->routing = run.routing;
	}
	vlr_osm_subnet_free(&run.subnet);
	vlr_osm_file_free(&run.file);
	return result;
}
