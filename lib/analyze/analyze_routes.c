/*
 * analyze_routes.c - walking the routes of a pattern instance through the
 * LFTs: pass 1 adds every route's share to the channels it crosses, pass 2
 * rates every pair by the most crowded channel of each of its routes.
 *
 * A channel is the port slot that sends on it, so the walk needs no
 * channel table: from a channel, next_switch says which switch it enters
 * (none: it reaches an endpoint), and that switch's LFT entry for the DLID
 * names the next channel. Both passes walk the same routes again rather
 * than store them: a walk is a few look-ups, stored routes would not fit.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <limits.h>
#include <stdlib.h>

#include "analyze_internal.h"

void analyze_tally_init(struct analyze_tally *tally)
{
	tally->pairs = 0;
	tally->routes = 0;
	tally->hop_sum = 0;
	tally->hops_min = UINT_MAX;
	tally->hops_max = 0;
	tally->bandwidth_sum = 0.0;
	tally->bandwidth_min = 1.0;
	tally->max_load = 0;
	tally->bad_source = VLR_NONE;
	tally->bad_lid = VLR_NONE;
}

void analyze_tally_merge(struct analyze_tally *sum, const struct analyze_tally *part)
{
	sum->pairs += part->pairs;
	sum->routes += part->routes;
	sum->hop_sum += part->hop_sum;
	if (part->hops_min < sum->hops_min)
		sum->hops_min = part->hops_min;
	if (part->hops_max > sum->hops_max)
		sum->hops_max = part->hops_max;
	sum->bandwidth_sum += part->bandwidth_sum;
	if (part->bandwidth_min < sum->bandwidth_min)
		sum->bandwidth_min = part->bandwidth_min;
	if (part->max_load > sum->max_load)
		sum->max_load = part->max_load;
	if (sum->bad_source == VLR_NONE) {
		sum->bad_source = part->bad_source;
		sum->bad_lid = part->bad_lid;
	}
}

/*
 * The channels of the route from port slot source to dlid into path;
 * returns how many, or 0 when the route is not delivered to the DLID's
 * owner (a dead end, a loop, another port).
 */
static unsigned walk(const struct vlr_analysis *a, uint32_t source, uint32_t dlid,
		     uint32_t *path)
{
	const struct vlr_tables *t = a->tables;
	uint32_t channel = source, hops = 0;

	for (;;) {
		uint32_t sw = a->next_switch[channel];
		unsigned out;

		path[hops++] = channel;
		if (sw == ANALYZE_ENDPOINT)
			return t->fabric->ports[channel].peer == t->lid_owner[dlid] ? hops : 0;
		if (sw == VLR_NONE || hops > t->num_switches)
			return 0;
		out = vlr_tables_lft(t, sw)[dlid];
		if (out == 0 || out > a->switch_ports[sw])
			return 0;
		channel = a->switch_first[sw] + out;
	}
}

static uint32_t destinations(const struct vlr_analysis *a,
			     const struct analyze_instance *instance, uint32_t source)
{
	if (!instance->dest)
		return a->servers.count - 1;
	return instance->dest[source] != VLR_NONE;
}

static uint32_t destination(const struct vlr_analysis *a,
			    const struct analyze_instance *instance, uint32_t source,
			    uint32_t k)
{
	if (!instance->dest)
		return (source + 1 + k) % a->servers.count;
	return instance->dest[source];
}

/* The LID offsets a pair uses: first offset, how many, and their share. */
struct offsets {
	uint32_t first;
	uint32_t count;
	uint32_t share;
};

static struct offsets choose_offsets(const struct vlr_analysis *a,
				     const struct analyze_instance *instance,
				     uint32_t source, uint32_t dest)
{
	unsigned lmc = a->server_lmc[dest];
	struct offsets o = { 0, 1, ANALYZE_SHARE };
	uint64_t x;

	if (instance->choice == VLR_DLID_SPREAD) {
		o.count = 1u << lmc;
		o.share = ANALYZE_SHARE >> lmc;
	} else if (instance->choice == VLR_DLID_RANDOM) {
		x = instance->salt ^ ((uint64_t)source << 32 | dest);
		o.first = (uint32_t)(vlr_splitmix64(&x) & ((1u << lmc) - 1));
	}
	return o;
}

static void note_bad(struct analyze_tally *tally, uint32_t port, uint32_t dlid)
{
	if (tally->bad_source != VLR_NONE)
		return;
	tally->bad_source = port;
	tally->bad_lid = dlid;
}

static void count_hops(struct analyze_tally *tally, unsigned hops)
{
	tally->routes++;
	tally->hop_sum += hops;
	if (hops < tally->hops_min)
		tally->hops_min = hops;
	if (hops > tally->hops_max)
		tally->hops_max = hops;
}

void analyze_add_routes(const struct vlr_analysis *a,
			const struct analyze_instance *instance, uint32_t first,
			uint32_t last, uint64_t *load, struct analyze_scratch *scratch,
			struct analyze_tally *tally)
{
	uint32_t *path = scratch->path, s, k, i, off;

	for (s = first; s < last; s++) {
		uint32_t port = a->servers.port[s], count = destinations(a, instance, s);

		for (k = 0; k < count; k++) {
			uint32_t d = destination(a, instance, s, k);
			struct offsets o = choose_offsets(a, instance, s, d);

			tally->pairs++;
			for (off = o.first; off < o.first + o.count; off++) {
				uint32_t dlid = a->server_lid[d] + off;
				unsigned hops = walk(a, port, dlid, path);

				if (!hops) {
					note_bad(tally, port, dlid);
					continue;
				}
				count_hops(tally, hops);
				for (i = 0; i < hops; i++)
					load[path[i]] += o.share;
			}
		}
	}
}

/* A route's bandwidth: its share of its most crowded channel, at most its share. */
static double rate(const uint64_t *load, const uint32_t *path, unsigned hops,
		   uint32_t share, uint64_t *max_load)
{
	uint64_t most = 0;
	unsigned i;

	for (i = 0; i < hops; i++)
		if (load[path[i]] > most)
			most = load[path[i]];
	if (most > *max_load)
		*max_load = most;
	if (most <= ANALYZE_SHARE)
		return (double)share / ANALYZE_SHARE;
	return (double)share / (double)most;
}

void analyze_rate_routes(const struct vlr_analysis *a,
			 const struct analyze_instance *instance, uint32_t first,
			 uint32_t last, const uint64_t *load,
			 struct analyze_scratch *scratch, struct analyze_tally *tally)
{
	uint32_t *path = scratch->path, s, k, off;

	for (s = first; s < last; s++) {
		uint32_t port = a->servers.port[s], count = destinations(a, instance, s);

		for (k = 0; k < count; k++) {
			uint32_t d = destination(a, instance, s, k);
			struct offsets o = choose_offsets(a, instance, s, d);
			double bandwidth = 0.0;

			for (off = o.first; off < o.first + o.count; off++) {
				unsigned hops = walk(a, port, a->server_lid[d] + off, path);

				if (hops)
					bandwidth += rate(load, path, hops, o.share,
							  &tally->max_load);
			}
			tally->bandwidth_sum += bandwidth;
			if (bandwidth < tally->bandwidth_min)
				tally->bandwidth_min = bandwidth;
		}
	}
}

/* Room for one more route (its header and the longest walk) in x->routes. */
static int reserve(const struct vlr_analysis *a, struct analyze_scratch *x,
		   struct vlr_error *err)
{
	size_t needed = x->routes_size + a->tables->num_switches + 8;
	size_t capacity = x->routes_capacity ? x->routes_capacity : 4096;
	uint32_t *grown;

	if (needed <= x->routes_capacity)
		return 0;
	while (capacity < needed)
		capacity *= 2;
	grown = realloc(x->routes, capacity * sizeof(uint32_t));
	if (!grown)
		return vlr_fail(err, "out of memory for the routes of a pattern");
	x->routes = grown;
	x->routes_capacity = capacity;
	return 0;
}

/*
 * Pass 1 keeping the routes: per pair its route count, then per route its
 * channel count (0: not delivered), share and channels.
 */
static int add_and_keep(const struct vlr_analysis *a, const struct analyze_instance *instance,
			uint64_t *load, struct analyze_scratch *x,
			struct analyze_tally *tally, struct vlr_error *err)
{
	uint32_t s, off, i;

	x->routes_size = 0;
	for (s = 0; s < a->servers.count; s++) {
		uint32_t port = a->servers.port[s], d;
		struct offsets o;

		if (!destinations(a, instance, s))
			continue;
		d = destination(a, instance, s, 0);
		o = choose_offsets(a, instance, s, d);
		tally->pairs++;
		if (reserve(a, x, err))
			return -1;
		x->routes[x->routes_size++] = o.count;
		for (off = o.first; off < o.first + o.count; off++) {
			uint32_t dlid = a->server_lid[d] + off, *route;
			unsigned hops;

			if (reserve(a, x, err))
				return -1;
			route = x->routes + x->routes_size;
			hops = walk(a, port, dlid, route + 2);
			route[0] = hops;
			route[1] = o.share;
			x->routes_size += 2 + hops;
			if (!hops) {
				note_bad(tally, port, dlid);
				continue;
			}
			count_hops(tally, hops);
			for (i = 0; i < hops; i++)
				load[route[2 + i]] += o.share;
		}
	}
	return 0;
}

/* Pass 2 over the kept routes. */
static void rate_kept(const struct analyze_scratch *x, const uint64_t *load,
		      struct analyze_tally *tally)
{
	size_t at = 0;

	while (at < x->routes_size) {
		uint32_t count = x->routes[at++], r;
		double bandwidth = 0.0;

		for (r = 0; r < count; r++) {
			uint32_t hops = x->routes[at], share = x->routes[at + 1];

			if (hops)
				bandwidth += rate(load, x->routes + at + 2, hops, share,
						  &tally->max_load);
			at += 2 + hops;
		}
		tally->bandwidth_sum += bandwidth;
		if (bandwidth < tally->bandwidth_min)
			tally->bandwidth_min = bandwidth;
	}
}

int analyze_instance_routes(const struct vlr_analysis *a,
			    const struct analyze_instance *instance, uint64_t *load,
			    struct analyze_scratch *x, struct analyze_tally *tally,
			    struct vlr_error *err)
{
	if (add_and_keep(a, instance, load, x, tally, err))
		return -1;
	rate_kept(x, load, tally);
	return 0;
}

int analyze_fail_route(const struct vlr_analysis *a, const struct analyze_tally *tally,
		       struct vlr_error *err)
{
	const struct vlr_fabric *fabric = a->tables->fabric;
	const struct vlr_port *source = &fabric->ports[tally->bad_source];
	uint32_t owner = a->tables->lid_owner[tally->bad_lid];

	return vlr_fail(err, "the route from %s port %u to LID %u (%s port %u) is not "
			"delivered: the tables do not fit this fabric or are broken "
			"(vlroute verify lists every failing route)",
			vlr_node_name(fabric, source->node), source->number,
			tally->bad_lid, vlr_node_name(fabric, fabric->ports[owner].node),
			fabric->ports[owner].number);
}
