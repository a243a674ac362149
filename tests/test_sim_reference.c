/*
 * test_sim_reference.c - unit tests of the simulator's reference model of
 * the Valiant studies' routing: every packet's path and VLs hop by hop
 * (minimal to its intermediate, minimal on, or minimal at once when the
 * intermediate is its source or destination switch) under each VL policy,
 * the MinFirst / MinLast / MinBoth injection VL, minimal routes by the
 * family or by any shortest path, Dragonfly+ intermediates
 * among the leaves only, the reverse dimension order in phase two,
 * Valiant's half throughput under uniform traffic on a balanced
 * Dragonfly, Restricted Valiant's intermediates in the partition the ends
 * share, recomputation at the source switch only, the injection queue
 * selections (a destination's queue, a random one with room),
 * UGAL's and Piggyback's rules on hand-made queues and saturation marks,
 * their paths and VLs, Piggyback's group hearing of a saturated global
 * link, CRG intermediates in the groups the source switch links to,
 * determinism for a seed, long runs without deadlock, the input buffers
 * by port kind (local, global, injection), and the configurations it
 * refuses.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define MAX_HOPS 16

/* A fabric with LIDs, no routes, and its two phases' next hops. */
struct model {
	struct vlr_tables *tables;
	struct vlr_topology topology;
	struct vlr_switch_routes routes[2];
};

static void model_init(struct model *m, const struct vlr_family_params *params,
		       int reversed)
{
	struct vlr_fabric *fabric = test_generate(params);
	struct vlr_engine_options options;
	struct vlr_error err;

	assert_int_equal(vlr_fabric_assign_lids(fabric, 0, &err), 0);
	m->tables = vlr_tables_new(fabric, 15, &err);
	if (!m->tables)
		fail_msg("%s", err.message);
	m->tables->owns_fabric = 1;
	vlr_engine_options_init(&options);
	if (vlr_minimal_switch_routes(m->tables, &options, 0, &m->routes[0], NULL, &err) ||
	    vlr_minimal_switch_routes(m->tables, &options, reversed, &m->routes[1], NULL,
				      &err) ||
	    vlr_topology_recognise(fabric, VLR_FAMILY_NONE, &m->topology, &err))
		fail_msg("%s", err.message);
}

static void model_free(struct model *m)
{
	vlr_switch_routes_free(&m->routes[0]);
	vlr_switch_routes_free(&m->routes[1]);
	vlr_topology_free(&m->topology);
	vlr_tables_free(m->tables);
}

static struct vlr_family_params dragonflyplus(void)
{
	struct vlr_family_params params = { .family = VLR_FAMILY_DRAGONFLYPLUS };

	params.u.dragonflyplus = (struct vlr_dragonflyplus_params){ 4, 2, 2, 2, 0,
								    VLR_ARRANGEMENT_PALMTREE };
	return params;
}

static void model_config(const struct model *m, struct vlr_sim_config *config,
			 enum vlr_vl_policy_kind kind, enum vlr_phase_min phase_min)
{
	vlr_sim_config_default(config);
	config->reference.routing = VLR_SIM_ROUTING_VALIANT;
	config->reference.policy.kind = kind;
	config->reference.policy.phase_min = phase_min;
	config->reference.routes[0] = &m->routes[0];
	config->reference.routes[1] = &m->routes[1];
}

/* The links of every packet, in order, from the hop observer. */
struct journey {
	unsigned count;
	struct vlr_sim_hop hops[MAX_HOPS];
};

struct journeys {
	unsigned packets;
	struct journey *of;		/* [serial] */
};

static void record(void *context, const struct vlr_sim_hop *hop)
{
	struct journeys *j = context;
	struct journey *one;

	assert_true(hop->serial < j->packets);
	one = &j->of[hop->serial];
	assert_true(one->count < MAX_HOPS);
	one->hops[one->count++] = *hop;
}

/* The number of servers of the model's fabric. */
static uint32_t count_servers(const struct model *m)
{
	uint32_t n = (uint32_t)m->tables->fabric->num_nodes, s, servers = 0;

	for (s = 0; s < n; s++)
		servers += !vlr_node_is_switch(m->tables->fabric, s);
	return servers;
}

/*
 * Replay the trace text of `packets` packets (numbered 0.. in order) for
 * `cycles` cycles and a drain, and keep their journeys; *result, if not
 * NULL, gets the run's result.
 */
static struct journeys replay(const struct model *m, struct vlr_sim_config *config,
			      uint64_t seed, const char *text, uint32_t packets,
			      uint64_t cycles, struct vlr_sim_result *result)
{
	uint32_t servers = count_servers(m);
	char *path = test_write_file("reference.trace", text);
	struct journeys j;
	struct vlr_sim *sim;
	struct vlr_sim_result r;
	struct vlr_error err;

	j.packets = packets;
	j.of = calloc(packets, sizeof(*j.of));
	assert_non_null(j.of);
	config->trace = vlr_sim_trace_read(path, servers, &err);
	if (!config->trace)
		fail_msg("%s", err.message);
	config->cycles = cycles;
	config->warmup = 0;
	config->drain = 1;
	config->hop = record;
	config->hop_context = &j;
	sim = vlr_sim_new(m->tables, config, &err);
	if (!sim || vlr_sim_run(sim, 1.0, seed, &r, &err))
		fail_msg("%s", err.message);
	assert_int_equal(r.delivered, packets);
	if (result)
		*result = r;
	else
		vlr_sim_result_free(&r);
	vlr_sim_free(sim);
	vlr_sim_trace_free((struct vlr_sim_trace *)config->trace);
	config->trace = NULL;
	unlink(path);
	free(path);
	return j;
}

/*
 * Every server sends one packet to server (s * 5 + 3) mod n (or the next
 * one, not to itself), one at a time
 * (64 cycles apart, so that they never meet), and the journeys are kept.
 */
static struct journeys travel(const struct model *m, struct vlr_sim_config *config,
			      uint64_t seed)
{
	uint32_t servers = count_servers(m), s;
	char *text, line[64];
	struct journeys j;
	size_t used = 0;

	text = calloc(servers, sizeof(line));
	assert_non_null(text);
	for (s = 0; s < servers; s++) {
		uint32_t to = (s * 5 + 3) % servers;

		used += (size_t)snprintf(text + used, sizeof(line), "%u %u %u 16\n", s * 64, s,
					 to == s ? (s + 1) % servers : to);
	}
	j = replay(m, config, seed, text, servers, servers * 64 + 200, NULL);
	free(text);
	return j;
}

/* The switch at the far end of port `port` of switch sw. */
static uint32_t next_switch(const struct model *m, uint32_t sw, unsigned port)
{
	const struct vlr_fabric *fabric = m->tables->fabric;
	uint32_t peer = vlr_port_at(fabric, m->tables->switch_node[sw], port)->peer;

	assert_int_not_equal(peer, VLR_NONE);
	return m->tables->switch_of_node[fabric->ports[peer].node];
}

/* HyperX hops between two switches: the coordinates that differ. */
static unsigned grid_distance(const struct model *m, uint32_t a, uint32_t b)
{
	unsigned dims = m->topology.params.u.grid.dims, d, hops = 0;

	for (d = 0; d < dims; d++)
		hops += m->topology.coord[a * dims + d] != m->topology.coord[b * dims + d];
	return hops;
}

/* What a journey showed: its switches, intermediate and the VL of each hop. */
struct path {
	uint32_t source, destination, via;
	unsigned switch_hops;		/* switch-to-switch links */
	unsigned before_via;		/* of them, up to the intermediate (all
					   when the destination came first) */
	int reached_via;
	unsigned vl[MAX_HOPS];		/* [0]: injection, then each switch hop */
	int minimal;			/* the intermediate is an end */
};

static struct path walk(const struct model *m, const struct journey *one)
{
	const struct vlr_sim_hop *h = one->hops;
	struct path path;
	uint32_t sw;
	unsigned i;

	memset(&path, 0, sizeof(path));
	assert_true(one->count >= 2);
	assert_int_equal(h[0].from_switch, VLR_NONE);
	path.via = h[0].via;
	path.vl[0] = h[0].vl;
	sw = h[1].from_switch;
	path.source = sw;
	for (i = 1; i + 1 < one->count; i++) {
		assert_int_equal(h[i].from_switch, sw);
		assert_int_equal(h[i].via, path.via);
		if (sw == path.via && !path.reached_via) {
			path.before_via = path.switch_hops;
			path.reached_via = 1;
		}
		path.vl[++path.switch_hops] = h[i].vl;
		sw = next_switch(m, sw, h[i].port);
	}
	assert_int_equal(h[one->count - 1].from_switch, sw);	/* delivery */
	path.destination = sw;
	if (!path.reached_via)
		path.before_via = path.switch_hops;
	path.minimal = path.via == path.source || path.via == path.destination;
	return path;
}

/*
 * Each HyperX packet goes in dimension order to its intermediate, then on;
 * one whose way to its intermediate crosses its destination's switch is
 * delivered there, as CAMINOS and an LFT deliver it.
 */
static void assert_hyperx_route(const struct model *m, const struct path *p)
{
	if (p->minimal) {
		assert_int_equal(p->switch_hops, grid_distance(m, p->source, p->destination));
		return;
	}
	if (!p->reached_via) {
		assert_int_equal(p->switch_hops, grid_distance(m, p->source, p->destination));
		assert_int_equal(grid_distance(m, p->source, p->via),
				 p->switch_hops + grid_distance(m, p->destination, p->via));
		return;
	}
	assert_int_equal(p->before_via, grid_distance(m, p->source, p->via));
	assert_int_equal(p->switch_hops - p->before_via,
			 grid_distance(m, p->via, p->destination));
}

static void free_journeys(struct journeys *j)
{
	free(j->of);
}

/* Ladder: hop i on VL i; with reuse, on a VL up to i. */
static void test_ladder_hops(void **state)
{
	static const enum vlr_vl_policy_kind kinds[] = { VLR_VLP_LADDER,
							 VLR_VLP_LADDER_REUSE };
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	unsigned k, i, s, valiant = 0;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	for (k = 0; k < 2; k++) {
		struct vlr_sim_config config;
		struct journeys j;

		model_config(&m, &config, kinds[k], VLR_MIN_FIRST);
		j = travel(&m, &config, 3);
		for (s = 0; s < j.packets; s++) {
			struct path p = walk(&m, &j.of[s]);

			assert_hyperx_route(&m, &p);
			valiant += !p.minimal;
			assert_int_equal(p.vl[0], 0);
			for (i = 1; i <= p.switch_hops; i++)
				if (kinds[k] == VLR_VLP_LADDER)
					assert_int_equal(p.vl[i], i - 1);
				else
					assert_true(p.vl[i] <= i - 1);
		}
		free_journeys(&j);
	}
	assert_true(valiant > 0);
	model_free(&m);
}

/* The VL a 2Phases per-hop hop takes: phase * K + its hop in the phase. */
static unsigned expected_vl(const struct path *p, unsigned hop, unsigned k,
			    enum vlr_phase_min phase_min)
{
	unsigned phase;

	if (!p->minimal) {
		phase = hop >= p->before_via;
		return phase * k + (phase ? hop - p->before_via : hop);
	}
	if (phase_min == VLR_MIN_BOTH)
		phase = p->via == p->source && p->via != p->destination ? 0 : 1;
	else
		phase = phase_min == VLR_MIN_LAST;
	return phase * k + hop;
}

/*
 * 2Phases per hop: each phase's k-th hop on VL phase * K + k; the packets
 * routed minimally in the first set (MinFirst), the second (MinLast), or
 * by which end the intermediate is (MinBoth) - from the injection link on.
 */
static void test_two_phases_hops(void **state)
{
	static const enum vlr_phase_min mins[] = { VLR_MIN_FIRST, VLR_MIN_LAST,
						   VLR_MIN_BOTH };
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	unsigned k, i, s, at_source = 0, at_destination = 0;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	for (k = 0; k < 3; k++) {
		struct vlr_sim_config config;
		struct journeys j;
		uint64_t seed;

		model_config(&m, &config, VLR_VLP_TWO_PHASES, mins[k]);
		for (seed = 1; seed <= 4; seed++) {
			j = travel(&m, &config, seed);
			for (s = 0; s < j.packets; s++) {
				struct path p = walk(&m, &j.of[s]);

				assert_hyperx_route(&m, &p);
				at_source += p.via == p.source;
				at_destination += p.via == p.destination;
				assert_int_equal(p.vl[0], expected_vl(&p, 0, 2, mins[k]));
				for (i = 1; i <= p.switch_hops; i++)
					assert_int_equal(p.vl[i],
							 expected_vl(&p, i - 1, 2, mins[k]));
			}
			free_journeys(&j);
		}
	}
	assert_true(at_source > 0 && at_destination > 0);
	model_free(&m);
}

/*
 * Whether the switch hops from index `from` of a journey take the
 * dimensions in reverse (Y before X): 1 reverse, 0 forward, -1 one
 * dimension only.
 */
static int hop_order(const struct model *m, const struct journey *one, unsigned from)
{
	int seen_x = 0, seen_y = 0, x_after_y = 0, y_after_x = 0;
	unsigned i;

	for (i = from; i + 1 < one->count; i++) {
		uint32_t a = one->hops[i].from_switch;
		uint32_t b = next_switch(m, a, one->hops[i].port);
		int y = m->topology.coord[a * 2 + 1] != m->topology.coord[b * 2 + 1];

		x_after_y |= !y && seen_y;
		y_after_x |= y && seen_x;
		seen_x |= !y;
		seen_y |= y;
	}
	assert_false(x_after_y && y_after_x);
	return x_after_y ? 1 : y_after_x ? 0 : -1;
}

/*
 * Servers injecting on any VL take the lowest with room (VL 0 in an empty
 * fabric) whatever the policy; the switches then follow the policy.
 */
static void test_injection_any(void **state)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	struct vlr_sim_config config;
	unsigned s, i, second = 0;
	struct journeys j;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_LAST);
	config.reference.injection = VLR_SIM_INJECTION_ANY;
	j = travel(&m, &config, 4);
	for (s = 0; s < j.packets; s++) {
		struct path p = walk(&m, &j.of[s]);

		assert_int_equal(p.vl[0], 0);
		for (i = 1; i <= p.switch_hops; i++)
			assert_int_equal(p.vl[i], expected_vl(&p, i - 1, 2, VLR_MIN_LAST));
		second += p.minimal && p.switch_hops > 0;
	}
	assert_true(second > 0);	/* minimal packets: VL 0 in, then VL 2 */
	free_journeys(&j);
	model_free(&m);
}

/*
 * Phase two may run the dimensions in reverse: Y before X after the
 * intermediate; a packet routed minimally goes in the order of the phase
 * whose VLs it takes (MinFirst: forward, MinLast: reverse).
 */
static void test_reverse_phase_two(void **state)
{
	static const enum vlr_phase_min mins[] = { VLR_MIN_FIRST, VLR_MIN_LAST };
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	unsigned s, k, seen[2][2] = { { 0 } };
	struct vlr_sim_config config;
	struct journeys j;
	struct model m;

	(void)state;
	model_init(&m, &params, 1);
	for (k = 0; k < 2; k++) {
		model_config(&m, &config, VLR_VLP_TWO_PHASES, mins[k]);
		j = travel(&m, &config, 5);
		for (s = 0; s < j.packets; s++) {
			struct path p = walk(&m, &j.of[s]);
			int order;

			assert_hyperx_route(&m, &p);
			if (p.minimal) {
				order = hop_order(&m, &j.of[s], 1);
				if (order >= 0)
					assert_int_equal(order, (int)k);
				seen[k][0] += order >= 0;
			} else if (p.reached_via) {
				order = hop_order(&m, &j.of[s], 1 + p.before_via);
				if (order >= 0)
					assert_int_equal(order, 1);
				seen[k][1] += order >= 0;
			}
		}
		free_journeys(&j);
	}
	assert_true(seen[0][0] && seen[0][1] && seen[1][0] && seen[1][1]);
	model_free(&m);
}

/*
 * Minimal routing by the family takes X before Y; by any shortest path it
 * takes either order, the least-queued port, ties at random - but never
 * a longer way.
 */
static void test_shortest_paths(void **state)
{
	static const enum vlr_sim_minimal rules[] = { VLR_SIM_MINIMAL_FAMILY,
						      VLR_SIM_MINIMAL_SHORTEST };
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	unsigned s, k, orders[2][2] = { { 0 } };
	struct vlr_sim_config config;
	struct journeys j;
	struct model m;
	uint64_t seed;

	(void)state;
	model_init(&m, &params, 0);
	for (k = 0; k < 2; k++) {
		model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
		config.reference.routing = VLR_SIM_ROUTING_MINIMAL;
		config.reference.minimal = rules[k];
		for (seed = 1; seed <= 3; seed++) {
			j = travel(&m, &config, seed);
			for (s = 0; s < j.packets; s++) {
				struct path p = walk(&m, &j.of[s]);
				int order = hop_order(&m, &j.of[s], 1);

				assert_true(p.minimal);
				assert_hyperx_route(&m, &p);
				if (order >= 0)
					orders[k][order]++;
			}
			free_journeys(&j);
		}
	}
	assert_true(orders[0][0] > 0 && orders[0][1] == 0);
	assert_true(orders[1][0] > 0 && orders[1][1] > 0);
	model_free(&m);
}

/* Dragonfly+: the intermediates are leaves, never spines. */
static void test_dragonflyplus_leaves(void **state)
{
	struct vlr_family_params params = dragonflyplus();
	struct vlr_sim_config config;
	struct journeys j;
	unsigned s, seen = 0;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
	j = travel(&m, &config, 2);
	for (s = 0; s < j.packets; s++) {
		struct path p = walk(&m, &j.of[s]);

		assert_int_equal(m.topology.role[p.via], VLR_ROLE_LEAF);
		assert_true(p.switch_hops <= 6);
		seen |= 1u << (m.topology.index_in_group[p.via] & 31);
	}
	assert_true(seen > 1);		/* more than one leaf drawn */
	free_journeys(&j);
	model_free(&m);
}

static void set_pattern(struct vlr_sim_config *config, const char *name)
{
	struct vlr_error err;

	if (vlr_pattern_parse(name, &config->pattern, &err))
		fail_msg("%s", err.message);
}

/*
 * One run of config into *r (the caller frees it with vlr_sim_result_free);
 * the simulator's VLs into *vls if asked.
 */
static void run_once(const struct model *m, const struct vlr_sim_config *config, double load,
		     uint64_t seed, struct vlr_sim_result *r, unsigned *vls)
{
	struct vlr_error err;
	struct vlr_sim *sim = vlr_sim_new(m->tables, config, &err);

	if (!sim || vlr_sim_run(sim, load, seed, r, &err))
		fail_msg("%s", err.message);
	if (vls)
		*vls = vlr_sim_num_vls(sim);
	vlr_sim_free(sim);
}

/* The accepted load of one run, which must not deadlock; its VLs into *vls if asked. */
static double run_accepted(const struct model *m, const struct vlr_sim_config *config,
			   double load, uint64_t seed, unsigned *vls)
{
	struct vlr_sim_result r;
	double value;

	run_once(m, config, load, seed, &r, vls);
	assert_false(r.deadlock);
	value = r.accepted;
	vlr_sim_result_free(&r);
	return value;
}

static double accepted(const struct model *m, const struct vlr_sim_config *config,
		       double load, uint64_t seed)
{
	return run_accepted(m, config, load, seed, NULL);
}

/*
 * Valiant halves the throughput of uniform traffic on a balanced
 * Dragonfly (every packet crosses two groups' worth of links): at full
 * offered load about 0.5 is accepted, never more.
 */
static void test_valiant_uniform_half(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct model m;
	double value;

	(void)state;
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_LADDER_REUSE, VLR_MIN_FIRST);
	config.warmup = 3000;
	config.cycles = 12000;
	value = accepted(&m, &config, 1.0, 1);
	assert_true(value > 0.42 && value < 0.56);
	config.reference.routing = VLR_SIM_ROUTING_MINIMAL;
	assert_true(accepted(&m, &config, 1.0, 1) > value + 0.15);
	model_free(&m);
}

/* The same seed gives the same run of config; another seed another. */
static void assert_deterministic(const struct model *m, const struct vlr_sim_config *config)
{
	struct vlr_sim_result a, b, c;
	struct vlr_error err;
	struct vlr_sim *sim = vlr_sim_new(m->tables, config, &err);

	if (!sim || vlr_sim_run(sim, 0.8, 7, &a, &err) || vlr_sim_run(sim, 0.8, 7, &b, &err) ||
	    vlr_sim_run(sim, 0.8, 8, &c, &err))
		fail_msg("%s", err.message);
	assert_int_equal(a.delivered, b.delivered);
	assert_int_equal(a.delivered_check, b.delivered_check);
	assert_int_equal(a.refused, b.refused);
	assert_true(a.latency_avg == b.latency_avg);
	assert_memory_equal(a.bins, b.bins, a.num_bins * sizeof(*a.bins));
	assert_true(a.delivered_check != c.delivered_check || a.latency_avg != c.latency_avg);
	vlr_sim_result_free(&a);
	vlr_sim_result_free(&b);
	vlr_sim_result_free(&c);
	vlr_sim_free(sim);
}

/* Valiant, and RVAL with recomputation from 4 queues of each selection. */
static void test_determinism(void **state)
{
	static const enum vlr_sim_queue_select selects[] = {
		VLR_SIM_QUEUE_RANDOM, VLR_SIM_QUEUE_DEST, VLR_SIM_QUEUE_RANDOM_ROOM,
		VLR_SIM_QUEUE_DEST_SECTION,
	};
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct model m;
	unsigned k;

	(void)state;
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_LAST);
	set_pattern(&config, "adv+1");
	config.cycles = 4000;
	assert_deterministic(&m, &config);
	for (k = 0; k < 4; k++) {
		config.reference.routing = VLR_SIM_ROUTING_RVAL;
		config.reference.recompute = 1;
		config.injection_queues = 4;
		config.queue_packets = 4;
		config.queue_select = selects[k];
		set_pattern(&config, "hot");
		assert_deterministic(&m, &config);
	}
	model_free(&m);
}

/* Every policy, also the free choice in a phase, runs ADV+1 at full load without deadlock. */
static void test_no_deadlock(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	static const struct {
		enum vlr_vl_policy_kind kind;
		enum vlr_phase_min phase_min;
		enum vlr_sim_phase_vls phase_vls;
		enum vlr_sim_minimal minimal;
	} policies[] = {
		{ VLR_VLP_LADDER, VLR_MIN_FIRST, VLR_SIM_PHASE_VLS_PER_HOP, 0 },
		{ VLR_VLP_LADDER_REUSE, VLR_MIN_FIRST, VLR_SIM_PHASE_VLS_PER_HOP, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, VLR_SIM_PHASE_VLS_PER_HOP, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_LAST, VLR_SIM_PHASE_VLS_PER_HOP, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_BOTH, VLR_SIM_PHASE_VLS_PER_HOP, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_FIRST, VLR_SIM_PHASE_VLS_FREE, 0 },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_LAST, VLR_SIM_PHASE_VLS_FREE, 0 },
		{ VLR_VLP_LADDER_REUSE, VLR_MIN_FIRST, VLR_SIM_PHASE_VLS_PER_HOP,
		  VLR_SIM_MINIMAL_SHORTEST },
		{ VLR_VLP_TWO_PHASES, VLR_MIN_LAST, VLR_SIM_PHASE_VLS_PER_HOP,
		  VLR_SIM_MINIMAL_SHORTEST },
	};
	struct vlr_sim_config config;
	struct model m;
	size_t i;

	(void)state;
	model_init(&m, &params, 0);
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		model_config(&m, &config, policies[i].kind, policies[i].phase_min);
		config.phase_vls = policies[i].phase_vls;
		config.reference.minimal = policies[i].minimal;
		set_pattern(&config, "adv+1");
		config.cycles = 30000;
		config.input_packets = 1;
		config.output_packets = 1;
		assert_true(accepted(&m, &config, 1.0, 1) > 0.1);
	}
	model_free(&m);
}

/*
 * RVAL, and Valiant and RVAL with recomputation, from one queue, four
 * random ones with room or four by destination section, run ADV-Local and
 * ADV+1 at full load without deadlock.
 */
static void test_no_deadlock_rval(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	static const struct {
		enum vlr_sim_routing routing;
		int recompute;
	} routings[] = {
		{ VLR_SIM_ROUTING_RVAL, 0 },
		{ VLR_SIM_ROUTING_VALIANT, 1 },
		{ VLR_SIM_ROUTING_RVAL, 1 },
	};
	static const struct {
		unsigned queues;
		enum vlr_sim_queue_select select;
	} queues[] = {
		{ 1, VLR_SIM_QUEUE_RANDOM },
		{ 4, VLR_SIM_QUEUE_RANDOM_ROOM },
		{ 4, VLR_SIM_QUEUE_DEST_SECTION },
	};
	static const char *const patterns[] = { "adv-local", "adv+1" };
	struct vlr_sim_config config;
	struct model m;
	size_t i, k, p;

	(void)state;
	model_init(&m, &params, 0);
	for (i = 0; i < 3; i++)
		for (k = 0; k < 3; k++)
			for (p = 0; p < 2; p++) {
				model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
				config.reference.routing = routings[i].routing;
				config.reference.recompute = routings[i].recompute;
				config.injection_queues = queues[k].queues;
				config.queue_select = queues[k].select;
				set_pattern(&config, patterns[p]);
				config.cycles = 20000;
				config.input_packets = 1;
				config.output_packets = 1;
				assert_true(accepted(&m, &config, 1.0, 1) > 0.1);
			}
	model_free(&m);
}

/* What a run's hops showed of the intermediates RVAL drew. */
struct partitions {
	const struct model *m;
	struct vlr_servers servers;
	unsigned inside;		/* both ends share a partition: via in it */
	unsigned outside;		/* ... via outside it (wrong) */
	unsigned spread;		/* ends in no shared partition, via in
					   neither end's group or row */
	unsigned leaves_only_violated;	/* Dragonfly+: a spine drawn */
};

/* HyperX: via keeps every coordinate a and b share; 1 if it does. */
static int keeps_shared(const struct vlr_topology *t, uint32_t a, uint32_t b, uint32_t via,
			int *shares)
{
	unsigned dims = t->params.u.grid.dims, d;
	int ok = 1;

	*shares = 0;
	for (d = 0; d < dims; d++) {
		if (t->coord[a * dims + d] != t->coord[b * dims + d])
			continue;
		*shares = 1;
		ok &= t->coord[via * dims + d] == t->coord[a * dims + d];
	}
	return ok;
}

static void judge_via(void *context, const struct vlr_sim_hop *hop)
{
	struct partitions *q = context;
	const struct vlr_topology *t = &q->m->topology;
	uint32_t a, b, via = hop->via;
	int shares;

	if (hop->from_switch == VLR_NONE)
		return;
	a = q->servers.switch_index[hop->source];
	b = q->servers.switch_index[hop->destination];
	q->leaves_only_violated += t->role[via] == VLR_ROLE_SPINE;
	if (t->coord) {
		int ok = keeps_shared(t, a, b, via, &shares);

		q->inside += shares && ok;
		q->outside += shares && !ok;
		q->spread += !shares && grid_distance(q->m, via, a) == 2 &&
			     grid_distance(q->m, via, b) == 2;
		return;
	}
	shares = t->group[a] == t->group[b];
	q->inside += shares && t->group[via] == t->group[a];
	q->outside += shares && t->group[via] != t->group[a];
	q->spread += !shares && t->group[via] != t->group[a] && t->group[via] != t->group[b];
}

/* Uniform traffic under RVAL (with recomputation if asked), its hops judged. */
static struct partitions rval_partitions(const struct vlr_family_params *params,
					 int recompute)
{
	struct vlr_sim_config config;
	struct partitions q;
	struct vlr_error err;
	struct model *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	model_init(m, params, 0);
	memset(&q, 0, sizeof(q));
	q.m = m;
	if (vlr_servers_build(m->tables, &m->topology, &q.servers, &err))
		fail_msg("%s", err.message);
	model_config(m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_RVAL;
	config.reference.recompute = recompute;
	config.cycles = 3000;
	config.hop = judge_via;
	config.hop_context = &q;
	accepted(m, &config, recompute ? 1.0 : 0.3, 2);
	vlr_servers_free(&q.servers);
	model_free(m);
	free(m);
	q.m = NULL;
	return q;
}

/*
 * RVAL: a packet whose ends share a Dragonfly group (Dragonfly+: its
 * leaves) or HyperX row draws its intermediate there; the others draw
 * among all switches, outside both ends' partitions too - also when
 * blocked packets draw again.
 */
static void test_rval_partition(void **state)
{
	struct vlr_family_params families[] = {
		test_dragonfly(2, 4, 2), dragonflyplus(),
		test_grid(VLR_FAMILY_HYPERX, 2, 3, 1),
	};
	unsigned f;
	int recompute;

	(void)state;
	for (f = 0; f < 3; f++)
		for (recompute = 0; recompute <= 1; recompute++) {
			struct partitions q = rval_partitions(&families[f], recompute);

			assert_int_equal(q.outside, 0);
			assert_int_equal(q.leaves_only_violated, 0);
			assert_true(q.inside > 0);
			assert_true(q.spread > 0);
		}
}

/* Under traffic between groups only, RVAL is Valiant, draw for draw. */
static void test_rval_between_groups(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	static const enum vlr_sim_routing routings[] = { VLR_SIM_ROUTING_VALIANT,
							 VLR_SIM_ROUTING_RVAL };
	struct vlr_sim_result r[2];
	struct vlr_sim_config config;
	struct vlr_error err;
	struct model m;
	unsigned k;

	(void)state;
	model_init(&m, &params, 0);
	for (k = 0; k < 2; k++) {
		struct vlr_sim *sim;

		model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
		config.reference.routing = routings[k];
		set_pattern(&config, "advr+1");
		config.cycles = 3000;
		sim = vlr_sim_new(m.tables, &config, &err);
		if (!sim || vlr_sim_run(sim, 0.7, 3, &r[k], &err))
			fail_msg("%s", err.message);
		vlr_sim_free(sim);
	}
	assert_int_equal(r[0].delivered_check, r[1].delivered_check);
	assert_true(r[0].latency_avg == r[1].latency_avg);
	vlr_sim_result_free(&r[0]);
	vlr_sim_result_free(&r[1]);
	set_pattern(&config, "adv-local");	/* inside groups they part */
	config.reference.routing = VLR_SIM_ROUTING_RVAL;
	assert_true(accepted(&m, &config, 1.0, 3) > 0.65);
	config.reference.routing = VLR_SIM_ROUTING_VALIANT;
	assert_true(accepted(&m, &config, 1.0, 3) < 0.6);
	model_free(&m);
}

/* Each packet's intermediate as it left its server, its switch, and after. */
struct recomputed {
	unsigned capacity;
	uint32_t *at_server;		/* [serial] */
	uint32_t *at_switch;		/* [serial]: VLR_NONE until it left */
	unsigned changed;		/* packets that drew again at their switch */
	unsigned moved_in_transit;	/* packets whose intermediate changed later */
};

static void watch_via(void *context, const struct vlr_sim_hop *hop)
{
	struct recomputed *w = context;
	uint64_t s = hop->serial;

	assert_true(s < w->capacity);
	if (hop->from_switch == VLR_NONE) {
		w->at_server[s] = hop->via;
		return;
	}
	if (w->at_switch[s] == VLR_NONE) {
		w->at_switch[s] = hop->via;
		w->changed += hop->via != w->at_server[s];
	} else {
		w->moved_in_transit += hop->via != w->at_switch[s];
	}
}

/* A congested run (ADV+1 at full load, buffers of one packet), its intermediates watched. */
static struct recomputed watch_recomputation(const struct model *m,
					     enum vlr_sim_routing routing, int recompute)
{
	struct vlr_sim_config config;
	struct recomputed w;
	unsigned i;

	w.capacity = 40000;
	w.at_server = calloc(w.capacity, sizeof(*w.at_server));
	w.at_switch = malloc(w.capacity * sizeof(*w.at_switch));
	assert_true(w.at_server && w.at_switch);
	for (i = 0; i < w.capacity; i++)
		w.at_switch[i] = VLR_NONE;
	w.changed = w.moved_in_transit = 0;
	model_config(m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_LAST);
	config.reference.routing = routing;
	config.reference.recompute = recompute;
	set_pattern(&config, "adv+1");
	config.input_packets = 1;
	config.output_packets = 1;
	config.cycles = 4000;
	config.hop = watch_via;
	config.hop_context = &w;
	accepted(m, &config, 1.0, 5);
	free(w.at_server);
	free(w.at_switch);
	w.at_server = w.at_switch = NULL;
	return w;
}

/*
 * Recomputation: a packet blocked at its source switch draws a new
 * intermediate (many leave with another than they came with), and never
 * once it has left; without it, none changes.
 */
static void test_recompute(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	static const enum vlr_sim_routing routings[] = { VLR_SIM_ROUTING_VALIANT,
							 VLR_SIM_ROUTING_RVAL };
	struct recomputed w;
	struct model m;
	unsigned k;

	(void)state;
	model_init(&m, &params, 0);
	for (k = 0; k < 2; k++) {
		w = watch_recomputation(&m, routings[k], 1);
		assert_true(w.changed > 100);
		assert_int_equal(w.moved_in_transit, 0);
		w = watch_recomputation(&m, routings[k], 0);
		assert_int_equal(w.changed, 0);
		assert_int_equal(w.moved_in_transit, 0);
	}
	model_free(&m);
}

/* Injections seen per source: is each queue's order the order of creation? */
struct injections {
	unsigned queues;
	uint32_t servers;
	int select;			/* the rule to check: dest or dest-section */
	uint64_t *last;			/* [source * queues + class]: serial + 1 */
	unsigned in_order;
	unsigned overtaken;		/* a later packet of the class went first */
};

static void watch_injection(void *context, const struct vlr_sim_hop *hop)
{
	struct injections *w = context;
	unsigned class;
	uint64_t *last;

	if (hop->from_switch != VLR_NONE)
		return;
	class = w->select == VLR_SIM_QUEUE_DEST ? hop->destination % w->queues :
		(unsigned)((uint64_t)hop->destination * w->queues / w->servers);
	last = &w->last[(uint64_t)hop->source * w->queues + class];
	w->overtaken += *last > hop->serial + 1;
	w->in_order += *last < hop->serial + 1;
	*last = hop->serial + 1;
}

/* Hot-spot traffic at full load into 4 queues by select, checked by the classes of check. */
static struct injections injection_order(const struct model *m,
					 enum vlr_sim_queue_select select,
					 enum vlr_sim_queue_select check)
{
	struct vlr_sim_config config;
	struct injections w;

	w.queues = 4;
	w.servers = 72;
	w.select = (int)check;
	w.last = calloc((size_t)w.servers * w.queues, sizeof(*w.last));
	assert_non_null(w.last);
	w.in_order = w.overtaken = 0;
	model_config(m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
	set_pattern(&config, "hot");
	config.injection_queues = 4;
	config.queue_packets = 4;
	config.queue_select = select;
	config.cycles = 3000;
	config.hop = watch_injection;
	config.hop_context = &w;
	accepted(m, &config, 1.0, 6);
	free(w.last);
	w.last = NULL;
	return w;
}

/*
 * DEST puts every packet of a destination into one queue (destination mod
 * N), DEST-section every packet of a section of consecutive servers: the
 * packets of one queue leave in the order they were made, while packets
 * of different queues overtake each other at the injection link. RANDOM
 * spreads a destination's packets, which then overtake each other.
 */
static void test_queue_select(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct injections w;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	w = injection_order(&m, VLR_SIM_QUEUE_DEST, VLR_SIM_QUEUE_DEST);
	assert_true(w.in_order > 1000 && w.overtaken == 0);
	w = injection_order(&m, VLR_SIM_QUEUE_DEST_SECTION, VLR_SIM_QUEUE_DEST_SECTION);
	assert_true(w.in_order > 1000 && w.overtaken == 0);
	w = injection_order(&m, VLR_SIM_QUEUE_DEST_SECTION, VLR_SIM_QUEUE_DEST);
	assert_true(w.overtaken > 0);
	w = injection_order(&m, VLR_SIM_QUEUE_RANDOM, VLR_SIM_QUEUE_DEST);
	assert_true(w.overtaken > 0);
	w = injection_order(&m, VLR_SIM_QUEUE_RANDOM_ROOM, VLR_SIM_QUEUE_DEST_SECTION);
	assert_true(w.overtaken > 0);
	model_free(&m);
}

/* Refused arrivals at load 0.6, minimal routes, into 4 queues of 1 packet by select. */
static uint64_t refused(const struct model *m, enum vlr_sim_queue_select select)
{
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	uint64_t value;

	model_config(m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_MINIMAL;
	config.injection_queues = 4;
	config.queue_packets = 1;
	config.queue_select = select;
	config.cycles = 3000;
	run_once(m, &config, 0.6, 4, &r, NULL);
	assert_true(r.generated > 0);
	value = r.refused;
	vlr_sim_result_free(&r);
	return value;
}

/*
 * RANDOM-room refuses an arrival only when every queue is full; RANDOM
 * whenever the one it drew is: far more refusals below saturation, where
 * a server seldom has all its queues full.
 */
static void test_queue_random_room(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	uint64_t any, room;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	any = refused(&m, VLR_SIM_QUEUE_RANDOM);
	room = refused(&m, VLR_SIM_QUEUE_RANDOM_ROOM);
	assert_true(any > 100);
	assert_true(room * 4 < any);
	model_free(&m);
}

static void expect_refusal(const struct model *m, const struct vlr_sim_config *config,
			   const char *fragment)
{
	struct vlr_error err;
	struct vlr_sim *sim = vlr_sim_new(m->tables, config, &err);

	if (sim)
		fail_msg("accepted; expected \"%s\"", fragment);
	if (!strstr(err.message, fragment))
		fail_msg("\"%s\" lacks \"%s\"", err.message, fragment);
}

static void test_refusals(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct vlr_error err;
	struct vlr_sim *sim;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
	config.reference.policy.vls_per_phase = 2;
	expect_refusal(&m, &config, "per-hop VLs need a VL for each of the 3 hops");
	config.phase_vls = VLR_SIM_PHASE_VLS_FREE;	/* K = 2 is fine then */
	sim = vlr_sim_new(m.tables, &config, &err);
	if (!sim)
		fail_msg("%s", err.message);
	assert_int_equal(vlr_sim_num_vls(sim), 4);
	vlr_sim_free(sim);
	model_config(&m, &config, VLR_VLP_TWO_PHASES, VLR_MIN_FIRST);
	config.phase_vls = VLR_SIM_PHASE_VLS_FREE;
	config.reference.minimal = VLR_SIM_MINIMAL_SHORTEST;
	expect_refusal(&m, &config, "shortest paths need VLs that rise with every hop");
	model_config(&m, &config, VLR_VLP_LAYERS, VLR_MIN_FIRST);
	expect_refusal(&m, &config, "takes a ladder, ladder-reuse or 2phases VL policy");
	model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.dlid = VLR_DLID_RANDOM;
	expect_refusal(&m, &config, "the reference model chooses no DLIDs");
	model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.reference.routes[1] = NULL;
	expect_refusal(&m, &config, "needs the next hops of phase 2");
	model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_MINIMAL;
	config.reference.recompute = 1;
	expect_refusal(&m, &config, "needs the routing valiant or rval, not minimal");
	config.reference.routing = VLR_SIM_ROUTING_TABLES;
	expect_refusal(&m, &config, "tables recompute by the DLID rule recompute");
	config.reference.routing = VLR_SIM_ROUTING_UGAL_L;
	expect_refusal(&m, &config, "needs the routing valiant or rval, not ugal-l");
	model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_RVAL;
	config.reference.intermediate = VLR_SIM_INTERMEDIATE_GROUP;
	expect_refusal(&m, &config, "group intermediates are for the routings valiant");
	config.reference.intermediate = VLR_SIM_INTERMEDIATE_CRG;
	expect_refusal(&m, &config, "crg intermediates are for the routings valiant");
	model_free(&m);
	params = dragonflyplus();
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_PIGGYBACK;
	expect_refusal(&m, &config, "piggyback shares the saturation of a Dragonfly group's");
	config.reference.routing = VLR_SIM_ROUTING_VALIANT;
	config.reference.intermediate = VLR_SIM_INTERMEDIATE_CRG;
	expect_refusal(&m, &config, "crg intermediates are for a Dragonfly, not a dragonfly+");
	model_free(&m);
}

/* The Dragonfly paper's VCs: 2Phases K=2 MinLast, free VLs, group intermediates. */
static void paper_config(const struct model *m, struct vlr_sim_config *config,
			 enum vlr_sim_routing routing)
{
	model_config(m, config, VLR_VLP_TWO_PHASES, VLR_MIN_LAST);
	config->reference.routing = routing;
	config->reference.policy.vls_per_phase = 2;
	config->reference.intermediate = VLR_SIM_INTERMEDIATE_GROUP;
	config->phase_vls = VLR_SIM_PHASE_VLS_FREE;
}

/*
 * The servers of group 0 each send `each` packets at cycle 0 to the server
 * at their place in group 1, so that the one global link between the two
 * groups congests; the journeys are kept.
 */
static struct journeys burst(const struct model *m, struct vlr_sim_config *config,
			     unsigned each, struct vlr_sim_result *result)
{
	uint32_t per_group = count_servers(m) / m->topology.num_groups, s;
	char *text, line[64];
	struct journeys j;
	size_t used = 0;

	text = calloc(per_group, sizeof(line));
	assert_non_null(text);
	for (s = 0; s < per_group; s++)
		used += (size_t)snprintf(text + used, sizeof(line), "0 %u %u %u\n", s,
					 s + per_group, config->packet_phits * each);
	j = replay(m, config, 7, text, per_group * each, 2000, result);
	free(text);
	return j;
}

/*
 * A Dragonfly journey under the paper's discipline: minimal (at most one
 * global link, local-global-local) or through a group other than its
 * ends', entered where the global link from the source group lands (the
 * intermediate), with two global links; a hop after g global links on
 * the paper's VC g (non-minimal) or g + 1 (minimal), VC 0, 1, 2 being
 * VLs 0, 2, 3; a non-minimal one may be delivered on its way to its
 * intermediate, inside its source group. 1 if it was routed non-minimally.
 */
static int assert_paper_route(const struct model *m, const struct journey *one)
{
	static const unsigned paper_vc[] = { 0, 2, 3 };
	const uint32_t *group = m->topology.group;
	const struct vlr_sim_hop *h = one->hops;
	uint32_t source = h[1].from_switch, destination = h[one->count - 1].from_switch;
	uint32_t via = h[0].via, from, to;
	unsigned globals = 0, i;
	int minimal = via == source || via == destination;

	if (!minimal) {
		assert_int_not_equal(group[via], group[source]);
		assert_int_not_equal(group[via], group[destination]);
	}
	for (i = 1; i + 1 < one->count; i++) {
		from = h[i].from_switch;
		to = h[i + 1].from_switch;
		assert_int_equal(h[i].vl, paper_vc[globals + (unsigned)minimal]);
		if (group[from] == group[to])
			continue;
		if (!globals++ && !minimal)
			assert_int_equal(to, via);
	}
	if (!minimal && !globals) {
		/* its way to the intermediate crossed its destination's switch */
		assert_int_equal(group[source], group[destination]);
		return 1;
	}
	assert_true(one->count - 2 <= (minimal ? 3u : 5u));
	assert_int_equal(globals, minimal ? (group[source] != group[destination]) : 2);
	return !minimal;
}

/* The rule alone, on hand-made queues: q_m * H_m <= q_nm * H_nm goes minimal. */
static void test_ugal_rule(void **state)
{
	static const enum vlr_sim_routing all[] = {
		VLR_SIM_ROUTING_UGAL_G, VLR_SIM_ROUTING_UGAL_L, VLR_SIM_ROUTING_UGAL_L_VC,
		VLR_SIM_ROUTING_UGAL_L_VC_H, VLR_SIM_ROUTING_UGAL_L_CR,
	};
	struct vlr_sim_ugal_view v = { 3, 5, 6, 3, 6, 3, 1, 2 };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		assert_true(vlr_sim_routing_is_ugal(all[i]));
		v.queue_min = v.vl_queue_min = 6;	/* 18 > 15: Valiant */
		assert_false(vlr_sim_ugal_minimal(all[i], &v));
		v.queue_min = v.vl_queue_min = 5;	/* 15 = 15: minimal */
		assert_true(vlr_sim_ugal_minimal(all[i], &v));
		v.queue_min = v.vl_queue_min = 4;
		assert_true(vlr_sim_ugal_minimal(all[i], &v));
	}
	assert_false(vlr_sim_routing_is_ugal(VLR_SIM_ROUTING_VALIANT));
	/* the whole port says minimal, the VLs of each path Valiant */
	v.queue_min = 2;
	v.vl_queue_min = 6;
	assert_true(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_G, &v));
	assert_true(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L, &v));
	assert_false(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L_VC, &v));
	/* _H: the VLs only when both paths leave by the same port */
	assert_true(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L_VC_H, &v));
	assert_true(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L_CR, &v));
	v.port_nonmin = v.port_min;
	assert_false(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L_VC_H, &v));
	assert_false(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L_CR, &v));
}

/*
 * Piggyback's rules alone, on hand-made states: a global port is saturated
 * above twice the mean of its switch's global ports plus 3 packets; a
 * packet whose minimal global link is saturated goes by Valiant whatever
 * the queues, else minimally while q_m * H_m <= q_nm * H_nm + 5.
 */
static void test_piggyback_rule(void **state)
{
	struct vlr_sim_config config;
	const struct vlr_sim_piggyback *pb = &config.reference.piggyback;
	struct vlr_sim_ugal_view v = { 3, 5, 0, 3, 0, 3, 1, 2 };

	(void)state;
	vlr_sim_config_default(&config);
	assert_true(vlr_sim_routing_is_ugal(VLR_SIM_ROUTING_PIGGYBACK));
	/* six ports queueing 12 in all: mean 2, saturated above 2 * 2 + 3 = 7 */
	assert_false(vlr_sim_piggyback_saturated(pb, 7, 12, 6));
	assert_true(vlr_sim_piggyback_saturated(pb, 8, 12, 6));
	/* all alike: none saturated however long the queues */
	assert_false(vlr_sim_piggyback_saturated(pb, 40, 240, 6));
	assert_false(vlr_sim_piggyback_saturated(pb, 4, 4, 1));
	assert_false(vlr_sim_piggyback_saturated(pb, 0, 0, 0));
	/* not saturated: 0 * 3 <= 15 + 5 minimal */
	assert_true(vlr_sim_piggyback_minimal(pb, &v, 0));
	/* saturated: Valiant with every queue empty */
	v.queue_nonmin = 0;
	assert_false(vlr_sim_piggyback_minimal(pb, &v, 1));
	/* the margin: 18 <= 15 + 5 stays minimal (UGAL-L: Valiant), 21 not */
	v.queue_nonmin = 3;
	v.queue_min = 6;
	assert_true(vlr_sim_piggyback_minimal(pb, &v, 0));
	assert_false(vlr_sim_ugal_minimal(VLR_SIM_ROUTING_UGAL_L, &v));
	v.queue_min = 7;
	assert_false(vlr_sim_piggyback_minimal(pb, &v, 0));
}

/*
 * Piggyback's broadcast on a Dragonfly p=2 a=4 h=3 (palmtree: router 0 of
 * group 0 holds the global links to groups 1, 2 and 3): the servers of
 * routers 2 and 3 of group 0 send bursts to group 1, which cross router
 * 0's global link to it; a server of router 1, which sends nothing else,
 * sends a packet to group 1 every 20 cycles. Its own queues stay empty, so
 * that UGAL-L routes every such packet minimally; under Piggyback some go
 * through another group, as router 1 hears that router 0's link is
 * saturated. Long global links (40 cycles) and short packets keep many
 * packets on the way, deep input buffers hold them.
 */
static unsigned probes_nonminimal(const struct model *m, enum vlr_sim_routing routing)
{
	enum { BURST = 120, PROBES = 30 };
	struct vlr_sim_config config;
	char text[8192];
	struct journeys j;
	size_t used = 0;
	unsigned s, k, nonminimal = 0;

	paper_config(m, &config, routing);
	config.packet_phits = 4;
	config.input_packets = 32;
	config.global_latency = 40;
	for (s = 4; s < 8; s++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "0 %u %u %u\n", s,
					 8 + s, BURST * config.packet_phits);
	for (k = 0; k < PROBES; k++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%u 2 9 4\n",
					 100 + 20 * k);
	j = replay(m, &config, 3, text, 4 * BURST + PROBES, 2000, NULL);
	for (k = 0; k < j.packets; k++) {
		const struct journey *one = &j.of[k];

		if (one->hops[0].source != 2)
			continue;
		assert_int_equal(m->topology.group[one->hops[1].from_switch], 0);
		nonminimal += (unsigned)assert_paper_route(m, one);
	}
	free_journeys(&j);
	return nonminimal;
}

static void test_piggyback_group(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 3);
	struct model m;
	unsigned ugal, piggyback;

	(void)state;
	model_init(&m, &params, 0);
	ugal = probes_nonminimal(&m, VLR_SIM_ROUTING_UGAL_L);
	piggyback = probes_nonminimal(&m, VLR_SIM_ROUTING_PIGGYBACK);
	if (ugal != 0 || piggyback < 5)
		fail_msg("packets of router 1 routed by Valiant: UGAL-L %u, Piggyback %u",
			 ugal, piggyback);
	model_free(&m);
}

/* 1 if switch sw has a link to a switch of group g. */
static int links_group(const struct model *m, uint32_t sw, uint32_t g)
{
	const struct vlr_fabric *fabric = m->tables->fabric;
	uint32_t node = m->tables->switch_node[sw];
	unsigned port;

	for (port = 1; port <= fabric->nodes[node].num_ports; port++) {
		const struct vlr_port *at = vlr_port_at(fabric, node, port);

		if (at->peer != VLR_NONE &&
		    vlr_node_is_switch(fabric, fabric->ports[at->peer].node) &&
		    m->topology.group[next_switch(m, sw, port)] == g)
			return 1;
	}
	return 0;
}

/*
 * CRG intermediates (the ADVc study's Current-router Global policy), under
 * Valiant on a Dragonfly p=2 a=4 h=2: every packet's intermediate is a
 * switch of one of the two groups its source switch's global links reach
 * (or its destination's switch: minimal), never of another group, and
 * over all packets several switches of those groups, not only where the
 * links land.
 */
static void test_crg_intermediates(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct journeys j;
	struct model m;
	unsigned k, landing = 0, inner = 0;

	(void)state;
	model_init(&m, &params, 0);
	paper_config(&m, &config, VLR_SIM_ROUTING_VALIANT);
	config.reference.intermediate = VLR_SIM_INTERMEDIATE_CRG;
	j = travel(&m, &config, 11);
	for (k = 0; k < j.packets; k++) {
		const struct journey *one = &j.of[k];
		uint32_t source = one->hops[1].from_switch, via = one->hops[0].via;
		uint32_t destination = one->hops[one->count - 1].from_switch;

		if (via == destination)
			continue;
		assert_int_not_equal(m.topology.group[via], m.topology.group[source]);
		assert_true(links_group(&m, source, m.topology.group[via]));
		if (links_group(&m, via, m.topology.group[source]))
			landing++;
		else
			inner++;
	}
	assert_true(landing > 0 && inner > 0);
	free_journeys(&j);
	model_free(&m);
}

/*
 * Every UGAL routing (and Valiant by groups) on a small Dragonfly: an
 * empty fabric routes minimally (all queues 0: the tie goes minimal); a
 * burst over one global link sends some packets through other groups;
 * every path and VL as the paper's, and the result's non-minimal share
 * the one the journeys show.
 */
static void test_ugal_paths(void **state)
{
	static const enum vlr_sim_routing all[] = {
		VLR_SIM_ROUTING_UGAL_G, VLR_SIM_ROUTING_UGAL_L, VLR_SIM_ROUTING_UGAL_L_VC,
		VLR_SIM_ROUTING_UGAL_L_VC_H, VLR_SIM_ROUTING_UGAL_L_CR, VLR_SIM_ROUTING_PIGGYBACK,
		VLR_SIM_ROUTING_VALIANT,
	};
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct journeys j;
	struct model m;
	unsigned i, k, nonminimal;

	(void)state;
	model_init(&m, &params, 0);
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		paper_config(&m, &config, all[i]);
		j = travel(&m, &config, 3);
		for (k = 0, nonminimal = 0; k < j.packets; k++)
			nonminimal += (unsigned)assert_paper_route(&m, &j.of[k]);
		if (all[i] != VLR_SIM_ROUTING_VALIANT)
			assert_int_equal(nonminimal, 0);
		free_journeys(&j);
		j = burst(&m, &config, 12, &r);
		for (k = 0, nonminimal = 0; k < j.packets; k++)
			nonminimal += (unsigned)assert_paper_route(&m, &j.of[k]);
		assert_true(nonminimal > 0 && nonminimal < j.packets);
		assert_true(fabs(r.nonminimal - (double)nonminimal / j.packets) < 1e-9);
		vlr_sim_result_free(&r);
		free_journeys(&j);
	}
	model_free(&m);
}

/*
 * UGAL-L_CR delays no credit on an empty fabric (every round trip is the
 * zero-load one), so that it moves packets as UGAL-L_VC_H does; under a
 * burst its credits come back late and its runs differ.
 */
static void test_ugal_credit_delay(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct vlr_sim_result hybrid, credit;
	struct journeys j;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	paper_config(&m, &config, VLR_SIM_ROUTING_UGAL_L_VC_H);
	config.packet_phits = 1;
	config.pipeline = 2;
	j = burst(&m, &config, 1, &hybrid);
	free_journeys(&j);
	paper_config(&m, &config, VLR_SIM_ROUTING_UGAL_L_CR);
	config.packet_phits = 1;
	config.pipeline = 2;
	j = burst(&m, &config, 1, &credit);
	free_journeys(&j);
	assert_int_equal(hybrid.cycles, credit.cycles);
	assert_true(hybrid.latency_avg == credit.latency_avg);
	vlr_sim_result_free(&hybrid);
	vlr_sim_result_free(&credit);
	paper_config(&m, &config, VLR_SIM_ROUTING_UGAL_L_VC_H);
	j = burst(&m, &config, 12, &hybrid);
	free_journeys(&j);
	paper_config(&m, &config, VLR_SIM_ROUTING_UGAL_L_CR);
	j = burst(&m, &config, 12, &credit);
	free_journeys(&j);
	assert_true(hybrid.latency_avg != credit.latency_avg);
	vlr_sim_result_free(&hybrid);
	vlr_sim_result_free(&credit);
	model_free(&m);
}

/*
 * Input buffers deeper than 255 packets (the paper's 256 flits): two
 * servers of a switch send 600 single-phit packets each to one server of
 * another switch; the link between the switches takes half, so that each
 * server's input buffer holds some 300 packets, and all arrive.
 */
static void test_deep_buffers(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct journeys j;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	model_config(&m, &config, VLR_VLP_LADDER, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_MINIMAL;
	config.packet_phits = 1;
	config.input_packets = 320;
	config.queue_packets = 1000;
	j = replay(&m, &config, 1, "0 0 2 600\n0 1 2 600\n", 1200, 3000, &r);
	assert_true(r.latency_max > 500);
	vlr_sim_result_free(&r);
	free_journeys(&j);
	model_free(&m);
}

/*
 * UGAL-L_CR at scale, uniform traffic just past UGAL-L_VC_H's saturation
 * (the paper's 1,056-server Dragonfly): a credit held back for one VL
 * holds back no other, so that the delays do not feed on each other and
 * it accepts about what UGAL-L_VC_H does (with one queue of credits per
 * link it collapsed to under 60% of it within 1,500 cycles).
 */
static double paper_scale_accepted(const struct model *m, enum vlr_sim_routing routing)
{
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	double accepted;

	paper_config(m, &config, routing);
	config.packet_phits = 1;
	config.input_packets = 16;
	config.cycles = 1500;
	config.warmup = 0;
	config.pattern.kind = VLR_PATTERN_UNIFORM;
	run_once(m, &config, 0.7, 1, &r, NULL);
	accepted = r.accepted;
	vlr_sim_result_free(&r);
	return accepted;
}

static void test_ugal_credit_delay_scale(void **state)
{
	struct vlr_family_params params = test_dragonfly(4, 8, 4);
	struct model m;
	double hybrid, credit;

	(void)state;
	model_init(&m, &params, 0);
	hybrid = paper_scale_accepted(&m, VLR_SIM_ROUTING_UGAL_L_VC_H);
	credit = paper_scale_accepted(&m, VLR_SIM_ROUTING_UGAL_L_CR);
	if (credit < 0.95 * hybrid)
		fail_msg("UGAL-L_CR accepts %.4f, UGAL-L_VC_H %.4f", credit, hybrid);
	model_free(&m);
}

/*
 * ADV+1 routed minimally on a Dragonfly p=2 a=4 h=2: all of a group's
 * traffic crosses its one global link to the next group, global_latency
 * cycles long, with the input buffers of config.
 */
static double adv1_minimal(const struct model *m, unsigned local, unsigned global,
			   unsigned injection, unsigned *vls)
{
	struct vlr_sim_config config;

	model_config(m, &config, VLR_VLP_LADDER_REUSE, VLR_MIN_FIRST);
	config.reference.routing = VLR_SIM_ROUTING_MINIMAL;
	set_pattern(&config, "advr+1");
	config.packet_phits = 1;
	config.input_packets = 32;
	config.input_local_packets = local;
	config.input_global_packets = global;
	config.input_injection_packets = injection;
	config.global_latency = 50;
	config.warmup = 1000;
	config.cycles = 4000;
	return run_accepted(m, &config, 1.0, 1, vls);
}

/*
 * Global input buffers of one packet per VL: the global link sends at most
 * one packet per VL a credit round trip (over 2 x 50 cycles), so a group's
 * 8 servers get at most VLs / (100 x 8) phits per cycle each, where with
 * 32 packets the link carries about all it can (1/8 each). Local and
 * injection inputs of one packet, on links of one cycle, hold the global
 * link back far less. (With 32 it accepts about 0.08, the minimal
 * routes' VLs taking less than the link.)
 */
static void test_input_buffer_kinds(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	double deep, shallow_global, shallow_rest, bound;
	unsigned vls;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	deep = adv1_minimal(&m, 0, 0, 0, &vls);
	shallow_global = adv1_minimal(&m, 0, 1, 0, &vls);
	shallow_rest = adv1_minimal(&m, 1, 0, 1, &vls);
	bound = (double)vls / (100.0 * 8);
	if (deep < 0.05 || shallow_global > bound || shallow_rest < 4 * bound)
		fail_msg("accepted %.4f with inputs of 32, %.4f with global ones of 1 "
			 "(bound %.4f), %.4f with local and injection ones of 1", deep,
			 shallow_global, bound, shallow_rest);
	model_free(&m);
}

/* UGAL-L's non-minimal share under uniform traffic at load 0.05. */
static double ugal_nonminimal(const struct model *m, unsigned global)
{
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	double share;

	paper_config(m, &config, VLR_SIM_ROUTING_UGAL_L);
	config.reference.intermediate = VLR_SIM_INTERMEDIATE_SWITCH;
	set_pattern(&config, "un");
	config.packet_phits = 1;
	config.input_packets = 32;
	config.input_global_packets = global;
	config.warmup = 0;
	config.cycles = 3000;
	run_once(m, &config, 0.05, 1, &r, NULL);
	share = r.nonminimal;
	vlr_sim_result_free(&r);
	return share;
}

/*
 * UGAL-L's queues count a port's packets in the next input at that input's
 * size: at a low load, with global inputs of one packet and the rest of
 * 32, it goes non-minimal about as often as with 32 everywhere (some 9%),
 * where counting the global inputs at 32 sees 31 packets per VL on every
 * idle global port and sends over twice as many packets non-minimally.
 */
static void test_input_buffer_queues(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	double deep, shallow;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	deep = ugal_nonminimal(&m, 0);
	shallow = ugal_nonminimal(&m, 1);
	if (fabs(shallow - deep) > 0.03)
		fail_msg("non-minimal %.3f with global inputs of 1, %.3f with 32", shallow, deep);
	model_free(&m);
}

/* A run's bytes on m with the given input buffers (0: input_packets, 4). */
static uint64_t run_bytes(const struct model *m, unsigned local, unsigned global,
			  unsigned injection)
{
	struct vlr_sim_config config;
	struct vlr_error err;
	struct vlr_sim *sim;
	uint64_t bytes;

	model_config(m, &config, VLR_VLP_LADDER_REUSE, VLR_MIN_FIRST);
	config.input_local_packets = local;
	config.input_global_packets = global;
	config.input_injection_packets = injection;
	sim = vlr_sim_new(m->tables, &config, &err);
	if (!sim)
		fail_msg("%s", err.message);
	bytes = vlr_sim_run_bytes(sim);
	vlr_sim_free(sim);
	return bytes;
}

/*
 * A run's memory follows each input's own size: one packet more per VL in
 * every input of a kind costs as many packets as the fabric has inputs of
 * that kind (the rings, sized by the largest, 4 here, unchanged). A Dragonfly
 * p=2 a=4 h=2 switch has 3 local, 2 global and 2 injection inputs; on a
 * HyperX every switch-to-switch input is local, none global.
 */
static void test_input_buffer_memory(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	uint64_t local, global, injection;
	struct model m;

	(void)state;
	model_init(&m, &params, 0);
	local = run_bytes(&m, 2, 4, 4) - run_bytes(&m, 1, 4, 4);
	global = run_bytes(&m, 4, 2, 4) - run_bytes(&m, 4, 1, 4);
	injection = run_bytes(&m, 4, 4, 2) - run_bytes(&m, 4, 4, 1);
	assert_true(local > 0);
	assert_true(local * 2 == global * 3);
	assert_true(global == injection);
	model_free(&m);
	params = test_grid(VLR_FAMILY_HYPERX, 2, 4, 2);
	model_init(&m, &params, 0);
	assert_true(run_bytes(&m, 4, 1, 4) == run_bytes(&m, 4, 2, 4));
	local = run_bytes(&m, 2, 4, 4) - run_bytes(&m, 1, 4, 4);
	injection = run_bytes(&m, 4, 4, 2) - run_bytes(&m, 4, 4, 1);
	assert_true(local > 0);
	assert_true(local * 2 == injection * 6);
	model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ladder_hops),
		cmocka_unit_test(test_two_phases_hops),
		cmocka_unit_test(test_injection_any),
		cmocka_unit_test(test_reverse_phase_two),
		cmocka_unit_test(test_shortest_paths),
		cmocka_unit_test(test_dragonflyplus_leaves),
		cmocka_unit_test(test_valiant_uniform_half),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_no_deadlock),
		cmocka_unit_test(test_rval_partition),
		cmocka_unit_test(test_rval_between_groups),
		cmocka_unit_test(test_recompute),
		cmocka_unit_test(test_queue_select),
		cmocka_unit_test(test_queue_random_room),
		cmocka_unit_test(test_no_deadlock_rval),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_ugal_rule),
		cmocka_unit_test(test_ugal_paths),
		cmocka_unit_test(test_piggyback_rule),
		cmocka_unit_test(test_piggyback_group),
		cmocka_unit_test(test_crg_intermediates),
		cmocka_unit_test(test_ugal_credit_delay),
		cmocka_unit_test(test_deep_buffers),
		cmocka_unit_test(test_ugal_credit_delay_scale),
		cmocka_unit_test(test_input_buffer_kinds),
		cmocka_unit_test(test_input_buffer_memory),
		cmocka_unit_test(test_input_buffer_queues),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
