/*
 * traffic.c - servers and the traffic patterns of the Valiant studies,
 * as destination functions over server numbers (see traffic.h).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vlroute/traffic.h>

#include "util/names.h"

#define HOT_SHARE 0.25		/* of the traffic goes to ... */
#define HOT_FRACTION 8		/* ... the first 1/8 of the servers */

struct vlr_traffic {
	struct vlr_pattern_spec spec;
	const struct vlr_servers *servers;
	uint32_t *fixed;		/* permutations: server -> destination */
	uint32_t *group_of_server;	/* Dragonfly patterns */
	uint32_t *group_first;		/* num_groups + 1: servers by group */
	uint32_t *group_servers;
	uint32_t num_groups;
	unsigned adv_groups;		/* advc: h (or globals per spine) */
	uint32_t *next_local;		/* adv-local: server's next switch */
};

int vlr_servers_build(const struct vlr_tables *tables, const struct vlr_topology *topology,
		      struct vlr_servers *servers, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t i, count = 0;
	unsigned port;

	memset(servers, 0, sizeof(*servers));
	servers->num_switches = tables->num_switches;
	servers->first_on_switch = calloc(tables->num_switches + 1ull, sizeof(uint32_t));
	servers->on_switch = calloc(tables->num_switches + 1ull, sizeof(uint32_t));
	servers->port = malloc((fabric->num_ports + 1ull) * sizeof(uint32_t));
	servers->switch_index = malloc((fabric->num_ports + 1ull) * sizeof(uint32_t));
	if (!servers->first_on_switch || !servers->on_switch || !servers->port ||
	    !servers->switch_index) {
		vlr_servers_free(servers);
		return vlr_fail(err, "out of memory for the server list");
	}
	for (i = 0; i < tables->num_switches; i++) {
		uint32_t sw = topology ? topology->switch_order[i] : i;
		uint32_t node = tables->switch_node[sw];

		servers->first_on_switch[sw] = count;
		for (port = 1; port <= fabric->nodes[node].num_ports; port++) {
			uint32_t peer = vlr_port_at(fabric, node, port)->peer;

			if (peer == VLR_NONE || vlr_node_is_switch(fabric, fabric->ports[peer].node))
				continue;
			servers->port[count] = peer;
			servers->switch_index[count++] = sw;
		}
		servers->on_switch[sw] = count - servers->first_on_switch[sw];
	}
	servers->count = count;
	return 0;
}

void vlr_servers_free(struct vlr_servers *servers)
{
	free(servers->port);
	free(servers->switch_index);
	free(servers->first_on_switch);
	free(servers->on_switch);
	memset(servers, 0, sizeof(*servers));
}

/* "+3" or "+3,0,1" after a pattern's name. */
static int parse_offsets(const char *text, const char *digits,
			 struct vlr_pattern_spec *spec, unsigned max_count,
			 struct vlr_error *err)
{
	const char *at = digits;

	spec->shift_count = 0;
	for (;;) {
		char *end;
		unsigned long value = strtoul(at, &end, 10);

		if (end == at || *at == '-' || value > 65535 || spec->shift_count == max_count)
			return vlr_fail(err, "bad offsets in traffic pattern \"%s\"", text);
		spec->shift[spec->shift_count++] = (unsigned)value;
		if (*end == '\0')
			break;
		if (*end != ',')
			return vlr_fail(err, "bad offsets in traffic pattern \"%s\"", text);
		at = end + 1;
	}
	spec->offset = spec->shift[0];
	return 0;
}

/* Every pattern's name; those ending in '+' are followed by offsets. */
static const struct vlr_name pattern_names[] = {
	{ "un", VLR_PATTERN_UNIFORM },
	{ "perm", VLR_PATTERN_PERMUTATION },
	{ "hot", VLR_PATTERN_HOT },
	{ "shift+", VLR_PATTERN_SHIFT },
	{ "adv+", VLR_PATTERN_ADV },
	{ "advr+", VLR_PATTERN_ADV_RANDOM },
	{ "advc", VLR_PATTERN_ADV_CONSECUTIVE },
	{ "adv-local", VLR_PATTERN_ADV_LOCAL },
	{ "all2all", VLR_PATTERN_ALL_TO_ALL },
	{ NULL, 0 },
};

static int takes_offsets(int kind)
{
	return kind == VLR_PATTERN_SHIFT || kind == VLR_PATTERN_ADV ||
	       kind == VLR_PATTERN_ADV_RANDOM;
}

int vlr_pattern_parse(const char *text, struct vlr_pattern_spec *spec,
		      struct vlr_error *err)
{
	int kind;

	memset(spec, 0, sizeof(*spec));
	if (!vlr_name_value(pattern_names, text, &kind) && !takes_offsets(kind)) {
		spec->kind = (enum vlr_pattern_kind)kind;
		return 0;
	}
	if (!strncmp(text, "shift+", 6)) {
		spec->kind = VLR_PATTERN_SHIFT;
		return parse_offsets(text, text + 6, spec, VLR_MAX_DIMS, err);
	}
	if (!strncmp(text, "adv+", 4)) {
		spec->kind = VLR_PATTERN_ADV;
		return parse_offsets(text, text + 4, spec, 1, err);
	}
	if (!strncmp(text, "advr+", 5)) {
		spec->kind = VLR_PATTERN_ADV_RANDOM;
		return parse_offsets(text, text + 5, spec, 1, err);
	}
	return vlr_fail(err, "unknown traffic pattern \"%s\" (un, perm, hot, shift+I[,J...], "
			"adv+I, advr+I, advc, adv-local, all2all)", text);
}

void vlr_pattern_name(const struct vlr_pattern_spec *spec, char *buf, size_t size)
{
	size_t used;
	unsigned i;

	snprintf(buf, size, "%s", vlr_name_of(pattern_names, (int)spec->kind, "?"));
	if (spec->kind == VLR_PATTERN_ADV || spec->kind == VLR_PATTERN_ADV_RANDOM) {
		used = strlen(buf);
		snprintf(buf + used, size - used, "%u", spec->offset);
	} else if (spec->kind == VLR_PATTERN_SHIFT) {
		for (i = 0; i < spec->shift_count; i++) {
			used = strlen(buf);
			snprintf(buf + used, size - used, i ? ",%u" : "%u", spec->shift[i]);
		}
	}
}

void vlr_traffic_free(struct vlr_traffic *traffic)
{
	if (!traffic)
		return;
	free(traffic->fixed);
	free(traffic->group_of_server);
	free(traffic->group_first);
	free(traffic->group_servers);
	free(traffic->next_local);
	free(traffic);
}

/* Sattolo's shuffle: one cycle through all servers, so no fixed points. */
static void build_permutation(struct vlr_traffic *traffic, uint64_t seed)
{
	uint32_t n = traffic->servers->count, i;
	struct vlr_rng rng;

	vlr_rng_seed(&rng, seed, 0x7065726d);
	for (i = 0; i < n; i++)
		traffic->fixed[i] = i;
	for (i = n; i > 1; i--) {
		uint32_t j = vlr_rng_below(&rng, i - 1), swap = traffic->fixed[i - 1];

		traffic->fixed[i - 1] = traffic->fixed[j];
		traffic->fixed[j] = swap;
	}
}

/* The server at position `slot` of switch sw (wrapping on smaller switches). */
static uint32_t server_at(const struct vlr_servers *servers, uint32_t sw, uint32_t slot)
{
	uint32_t count = servers->on_switch[sw];

	return count ? servers->first_on_switch[sw] + slot % count : VLR_NONE;
}

static uint32_t slot_of(const struct vlr_servers *servers, uint32_t server)
{
	return server - servers->first_on_switch[servers->switch_index[server]];
}

static int build_shift(struct vlr_traffic *traffic, const struct vlr_topology *topology,
		       struct vlr_error *err)
{
	const struct vlr_grid_params *grid = &topology->params.u.grid;
	const struct vlr_servers *servers = traffic->servers;
	uint32_t *switch_at = NULL, s, server;
	uint64_t cells = 1;
	unsigned d, moved = 0;

	for (d = 0; d < grid->dims; d++) {
		cells *= grid->sides[d];
		moved |= traffic->spec.shift[traffic->spec.shift_count == 1 ? 0 : d] %
			 grid->sides[d];
	}
	if (traffic->spec.shift_count > 1 && traffic->spec.shift_count != grid->dims)
		return vlr_fail(err, "shift gives %u offsets, the HyperX has %u dimensions",
				traffic->spec.shift_count, grid->dims);
	if (!moved)
		return vlr_fail(err, "shift leaves every server where it is");
	switch_at = malloc(cells * sizeof(uint32_t));
	if (!switch_at)
		return vlr_fail(err, "out of memory for the shift pattern");
	for (s = 0; s < topology->num_switches; s++) {
		uint64_t cell = 0;

		for (d = grid->dims; d-- > 0;)
			cell = cell * grid->sides[d] + topology->coord[(uint64_t)s * grid->dims + d];
		switch_at[cell] = s;
	}
	for (server = 0; server < servers->count; server++) {
		uint32_t sw = servers->switch_index[server];
		uint64_t cell = 0;

		for (d = grid->dims; d-- > 0;) {
			unsigned shift = traffic->spec.shift[traffic->spec.shift_count == 1 ? 0 : d];
			unsigned c = topology->coord[(uint64_t)sw * grid->dims + d];

			cell = cell * grid->sides[d] + (c + shift) % grid->sides[d];
		}
		traffic->fixed[server] = server_at(servers, switch_at[cell],
						   slot_of(servers, server));
	}
	free(switch_at);
	return 0;
}

/* Servers listed group by group (Dragonfly and Dragonfly+ patterns). */
static int build_groups(struct vlr_traffic *traffic, const struct vlr_topology *topology,
			struct vlr_error *err)
{
	const struct vlr_servers *servers = traffic->servers;
	uint32_t g, server, *fill;

	traffic->num_groups = topology->num_groups;
	traffic->group_of_server = malloc((servers->count + 1ull) * sizeof(uint32_t));
	traffic->group_first = calloc(topology->num_groups + 1ull, sizeof(uint32_t));
	traffic->group_servers = malloc((servers->count + 1ull) * sizeof(uint32_t));
	fill = calloc(topology->num_groups + 1ull, sizeof(uint32_t));
	if (!traffic->group_of_server || !traffic->group_first ||
	    !traffic->group_servers || !fill) {
		free(fill);
		return vlr_fail(err, "out of memory for the group lists");
	}
	for (server = 0; server < servers->count; server++) {
		g = topology->group[servers->switch_index[server]];
		traffic->group_of_server[server] = g;
		traffic->group_first[g + 1]++;
	}
	for (g = 0; g < topology->num_groups; g++)
		traffic->group_first[g + 1] += traffic->group_first[g];
	for (server = 0; server < servers->count; server++) {
		g = traffic->group_of_server[server];
		traffic->group_servers[traffic->group_first[g] + fill[g]++] = server;
	}
	free(fill);
	return 0;
}

/* Switch of group g with index `index` among those that have servers. */
static uint32_t *switch_by_group_index(const struct vlr_topology *topology,
				       unsigned per_group)
{
	uint32_t *table = malloc((uint64_t)topology->num_groups * per_group * sizeof(uint32_t));
	uint32_t s;

	if (!table)
		return NULL;
	for (s = 0; s < (uint64_t)topology->num_groups * per_group; s++)
		table[s] = VLR_NONE;
	for (s = 0; s < topology->num_switches; s++)
		if (topology->role[s] != VLR_ROLE_SPINE)
			table[(uint64_t)topology->group[s] * per_group +
			      topology->index_in_group[s]] = s;
	return table;
}

static unsigned server_switches_per_group(const struct vlr_topology *topology)
{
	return topology->params.family == VLR_FAMILY_DRAGONFLY ?
	       topology->params.u.dragonfly.a : topology->params.u.dragonflyplus.leaves;
}

static int build_adv(struct vlr_traffic *traffic, const struct vlr_topology *topology,
		     struct vlr_error *err)
{
	const struct vlr_servers *servers = traffic->servers;
	unsigned per_group = server_switches_per_group(topology);
	uint32_t *table = switch_by_group_index(topology, per_group), server;

	if (!table)
		return vlr_fail(err, "out of memory for the adv pattern");
	for (server = 0; server < servers->count; server++) {
		uint32_t sw = servers->switch_index[server];
		uint32_t group = (topology->group[sw] + traffic->spec.offset) % topology->num_groups;
		uint32_t peer = table[(uint64_t)group * per_group + topology->index_in_group[sw]];

		traffic->fixed[server] = peer == VLR_NONE ? VLR_NONE :
					 server_at(servers, peer, slot_of(servers, server));
	}
	free(table);
	return 0;
}

static int build_adv_local(struct vlr_traffic *traffic, const struct vlr_topology *topology,
			   struct vlr_error *err)
{
	const struct vlr_servers *servers = traffic->servers;
	unsigned per_group = server_switches_per_group(topology);
	uint32_t *table = switch_by_group_index(topology, per_group), server;

	if (!table)
		return vlr_fail(err, "out of memory for the adv-local pattern");
	traffic->next_local = malloc((servers->count + 1ull) * sizeof(uint32_t));
	if (!traffic->next_local) {
		free(table);
		return vlr_fail(err, "out of memory for the adv-local pattern");
	}
	for (server = 0; server < servers->count; server++) {
		uint32_t sw = servers->switch_index[server];
		unsigned next = (topology->index_in_group[sw] + 1u) % per_group;

		traffic->next_local[server] = table[(uint64_t)topology->group[sw] * per_group + next];
	}
	free(table);
	return 0;
}

static const char *pattern_family_need(enum vlr_pattern_kind kind)
{
	switch (kind) {
	case VLR_PATTERN_SHIFT:
		return "a HyperX";
	case VLR_PATTERN_ADV:
	case VLR_PATTERN_ADV_RANDOM:
	case VLR_PATTERN_ADV_CONSECUTIVE:
	case VLR_PATTERN_ADV_LOCAL:
		return "a Dragonfly or Dragonfly+";
	default:
		return NULL;
	}
}

static int topology_fits(const struct vlr_pattern_spec *spec,
			 const struct vlr_topology *topology, struct vlr_error *err)
{
	const char *need = pattern_family_need(spec->kind);
	char name[64];
	enum vlr_family family = topology ? topology->params.family : VLR_FAMILY_NONE;

	if (!need)
		return 0;
	if (spec->kind == VLR_PATTERN_SHIFT ? family == VLR_FAMILY_HYPERX :
	    family == VLR_FAMILY_DRAGONFLY || family == VLR_FAMILY_DRAGONFLYPLUS)
		return 0;
	vlr_pattern_name(spec, name, sizeof(name));
	return vlr_fail(err, "traffic pattern %s needs %s, and the fabric is not "
			"recognised as one", name, need);
}

static int build_pattern(struct vlr_traffic *traffic, const struct vlr_topology *topology,
			 uint64_t seed, struct vlr_error *err)
{
	switch (traffic->spec.kind) {
	case VLR_PATTERN_PERMUTATION:
		build_permutation(traffic, seed);
		return 0;
	case VLR_PATTERN_SHIFT:
		return build_shift(traffic, topology, err);
	case VLR_PATTERN_ADV:
		return build_adv(traffic, topology, err);
	case VLR_PATTERN_ADV_RANDOM:
	case VLR_PATTERN_ADV_CONSECUTIVE:
		traffic->adv_groups = topology->params.family == VLR_FAMILY_DRAGONFLY ?
				      topology->params.u.dragonfly.h :
				      topology->params.u.dragonflyplus.globals;
		return build_groups(traffic, topology, err);
	case VLR_PATTERN_ADV_LOCAL:
		return build_adv_local(traffic, topology, err);
	default:
		return 0;
	}
}

struct vlr_traffic *vlr_traffic_new(const struct vlr_servers *servers,
				    const struct vlr_topology *topology,
				    const struct vlr_pattern_spec *spec, uint64_t seed,
				    struct vlr_error *err)
{
	struct vlr_traffic *traffic;

	if (servers->count < 2) {
		vlr_fail(err, "a traffic pattern needs two servers, the fabric has %u",
			 servers->count);
		return NULL;
	}
	if (topology_fits(spec, topology, err))
		return NULL;
	traffic = calloc(1, sizeof(*traffic));
	if (!traffic) {
		vlr_fail(err, "out of memory for the traffic pattern");
		return NULL;
	}
	traffic->spec = *spec;
	traffic->servers = servers;
	if (vlr_traffic_is_permutation(traffic)) {
		traffic->fixed = malloc(servers->count * sizeof(uint32_t));
		if (!traffic->fixed) {
			vlr_fail(err, "out of memory for the traffic pattern");
			vlr_traffic_free(traffic);
			return NULL;
		}
	}
	if (build_pattern(traffic, topology, seed, err)) {
		vlr_traffic_free(traffic);
		return NULL;
	}
	return traffic;
}

int vlr_traffic_is_permutation(const struct vlr_traffic *traffic)
{
	return traffic->spec.kind == VLR_PATTERN_PERMUTATION ||
	       traffic->spec.kind == VLR_PATTERN_SHIFT ||
	       traffic->spec.kind == VLR_PATTERN_ADV;
}

static uint32_t uniform_other(uint32_t count, uint32_t src, struct vlr_rng *rng)
{
	uint32_t dest = vlr_rng_below(rng, count - 1);

	return dest >= src ? dest + 1 : dest;
}

static uint32_t random_in_group(const struct vlr_traffic *traffic, uint32_t group,
				struct vlr_rng *rng)
{
	uint32_t first = traffic->group_first[group];
	uint32_t count = traffic->group_first[group + 1] - first;

	return count ? traffic->group_servers[first + vlr_rng_below(rng, count)] : VLR_NONE;
}

static uint32_t hot_destination(uint32_t count, uint32_t src, struct vlr_rng *rng)
{
	uint32_t hot = (count + HOT_FRACTION - 1) / HOT_FRACTION;

	if (vlr_rng_unit(rng) < HOT_SHARE && !(hot == 1 && src == 0)) {
		uint32_t dest = vlr_rng_below(rng, src < hot ? hot - 1 : hot);

		return src < hot && dest >= src ? dest + 1 : dest;
	}
	return uniform_other(count, src, rng);
}

uint32_t vlr_traffic_destination(const struct vlr_traffic *traffic, uint32_t src,
				 uint64_t sequence, struct vlr_rng *rng)
{
	const struct vlr_servers *servers = traffic->servers;
	uint32_t group, local_switch;

	switch (traffic->spec.kind) {
	case VLR_PATTERN_UNIFORM:
		return uniform_other(servers->count, src, rng);
	case VLR_PATTERN_HOT:
		return hot_destination(servers->count, src, rng);
	case VLR_PATTERN_ALL_TO_ALL:
		return (uint32_t)((src + 1 + sequence % (servers->count - 1)) % servers->count);
	case VLR_PATTERN_ADV_RANDOM:
		group = (traffic->group_of_server[src] + traffic->spec.offset) % traffic->num_groups;
		return random_in_group(traffic, group, rng);
	case VLR_PATTERN_ADV_CONSECUTIVE:
		group = (traffic->group_of_server[src] + 1 + vlr_rng_below(rng, traffic->adv_groups)) %
			traffic->num_groups;
		return random_in_group(traffic, group, rng);
	case VLR_PATTERN_ADV_LOCAL:
		local_switch = traffic->next_local[src];
		if (local_switch == VLR_NONE)
			return VLR_NONE;
		return server_at(servers, local_switch,
				 vlr_rng_below(rng, servers->on_switch[local_switch]));
	default:
		return traffic->fixed[src];
	}
}
