/*
 * netfile_write.c - writing a fabric as an ibsim net file.
 *
 * Switch records come first, then CAs and routers, each record's port
 * lines in port order. ibsim hands out node GUIDs from a running base per
 * node type; a "switchguid=" (or "caguid=", "rtguid=") line is written
 * whenever the next node's GUID is not the one ibsim would give it anyway,
 * so generated fabrics (which use ibsim's own numbering) need none and any
 * other fabric keeps its GUIDs exactly.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include <vlroute/formats.h>

struct guid_counters {
	uint64_t next[4];	/* by node type, as ibsim */
};

static const char *record_keyword(enum vlr_node_type type)
{
	switch (type) {
	case VLR_NODE_SWITCH:
		return "Switch";
	case VLR_NODE_ROUTER:
		return "Rt";
	case VLR_NODE_CA:
		break;
	}
	return "Ca";
}

static const char *guid_keyword(enum vlr_node_type type)
{
	switch (type) {
	case VLR_NODE_SWITCH:
		return "switchguid";
	case VLR_NODE_ROUTER:
		return "rtguid";
	case VLR_NODE_CA:
		break;
	}
	return "caguid";
}

static void write_header_comment(FILE *out, const char *header)
{
	const char *line = header;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		int length = end ? (int)(end - line) : (int)strlen(line);

		fprintf(out, "# %.*s\n", length, line);
		line = end ? end + 1 : NULL;
	}
}

static void write_ibsim_sizes(const struct vlr_fabric *fabric, FILE *out)
{
	struct vlr_ibsim_sizes sizes;
	char flags[128];

	vlr_ibsim_sizes(fabric, &sizes);
	if (!vlr_ibsim_needs_flags(&sizes))
		return;
	vlr_ibsim_flags(&sizes, flags, sizeof(flags));
	fprintf(out, "#\n# Larger than ibsim's defaults: load it with\n"
		"#   ibsim %s NETFILE\n", flags);
}

static void write_port(const struct vlr_fabric *fabric, const struct vlr_port *port,
		       FILE *out)
{
	const struct vlr_port *peer = &fabric->ports[port->peer];
	const struct vlr_node *node = &fabric->nodes[port->node];

	fprintf(out, "[%u]", port->number);
	/* ibsim numbers endpoint port GUIDs node GUID + port; keep any other */
	if (node->type != VLR_NODE_SWITCH && port->guid != node->guid + port->number)
		fprintf(out, "(%llx)", (unsigned long long)port->guid);
	fprintf(out, "\t\"%s\"[%u]", vlr_node_name(fabric, peer->node), peer->number);
	if (port->width)
		fprintf(out, "\tw=%u", port->width);
	if (port->speed)
		fprintf(out, "\ts=%u", port->speed);
	if (port->lid && !vlr_node_is_switch(fabric, port->node))
		fprintf(out, "\t# lid %u lmc %u", port->lid, port->lmc);
	fputc('\n', out);
}

static void write_node(const struct vlr_fabric *fabric, uint32_t node,
		       struct guid_counters *guids, FILE *out)
{
	const struct vlr_node *record = &fabric->nodes[node];
	const struct vlr_port *port0 = vlr_port_at(fabric, node, 0);
	unsigned number;

	if (record->guid != guids->next[record->type])
		fprintf(out, "%s=0x%016llx\n", guid_keyword(record->type),
			(unsigned long long)record->guid);
	guids->next[record->type] = record->guid +
		(record->type == VLR_NODE_SWITCH ? 1 : record->num_ports + 1u);

	fprintf(out, "%s\t%u \"%s\"", record_keyword(record->type), record->num_ports,
		vlr_node_name(fabric, node));
	if (record->description != record->name ||
	    (record->type == VLR_NODE_SWITCH && (port0->lid || record->enhanced_port0)))
		fprintf(out, "\t# \"%s\"", vlr_node_description(fabric, node));
	if (record->type == VLR_NODE_SWITCH && record->enhanced_port0)
		fprintf(out, " %s port 0", record->enhanced_port0 > 0 ? "enhanced" : "base");
	if (record->type == VLR_NODE_SWITCH && port0->lid)
		fprintf(out, " lid %u lmc %u", port0->lid, port0->lmc);
	fputc('\n', out);

	for (number = 1; number <= record->num_ports; number++) {
		const struct vlr_port *port = vlr_port_at(fabric, node, number);

		if (port->peer != VLR_NONE)
			write_port(fabric, port, out);
	}
	fputc('\n', out);
}

/* ibsim reserves '#' (module prefix) and '@' (alias) in node ids. */
static int check_names(const struct vlr_fabric *fabric, struct vlr_error *err)
{
	uint32_t node;

	for (node = 0; node < fabric->num_nodes; node++)
		if (strpbrk(vlr_node_name(fabric, node), "#@"))
			return vlr_fail(err, "node name \"%s\" holds '#' or '@', which "
					"ibsim reserves for modules and aliases",
					vlr_node_name(fabric, node));
	return 0;
}

int vlr_netfile_write(const struct vlr_fabric *fabric, FILE *out,
		      const char *header, struct vlr_error *err)
{
	/* ibsim's initial bases: CAs 0x100000, switches 0x200000, routers 0 */
	struct guid_counters guids = { { 0, 0x100000, 0x200000, 0 } };
	uint32_t node;
	int pass;

	if (check_names(fabric, err))
		return -1;
	write_header_comment(out, header);
	write_ibsim_sizes(fabric, out);
	fputc('\n', out);
	for (pass = 0; pass < 2; pass++)
		for (node = 0; node < fabric->num_nodes; node++)
			if (vlr_node_is_switch(fabric, node) == !pass)
				write_node(fabric, node, &guids, out);
	if (fflush(out) || ferror(out))
		return vlr_fail(err, "cannot write the net file");
	return 0;
}

void vlr_ibsim_sizes(const struct vlr_fabric *fabric, struct vlr_ibsim_sizes *sizes)
{
	uint64_t lids = vlr_fabric_lids_needed(fabric, fabric->lmc);
	uint32_t node;

	sizes->nodes = fabric->num_nodes;
	sizes->switches = 0;
	sizes->ports = 0;
	for (node = 0; node < fabric->num_nodes; node++) {
		int is_switch = vlr_node_is_switch(fabric, node);

		sizes->switches += is_switch;
		sizes->ports += fabric->nodes[node].num_ports + (is_switch ? 1 : 0);
	}
	/* LIDs 1..lids plus the alignment of LMC blocks; LID 0 is unused */
	lids += (1u << fabric->lmc) + 1;
	sizes->linear_cap = lids > VLR_MAX_UNICAST_LID + 1 ? VLR_MAX_UNICAST_LID + 1 :
			    (unsigned)lids;
}

int vlr_ibsim_needs_flags(const struct vlr_ibsim_sizes *sizes)
{
	return sizes->nodes > VLR_IBSIM_DEFAULT_NODES ||
	       sizes->switches > VLR_IBSIM_DEFAULT_SWITCHES ||
	       sizes->ports > VLR_IBSIM_DEFAULT_PORTS ||
	       sizes->linear_cap > VLR_IBSIM_DEFAULT_LINEAR_CAP;
}

void vlr_ibsim_flags(const struct vlr_ibsim_sizes *sizes, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	if (sizes->nodes > VLR_IBSIM_DEFAULT_NODES ||
	    sizes->switches > VLR_IBSIM_DEFAULT_SWITCHES ||
	    sizes->ports > VLR_IBSIM_DEFAULT_PORTS)
		used = (size_t)snprintf(buf, size, "-N %u -S %u -P %u", sizes->nodes,
					sizes->switches, sizes->ports);
	if (sizes->linear_cap > VLR_IBSIM_DEFAULT_LINEAR_CAP && used < size)
		snprintf(buf + used, size - used, "%s-L %u", used ? " " : "",
			 sizes->linear_cap);
}
