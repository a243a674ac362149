/*
 * analyze.c - preparing the static analysis of a table set: servers,
 * topology, channel classes, a check that the LFTs carry every route
 * between servers, and the all-to-all link load.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_internal.h"
#include "util/jobs.h"

static enum vlr_channel_class class_of_switch_port(const struct vlr_analysis *a,
						   uint32_t port)
{
	if (!a->has_topology)
		return VLR_CHANNEL_SWITCH;
	switch (a->topology.port_class[port]) {
	case VLR_PORT_LOCAL:
		return VLR_CHANNEL_LOCAL;
	case VLR_PORT_GLOBAL:
		return VLR_CHANNEL_GLOBAL;
	case VLR_PORT_UP:
		return VLR_CHANNEL_UP;
	case VLR_PORT_DOWN:
		return VLR_CHANNEL_DOWN;
	default:
		return VLR_CHANNEL_SWITCH;
	}
}

/* Where every channel leads and what it connects. */
static void index_channels(struct vlr_analysis *a)
{
	const struct vlr_tables *t = a->tables;
	const struct vlr_fabric *fabric = t->fabric;
	uint32_t port, sw;

	for (port = 0; port < fabric->num_ports; port++) {
		const struct vlr_port *record = &fabric->ports[port];
		int from_switch = vlr_node_is_switch(fabric, record->node);
		uint32_t far_switch;

		a->next_switch[port] = VLR_NONE;
		a->channel_class[port] = VLR_CHANNEL_CLASSES;
		if (record->peer == VLR_NONE || record->number == 0)
			continue;
		far_switch = t->switch_of_node[fabric->ports[record->peer].node];
		a->next_switch[port] = far_switch == VLR_NONE ? ANALYZE_ENDPOINT : far_switch;
		if (!from_switch)
			a->channel_class[port] = far_switch == VLR_NONE ? VLR_CHANNEL_CLASSES :
						 VLR_CHANNEL_INJECTION;
		else if (far_switch == VLR_NONE)
			a->channel_class[port] = VLR_CHANNEL_EJECTION;
		else
			a->channel_class[port] = class_of_switch_port(a, port);
	}
	for (sw = 0; sw < t->num_switches; sw++) {
		const struct vlr_node *node = &fabric->nodes[t->switch_node[sw]];

		a->switch_first[sw] = node->first_port;
		a->switch_ports[sw] = node->num_ports;
	}
}

static void index_servers(struct vlr_analysis *a)
{
	const struct vlr_fabric *fabric = a->tables->fabric;
	uint32_t s;

	for (s = 0; s < a->servers.count; s++) {
		const struct vlr_port *port = &fabric->ports[a->servers.port[s]];

		a->server_lid[s] = port->lid;
		a->server_lmc[s] = port->lmc;
	}
}

/* Every switch must route every server's base LID somewhere. */
static int check_lfts(const struct vlr_analysis *a, struct vlr_error *err)
{
	const struct vlr_tables *t = a->tables;
	const struct vlr_fabric *fabric = t->fabric;
	uint32_t sw, s;

	for (sw = 0; sw < t->num_switches; sw++) {
		const uint8_t *lft = vlr_tables_lft(t, sw);

		for (s = 0; s < a->servers.count; s++) {
			const struct vlr_port *server = &fabric->ports[a->servers.port[s]];

			if (lft[a->server_lid[s]] != VLR_NO_PORT)
				continue;
			return vlr_fail(err, "switch %s has no LFT entry for LID %u (%s port "
					"%u): the tables are not those of this fabric, or "
					"the switch is missing from them",
					vlr_node_name(fabric, t->switch_node[sw]),
					a->server_lid[s], vlr_node_name(fabric, server->node),
					server->number);
		}
	}
	return 0;
}

/* Random DLIDs spread, on average: the all-to-all load counts them so. */
static int measure_all_to_all(struct vlr_analysis *a, struct vlr_error *err)
{
	struct analyze_instance all = { NULL, a->dlid_choice == VLR_DLID_BASE ?
					VLR_DLID_BASE : VLR_DLID_SPREAD, 0 };
	struct analyze_tally tally;

	a->load = calloc(a->tables->fabric->num_ports + 1, sizeof(uint64_t));
	if (!a->load)
		return vlr_fail(err, "out of memory for the load of %u ports",
				a->tables->fabric->num_ports);
	if (a->servers.count < 2)
		return vlr_fail(err, "the fabric has %u servers: nothing to analyse",
				a->servers.count);
	if (analyze_run_one(a, &all, analyze_tree_add, analyze_tree_rate, a->load, &tally,
			    err))
		return -1;
	if (tally.bad_source != VLR_NONE)
		return analyze_fail_route(a, &tally, err);
	analyze_summarise_loads(a, &tally);
	return 0;
}

static int prepare(struct vlr_analysis *a, struct vlr_error *err)
{
	uint32_t ports = a->tables->fabric->num_ports;
	struct vlr_error ignored;

	a->has_topology = !vlr_topology_recognise(a->tables->fabric, VLR_FAMILY_NONE,
						  &a->topology, &ignored);
	if (vlr_servers_build(a->tables, a->has_topology ? &a->topology : NULL, &a->servers,
			      err))
		return -1;
	a->next_switch = malloc(sizeof(uint32_t) * (ports + 1));
	a->channel_class = malloc(ports + 1);
	a->switch_first = malloc(sizeof(uint32_t) * (a->tables->num_switches + 1));
	a->switch_ports = malloc(a->tables->num_switches + 1);
	a->server_lid = malloc(sizeof(uint16_t) * (a->servers.count + 1));
	a->server_lmc = malloc(a->servers.count + 1);
	if (!a->next_switch || !a->channel_class || !a->switch_first || !a->switch_ports ||
	    !a->server_lid || !a->server_lmc)
		return vlr_fail(err, "out of memory for the channels of %u ports", ports);
	index_channels(a);
	index_servers(a);
	if (check_lfts(a, err))
		return -1;
	return measure_all_to_all(a, err);
}

struct vlr_analysis *vlr_analysis_new(const struct vlr_tables *tables,
				      const struct vlr_analyze_options *options,
				      struct vlr_error *err)
{
	struct vlr_analysis *a;

	if (vlr_dlid_choice_check(options->dlid_choice, VLR_ANALYZE_DLID_CHOICES,
				  "the analysis", err))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a) {
		vlr_fail(err, "out of memory for an analysis");
		return NULL;
	}
	a->tables = tables;
	a->dlid_choice = options->dlid_choice;
	a->threads = vlr_threads_or_cpus(options->threads);
	if (prepare(a, err)) {
		vlr_analysis_free(a);
		return NULL;
	}
	return a;
}

void vlr_analysis_free(struct vlr_analysis *a)
{
	if (!a)
		return;
	vlr_servers_free(&a->servers);
	if (a->has_topology)
		vlr_topology_free(&a->topology);
	free(a->next_switch);
	free(a->channel_class);
	free(a->switch_first);
	free(a->switch_ports);
	free(a->server_lid);
	free(a->server_lmc);
	free(a->load);
	free(a);
}

const struct vlr_linkload_report *vlr_analysis_linkload(const struct vlr_analysis *a)
{
	return &a->linkload;
}

const struct vlr_servers *vlr_analysis_servers(const struct vlr_analysis *a)
{
	return &a->servers;
}

const struct vlr_topology *vlr_analysis_topology(const struct vlr_analysis *a)
{
	return a->has_topology ? &a->topology : NULL;
}

double vlr_analysis_channel_load(const struct vlr_analysis *a, uint32_t port)
{
	return (double)a->load[port] / ANALYZE_SHARE;
}

enum vlr_channel_class vlr_analysis_channel_class(const struct vlr_analysis *a,
						  uint32_t port)
{
	return (enum vlr_channel_class)a->channel_class[port];
}
