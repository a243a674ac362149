/*
 * test_sim.c - unit tests of the simulator: exact zero-load latency,
 * conservation after a drain, deadlock detection with its cycle,
 * determinism whatever the thread count, the analytical throughput limits
 * of minimal and Valiant routing on a Dragonfly, traces, the injections
 * per switch, refused configurations, the default warm-up and the warm-up bins, and runs
 * cancelled by the caller's flag.
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

static struct vlr_tables *tables_for(const struct vlr_family_params *params, unsigned vls,
				     unsigned lmc)
{
	struct vlr_fabric *fabric = test_generate(params);
	struct vlr_tables *tables;
	struct vlr_error err;

	assert_int_equal(vlr_fabric_assign_lids(fabric, lmc, &err), 0);
	tables = vlr_tables_new(fabric, vls, &err);
	if (!tables)
		fail_msg("%s", err.message);
	tables->owns_fabric = 1;
	return tables;
}

static struct vlr_tables *routed(const struct vlr_family_params *params, int dfsssp)
{
	struct vlr_tables *tables = tables_for(params, 8, 0);
	struct vlr_engine_options options = { .heuristic = VLR_HEURISTIC_WEAKEST };
	struct vlr_engine_report report;
	struct vlr_error err;

	if ((dfsssp ? vlr_route_dfsssp : vlr_route_sssp)(tables, &options, &report, &err))
		fail_msg("routing failed: %s", err.message);
	return tables;
}

/* The port of switch node `node` linked to switch target_switch, or 0. */
static unsigned port_to(const struct vlr_fabric *fabric, const struct vlr_topology *topo,
			uint32_t node, uint32_t target_switch)
{
	unsigned p;

	for (p = 1; p <= fabric->nodes[node].num_ports; p++) {
		uint32_t peer = vlr_port_at(fabric, node, p)->peer;

		if (peer != VLR_NONE &&
		    topo->switch_of_node[fabric->ports[peer].node] == target_switch)
			return p;
	}
	return 0;
}

/* The switch of group `group` holding the global link to group `to`. */
static uint32_t gateway(const struct vlr_fabric *fabric, const struct vlr_topology *topo,
			uint32_t group, uint32_t to)
{
	uint32_t sw, slot;

	for (sw = 0; sw < topo->num_switches; sw++) {
		const struct vlr_node *node = &fabric->nodes[topo->switch_node[sw]];

		if (topo->group[sw] != group)
			continue;
		for (slot = node->first_port + 1; slot <= node->first_port + node->num_ports;
		     slot++)
			if (topo->port_class[slot] == VLR_PORT_GLOBAL &&
			    topo->group[topo->switch_of_node[fabric->ports[
				fabric->ports[slot].peer].node]] == to)
				return sw;
	}
	fail_msg("no global link from group %u to %u", group, to);
	return VLR_NONE;
}

/* Next switch from sw towards switch dst on the l-g-l minimal route. */
static uint32_t minimal_next(const struct vlr_fabric *fabric,
			     const struct vlr_topology *topo, uint32_t sw, uint32_t dst)
{
	uint32_t via, peer_slot;
	unsigned p;

	if (topo->group[sw] == topo->group[dst])
		return dst;
	via = gateway(fabric, topo, topo->group[sw], topo->group[dst]);
	if (via != sw)
		return via;
	for (p = 1; p <= fabric->nodes[topo->switch_node[sw]].num_ports; p++) {
		uint32_t slot = vlr_port_index(fabric, topo->switch_node[sw], p);

		peer_slot = fabric->ports[slot].peer;
		if (topo->port_class[slot] == VLR_PORT_GLOBAL &&
		    topo->group[topo->switch_of_node[fabric->ports[peer_slot].node]] ==
		    topo->group[dst])
			return topo->switch_of_node[fabric->ports[peer_slot].node];
	}
	fail_msg("switch %u has no global link to group %u", sw, topo->group[dst]);
	return VLR_NONE;
}

/* SL s to VL 2 (s mod 4), + 1 after a global link. */
static void set_sl2vl(uint8_t *vls, int after_global)
{
	unsigned sl;

	for (sl = 0; sl < VLR_NUM_SLS; sl++)
		vls[sl] = (uint8_t)(sl % 4 * 2 + after_global);
}

/*
 * Minimal l-g-l routes on a Dragonfly with one global link per group pair,
 * deadlock-free: hops after the global link use the odd VL of a pair. The
 * path SL (DLID mod 4) picks the pair, so each input has four FIFOs and
 * head-of-line blocking does not hide the limits of the links.
 */
static struct vlr_tables *dragonfly_minimal(unsigned p, unsigned a, unsigned h)
{
	struct vlr_family_params params = test_dragonfly(p, a, h);
	struct vlr_tables *tables = tables_for(&params, 8, 0);
	const struct vlr_fabric *fabric = tables->fabric;
	struct vlr_topology topo;
	struct vlr_error err;
	uint32_t sw, lid, in, out;

	assert_int_equal(vlr_topology_recognise(fabric, VLR_FAMILY_DRAGONFLY, &topo, &err), 0);
	for (lid = 1; lid <= tables->max_lid; lid++) {
		uint32_t owner = tables->lid_owner[lid], dst, node;

		if (owner == VLR_NONE || vlr_node_is_switch(fabric, fabric->ports[owner].node))
			continue;
		node = fabric->ports[fabric->ports[owner].peer].node;
		dst = topo.switch_of_node[node];
		for (sw = 0; sw < topo.num_switches; sw++)
			vlr_tables_lft(tables, sw)[lid] = (uint8_t)(sw == dst ?
				fabric->ports[fabric->ports[owner].peer].number :
				port_to(fabric, &topo, topo.switch_node[sw],
					minimal_next(fabric, &topo, sw, dst)));
	}
	for (sw = 0; sw < topo.num_switches; sw++) {
		uint32_t node = topo.switch_node[sw];
		unsigned n = fabric->nodes[node].num_ports;

		for (in = 0; in <= n; in++)
			for (out = 1; out <= n; out++)
				set_sl2vl(vlr_tables_sl2vl(tables, sw, in, out),
					  in && topo.port_class[vlr_port_index(fabric, node, in)] ==
					  VLR_PORT_GLOBAL);
	}
	vlr_topology_free(&topo);
	assert_int_equal(vlr_tables_alloc_sl_rows(tables, 1, &err), 0);
	for (lid = 1; lid <= tables->max_lid; lid++)
		vlr_tables_sl_row(tables, 0)[lid] = (uint8_t)(lid % 4);
	for (in = 0; in < fabric->num_ports; in++)
		if (vlr_tables_is_source(tables, in))
			tables->port_sl_row[in] = 0;
	return tables;
}

/*
 * The valiant engine's tables for the Dragonfly p=2 a=4 h=2 at LMC 6 with
 * 27 restricted offsets: the 36 Valiant offsets of a destination go
 * through every router once, those of its own group too. 2phases with 4
 * VLs per phase, so that the ideal form has two VLs to choose from on
 * every hop.
 */
/*
 * Valiant tables of the Dragonfly p=2 a=4 h=2 (LMC 3) with that many
 * restricted offsets (-1: as the engine chooses), 2phases with K VLs a
 * phase and the given minimal phase.
 */
static struct vlr_tables *dragonfly_two_phases(int restricted, unsigned k,
					       enum vlr_phase_min phase_min)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = tables_for(&params, 8, 6);
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_error err;

	vlr_engine_options_init(&options);
	options.restricted = restricted;
	options.policy.kind = VLR_VLP_TWO_PHASES;
	options.policy.vls_per_phase = k;
	options.policy.phase_min = phase_min;
	if (vlr_route_valiant(tables, &options, &report, &err))
		fail_msg("routing failed: %s", err.message);
	return tables;
}

static struct vlr_tables *dragonfly_valiant(void)
{
	return dragonfly_two_phases(27, 4, VLR_MIN_FIRST);
}

static struct vlr_sim *sim_for(const struct vlr_tables *tables,
			       const struct vlr_sim_config *config)
{
	struct vlr_error err;
	struct vlr_sim *sim = vlr_sim_new(tables, config, &err);

	if (!sim)
		fail_msg("vlr_sim_new: %s", err.message);
	return sim;
}

static struct vlr_sim_result run_once(const struct vlr_tables *tables,
				      const struct vlr_sim_config *config, double load,
				      uint64_t seed)
{
	struct vlr_sim *sim = sim_for(tables, config);
	struct vlr_sim_result result;
	struct vlr_error err;

	if (vlr_sim_run(sim, load, seed, &result, &err))
		fail_msg("vlr_sim_run: %s", err.message);
	vlr_sim_free(sim);
	return result;
}

/* A single packet crossing two switch hops takes exactly the formula. */
static void test_zero_load_latency(void **state)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	struct vlr_tables *tables = routed(&params, 1);
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct vlr_error err;
	char *path;
	unsigned expected;

	(void)state;
	/* server 0 on switch (0,0), server 4 on (1,1): two switch hops */
	path = test_write_file("one.trace", "# time source destination size\n"
			       "5 0 4 8\n");
	vlr_sim_config_default(&config);
	config.packet_phits = 8;
	config.pipeline = 2;
	config.host_latency = 3;
	config.local_latency = 5;
	config.cycles = 500;
	config.trace = vlr_sim_trace_read(path, 9, &err);
	assert_non_null(config.trace);
	r = run_once(tables, &config, 0, 1);
	/* links 3 + 5 + 5 + 3, three switches x (2 + 1), tail 8 - 1 */
	expected = 3 + 2 * 5 + 3 + 3 * (2 + 1) + 8 - 1;
	assert_int_equal(r.measured_packets, 1);
	assert_int_equal(r.latency_max, expected);
	assert_int_equal(r.latency_p50, expected);
	assert_true(r.hops_avg == 2.0);
	vlr_sim_result_free(&r);
	vlr_sim_trace_free((struct vlr_sim_trace *)config.trace);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* After a drain of a run with these buffers every injected packet arrived exactly once. */
static void assert_conserved(const struct vlr_tables *tables, unsigned input, unsigned output)
{
	struct vlr_sim_config config;
	struct vlr_sim_result r;

	vlr_sim_config_default(&config);
	config.cycles = 3000;
	config.drain = 1;
	config.input_packets = input;
	config.output_packets = output;
	r = run_once(tables, &config, 0.9, 7);
	assert_false(r.deadlock);
	assert_true(r.injected > 10000);
	assert_int_equal(r.delivered, r.injected);
	assert_int_equal(r.generated, r.injected);
	assert_true(r.delivered_check == r.injected_check);
	assert_true(r.cycles > config.cycles);
	vlr_sim_result_free(&r);
}

/*
 * Conservation with the default buffers, and with output rings too long
 * for the slots kept inside an output's struct (SIM_OUTPUT_INLINE), which
 * then live in an array of their own.
 */
static void test_conservation(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);

	(void)state;
	assert_conserved(tables, 4, 2);
	assert_conserved(tables, 4, 5);
	assert_conserved(tables, 8, 8);
	vlr_tables_free(tables);
}

/* Each channel of the reported cycle appears once and the cycle closes. */
static void assert_closed_cycle(const char *report)
{
	const char *first_end = strstr(report, " -> "), *last = strrchr(report, ' ');

	assert_non_null(first_end);
	assert_non_null(last);
	assert_int_equal(strlen(last + 1), (size_t)(first_end - report));
	assert_memory_equal(report, last + 1, strlen(last + 1));
}

/* sssp on a ring deadlocks under saturation, dfsssp does not. */
static void test_deadlock_reported(void **state)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_TORUS, 1, 8, 2);
	struct vlr_tables *sssp = routed(&params, 0), *dfsssp = routed(&params, 1);
	struct vlr_sim_config config;
	struct vlr_sim_result r;

	(void)state;
	vlr_sim_config_default(&config);
	config.cycles = 20000;
	r = run_once(sssp, &config, 1.0, 1);
	assert_true(r.deadlock);
	assert_true(r.deadlock_cycle < config.cycles);
	assert_int_equal(r.stability, VLR_SIM_COLLAPSES);
	assert_non_null(strstr(r.deadlock_report, "tor_"));
	assert_closed_cycle(r.deadlock_report);
	vlr_sim_result_free(&r);
	r = run_once(dfsssp, &config, 1.0, 1);
	assert_false(r.deadlock);
	assert_true(r.accepted > 0.2);
	vlr_sim_result_free(&r);
	vlr_tables_free(sssp);
	vlr_tables_free(dfsssp);
}

static void assert_same_results(const struct vlr_sim_result *a,
				const struct vlr_sim_result *b)
{
	assert_true(a->accepted == b->accepted);
	assert_true(a->latency_avg == b->latency_avg);
	assert_int_equal(a->delivered, b->delivered);
	assert_int_equal(a->delivered_check, b->delivered_check);
	assert_int_equal(a->num_bins, b->num_bins);
	assert_memory_equal(a->bins, b->bins, a->num_bins * sizeof(*a->bins));
	assert_true(a->inject_cv == b->inject_cv);
}

/* Same seed, same results: alone, and among others on 1 or 3 threads. */
static void test_determinism(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);
	const double loads[] = { 0.3, 0.8 };
	struct vlr_sim_result one[4], three[4], alone;
	struct vlr_sim_config config;
	struct vlr_sim *sim;
	struct vlr_error err;
	unsigned i;

	(void)state;
	vlr_sim_config_default(&config);
	config.cycles = 2000;
	config.pattern.kind = VLR_PATTERN_PERMUTATION;
	sim = sim_for(tables, &config);
	assert_int_equal(vlr_sim_run_all(sim, loads, 2, 5, 2, 1, one, NULL, NULL, &err), 0);
	assert_int_equal(vlr_sim_run_all(sim, loads, 2, 5, 2, 3, three, NULL, NULL, &err), 0);
	assert_int_equal(vlr_sim_run(sim, 0.8, 6, &alone, &err), 0);
	for (i = 0; i < 4; i++)
		assert_same_results(&one[i], &three[i]);
	assert_same_results(&one[3], &alone);
	assert_true(one[2].delivered != one[3].delivered ||
		    one[2].latency_avg != one[3].latency_avg);
	for (i = 0; i < 4; i++) {
		vlr_sim_result_free(&one[i]);
		vlr_sim_result_free(&three[i]);
	}
	vlr_sim_result_free(&alone);
	vlr_sim_free(sim);
	vlr_tables_free(tables);
}

/* The default configuration with a pattern and crossbar speedup 2. */
static void config_for(struct vlr_sim_config *config, const char *pattern)
{
	struct vlr_error err;

	vlr_sim_config_default(config);
	assert_int_equal(vlr_pattern_parse(pattern, &config->pattern, &err), 0);
	config->speedup = 2;
}

/* The accepted load of one run (seed 3), which must not deadlock. */
static double accepted_load(const struct vlr_tables *tables,
			    const struct vlr_sim_config *config, double load)
{
	struct vlr_sim_result r = run_once(tables, config, load, 3);
	double accepted = r.accepted;

	assert_false(r.deadlock);
	vlr_sim_result_free(&r);
	return accepted;
}

static double saturated(const struct vlr_tables *tables, const char *pattern)
{
	struct vlr_sim_config config;

	config_for(&config, pattern);
	config.warmup = 4000;
	config.cycles = 8000;
	return accepted_load(tables, &config, 1.0);
}

static void assert_near(double value, double expected)
{
	if (fabs(value - expected) > 0.05 * expected)
		fail_msg("accepted %.4f, expected %.4f +-5%%", value, expected);
}

/*
 * Minimal routing on a Dragonfly p=2 a=4 h=2 (9 groups), crossbar speedup
 * 2: ADV+1 1/(a p), ADVc h/(a p), ADV-local 1/p, hot region 36.4%.
 */
static void test_dragonfly_minimal_limits(void **state)
{
	struct vlr_tables *tables = dragonfly_minimal(2, 4, 2);

	(void)state;
	assert_near(saturated(tables, "adv+1"), 1.0 / (4 * 2));
	assert_near(saturated(tables, "advc"), 2.0 / (4 * 2));
	assert_near(saturated(tables, "adv-local"), 1.0 / 2);
	assert_near(saturated(tables, "hot"), 12.5 / (25 + 0.125 * 75));
	vlr_tables_free(tables);
}

/*
 * Valiant on the balanced Dragonfly p=2 a=4 h=2 (a = 2p = 2h, g = 9
 * groups, N = 72 servers), random DLID among the Valiant offsets (whose
 * intermediates are every router once), ideal VLs, buffers of 32 and 16
 * packets per VL so that buffering is not what limits. The routes'
 * limits, per server (and so the expected load of every link, counted
 * over the routes):
 *   ADV+h: each global link carries 2 a p / g = 16/9 x the load (from G to
 *   X: the ninth of G's traffic whose intermediate is in X and the ninth
 *   of X - h's whose intermediate is in G; from G to G + h: the ninths
 *   through G and through G + h); the busiest local links, between the
 *   two routers of a group that hold neither its link to G + h nor the
 *   one from G - h, carry a ninth more: 9/17 = 0.529 (2 a p / g tends to 2,
 *   the limit to the studies' 0.5, as the Dragonfly grows).
 *   UN: a packet to another group crosses 2 - 2/g global links on average
 *   (one when the intermediate is in the source's or the destination's
 *   group), a packet within a group none (its in-tree meets the trunk in
 *   the group): (N - a p) (2 - 2/g) / (N - 1) = 1.603 x the load on every
 *   global link; the local links carry 1.637 (2.46 local hops a packet):
 *   639/1046 = 0.611, which tends to 0.5 as the Dragonfly grows.
 *   HOT: the 9 hot servers are group 0 and one more; the global links into
 *   group 0 carry 3.007 x the offered load (hot traffic, and a ninth of
 *   the rest as intermediate): 0.3325. Beyond it the sources that need
 *   those links least keep sending, so the accepted load does not stop
 *   there; it stays below minimal routing's 36.4%.
 * Saturation throughput: the most accepted over offered loads of 1, 1.1
 * and 1.2 x the limit (Valiant loses a few percent when overloaded).
 */
static void valiant_config(struct vlr_sim_config *config, const char *pattern)
{
	config_for(config, pattern);
	config->dlid = VLR_DLID_RANDOM;
	config->vl_mode = VLR_SIM_VL_IDEAL;
	config->input_packets = 32;
	config->output_packets = 16;
	config->warmup = 5000;
	config->cycles = 15000;
}

static double valiant_at(const struct vlr_tables *tables, const char *pattern, double load)
{
	struct vlr_sim_config config;

	valiant_config(&config, pattern);
	return accepted_load(tables, &config, load);
}

static double valiant_saturation(const struct vlr_tables *tables, const char *pattern,
				 double limit)
{
	double best = 0;
	unsigned step;

	for (step = 0; step < 3; step++) {
		double accepted = valiant_at(tables, pattern, limit * (1 + 0.1 * step));

		if (accepted > best)
			best = accepted;
	}
	return best;
}

static void test_dragonfly_valiant_limits(void **state)
{
	struct vlr_tables *tables = dragonfly_valiant();
	double adv = 9.0 / 17, un = 639.0 / 1046, hot = 1 / 3.0074;
	double minimal_hot = 12.5 / (25 + 0.125 * 75);
	double saturation = valiant_saturation(tables, "adv+2", adv);

	(void)state;
	assert_near(saturation, adv);
	assert_near(valiant_saturation(tables, "un", un), un);
	assert_near(valiant_at(tables, "hot", hot), hot);
	assert_true(valiant_saturation(tables, "hot", hot) < minimal_hot);
	vlr_tables_free(tables);
}

static void expect_trace_error(const char *text, const char *fragment)
{
	char *path = test_write_file("bad.trace", text);
	struct vlr_error err;
	struct vlr_sim_trace *trace = vlr_sim_trace_read(path, 4, &err);

	assert_null(trace);
	if (!strstr(err.message, fragment) || !strstr(err.message, "bad.trace:2:"))
		fail_msg("\"%s\" lacks \"%s\" or the line", err.message, fragment);
	unlink(path);
	free(path);
}

static void test_trace_errors(void **state)
{
	(void)state;
	expect_trace_error("0 0 1 16\n0 0 9 16\n", "server 9 is not one of the 4");
	expect_trace_error("5 0 1 16\n4 0 2 16\n", "time 4 is before");
	expect_trace_error("0 0 1 16\n1 2 2 16\n", "sends to itself");
	expect_trace_error("0 0 1 16\n1 2 x 16\n", "expected \"TIME SOURCE DESTINATION");
}

/* Messages of a trace become packets that all arrive. */
static void test_trace_replay(void **state)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	struct vlr_tables *tables = routed(&params, 1);
	char *path = test_write_file("msgs.trace", "0 0 8 40\n0 1 7 16\n3 8 0 1\n"
				     "3 2 6 32\n");
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct vlr_error err;

	(void)state;
	vlr_sim_config_default(&config);
	config.cycles = 100;
	config.drain = 1;
	config.trace = vlr_sim_trace_read(path, 9, &err);
	assert_non_null(config.trace);
	r = run_once(tables, &config, 0, 1);
	/* 40 phits -> 3 packets, 16 -> 1, 1 -> 1, 32 -> 2 */
	assert_int_equal(r.injected, 7);
	assert_int_equal(r.delivered, 7);
	vlr_sim_result_free(&r);
	vlr_sim_trace_free((struct vlr_sim_trace *)config.trace);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* The switch index of server's switch, as the simulator numbers the servers. */
static uint32_t switch_of_server(const struct vlr_tables *tables, uint32_t server)
{
	struct vlr_topology topology;
	struct vlr_servers servers;
	struct vlr_error err;
	uint32_t sw;

	assert_int_equal(vlr_topology_recognise(tables->fabric, VLR_FAMILY_NONE, &topology,
						&err), 0);
	assert_int_equal(vlr_servers_build(tables, &topology, &servers, &err), 0);
	sw = servers.switch_index[server];
	vlr_servers_free(&servers);
	vlr_topology_free(&topology);
	return sw;
}

/*
 * Injections per switch: only servers 0 and 4 send (3 and 2 packets), so
 * only their switches count, 3 and 2, every other switch 0 (the result
 * carries them whether or not the JSON is to).
 */
static void test_switch_injected(void **state)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 3, 1);
	struct vlr_tables *tables = routed(&params, 1);
	char *path = test_write_file("two.trace", "0 0 8 40\n2 4 1 32\n");
	uint32_t sw, from0, from4;
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct vlr_error err;

	(void)state;
	vlr_sim_config_default(&config);
	config.cycles = 200;
	config.trace = vlr_sim_trace_read(path, 9, &err);
	assert_non_null(config.trace);
	r = run_once(tables, &config, 0, 1);
	from0 = switch_of_server(tables, 0);
	from4 = switch_of_server(tables, 4);
	assert_int_not_equal(from0, from4);
	assert_int_equal(r.injected, 5);
	assert_int_equal(r.num_switches, tables->num_switches);
	for (sw = 0; sw < r.num_switches; sw++)
		assert_int_equal(r.switch_injected[sw], sw == from0 ? 3 : sw == from4 ? 2 : 0);
	vlr_sim_result_free(&r);
	assert_null(r.switch_injected);
	vlr_sim_trace_free((struct vlr_sim_trace *)config.trace);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

static void test_refused_configurations(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);
	struct vlr_sim_config config;
	struct vlr_error err;

	(void)state;
	vlr_sim_config_default(&config);
	config.vl_mode = VLR_SIM_VL_IDEAL;
	assert_null(vlr_sim_new(tables, &config, &err));
	assert_non_null(strstr(err.message, "ideal VLs need tables routed with a VL policy"));
	vlr_sim_config_default(&config);
	config.input_packets = 0;
	assert_null(vlr_sim_new(tables, &config, &err));
	assert_non_null(strstr(err.message, "input buffer is 0; allowed: 1..4096"));
	vlr_sim_config_default(&config);
	config.pattern.kind = VLR_PATTERN_SHIFT;
	config.pattern.shift_count = 1;
	config.pattern.shift[0] = 1;
	assert_null(vlr_sim_new(tables, &config, &err));
	vlr_tables_free(tables);
}

/*
 * The DLID rule adaptive on an empty fabric: every queue is empty, so that
 * each packet takes its minimal (base) LID, hop for hop as under base -
 * also where a link idle since it last sent has not yet taken in its
 * credits or freed the slot of that packet.
 */
static void test_adaptive_empty_fabric(void **state)
{
	struct vlr_tables *tables = dragonfly_valiant();
	struct vlr_sim_config config;
	struct vlr_sim_result base, adaptive;
	struct vlr_error err;
	char text[72 * 32], *path;
	size_t used = 0;
	unsigned s;

	(void)state;
	for (s = 0; s < 72; s++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%u %u %u 16\n",
					 s * 64, s, (s * 5 + 3) % 72 == s ? (s + 1) % 72 :
					 (s * 5 + 3) % 72);
	path = test_write_file("adaptive.trace", text);
	vlr_sim_config_default(&config);
	config.cycles = 72 * 64 + 200;
	config.warmup = 0;
	config.drain = 1;
	config.trace = vlr_sim_trace_read(path, 72, &err);
	assert_non_null(config.trace);
	base = run_once(tables, &config, 0, 1);
	config.dlid = VLR_DLID_ADAPTIVE;
	adaptive = run_once(tables, &config, 0, 1);
	assert_int_equal(adaptive.delivered, 72);
	assert_true(adaptive.hops_avg == base.hops_avg);
	assert_true(adaptive.latency_avg == base.latency_avg);
	vlr_sim_result_free(&base);
	vlr_sim_result_free(&adaptive);
	vlr_sim_trace_free((struct vlr_sim_trace *)config.trace);
	unlink(path);
	free(path);
	vlr_tables_free(tables);
}

/* ADV+1 at load 1.0 for 4,000 cycles on exact VLs, by the DLID rule dlid. */
static struct vlr_sim_result adv_run(const struct vlr_tables *tables,
				     enum vlr_dlid_choice dlid)
{
	struct vlr_sim_config config;
	struct vlr_error err;

	vlr_sim_config_default(&config);
	assert_int_equal(vlr_pattern_parse("adv+1", &config.pattern, &err), 0);
	config.cycles = 4000;
	config.warmup = 1000;
	config.dlid = dlid;
	return run_once(tables, &config, 1.0, 1);
}

/*
 * adaptive-vc-h against adaptive: on MinFirst tables a destination's
 * minimal and Valiant LIDs leave their source on the same VLs, so that
 * counting a port's queue on them alone or on all its VLs gives both
 * offsets the same queue where they share the port, and the rules decide
 * alike, run for run; on MinLast tables the minimal LID's first hop is
 * on the second phase's VLs, the Valiant LID's on the first's, and
 * judging each by its own VLs' queue changes the runs.
 */
static void test_adaptive_vc_h(void **state)
{
	struct vlr_tables *first = dragonfly_two_phases(-1, 3, VLR_MIN_FIRST);
	struct vlr_tables *last = dragonfly_two_phases(-1, 3, VLR_MIN_LAST);
	struct vlr_sim_result a, h;

	(void)state;
	a = adv_run(first, VLR_DLID_ADAPTIVE);
	h = adv_run(first, VLR_DLID_ADAPTIVE_VC_H);
	assert_true(a.delivered > 1000);
	assert_int_equal(h.delivered, a.delivered);
	assert_int_equal(h.injected, a.injected);
	assert_true(h.latency_avg == a.latency_avg);
	assert_true(h.hops_avg == a.hops_avg);
	vlr_sim_result_free(&a);
	vlr_sim_result_free(&h);
	a = adv_run(last, VLR_DLID_ADAPTIVE);
	h = adv_run(last, VLR_DLID_ADAPTIVE_VC_H);
	assert_true(a.delivered > 1000);
	assert_true(h.delivered != a.delivered || h.hops_avg != a.hops_avg);
	vlr_sim_result_free(&a);
	vlr_sim_result_free(&h);
	vlr_tables_free(first);
	vlr_tables_free(last);
}

/* The simulator's DLID choices by name; the analyses' spread is refused. */
static void test_dlid_choices(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);
	struct vlr_sim_config config;
	enum vlr_dlid_choice dlid = VLR_DLID_BASE;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_sim_dlid_parse("adaptive", &dlid, &err), 0);
	assert_int_equal(dlid, VLR_DLID_ADAPTIVE);
	assert_int_equal(vlr_sim_dlid_parse("adaptive-vc-h", &dlid, &err), 0);
	assert_int_equal(dlid, VLR_DLID_ADAPTIVE_VC_H);
	assert_int_equal(vlr_sim_dlid_parse("restricted", &dlid, &err), 0);
	assert_int_equal(dlid, VLR_DLID_RESTRICTED);
	assert_int_not_equal(vlr_sim_dlid_parse("spread", &dlid, &err), 0);
	assert_string_equal(err.message, "DLID choice \"spread\" is not one of base, random, "
			    "recompute, restricted, adaptive, adaptive-vc-h");
	assert_int_equal(dlid, VLR_DLID_RESTRICTED);
	vlr_sim_config_default(&config);
	config.dlid = VLR_DLID_SPREAD;
	assert_null(vlr_sim_new(tables, &config, &err));
	assert_string_equal(err.message, "the simulator takes the DLID choice base, random, "
			    "recompute, restricted, adaptive or adaptive-vc-h, not spread");
	vlr_tables_free(tables);
}

/* The VL modes by name, from the same table as the reports. */
static void test_vl_modes(void **state)
{
	enum vlr_sim_vl_mode mode = VLR_SIM_VL_EXACT;
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_sim_vl_mode_parse("ideal", &mode, &err), 0);
	assert_int_equal(mode, VLR_SIM_VL_IDEAL);
	assert_string_equal(vlr_sim_vl_mode_name(mode), "ideal");
	assert_string_equal(vlr_sim_vl_mode_name(VLR_SIM_VL_EXACT), "exact");
	assert_int_not_equal(vlr_sim_vl_mode_parse("fast", &mode, &err), 0);
	assert_string_equal(err.message, "VL mode \"fast\" is not exact or ideal");
}

/*
 * Valiant tables of a HyperX 4x4 (2 servers a switch) at LMC 2 under
 * 2phases with k VLs per phase (0: the engine's default).
 */
static struct vlr_tables *hyperx_two_phases(enum vlr_phase_min phase_min, unsigned k)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 4, 2);
	struct vlr_tables *tables = tables_for(&params, 8, 2);
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_error err;

	vlr_engine_options_init(&options);
	options.policy.kind = VLR_VLP_TWO_PHASES;
	options.policy.phase_min = phase_min;
	options.policy.vls_per_phase = k;
	if (vlr_route_valiant(tables, &options, &report, &err))
		fail_msg("routing failed: %s", err.message);
	return tables;
}

/*
 * minfirst, minlast and minboth differ only for packets whose intermediate
 * is their source or destination switch, and there they do: under a
 * random Valiant offset (never the minimal offset 0) the three give three
 * different simulations, exact and ideal. (minfirst and minboth once
 * simulated alike bit for bit: no offset had the destination's switch as
 * its intermediate.)
 */
static void test_phase_min_differ(void **state)
{
	static const enum vlr_phase_min phases[] = { VLR_MIN_FIRST, VLR_MIN_LAST, VLR_MIN_BOTH };
	static const enum vlr_sim_vl_mode modes[] = { VLR_SIM_VL_EXACT, VLR_SIM_VL_IDEAL };
	struct vlr_tables *tables[3];
	struct vlr_sim_result r[3];
	struct vlr_sim_config config;
	unsigned m, i;

	(void)state;
	for (i = 0; i < 3; i++)
		tables[i] = hyperx_two_phases(phases[i], 0);
	for (m = 0; m < 2; m++) {
		config_for(&config, "shift+1");
		config.dlid = VLR_DLID_RANDOM;
		config.vl_mode = modes[m];
		config.cycles = 3000;
		for (i = 0; i < 3; i++)
			r[i] = run_once(tables[i], &config, 1.0, 1);
		for (i = 0; i < 3; i++) {
			const struct vlr_sim_result *a = &r[i], *b = &r[(i + 1) % 3];

			if (a->delivered == b->delivered && a->latency_avg == b->latency_avg)
				fail_msg("%s and %s simulate alike (%s VLs)",
					 vlr_phase_min_name(phases[i]),
					 vlr_phase_min_name(phases[(i + 1) % 3]),
					 vlr_sim_vl_mode_name(modes[m]));
		}
		for (i = 0; i < 3; i++)
			vlr_sim_result_free(&r[i]);
	}
	for (i = 0; i < 3; i++)
		vlr_tables_free(tables[i]);
}

/*
 * How the switch-to-switch hops of one packet at a time chose their VLs,
 * under MinFirst: a packet that starts on its DLID's trunk (its
 * intermediate is its source switch) is minimal, on the first phase's VLs.
 */
struct phase_hops {
	const struct vlr_tables *tables;
	unsigned k;			/* VLs per phase */
	uint64_t serial;		/* the packet of the hops so far */
	int on_trunk;			/* it started in phase two */
	int phase_two;			/* its phase at its last hop */
	unsigned in_phase;		/* its hops in that phase so far */
	unsigned hops, later_hops;	/* all hops, those past a phase's first */
	unsigned per_hop;		/* hops on VL phase * K + hop of the phase */
};

static void count_phase_hop(void *context, const struct vlr_sim_hop *hop)
{
	struct phase_hops *h = context;
	const struct vlr_fabric *fabric = h->tables->fabric;
	const struct vlr_port *port;

	if (hop->from_switch == VLR_NONE)
		return;
	port = vlr_port_at(fabric, h->tables->switch_node[hop->from_switch], hop->port);
	if (!vlr_node_is_switch(fabric, fabric->ports[port->peer].node))
		return;				/* delivery: any VL */
	if (hop->serial != h->serial || !h->hops)
		h->on_trunk = hop->phase_two;
	if (hop->serial != h->serial || hop->phase_two != h->phase_two || !h->hops)
		h->in_phase = 0;
	h->serial = hop->serial;
	h->phase_two = hop->phase_two;
	h->hops++;
	h->later_hops += h->in_phase > 0;
	h->per_hop += hop->vl == (unsigned)(hop->phase_two && !h->on_trunk) * h->k + h->in_phase;
	h->in_phase++;
}

/* Every server sends one packet (shift+5), 64 cycles apart, hops counted. */
static struct phase_hops replay_one_by_one(const struct vlr_tables *tables,
					   enum vlr_sim_phase_vls phase_vls)
{
	struct phase_hops h = { .tables = tables, .k = tables->policy.vls_per_phase };
	char *text = calloc(32, 32), *path;
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct vlr_error err;
	size_t used = 0;
	unsigned s;

	assert_non_null(text);
	for (s = 0; s < 32; s++)
		used += (size_t)snprintf(text + used, 32, "%u %u %u 16\n", s * 64, s,
					 (s + 5) % 32);
	path = test_write_file("one-by-one.trace", text);
	vlr_sim_config_default(&config);
	config.vl_mode = VLR_SIM_VL_IDEAL;
	config.phase_vls = phase_vls;
	config.dlid = VLR_DLID_RANDOM;
	config.cycles = 32 * 64 + 200;
	config.drain = 1;
	config.hop = count_phase_hop;
	config.hop_context = &h;
	config.trace = vlr_sim_trace_read(path, 32, &err);
	if (!config.trace)
		fail_msg("%s", err.message);
	r = run_once(tables, &config, 0, 1);
	assert_int_equal(r.delivered, 32);
	vlr_sim_result_free(&r);
	vlr_sim_trace_free((struct vlr_sim_trace *)config.trace);
	unlink(path);
	free(path);
	free(text);
	return h;
}

/*
 * Ideal VLs on 2phases tables, per hop: the k-th hop of a phase takes VL
 * phase * K + k, the phase restarting at the DLID's trunk; free, most
 * hops past a phase's first do not (an idle fabric's queues tie, and the
 * lowest VL wins). Per-hop needs K VLs for
 * the 2 hops of a HyperX 2D phase, and ideal VLs.
 */
static void test_per_hop_tables(void **state)
{
	struct vlr_tables *tables = hyperx_two_phases(VLR_MIN_FIRST, 2);
	struct vlr_sim_config config;
	struct phase_hops h;
	struct vlr_error err;

	(void)state;
	h = replay_one_by_one(tables, VLR_SIM_PHASE_VLS_PER_HOP);
	assert_true(h.later_hops > 0);
	assert_int_equal(h.per_hop, h.hops);
	h = replay_one_by_one(tables, VLR_SIM_PHASE_VLS_FREE);
	assert_true(h.per_hop < h.hops - h.later_hops / 2);
	vlr_tables_free(tables);

	tables = hyperx_two_phases(VLR_MIN_FIRST, 1);
	config_for(&config, "un");
	config.vl_mode = VLR_SIM_VL_IDEAL;
	config.phase_vls = VLR_SIM_PHASE_VLS_PER_HOP;
	assert_null(vlr_sim_new(tables, &config, &err));
	assert_string_equal(err.message, "per-hop VLs need a VL for each of the 2 hops of a "
			    "phase; the tables have 1 VLs per phase (vlroute route "
			    "--vls-per-phase)");
	config.vl_mode = VLR_SIM_VL_EXACT;
	assert_null(vlr_sim_new(tables, &config, &err));
	assert_string_equal(err.message, "per-hop or free phase VLs are for ideal VLs; the "
			    "exact VLs are the SL2VL tables'");
	vlr_tables_free(tables);
}

/*
 * Tables made for ideal VLs only (a ladder of 4 VLs on a HyperX 4x4 that
 * offers 3): exact VLs refuse them, saying what they need; ideal VLs run
 * them on the policy's 4 VLs.
 */
static void test_unprogrammable_ideal_only(void **state)
{
	struct vlr_family_params params = test_grid(VLR_FAMILY_HYPERX, 2, 4, 1);
	struct vlr_tables *tables = tables_for(&params, 3, 1);
	struct vlr_engine_options options;
	struct vlr_engine_report report;
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct vlr_error err;

	(void)state;
	vlr_engine_options_init(&options);
	options.policy.kind = VLR_VLP_LADDER;
	options.allow_unprogrammable = 1;
	if (vlr_route_valiant(tables, &options, &report, &err))
		fail_msg("routing failed: %s", err.message);
	assert_true(tables->unprogrammable.marked);
	config_for(&config, "un");
	config.dlid = VLR_DLID_RANDOM;
	config.cycles = 1000;
	assert_null(vlr_sim_new(tables, &config, &err));
	assert_non_null(strstr(err.message, "not programmable: needs 4 VLs (3 offered); "
			       "only ideal VLs can run them"));
	config.vl_mode = VLR_SIM_VL_IDEAL;
	r = run_once(tables, &config, 0.3, 1);
	assert_false(r.deadlock);
	assert_true(r.delivered > 0);
	vlr_sim_result_free(&r);
	vlr_tables_free(tables);
}

/* Several injection queues, selected by destination, still deliver all. */
static void test_injection_queues(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);
	struct vlr_sim_config config;
	struct vlr_sim_result r;

	(void)state;
	vlr_sim_config_default(&config);
	config.cycles = 2000;
	config.drain = 1;
	config.injection_queues = 4;
	config.queue_select = VLR_SIM_QUEUE_DEST;
	config.transit_priority = 1;
	r = run_once(tables, &config, 0.5, 2);
	assert_true(r.injected > 2000);
	assert_int_equal(r.delivered, r.injected);
	assert_true(r.delivered_check == r.injected_check);
	vlr_sim_result_free(&r);
	vlr_tables_free(tables);
}

/*
 * The default warm-up: a tenth of the measured cycles in whole bins; bins
 * from cycle 0, those holding a warm-up cycle counted, the last one ending
 * with the run.
 */
static void test_warmup_bins(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);
	struct vlr_sim_config config;
	struct vlr_sim_result r;
	struct vlr_sim *sim;

	(void)state;
	assert_int_equal(vlr_sim_default_warmup(20000, 1000), 2000);
	assert_int_equal(vlr_sim_default_warmup(9999, 1000), 0);
	assert_int_equal(vlr_sim_default_warmup(10000, 1000), 1000);
	assert_int_equal(vlr_sim_default_warmup(15000, 250), 1500);
	vlr_sim_config_default(&config);
	assert_true(config.warmup == VLR_SIM_WARMUP_DEFAULT);
	sim = sim_for(tables, &config);
	assert_int_equal(vlr_sim_config_of(sim)->warmup, 2000);
	vlr_sim_free(sim);
	config.cycles = 3000;
	sim = sim_for(tables, &config);
	assert_int_equal(vlr_sim_config_of(sim)->warmup, 0);
	vlr_sim_free(sim);

	config.warmup = 1500;
	r = run_once(tables, &config, 0.5, 1);
	assert_true(r.completed);
	assert_int_equal(r.bin, 1000);
	assert_int_equal(r.span, 4500);
	assert_int_equal(r.num_bins, 5);
	assert_int_equal(r.warmup_bins, 2);
	assert_true(r.bins[0] > 0.3 && r.bins[4] > 0.3);	/* 500 cycles, at full load */
	vlr_sim_result_free(&r);
	vlr_tables_free(tables);
}

/*
 * A caller's flag: set before, no run starts; set during a run, it stops
 * within 1024 cycles; either way the result is left out (completed 0)
 * with its load and seed, and that is no failure.
 */
static void test_cancel(void **state)
{
	struct vlr_family_params params = test_dragonfly(2, 4, 2);
	struct vlr_tables *tables = routed(&params, 1);
	const double loads[] = { 0.3, 0.8 };
	struct vlr_sim_config config;
	struct vlr_sim_result results[4], r;
	struct vlr_sim *sim;
	struct vlr_error err;
	int cancel = 1;
	double start;
	unsigned i;

	(void)state;
	vlr_sim_config_default(&config);
	config.cycles = 100000000;
	config.cancel = &cancel;
	sim = sim_for(tables, &config);
	assert_int_equal(vlr_sim_run_all(sim, loads, 2, 5, 2, 2, results, NULL, NULL, &err), 0);
	for (i = 0; i < 4; i++) {
		assert_false(results[i].completed);
		assert_true(results[i].offered == loads[i / 2]);
		assert_int_equal(results[i].seed, 5 + i % 2);
		assert_null(results[i].bins);
	}
	start = vlr_clock_seconds();
	assert_int_equal(vlr_sim_run(sim, 0.8, 1, &r, &err), 0);
	assert_false(r.completed);
	assert_null(r.bins);
	assert_true(r.offered == 0.8 && r.seed == 1);
	assert_true(vlr_clock_seconds() - start < 10);	/* not the 10^8 cycles */
	vlr_sim_free(sim);

	cancel = 0;
	config.cycles = 2000;
	r = run_once(tables, &config, 0.8, 1);
	assert_true(r.completed);
	vlr_sim_result_free(&r);
	vlr_tables_free(tables);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_load_latency),
		cmocka_unit_test(test_conservation),
		cmocka_unit_test(test_deadlock_reported),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_dragonfly_minimal_limits),
		cmocka_unit_test(test_dragonfly_valiant_limits),
		cmocka_unit_test(test_trace_errors),
		cmocka_unit_test(test_trace_replay),
		cmocka_unit_test(test_switch_injected),
		cmocka_unit_test(test_refused_configurations),
		cmocka_unit_test(test_injection_queues),
		cmocka_unit_test(test_phase_min_differ),
		cmocka_unit_test(test_per_hop_tables),
		cmocka_unit_test(test_unprogrammable_ideal_only),
		cmocka_unit_test(test_dlid_choices),
		cmocka_unit_test(test_adaptive_empty_fabric),
		cmocka_unit_test(test_adaptive_vc_h),
		cmocka_unit_test(test_vl_modes),
		cmocka_unit_test(test_warmup_bins),
		cmocka_unit_test(test_cancel),
	};

	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
