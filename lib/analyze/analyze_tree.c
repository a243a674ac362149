/*
 * analyze_tree.c - the all-to-all traffic one destination at a time: the
 * routes toward one DLID form an in-tree, since every switch has one out
 * port for it, so its load is pushed along the tree once per switch
 * instead of walked once per source.
 *
 * For a DLID, every switch with servers is classified first (out channel,
 * next switch, channels left to the destination port; 0 when the route
 * is not delivered), remembering what every switch on the way already
 * knows. Pass 1 gives every source switch the shares of its servers and
 * pushes them from the farthest switch inward onto the channels. Pass 2,
 * with every load known, finds the most crowded channel from every switch
 * to the destination nearest first, and rates each source by it and its
 * injection link. Results equal those of the route walk in
 * analyze_routes.c, which rates the same traffic route by route.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "analyze_internal.h"

/* The channel switch sw sends dlid on, or VLR_NONE for none. */
static uint32_t out_channel(const struct vlr_analysis *a, uint32_t sw, uint32_t dlid)
{
	unsigned out = vlr_tables_lft(a->tables, sw)[dlid];
	uint32_t channel;

	if (out == 0 || out > a->switch_ports[sw])
		return VLR_NONE;
	channel = a->switch_first[sw] + out;
	return a->next_switch[channel] == VLR_NONE ? VLR_NONE : channel;
}

/* Channels from sw to the owner of dlid (0: not delivered), remembered. */
static void classify(const struct vlr_analysis *a, struct analyze_scratch *x, uint32_t sw,
		     uint32_t dlid, uint32_t owner)
{
	uint32_t depth = 0, dist = 0, channel;

	for (;;) {
		if (x->stamp[sw] == x->now) {
			dist = x->dist[sw];
			break;
		}
		x->stamp[sw] = x->now;
		x->dist[sw] = 0;
		x->flow[sw] = 0;
		x->touched[x->num_touched++] = sw;
		channel = out_channel(a, sw, dlid);
		x->out[sw] = channel;
		if (channel == VLR_NONE)
			break;
		if (a->next_switch[channel] == ANALYZE_ENDPOINT) {
			dist = a->tables->fabric->ports[channel].peer == owner;
			x->dist[sw] = dist;
			break;
		}
		x->stack[depth++] = sw;
		sw = a->next_switch[channel];
	}
	while (depth--) {
		dist = dist ? dist + 1 : 0;
		x->dist[x->stack[depth]] = dist;
	}
}

/* The delivered touched switches, farthest from the destination first. */
static void order_by_distance(struct analyze_scratch *x)
{
	uint32_t i, d, max_dist = 0, total = 0;

	for (i = 0; i < x->num_touched; i++) {
		uint32_t dist = x->dist[x->touched[i]];

		x->bucket[dist]++;
		if (dist > max_dist)
			max_dist = dist;
	}
	for (d = max_dist + 1; d-- > 1;) {
		uint32_t count = x->bucket[d];

		x->bucket[d] = total;
		total += count;
	}
	for (i = 0; i < x->num_touched; i++) {
		uint32_t sw = x->touched[i];

		if (x->dist[sw])
			x->order[x->bucket[x->dist[sw]]++] = sw;
	}
	for (d = 0; d <= max_dist; d++)
		x->bucket[d] = 0;
	x->num_ordered = total;
}

/* Classify every source switch toward dlid; note the first undelivered route. */
static void classify_sources(const struct vlr_analysis *a, struct analyze_scratch *x,
			     uint32_t dest, uint32_t dlid, struct analyze_tally *tally)
{
	const struct vlr_servers *servers = &a->servers;
	uint32_t owner = servers->port[dest], sw;

	x->now++;
	x->num_touched = 0;
	for (sw = 0; sw < servers->num_switches; sw++) {
		uint32_t first = servers->first_on_switch[sw];
		uint32_t count = servers->on_switch[sw];

		if (!count || (count == 1 && first == dest))
			continue;
		classify(a, x, sw, dlid, owner);
		if (!x->dist[sw] && tally->bad_source == VLR_NONE) {
			tally->bad_source = servers->port[first == dest ? first + 1 : first];
			tally->bad_lid = dlid;
		}
	}
	order_by_distance(x);
}

/* The offsets of dest's LIDs the all-to-all traffic uses, and their share. */
static uint32_t offsets_of(const struct vlr_analysis *a,
			   const struct analyze_instance *instance, uint32_t dest,
			   uint32_t *share)
{
	unsigned lmc = instance->choice == VLR_DLID_SPREAD ? a->server_lmc[dest] : 0;

	*share = ANALYZE_SHARE >> lmc;
	return 1u << lmc;
}

/* Routes and hops of the servers of every source switch toward dest. */
static void count_routes(const struct vlr_analysis *a, const struct analyze_scratch *x,
			 uint32_t dest, struct analyze_tally *tally)
{
	const struct vlr_servers *servers = &a->servers;
	uint32_t sw;

	for (sw = 0; sw < servers->num_switches; sw++) {
		uint32_t count = servers->on_switch[sw];
		unsigned hops;

		if (servers->switch_index[dest] == sw)
			count--;
		if (!count || !x->dist[sw])
			continue;
		hops = 1 + x->dist[sw];
		tally->routes += count;
		tally->hop_sum += (uint64_t)count * hops;
		if (hops < tally->hops_min)
			tally->hops_min = hops;
		if (hops > tally->hops_max)
			tally->hops_max = hops;
	}
}

/* Pass 1 for one DLID: injection links, then the flows along the tree. */
static void push_flows(const struct vlr_analysis *a, struct analyze_scratch *x,
		       uint32_t dest, uint32_t share, uint64_t *load)
{
	const struct vlr_servers *servers = &a->servers;
	uint32_t s, i;

	for (s = 0; s < servers->count; s++) {
		uint32_t sw = servers->switch_index[s];

		if (s == dest || !x->dist[sw])
			continue;
		load[servers->port[s]] += share;
		x->flow[sw] += share;
	}
	for (i = 0; i < x->num_ordered; i++) {
		uint32_t sw = x->order[i], channel = x->out[sw], next;

		if (!x->flow[sw])
			continue;
		load[channel] += x->flow[sw];
		next = a->next_switch[channel];
		if (next != ANALYZE_ENDPOINT)
			x->flow[next] += x->flow[sw];
	}
}

void analyze_tree_add(const struct vlr_analysis *a, const struct analyze_instance *instance,
		      uint32_t first, uint32_t last, uint64_t *load,
		      struct analyze_scratch *x, struct analyze_tally *tally)
{
	uint32_t d, off, share;

	for (d = first; d < last; d++) {
		uint32_t count = offsets_of(a, instance, d, &share);

		tally->pairs += a->servers.count - 1;
		for (off = 0; off < count; off++) {
			classify_sources(a, x, d, a->server_lid[d] + off, tally);
			count_routes(a, x, d, tally);
			push_flows(a, x, d, share, load);
		}
	}
}

/* Pass 2 for one DLID: every source's share of its most crowded channel. */
static void rate_sources(const struct vlr_analysis *a, struct analyze_scratch *x,
			 uint32_t dest, uint32_t share, const uint64_t *load)
{
	const struct vlr_servers *servers = &a->servers;
	uint32_t s, i;

	for (i = x->num_ordered; i-- > 0;) {
		uint32_t sw = x->order[i], channel = x->out[sw];
		uint32_t next = a->next_switch[channel];
		uint64_t most = load[channel];

		if (next != ANALYZE_ENDPOINT && x->most[next] > most)
			most = x->most[next];
		x->most[sw] = most;
	}
	for (s = 0; s < servers->count; s++) {
		uint32_t sw = servers->switch_index[s];
		uint64_t most;

		if (s == dest || !x->dist[sw])
			continue;
		most = load[servers->port[s]];
		if (x->most[sw] > most)
			most = x->most[sw];
		if (most > x->max_load)
			x->max_load = most;
		x->pair_bandwidth[s] += most <= ANALYZE_SHARE ? (double)share / ANALYZE_SHARE :
					(double)share / (double)most;
	}
}

static void sum_pairs(const struct vlr_analysis *a, struct analyze_scratch *x,
		      uint32_t dest, struct analyze_tally *tally)
{
	uint32_t s;

	for (s = 0; s < a->servers.count; s++) {
		double bandwidth = x->pair_bandwidth[s];

		x->pair_bandwidth[s] = 0.0;
		if (s == dest)
			continue;
		tally->bandwidth_sum += bandwidth;
		if (bandwidth < tally->bandwidth_min)
			tally->bandwidth_min = bandwidth;
	}
}

void analyze_tree_rate(const struct vlr_analysis *a, const struct analyze_instance *instance,
		       uint32_t first, uint32_t last, const uint64_t *load,
		       struct analyze_scratch *x, struct analyze_tally *tally)
{
	struct analyze_tally ignored;
	uint32_t d, off, share;

	x->max_load = 0;
	for (d = first; d < last; d++) {
		uint32_t count = offsets_of(a, instance, d, &share);

		for (off = 0; off < count; off++) {
			analyze_tally_init(&ignored);
			classify_sources(a, x, d, a->server_lid[d] + off, &ignored);
			rate_sources(a, x, d, share, load);
		}
		sum_pairs(a, x, d, tally);
	}
	if (x->max_load > tally->max_load)
		tally->max_load = x->max_load;
}
