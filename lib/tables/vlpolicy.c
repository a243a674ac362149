/*
 * vlpolicy.c - VL policies: their names, the VL set each allows per hop
 * (the ideal form), the trunk index that tells which phase a packet is
 * in, and the mark of tables a policy could not be compiled into.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include <vlroute/tables.h>

#include "util/names.h"

static const struct vlr_name lid_kind_names[] = {
	{ "minimal", VLR_LID_MINIMAL },
	{ "valiant", VLR_LID_VALIANT },
	{ "restricted", VLR_LID_RESTRICTED },
	{ NULL, 0 },
};

/* "none" names the kind of sssp and dfsssp but is no policy to ask for. */
static const struct vlr_name policy_names[] = {
	{ "none", VLR_VLP_NONE },
	{ "ladder", VLR_VLP_LADDER },
	{ "ladder-reuse", VLR_VLP_LADDER_REUSE },
	{ "2phases", VLR_VLP_TWO_PHASES },
	{ "layers", VLR_VLP_LAYERS },
	{ NULL, 0 },
};
static const struct vlr_name *const policy_choices = policy_names + 1;

static const struct vlr_name phase_min_names[] = {
	{ "minfirst", VLR_MIN_FIRST },
	{ "minlast", VLR_MIN_LAST },
	{ "minboth", VLR_MIN_BOTH },
	{ NULL, 0 },
};

const char *vlr_lid_kind_name(enum vlr_lid_kind kind)
{
	return vlr_name_of(lid_kind_names, (int)kind, "?");
}

const char *vlr_vl_policy_name(enum vlr_vl_policy_kind kind)
{
	return vlr_name_of(policy_names, (int)kind, "?");
}

const char *vlr_phase_min_name(enum vlr_phase_min phase_min)
{
	return vlr_name_of(phase_min_names, (int)phase_min, "?");
}

int vlr_vl_policy_parse(const char *text, enum vlr_vl_policy_kind *kind,
			struct vlr_error *err)
{
	char names[128];
	int value;

	if (vlr_name_value(policy_choices, text, &value))
		return vlr_fail(err, "unknown VL policy \"%s\" (%s)", text,
				vlr_name_list(policy_choices, names, sizeof(names)));
	*kind = (enum vlr_vl_policy_kind)value;
	return 0;
}

int vlr_phase_min_parse(const char *text, enum vlr_phase_min *phase_min,
			struct vlr_error *err)
{
	char names[128];
	int value;

	if (vlr_name_value(phase_min_names, text, &value))
		return vlr_fail(err, "unknown phase choice for minimal routes \"%s\" (%s)",
				text, vlr_name_list(phase_min_names, names, sizeof(names)));
	*phase_min = (enum vlr_phase_min)value;
	return 0;
}

int vlr_vl_policy_has_ideal_form(const struct vlr_vl_policy *policy)
{
	return policy->kind == VLR_VLP_LADDER || policy->kind == VLR_VLP_LADDER_REUSE ||
	       policy->kind == VLR_VLP_TWO_PHASES;
}

void vlr_unprogrammable_describe(const struct vlr_unprogrammable *mark, char *buf,
				 size_t size)
{
	char sls[32] = "", vls[48] = "";

	if (!mark->marked) {
		if (size)
			buf[0] = '\0';
		return;
	}
	if (mark->sls >= VLR_MANY_SLS)
		snprintf(sls, sizeof(sls), "more than %d SLs", VLR_MANY_SLS - 1);
	else if (mark->sls > VLR_NUM_SLS)
		snprintf(sls, sizeof(sls), "%u SLs", mark->sls);
	if (mark->vls > mark->vls_offered)
		snprintf(vls, sizeof(vls), "%u VLs (%u offered)", mark->vls, mark->vls_offered);
	snprintf(buf, size, "not programmable%s%s%s%s", sls[0] || vls[0] ? ": needs " : "",
		 sls, sls[0] && vls[0] ? " and " : "", vls);
}

void vlr_vl_policy_describe(const struct vlr_vl_policy *policy, char *buf,
			    size_t size)
{
	if (policy->kind == VLR_VLP_TWO_PHASES)
		snprintf(buf, size, "2phases %s K=%u (%u VLs)",
			 vlr_phase_min_name(policy->phase_min), policy->vls_per_phase,
			 policy->vls);
	else
		snprintf(buf, size, "%s (%u VLs)", vlr_vl_policy_name(policy->kind),
			 policy->vls);
}

/* Phase whose VL set a route uses at this hop under 2phases. */
unsigned vlr_policy_phase(const struct vlr_vl_policy *policy,
			  enum vlr_route_class route_class, int phase_two)
{
	if (route_class == VLR_ROUTE_VALIANT)
		return phase_two ? 1 : 0;
	if (policy->phase_min == VLR_MIN_FIRST)
		return 0;
	if (policy->phase_min == VLR_MIN_LAST)
		return 1;
	/* minboth, as the study defines it: the first set when the source is
	   the intermediate (on the trunk), the second when the destination is
	   (a minimal LID) */
	return route_class == VLR_ROUTE_ON_TRUNK ? 0 : 1;
}

static uint16_t low_bits(unsigned count)
{
	return count >= 16 ? 0xffff : (uint16_t)((1u << count) - 1);
}

/* The part of a phase's K VLs that a hop with this escalation may use. */
static uint16_t phase_part(const struct vlr_vl_policy *policy, unsigned escalation)
{
	unsigned k = policy->vls_per_phase, levels = policy->phase_levels ? policy->phase_levels : 1;
	unsigned width = k / levels, level = escalation < levels ? escalation : levels - 1;

	if (!width)
		return (uint16_t)(1u << (escalation < k ? escalation : k - 1));
	return (uint16_t)(low_bits(width) << (level * width));
}

uint16_t vlr_policy_vl_mask(const struct vlr_vl_policy *policy,
			    enum vlr_route_class route_class, unsigned hop,
			    int phase_two, unsigned escalation)
{
	unsigned phase;

	switch (policy->kind) {
	case VLR_VLP_LADDER:
		return hop < 16 ? (uint16_t)(1u << hop) : 0;
	case VLR_VLP_LADDER_REUSE:
		return low_bits(hop + 1);
	case VLR_VLP_TWO_PHASES:
		phase = vlr_policy_phase(policy, route_class, phase_two);
		return (uint16_t)(phase_part(policy, escalation) << (phase * policy->vls_per_phase));
	default:
		return 0;
	}
}

void vlr_vl_policy_fit_family(struct vlr_vl_policy *policy, enum vlr_family family)
{
	policy->phase_levels = family == VLR_FAMILY_HYPERX ? 1 : 2;
}

/* The switch an owner port's LID leads to: a switch itself or the CA's. */
static uint32_t owner_switch(const struct vlr_tables *tables, uint32_t owner)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t node = fabric->ports[owner].node;

	if (!vlr_node_is_switch(fabric, node))
		node = fabric->ports[fabric->ports[owner].peer].node;
	return tables->switch_of_node[node];
}

enum vlr_route_class vlr_trunks_route_class(const struct vlr_tables *tables,
					    const struct vlr_trunks *trunks, uint32_t sw,
					    uint32_t dlid)
{
	if (!tables->lid_kind || (trunks->minimal[dlid / 64] >> (dlid % 64) & 1))
		return VLR_ROUTE_MINIMAL;
	return vlr_trunks_has(trunks, sw, dlid) ? VLR_ROUTE_ON_TRUNK : VLR_ROUTE_VALIANT;
}

static void mark(struct vlr_trunks *trunks, uint32_t sw, uint32_t lid)
{
	trunks->bits[(uint64_t)sw * trunks->words_per_switch + lid / 64] |=
		1ull << (lid % 64);
}

/*
 * A LID of kind minimal routes minimally, and so does one whose
 * intermediate is its own switch (target): it has no second phase.
 */
static void mark_minimal(const struct vlr_tables *tables, struct vlr_trunks *trunks,
			 uint32_t lid, uint32_t target)
{
	if (tables->lid_kind && (tables->lid_kind[lid] == VLR_LID_MINIMAL ||
				 tables->lid_via[lid] == target))
		trunks->minimal[lid / 64] |= 1ull << (lid % 64);
}

/* Follow the LFTs from the intermediate to the LID's switch. */
static int mark_trunk(const struct vlr_tables *tables, struct vlr_trunks *trunks,
		      uint32_t lid, uint32_t target, struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw = tables->lid_via[lid], steps;

	for (steps = 0; steps <= tables->num_switches; steps++) {
		uint32_t node = tables->switch_node[sw];
		unsigned port = vlr_tables_lft(tables, sw)[lid];
		uint32_t peer;

		mark(trunks, sw, lid);
		if (sw == target)
			return 0;
		if (port == VLR_NO_PORT || port > fabric->nodes[node].num_ports)
			break;
		peer = vlr_port_at(fabric, node, port)->peer;
		if (peer == VLR_NONE || !vlr_node_is_switch(fabric, fabric->ports[peer].node))
			break;
		sw = tables->switch_of_node[fabric->ports[peer].node];
	}
	return vlr_fail(err, "LID %u: the route from its intermediate switch %s "
			"does not reach %s", lid,
			vlr_node_name(fabric, tables->switch_node[tables->lid_via[lid]]),
			vlr_node_name(fabric, tables->switch_node[target]));
}

int vlr_trunks_build(const struct vlr_tables *tables, struct vlr_trunks *trunks,
		     struct vlr_error *err)
{
	uint32_t lid;

	trunks->words_per_switch = tables->lid_stride / 64 + 1;
	trunks->bits = calloc((uint64_t)tables->num_switches * trunks->words_per_switch,
			      sizeof(uint64_t));
	trunks->minimal = calloc(trunks->words_per_switch, sizeof(uint64_t));
	if (!trunks->bits || !trunks->minimal) {
		vlr_trunks_free(trunks);
		return vlr_fail(err, "out of memory for the trunk index");
	}
	for (lid = 1; lid <= tables->max_lid; lid++) {
		uint32_t owner = tables->lid_owner[lid], target;

		if (owner == VLR_NONE)
			continue;
		target = owner_switch(tables, owner);
		mark_minimal(tables, trunks, lid, target);
		if (tables->lid_via && tables->lid_via[lid] != VLR_NONE) {
			if (mark_trunk(tables, trunks, lid, target, err)) {
				vlr_trunks_free(trunks);
				return -1;
			}
		} else {
			mark(trunks, target, lid);
		}
	}
	return 0;
}

void vlr_trunks_free(struct vlr_trunks *trunks)
{
	free(trunks->bits);
	free(trunks->minimal);
	trunks->bits = NULL;
	trunks->minimal = NULL;
}
