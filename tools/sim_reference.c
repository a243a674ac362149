/*
 * sim_reference.c - what "vlroute sim FABRIC" simulates: the fabric file
 * with its LIDs (LMC 0) and no routes, and the minimal engine's next hops
 * between its switches for the two phases of the reference model (the
 * same for both, or the HyperX dimensions reversed in phase two).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "cli.h"
#include "sim_cli.h"

/* The tables the simulator needs around the fabric: its LIDs. */
static struct vlr_tables *bare_tables(const struct sim_cli *cli, int *status)
{
	struct vlr_fabric *fabric = cli_read_fabric(cli->command, cli->dir);
	struct vlr_tables *tables;
	struct vlr_error err;

	*status = CLI_BAD_INPUT;
	if (!fabric)
		return NULL;
	if (vlr_fabric_assign_lids(fabric, 0, &err) ||
	    !(tables = vlr_tables_new(fabric, VLR_MAX_DATA_VLS, &err))) {
		cli_error(cli->command, "%s", err.message);
		vlr_fabric_free(fabric);
		return NULL;
	}
	tables->owns_fabric = 1;
	return tables;
}

/* The next hops of both phases; the same object for the same order. */
static int next_hops(struct sim_cli *cli, const struct vlr_tables *tables)
{
	struct vlr_sim_reference *r = &cli->config.reference;
	struct vlr_family_params family;
	struct vlr_error err;

	if (vlr_minimal_switch_routes(tables, &cli->next_hops, 0, &cli->routes[0], &family,
				      &err)) {
		cli_error(cli->command, "%s: %s", cli->dir, err.message);
		return -1;
	}
	r->routes[0] = r->routes[1] = &cli->routes[0];
	if (!cli->phase_two_reversed)
		return 0;
	if (family.family != VLR_FAMILY_HYPERX) {
		cli_error(cli->command, "--phase-two-order reverse is for a HyperX; %s is a %s",
			  cli->dir, vlr_topology_family_name(family.family));
		return -1;
	}
	if (vlr_minimal_switch_routes(tables, &cli->next_hops, 1, &cli->routes[1], NULL,
				      &err)) {
		cli_error(cli->command, "%s: %s", cli->dir, err.message);
		return -1;
	}
	r->routes[1] = &cli->routes[1];
	return 0;
}

struct vlr_tables *sim_reference_tables(struct sim_cli *cli, int *status)
{
	struct vlr_tables *tables = bare_tables(cli, status);

	if (tables && next_hops(cli, tables)) {
		vlr_tables_free(tables);
		return NULL;
	}
	return tables;
}
