/*
 * capture.c - a whole capture over a MAD transport: discover the fabric,
 * build its struct vlr_fabric and tables, read the LFTs and SL2VL tables,
 * ask the SA for path SLs, check that nothing changed, and report.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "capture_internal.h"

#define DEFAULT_VLS 8		/* when no port says how many it has */

void vlr_capture_options_init(struct vlr_capture_options *options)
{
	memset(options, 0, sizeof(*options));
	options->timeout_ms = 1000;
	options->retries = 3;
	options->window = 16;
}

static void count_fabric(const struct vlr_fabric *fabric, struct vlr_capture_report *report)
{
	uint32_t node, port;

	for (node = 0; node < fabric->num_nodes; node++) {
		if (vlr_node_is_switch(fabric, node))
			report->switches++;
		else
			report->endpoints++;
	}
	for (port = 0; port < fabric->num_ports; port++)
		if (fabric->ports[port].peer != VLR_NONE && fabric->ports[port].peer > port)
			report->links++;
}

/* Everything after discovery; 0 or -1. */
static int read_tables(struct cap_engine *engine, struct cap_fabric *cap,
		       const struct vlr_capture_options *options,
		       struct vlr_tables *tables, struct vlr_capture_report *report)
{
	double start = vlr_clock_seconds();

	if (cap_read_tables(engine, cap, tables))
		return -1;
	report->seconds_tables = vlr_clock_seconds() - start;
	report->sm_lid = cap->sm_lid;
	if (options->no_sa) {
		report->path_sls = VLR_SLS_NOT_ASKED;
	} else if (!cap->sm_lid) {
		report->path_sls = VLR_SLS_NO_SM;
	} else {
		start = vlr_clock_seconds();
		if (cap_read_path_sls(engine, tables, options->sa_sample, report))
			return -1;
		report->path_sls = VLR_SLS_FROM_SA;
		report->seconds_sa = vlr_clock_seconds() - start;
	}
	return cap_check_unchanged(engine, cap);
}

static struct vlr_tables *capture(struct cap_engine *engine, struct cap_fabric *cap,
				  const struct vlr_capture_options *options,
				  struct vlr_capture_report *report, struct vlr_error *err)
{
	double start = vlr_clock_seconds();
	struct vlr_fabric *fabric;
	struct vlr_tables *tables;
	unsigned vls;

	if (cap_discover(engine, cap))
		return NULL;
	report->seconds_discovery = vlr_clock_seconds() - start;
	fabric = cap_build_fabric(cap, &vls, err);
	if (!fabric)
		return NULL;
	report->num_vls = vls ? vls : DEFAULT_VLS;
	tables = vlr_tables_new(fabric, report->num_vls, err);
	if (!tables) {
		vlr_fabric_free(fabric);
		return NULL;
	}
	tables->owns_fabric = 1;
	if (read_tables(engine, cap, options, tables, report)) {
		vlr_tables_free(tables);
		return NULL;
	}
	snprintf(report->local_node, sizeof(report->local_node), "%s",
		 vlr_node_name(fabric, cap->nodes[cap->local_node].fabric_node));
	count_fabric(fabric, report);
	return tables;
}

struct vlr_tables *vlr_capture_with(const struct vlr_mad_transport *transport,
				    const struct vlr_capture_options *options,
				    struct vlr_capture_report *report,
				    struct vlr_error *err)
{
	double start = vlr_clock_seconds();
	struct vlr_tables *tables = NULL;
	struct cap_engine engine;
	struct cap_fabric cap;

	memset(report, 0, sizeof(*report));
	report->status = VLR_CAPTURE_FAILED;
	if (cap_fabric_init(&cap, err))
		return NULL;
	if (!cap_engine_init(&engine, transport, options, &cap, err)) {
		tables = capture(&engine, &cap, options, report, err);
		report->smps = engine.smps;
		report->sa_queries = engine.sa_queries;
		report->resent = engine.resent;
		if (engine.changed)
			report->status = VLR_CAPTURE_CHANGED;
		else if (tables)
			report->status = VLR_CAPTURE_OK;
		cap_engine_free(&engine);
	}
	cap_fabric_free(&cap);
	report->seconds_total = vlr_clock_seconds() - start;
	return tables;
}
