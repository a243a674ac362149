/*
 * traffic.h - servers and traffic patterns, shared by the simulator and the
 * static analyses so that "adv+1" means the same thing in both.
 *
 * Servers are the fabric's linked CA and router ports, numbered by the
 * switch they hang off, then by that switch's port number. The switches
 * come in the topology's canonical order (switch_order, topology.h) when a
 * topology is given, so that server numbers, and with them every pattern,
 * do not depend on the order of the nodes in a file; otherwise in switch
 * index order (the order of the switch nodes, as in struct vlr_tables).
 * Patterns:
 *
 *   un          uniform: any other server, at random
 *   perm        a random permutation without fixed points (seeded)
 *   hot         25% of the traffic to the first 12.5% of the servers, the
 *               rest uniform
 *   shift+I     HyperX: servers of switch x send to the server at the same
 *               position on switch x + I in every dimension (mod side);
 *   shift+I,J.. one offset per dimension (0 leaves a dimension alone)
 *   adv+I       Dragonfly, Dragonfly+: to the same position (router or leaf
 *               index, port) in group G + I
 *   advr+I      to a random server of group G + I
 *   advc        to a random server of the groups G+1 .. G+h (Dragonfly+: the
 *               global links per spine)
 *   adv-local   Dragonfly: to a random server on the next router (index + 1
 *               mod a) of the same group; Dragonfly+: the next leaf
 *   all2all     each server sends to every other server in turn
 *               (src + 1, src + 2, ...)
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TRAFFIC_H
#define VLROUTE_TRAFFIC_H

#include <stdint.h>

#include <vlroute/util.h>
#include <vlroute/tables.h>
#include <vlroute/topology.h>

struct vlr_servers {
	uint32_t count;
	uint32_t *port;			/* server -> port slot */
	uint32_t *switch_index;		/* server -> switch it hangs off */
	uint32_t num_switches;
	uint32_t *first_on_switch;	/* [switch index]: its servers are */
	uint32_t *on_switch;		/* first_on_switch .. + on_switch - 1 */
};

/*
 * The servers of the table set's fabric; topology (NULL: none) is one
 * recognised on that fabric and orders the switches.
 */
int vlr_servers_build(const struct vlr_tables *tables, const struct vlr_topology *topology,
		      struct vlr_servers *servers, struct vlr_error *err);
void vlr_servers_free(struct vlr_servers *servers);

enum vlr_pattern_kind {
	VLR_PATTERN_UNIFORM = 0,
	VLR_PATTERN_PERMUTATION,
	VLR_PATTERN_HOT,
	VLR_PATTERN_SHIFT,
	VLR_PATTERN_ADV,
	VLR_PATTERN_ADV_RANDOM,
	VLR_PATTERN_ADV_CONSECUTIVE,
	VLR_PATTERN_ADV_LOCAL,
	VLR_PATTERN_ALL_TO_ALL,
};

struct vlr_pattern_spec {
	enum vlr_pattern_kind kind;
	unsigned offset;			/* adv+I, advr+I */
	unsigned shift[VLR_MAX_DIMS];		/* shift: per dimension */
	unsigned shift_count;			/* offsets given (1 = all dims) */
};

/* Parse "un", "adv+1", "shift+3", ...; err names the text and the choices. */
int vlr_pattern_parse(const char *text, struct vlr_pattern_spec *spec,
		      struct vlr_error *err);

/* "adv+1" and so on: the canonical name of a spec. */
void vlr_pattern_name(const struct vlr_pattern_spec *spec, char *buf, size_t size);

struct vlr_traffic;

/*
 * A pattern over servers. topology may be NULL for un, perm, hot and
 * all2all; the others fail with a message naming the family they need.
 * seed fixes perm's permutation.
 */
struct vlr_traffic *vlr_traffic_new(const struct vlr_servers *servers,
				    const struct vlr_topology *topology,
				    const struct vlr_pattern_spec *spec, uint64_t seed,
				    struct vlr_error *err);
void vlr_traffic_free(struct vlr_traffic *traffic);

/*
 * Destination server of the sequence-th message of server src (all2all
 * uses the sequence number, random patterns draw from rng). Never src
 * itself, except on a fabric with a single server.
 */
uint32_t vlr_traffic_destination(const struct vlr_traffic *traffic, uint32_t src,
				 uint64_t sequence, struct vlr_rng *rng);

/* Does every source have one fixed destination (perm, shift, adv+I)? */
int vlr_traffic_is_permutation(const struct vlr_traffic *traffic);

#endif
