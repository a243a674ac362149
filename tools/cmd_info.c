/*
 * cmd_info.c - "vlroute info FABRIC": what a fabric is made of.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "cli.h"

static const char info_usage[] =
	"Usage: vlroute info [--lmc N] FABRIC\n"
	"Summarise a fabric (ibsim net file or ibnetdiscover output): switches,\n"
	"channel adapters, links, switch radix, switch-level diameter, the\n"
	"generated family it is (if any), the HyperX, Dragonfly or Dragonfly+ the\n"
	"graph alone shows, LIDs needed and ibsim's size flags.\n"
	"  -l, --lmc N     count the LIDs needed at this LMC (0..7, default 0)\n"
	CLI_NODE_NAME_MAP_HELP
	"  -V, --version   print the version and exit\n"
	"  -h, --help      print this help and exit\n";

static void print_counts(const struct vlr_fabric_summary *summary)
{
	printf("switches:          %u\n", summary->switches);
	printf("channel adapters:  %u (%u linked ports)\n", summary->cas,
	       summary->endpoint_ports);
	if (summary->routers)
		printf("routers:           %u\n", summary->routers);
	printf("links:             %u (%u switch-switch, %u switch-endpoint",
	       summary->links, summary->switch_links, summary->endpoint_links);
	if (summary->direct_links)
		printf(", %u endpoint-endpoint", summary->direct_links);
	printf(")\n");
	if (summary->switches)
		printf("switch radix:      %u ports (%u..%u linked)\n", summary->radix,
		       summary->used_ports_min, summary->used_ports_max);
}

static int print_diameter(const char *command, const struct vlr_fabric *fabric)
{
	struct vlr_switch_graph graph;
	uint32_t diameter, components;
	struct vlr_error err;

	if (vlr_switch_graph_build(fabric, &graph, &err) ||
	    vlr_switch_diameter(&graph, &diameter, &components, &err)) {
		cli_error(command, "%s", err.message);
		vlr_switch_graph_free(&graph);
		return -1;
	}
	if (components <= 1)
		printf("diameter:          %u switch hops\n", diameter);
	else
		printf("diameter:          %u switch hops within each of %u components "
		       "(the switches are not all connected)\n", diameter, components);
	vlr_switch_graph_free(&graph);
	return 0;
}

static void print_family(const struct vlr_fabric *fabric)
{
	struct vlr_family_params params;
	char description[256];

	if (!vlr_recognise_family(fabric, &params)) {
		printf("family:            none of the generated families\n");
		return;
	}
	vlr_family_describe(&params, description, sizeof(description));
	printf("family:            %s\n", description);
}

/* What the graph alone says: the basis of the minimal and valiant engines. */
static void print_topology(const struct vlr_fabric *fabric)
{
	struct vlr_topology topology;
	char description[256];
	struct vlr_error err;

	if (vlr_topology_recognise(fabric, VLR_FAMILY_NONE, &topology, &err)) {
		printf("from the graph:    no HyperX, Dragonfly or Dragonfly+: %s\n",
		       err.message);
		return;
	}
	vlr_family_describe(&topology.params, description, sizeof(description));
	printf("from the graph:    %s%s\n", description,
	       topology.arrangement_known ? "" : " (arrangement: not a generated one)");
	vlr_topology_free(&topology);
}

static void print_lids(const struct vlr_fabric *fabric, unsigned lmc)
{
	uint64_t needed = vlr_fabric_lids_needed(fabric, lmc);

	printf("LIDs needed:       %llu at LMC %u (of %d)%s\n",
	       (unsigned long long)needed, lmc, VLR_MAX_UNICAST_LID,
	       needed > VLR_MAX_UNICAST_LID ? ": too many" : "");
}

static void print_ibsim(const struct vlr_fabric *fabric)
{
	struct vlr_ibsim_sizes sizes;
	char flags[128];

	vlr_ibsim_sizes(fabric, &sizes);
	if (!vlr_ibsim_needs_flags(&sizes)) {
		printf("ibsim:             fits its defaults (no size flags needed)\n");
		return;
	}
	vlr_ibsim_flags(&sizes, flags, sizeof(flags));
	printf("ibsim:             needs ibsim %s\n", flags);
}

int cmd_info(int argc, char **argv, const char *command_line)
{
	static const struct option options[] = {
		{ "lmc", required_argument, NULL, 'l' },
		{ "node-name-map", required_argument, NULL, CLI_OPT_NODE_NAME_MAP },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *command = "vlroute info", *name_map = NULL;
	unsigned named;
	struct vlr_fabric_summary summary;
	unsigned long long lmc = 0;
	struct vlr_fabric *fabric;
	int option, status = CLI_OK;

	(void)command_line;	/* a summary on the terminal, no result file */
	optind = 1;
	opterr = 0;
	while ((option = cli_getopt(command, argc, argv, "l:Vh", options, NULL)) != -1) {
		if (option == 'h')
			return cli_usage(stdout, info_usage, CLI_OK);
		if (option == 'V')
			return cli_version();
		if (option == '?') {
			cli_unknown_option(command, argv, optopt);
			return CLI_BAD_INPUT;
		}
		if (option == CLI_OPT_NODE_NAME_MAP)
			name_map = optarg;
		else if (cli_unsigned(command, "--lmc", optarg, 0, VLR_MAX_LMC, &lmc))
			return CLI_BAD_INPUT;
	}
	if (argc - optind != 1) {
		cli_error(command, "needs exactly one FABRIC file (see --help)");
		return CLI_BAD_INPUT;
	}
	fabric = cli_read_fabric(command, argv[optind]);
	if (!fabric)
		return CLI_BAD_INPUT;
	if (cli_rename_nodes(command, name_map, fabric, &named)) {
		vlr_fabric_free(fabric);
		return CLI_BAD_INPUT;
	}
	vlr_fabric_summarise(fabric, &summary);
	printf("fabric:            %s\n", argv[optind]);
	if (name_map)
		printf("node names:        %u of %u nodes from %s\n", named,
		       fabric->num_nodes, name_map);
	print_counts(&summary);
	if (print_diameter(command, fabric))
		status = CLI_FAILED;
	print_family(fabric);
	print_topology(fabric);
	print_lids(fabric, (unsigned)lmc);
	print_ibsim(fabric);
	vlr_fabric_free(fabric);
	return status;
}
