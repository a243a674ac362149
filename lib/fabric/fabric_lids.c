/*
 * fabric_lids.c - offline LID assignment with LMC.
 *
 * Switches take one LID each (base switch port 0 has no LMC); every linked
 * CA or router port takes 2^LMC consecutive LIDs whose base is a multiple
 * of 2^LMC, as the InfiniBand specification requires.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <vlroute/fabric.h>

static int is_endpoint_port(const struct vlr_fabric *fabric, const struct vlr_port *port)
{
	return !vlr_node_is_switch(fabric, port->node) && port->number > 0 &&
	       port->peer != VLR_NONE;
}

static void count_lid_owners(const struct vlr_fabric *fabric, uint64_t *switches,
			     uint64_t *endpoint_ports)
{
	uint32_t i;

	*switches = *endpoint_ports = 0;
	for (i = 0; i < fabric->num_nodes; i++)
		*switches += vlr_node_is_switch(fabric, i);
	for (i = 0; i < fabric->num_ports; i++)
		*endpoint_ports += is_endpoint_port(fabric, &fabric->ports[i]);
}

uint64_t vlr_fabric_lids_needed(const struct vlr_fabric *fabric, unsigned lmc)
{
	uint64_t switches, endpoint_ports;

	count_lid_owners(fabric, &switches, &endpoint_ports);
	return switches + (endpoint_ports << lmc);
}

int vlr_fabric_assign_lids(struct vlr_fabric *fabric, unsigned lmc,
			   struct vlr_error *err)
{
	uint64_t switches, endpoint_ports, first_block, last, next = 1;
	uint32_t i, block;

	if (lmc > VLR_MAX_LMC)
		return vlr_fail(err, "LMC %u is out of range 0..%d", lmc, VLR_MAX_LMC);
	block = 1u << lmc;
	count_lid_owners(fabric, &switches, &endpoint_ports);
	/* LID 0 is reserved; switches take 1..S, CA blocks start aligned after */
	first_block = (switches + 1 + block - 1) & ~(uint64_t)(block - 1);
	last = first_block + (endpoint_ports << lmc) - 1;
	if (last > VLR_MAX_UNICAST_LID)
		return vlr_fail(err, "too few LIDs: %llu CA ports x 2^%u = %llu LIDs "
				"plus %llu switch LIDs need LIDs up to %llu, but the "
				"last unicast LID is %d",
				(unsigned long long)endpoint_ports, lmc,
				(unsigned long long)(endpoint_ports << lmc),
				(unsigned long long)switches, (unsigned long long)last,
				VLR_MAX_UNICAST_LID);

	for (i = 0; i < fabric->num_ports; i++) {
		fabric->ports[i].lid = 0;
		fabric->ports[i].lmc = 0;
	}
	for (i = 0; i < fabric->num_nodes; i++)
		if (vlr_node_is_switch(fabric, i))
			vlr_port_at(fabric, i, 0)->lid = (uint16_t)next++;
	next = first_block;
	for (i = 0; i < fabric->num_ports; i++) {
		struct vlr_port *port = &fabric->ports[i];

		if (!is_endpoint_port(fabric, port))
			continue;
		port->lid = (uint16_t)next;
		port->lmc = (uint8_t)lmc;
		next += block;
	}
	fabric->lmc = (uint8_t)lmc;
	return 0;
}
