/*
 * ideal_form.c - the verdict on a table set's VL policy in its ideal form
 * (every VL a hop may take, as "vlroute sim --vl-mode ideal" lets packets
 * take them), shared by route, which prints it, and sim, which warns
 * before simulating a form that can deadlock. The links that escalate a
 * packet are the global links of the recognised topology.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "cli.h"

/*
 * The links whose crossing escalates a packet in the ideal form (global),
 * and the policy fitted to the family recognised, as the simulator fits it.
 */
static uint8_t *escalating_links(const struct vlr_tables *tables, enum vlr_family family,
				 struct vlr_vl_policy *policy, struct vlr_error *err)
{
	uint32_t ports = tables->fabric->num_ports, slot;
	struct vlr_topology topology;
	uint8_t *escalates;

	if (vlr_topology_recognise(tables->fabric, family, &topology, err))
		return NULL;
	vlr_vl_policy_fit_family(policy, topology.params.family);
	escalates = calloc(ports + 1ull, 1);
	if (!escalates)
		vlr_fail(err, "out of memory");
	for (slot = 0; escalates && slot < ports; slot++)
		escalates[slot] = topology.port_class[slot] == VLR_PORT_GLOBAL;
	vlr_topology_free(&topology);
	return escalates;
}

int cli_ideal_form(const struct vlr_tables *tables, enum vlr_family family, char *out,
		   size_t size)
{
	struct vlr_verify_report all, escape;
	struct vlr_vl_policy policy = tables->policy;
	struct vlr_error err;
	uint8_t *escalates;
	int result = CLI_IDEAL_CYCLE;

	if (!tables->lid_kind || !vlr_vl_policy_has_ideal_form(&tables->policy))
		return CLI_IDEAL_NONE;
	escalates = escalating_links(tables, family, &policy, &err);
	escape.cdg_acyclic = 0;
	if (!escalates || vlr_verify_ideal(tables, &policy, escalates, 0, &all, &err) ||
	    (!all.cdg_acyclic && policy.kind == VLR_VLP_LADDER_REUSE &&
	     vlr_verify_ideal(tables, &policy, escalates, 1, &escape, &err))) {
		snprintf(out, size, "not checked: %s", err.message);
		result = CLI_IDEAL_UNCHECKED;
	} else if (all.cdg_acyclic) {
		snprintf(out, size, "deadlock-free");
		result = CLI_IDEAL_FREE;
	} else if (escape.cdg_acyclic) {
		snprintf(out, size, "deadlock-free by its escape ladder (hop i on VL i)");
		result = CLI_IDEAL_FREE;
	} else {
		snprintf(out, size, "NOT deadlock-free (cycle %s)", all.cycle);
	}
	free(escalates);
	return result;
}
