/*
 * gen_common.h - what the topology generators share (internal): adding
 * named switches and hosts with ibsim-style GUIDs, parameter range checks,
 * grid coordinates and the pairing of Dragonfly groups' global ports.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_GEN_COMMON_H
#define VLROUTE_GEN_COMMON_H

#include <vlroute/gen.h>

/* GUIDs handed out as ibsim would to a file without GUID lines. */
struct gen_guids {
	uint64_t next_switch;
	uint64_t next_ca;
};

void gen_guids_init(struct gen_guids *guids);

/* Refuse a parameter outside min..max, naming it. */
int gen_check_range(const char *parameter, unsigned long long value,
		    unsigned long long min, unsigned long long max,
		    struct vlr_error *err);

/* Refuse a switch radix beyond what a node can have. */
int gen_check_radix(unsigned long long radix, const char *formula,
		    struct vlr_error *err);

/* Refuse fabrics too large to be of any use (above 8 million nodes). */
int gen_check_size(unsigned long long nodes, struct vlr_error *err);

/*
 * Refuse fabrics whose switches and hosts need more LIDs (one each, at
 * LMC 0) than the 49151 unicast LIDs of a subnet.
 */
int gen_check_lids(unsigned long long switches, unsigned long long hosts,
		   struct vlr_error *err);

/* a * b, or UINT64_MAX when that overflows: sizes only need "too big". */
uint64_t gen_times(uint64_t a, uint64_t b);

/* Hosts of switch s when `hosts` are spread over `switches`, the first ones
   taking one more. */
static inline unsigned gen_spread(uint64_t hosts, uint64_t switches, uint64_t s)
{
	return (unsigned)(hosts / switches + (s < hosts % switches));
}

uint32_t gen_add_switch(struct vlr_fabric *fabric, struct gen_guids *guids,
			const char *name, unsigned ports, struct vlr_error *err);

/* Give switch `sw` hosts named NAME_h0.. on its ports 1..hosts. */
int gen_attach_hosts(struct vlr_fabric *fabric, struct gen_guids *guids,
		     uint32_t sw, unsigned hosts, struct vlr_error *err);

/* "prefix_c0_c1_..." for grid coordinates. */
void gen_grid_name(char *name, size_t size, const char *prefix,
		   const unsigned *coords, unsigned dims);

/* Coordinates of switch index in a grid (dimension 0 varies fastest). */
void gen_grid_coords(uint32_t index, const struct vlr_grid_params *grid,
		     unsigned *coords);
uint32_t gen_grid_index(const unsigned *coords, const struct vlr_grid_params *grid);

/* Switches of a grid, or 0 when it would exceed 2^32. */
uint64_t gen_grid_switches(const struct vlr_grid_params *grid);

int gen_check_grid(const struct vlr_grid_params *grid, unsigned links_per_switch,
		   const char *family, struct vlr_error *err);

/* Links one grid switch to its neighbours (HyperX rows, torus rings). */
typedef int (*gen_grid_linker)(struct vlr_fabric *fabric,
			       const struct vlr_grid_params *grid, uint32_t sw,
			       struct vlr_error *err);

/*
 * Build a grid family: switches named PREFIX_c0_c1.. as nodes 0..S-1
 * (dimension 0 varies fastest) with hosts + links_per_switch ports, linked
 * by link_switch, then the hosts.
 */
int gen_grid(struct vlr_fabric *fabric, const struct vlr_grid_params *grid,
	     const char *prefix, unsigned links_per_switch,
	     gen_grid_linker link_switch, struct vlr_error *err);

/*
 * How groups pair their global ports (Dragonfly routers, Dragonfly+ spines).
 * Group G has ports_per_group global ports j = 0.. . Every pair of groups
 * gets q = floor(ports_per_group / (groups - 1)) links; the r leftover ports
 * of each group link it to the groups at circular distance 1..floor(r/2)
 * and, when r is odd and the group count even, to the opposite group.
 * Ports are then dealt to peer groups in arrangement order.
 */
struct gen_group_wiring {
	unsigned groups;
	unsigned ports_per_group;
	enum vlr_arrangement arrangement;
	uint64_t *links_before;	/* [o] = links to groups at offsets 1..o-1 */
};

int gen_group_wiring_init(struct gen_group_wiring *wiring, unsigned groups,
			  unsigned ports_per_group, enum vlr_arrangement arrangement,
			  struct vlr_error *err);
void gen_group_wiring_free(struct gen_group_wiring *wiring);

/* Peer group and port of group's global port; 0 if the port stays unused. */
int gen_group_wiring_peer(const struct gen_group_wiring *wiring, unsigned group,
			  unsigned port, unsigned *peer_group, unsigned *peer_port);

/* Links between two distinct groups. */
unsigned gen_group_wiring_links(const struct gen_group_wiring *wiring,
				unsigned group_a, unsigned group_b);

#endif
