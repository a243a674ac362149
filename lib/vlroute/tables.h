/*
 * tables.h - a table set: everything a subnet manager programs into a
 * fabric, and the contract between the routing engines and everything
 * downstream (OpenSM, the verifier, the simulator, the analyses).
 *
 * A table set belongs to one fabric and uses that fabric's LIDs (the lid
 * and lmc fields of its ports). It holds:
 *   - the linear forwarding table (LFT) of every switch: out port per LID;
 *   - the path SL of every (source endpoint port, DLID): SL rows of one SL
 *     per LID, shared by the source ports that use them (sources attached
 *     to one switch usually share a row);
 *   - the SL2VL table of every switch (in port, out port, SL -> VL) and of
 *     every endpoint port (SL -> VL on its injection link).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TABLES_H
#define VLROUTE_TABLES_H

#include <stdint.h>

#include <vlroute/fabric.h>
#include <vlroute/vlpolicy.h>

#define VLR_NO_PORT 255		/* LFT entry of a LID the switch does not route */
#define VLR_NUM_SLS 16
#define VLR_MAX_DATA_VLS 15	/* VL 0..14; VL 15 is management */

struct vlr_tables {
	struct vlr_fabric *fabric;	/* the topology and its LIDs */
	int owns_fabric;		/* free the fabric with the tables */

	uint16_t max_lid;		/* highest LID in use */
	uint32_t lid_stride;		/* max_lid + 1: entries per LFT or SL row */
	uint32_t *lid_owner;		/* [lid]: port slot owning the LID, VLR_NONE;
					   a switch's LID belongs to its port 0 */

	uint32_t num_switches;
	uint32_t *switch_node;		/* switch index -> node */
	uint32_t *switch_of_node;	/* node -> switch index, VLR_NONE */
	uint8_t *lft;			/* num_switches rows of lid_stride ports */

	uint32_t num_sl_rows;
	uint8_t *sl_rows;		/* num_sl_rows rows of lid_stride SLs */
	uint32_t *port_sl_row;		/* [port slot]: its SL row, VLR_NONE = SL 0 */

	uint64_t *sl2vl_offset;		/* [switch]: start of its block in sl2vl */
	uint64_t sl2vl_size;		/* bytes of sl2vl */
	uint8_t *sl2vl;			/* per switch: (in * (n + 1) + out) * 16 + sl */
	uint8_t *port_sl2vl;		/* [port slot * 16 + sl]: endpoint ports */

	uint8_t num_vls;		/* data VLs the fabric offers (1..15) */

	/*
	 * Written by the minimal and valiant engines, read by the simulator's
	 * ideal mode and the analyses (see vlpolicy.h); NULL and
	 * VLR_VLP_NONE for other tables.
	 */
	uint8_t *lid_kind;		/* [lid]: enum vlr_lid_kind */
	uint32_t *lid_via;		/* [lid]: intermediate switch, VLR_NONE */
	struct vlr_vl_policy policy;
};

/*
 * Tables for a fabric whose LIDs are assigned: every LFT empty
 * (VLR_NO_PORT), every path SL 0, every SL2VL table SL i -> VL i for
 * i < num_vls and VL 0 above. Fails, naming the ports, when two ports share
 * a LID or a linked endpoint port has no LID.
 */
struct vlr_tables *vlr_tables_new(struct vlr_fabric *fabric, unsigned num_vls,
				  struct vlr_error *err);
void vlr_tables_free(struct vlr_tables *tables);

/* Back to the state vlr_tables_new leaves: empty LFTs, SL 0, default SL2VL. */
void vlr_tables_reset(struct vlr_tables *tables);

/* Replace the SL rows with `rows` rows of SL 0 (port_sl_row untouched). */
int vlr_tables_alloc_sl_rows(struct vlr_tables *tables, uint32_t rows,
			     struct vlr_error *err);

static inline uint8_t *vlr_tables_lft(const struct vlr_tables *tables,
				      uint32_t sw)
{
	return tables->lft + (uint64_t)sw * tables->lid_stride;
}

static inline uint8_t *vlr_tables_sl_row(const struct vlr_tables *tables,
					 uint32_t row)
{
	return tables->sl_rows + (uint64_t)row * tables->lid_stride;
}

/* SL a source port uses towards dlid. */
static inline uint8_t vlr_tables_path_sl(const struct vlr_tables *tables,
					 uint32_t source_port, uint16_t dlid)
{
	uint32_t row = tables->port_sl_row[source_port];

	return row == VLR_NONE ? 0 : vlr_tables_sl_row(tables, row)[dlid];
}

/* The 16 VLs (one per SL) of switch sw for packets from in_port to out_port. */
static inline uint8_t *vlr_tables_sl2vl(const struct vlr_tables *tables,
					uint32_t sw, unsigned in_port,
					unsigned out_port)
{
	unsigned ports = tables->fabric->nodes[tables->switch_node[sw]].num_ports + 1;

	return tables->sl2vl + tables->sl2vl_offset[sw] +
	       ((uint64_t)in_port * ports + out_port) * VLR_NUM_SLS;
}

/* The 16 VLs of an endpoint port's injection link. */
static inline uint8_t *vlr_tables_port_sl2vl(const struct vlr_tables *tables,
					     uint32_t port)
{
	return tables->port_sl2vl + (uint64_t)port * VLR_NUM_SLS;
}

/* Port slot owning lid, or VLR_NONE. */
static inline uint32_t vlr_tables_lid_port(const struct vlr_tables *tables,
					   uint32_t lid)
{
	return lid <= tables->max_lid ? tables->lid_owner[lid] : VLR_NONE;
}

/* Is this port slot a source of traffic: a linked CA or router port? */
int vlr_tables_is_source(const struct vlr_tables *tables, uint32_t port);

#endif
