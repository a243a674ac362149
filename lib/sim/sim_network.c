/*
 * sim_network.c - the simulated network built from a table set: switch
 * ports and their peers, link latencies by class, input buffers by port
 * kind, servers and their LIDs, the routing (route_internal.h) and the VL
 * selection (vl_select_internal.h).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "allocator_internal.h"
#include "dlid_rule_internal.h"
#include "route_internal.h"
#include "vl_select_internal.h"

struct limit {
	const char *name;
	uint64_t value;
	uint64_t min;
	uint64_t max;
};

/* The configuration names a VL selection, a DLID rule and an allocator. */
static int check_parts(const struct vlr_sim_config *c, struct vlr_error *err)
{
	if (!sim_vl_type(c->vl_mode))
		return vlr_fail(err, "the simulator has no VL mode %d", (int)c->vl_mode);
	if (!sim_dlid_type(c->dlid))
		return vlr_dlid_choice_check(c->dlid, sim_dlid_choices(), "the simulator", err);
	if (!sim_allocator_type(c->allocator))
		return vlr_fail(err, "the simulator has no allocator %d", (int)c->allocator);
	if (c->reference.routing != VLR_SIM_ROUTING_TABLES && c->dlid != VLR_DLID_BASE)
		return vlr_fail(err, "the reference model chooses no DLIDs: the DLID rule "
				"%s is for tables", vlr_dlid_choice_name(c->dlid));
	if (c->reference.recompute && c->reference.routing == VLR_SIM_ROUTING_TABLES)
		return vlr_fail(err, "recomputation is the reference model's; tables "
				"recompute by the DLID rule recompute");
	if (c->reference.recompute && c->reference.routing != VLR_SIM_ROUTING_VALIANT &&
	    c->reference.routing != VLR_SIM_ROUTING_RVAL)
		return vlr_fail(err, "recomputation draws a new intermediate: it needs the "
				"routing valiant or rval, not %s",
				vlr_sim_routing_name(c->reference.routing));
	if (c->reference.intermediate != VLR_SIM_INTERMEDIATE_SWITCH &&
	    c->reference.routing != VLR_SIM_ROUTING_VALIANT &&
	    !vlr_sim_routing_is_ugal(c->reference.routing))
		return vlr_fail(err, "%s intermediates are for the routings valiant, "
				"ugal-* and piggyback, not %s",
				vlr_sim_intermediate_name(c->reference.intermediate),
				vlr_sim_routing_name(c->reference.routing));
	return 0;
}

static int check_config(const struct vlr_sim_config *c, struct vlr_error *err)
{
	const struct limit limits[] = {
		{ "packet size", c->packet_phits, 1, 65535 },
		{ "input buffer", c->input_packets, 1, 4096 },
		{ "local input buffer", c->input_local_packets, 0, 4096 },
		{ "global input buffer", c->input_global_packets, 0, 4096 },
		{ "injection input buffer", c->input_injection_packets, 0, 4096 },
		{ "output buffer", c->output_packets, 1, 255 },
		{ "VLs", c->vls, 0, VLR_MAX_DATA_VLS },
		{ "allocator iterations", c->iterations, 1, 16 },
		{ "crossbar speedup", c->speedup, 1, 64 },
		{ "pipeline latency", c->pipeline, 0, 1000 },
		{ "host link latency", c->host_latency, 1, 255 },
		{ "local link latency", c->local_latency, 1, 255 },
		{ "global link latency", c->global_latency, 1, 255 },
		{ "injection queues", c->injection_queues, 1, 64 },
		{ "injection queue size", c->queue_packets, 1, 65535 },
		{ "measured cycles", c->cycles, 1, UINT64_MAX / 4 },
		{ "warm-up", c->warmup, 0, UINT64_MAX / 4 },
		{ "time bin", c->bin, 1, UINT32_MAX },
		{ "deadlock time", c->deadlock_cycles, 1, UINT64_MAX / 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (limits[i].value < limits[i].min || limits[i].value > limits[i].max)
			return vlr_fail(err, "%s is %llu; allowed: %llu..%llu", limits[i].name,
					(unsigned long long)limits[i].value,
					(unsigned long long)limits[i].min,
					(unsigned long long)limits[i].max);
	if (!(c->stability_drop > 0 && c->stability_drop < 1))
		return vlr_fail(err, "stability drop is %g; allowed: between 0 and 1",
				c->stability_drop);
	return check_parts(c, err);
}

static int alloc_ports(struct vlr_sim *sim, struct vlr_error *err)
{
	const struct vlr_tables *tables = sim->tables;
	uint32_t sw, total = 0;

	sim->num_switches = tables->num_switches;
	sim->first_port = calloc(sim->num_switches + 1, sizeof(*sim->first_port));
	if (!sim->first_port)
		return vlr_fail(err, "out of memory for %u switches", sim->num_switches);
	for (sw = 0; sw < sim->num_switches; sw++) {
		sim->first_port[sw] = total;
		total += tables->fabric->nodes[tables->switch_node[sw]].num_ports;
	}
	sim->first_port[sw] = total;
	sim->num_ports = total;
	sim->port_switch = malloc((size_t)total * sizeof(*sim->port_switch));
	sim->peer = malloc((size_t)total * sizeof(*sim->peer));
	sim->peer_server = malloc((size_t)total * sizeof(*sim->peer_server));
	sim->latency = malloc(total ? total : 1);
	sim->global = calloc(total ? total : 1, 1);
	if (!sim->port_switch || !sim->peer || !sim->peer_server || !sim->latency ||
	    !sim->global)
		return vlr_fail(err, "out of memory for %u switch ports", total);
	return 0;
}

static unsigned link_latency(const struct vlr_sim *sim, uint32_t slot)
{
	if (sim->has_topology &&
	    sim->topology.port_class[slot] == VLR_PORT_GLOBAL)
		return sim->config.global_latency;
	return sim->config.local_latency;
}

/* The port of switch-to-switch link `link` in the simulator's numbering. */
static uint32_t sim_port_of_link(const struct vlr_sim *sim,
				 const struct vlr_switch_graph *graph, uint32_t link)
{
	return sim->first_port[graph->from[link]] + graph->port[link] - 1;
}

/* Peers and latencies: the switch graph's links, then the servers' links. */
static void link_ports(struct vlr_sim *sim, const struct vlr_switch_graph *graph)
{
	uint32_t sw, p, link, s;

	for (sw = 0; sw < sim->num_switches; sw++)
		for (p = sim->first_port[sw]; p < sim->first_port[sw + 1]; p++) {
			sim->port_switch[p] = sw;
			sim->peer[p] = VLR_NONE;
			sim->peer_server[p] = VLR_NONE;
			sim->latency[p] = 1;
		}
	for (link = 0; link < graph->num_links; link++) {
		uint32_t slot = vlr_link_slot(graph, link);

		p = sim_port_of_link(sim, graph, link);
		sim->peer[p] = sim_port_of_link(sim, graph, graph->back[link]);
		sim->latency[p] = (uint8_t)link_latency(sim, slot);
		sim->global[p] = sim->has_topology &&
				 sim->topology.port_class[slot] == VLR_PORT_GLOBAL;
	}
	for (s = 0; s < sim->servers.count; s++) {
		sim->peer_server[sim->server_port[s]] = s;
		sim->latency[sim->server_port[s]] = (uint8_t)sim->config.host_latency;
	}
}

/*
 * The input rings' slots (the largest input buffer any port has) and the
 * packets all inputs hold per VL, from each port's kind, so that a run's
 * memory follows the buffers it has rather than the largest everywhere.
 */
static void size_inputs(struct vlr_sim *sim)
{
	uint32_t p;
	unsigned capacity;

	sim->input_slots = 1;
	sim->input_total = 0;
	for (p = 0; p < sim->num_ports; p++) {
		capacity = sim_input_capacity(sim, p);
		sim->input_total += capacity;
		if (capacity > sim->input_slots)
			sim->input_slots = capacity;
	}
}

static int build_servers(struct vlr_sim *sim, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = sim->tables->fabric;
	struct vlr_switch_graph graph;
	uint32_t s, n = 0;

	if (vlr_servers_build(sim->tables, sim->has_topology ? &sim->topology : NULL,
			      &sim->servers, err))
		return -1;
	n = sim->servers.count;
	if (n < 2)
		return vlr_fail(err, "the fabric has %u servers; the simulator needs 2 or more", n);
	sim->server_port = malloc((size_t)n * sizeof(*sim->server_port));
	sim->server_lid = malloc((size_t)n * sizeof(*sim->server_lid));
	sim->server_lids = malloc(n);
	if (!sim->server_port || !sim->server_lid || !sim->server_lids)
		return vlr_fail(err, "out of memory for %u servers", n);
	for (s = 0; s < n; s++) {
		const struct vlr_port *port = &fabric->ports[sim->servers.port[s]];

		sim->server_lid[s] = port->lid;
		sim->server_lids[s] = port->lmc;
		sim->server_port[s] = sim->first_port[sim->servers.switch_index[s]] +
				      fabric->ports[port->peer].number - 1;
	}
	if (vlr_switch_graph_build(fabric, &graph, err))
		return -1;
	link_ports(sim, &graph);
	vlr_switch_graph_free(&graph);
	size_inputs(sim);
	return 0;
}

/* The routing and the VL selection: the tables', or the reference model's. */
static int setup_routing(struct vlr_sim *sim, struct vlr_error *err)
{
	int reference = sim->config.reference.routing != VLR_SIM_ROUTING_TABLES;

	if (!reference && sim->config.vl_mode != VLR_SIM_VL_IDEAL &&
	    sim->config.phase_vls != VLR_SIM_PHASE_VLS_DEFAULT)
		return vlr_fail(err, "per-hop or free phase VLs are for ideal VLs; the "
				"exact VLs are the SL2VL tables'");
	if (sim->config.phase_vls == VLR_SIM_PHASE_VLS_DEFAULT)
		sim->config.phase_vls = reference ? VLR_SIM_PHASE_VLS_PER_HOP :
					VLR_SIM_PHASE_VLS_FREE;
	sim->route = reference ? sim_route_reference_new(sim, err) :
		     sim_route_tables_new(sim, err);
	if (!sim->route || (reference &&
			    sim_reference_policy(sim, &sim->config.reference.policy, err)))
		return -1;
	sim->vl = (reference ? &sim_vl_reference :
		   sim_vl_type(sim->config.vl_mode))->create(sim, &sim->vls, err);
	return sim->vl ? 0 : -1;
}

static int check_traffic(const struct vlr_sim *sim, struct vlr_error *err)
{
	struct vlr_traffic *traffic;

	if (sim->config.trace) {
		if (sim->config.trace->num_servers != sim->servers.count)
			return vlr_fail(err, "the trace was read for %u servers; the fabric "
					"has %u", sim->config.trace->num_servers,
					sim->servers.count);
		return 0;
	}
	traffic = vlr_traffic_new(&sim->servers, sim->has_topology ? &sim->topology : NULL,
				  &sim->config.pattern, 1, err);
	if (!traffic)
		return -1;
	vlr_traffic_free(traffic);
	return 0;
}

struct vlr_sim *vlr_sim_new(const struct vlr_tables *tables,
			    const struct vlr_sim_config *config, struct vlr_error *err)
{
	struct vlr_sim_config resolved = *config;
	struct vlr_sim *sim;
	struct vlr_error ignored;

	if (resolved.warmup == VLR_SIM_WARMUP_DEFAULT)
		resolved.warmup = vlr_sim_default_warmup(resolved.cycles, resolved.bin);
	if (check_config(&resolved, err))
		return NULL;
	sim = calloc(1, sizeof(*sim));
	if (!sim) {
		vlr_fail(err, "out of memory");
		return NULL;
	}
	sim->tables = tables;
	sim->config = resolved;
	sim->has_topology = !vlr_topology_recognise(tables->fabric, VLR_FAMILY_NONE,
						    &sim->topology, &ignored);
	if (alloc_ports(sim, err) || build_servers(sim, err) || setup_routing(sim, err) ||
	    check_traffic(sim, err)) {
		vlr_sim_free(sim);
		return NULL;
	}
	return sim;
}

void vlr_sim_free(struct vlr_sim *sim)
{
	if (!sim)
		return;
	if (sim->has_topology)
		vlr_topology_free(&sim->topology);
	if (sim->vl)
		sim->vl->free(sim->vl);
	if (sim->route)
		sim->route->free(sim->route);
	if (sim->servers.port)
		vlr_servers_free(&sim->servers);
	free(sim->first_port);
	free(sim->port_switch);
	free(sim->peer);
	free(sim->peer_server);
	free(sim->latency);
	free(sim->global);
	free(sim->server_port);
	free(sim->server_lid);
	free(sim->server_lids);
	free(sim);
}

uint32_t vlr_sim_num_servers(const struct vlr_sim *sim)
{
	return sim->servers.count;
}

const struct vlr_sim_config *vlr_sim_config_of(const struct vlr_sim *sim)
{
	return &sim->config;
}

unsigned vlr_sim_num_vls(const struct vlr_sim *sim)
{
	return sim->vls;
}
