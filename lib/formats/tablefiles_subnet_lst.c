/*
 * tablefiles_subnet_lst.c - a fabric from OpenSM's opensm-subnet.lst.
 *
 * OpenSM writes one line per linked port of every node, so each link
 * appears twice, once from each end:
 *   { TYPE Ports:%02X SystemGUID:%016llx NodeGUID:%016llx PortGUID:%016llx
 *     VenID:%06X DevID:%04X Rev:%08X {DESC} LID:%04X PN:%02X }
 *   { ...the remote port, VenID:%08X... } PHY=1x|4x|8x|12x LOG=.. SPD=..
 * (on one line). TYPE is SW, CA or Rt, with "-SM" appended on the node of
 * the master SM; Ports, LID and PN are hex; LID is a switch's port 0 LID
 * or the endpoint port's own. The remote DevID is a 16-bit value passed
 * through a 32-bit byte swap, so it may print as eight digits.
 *
 * Reading takes two steps: the lines become node records (keyed by
 * NodeGUID, checked for agreement wherever a node reappears) and port
 * records; once every node is known they become fabric nodes and links.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "tablefiles_internal.h"

struct lst_node {
	uint64_t guid;
	uint64_t port_guid;	/* switches: the GUID of every port */
	uint32_t line;		/* first line that mentions it */
	uint32_t description;	/* offset in the string pool */
	uint16_t lid;		/* switches: port 0 LID */
	uint8_t type;
	uint8_t num_ports;
	int unique;		/* its description names no other node */
};

/* One side of a line. */
struct half {
	uint64_t node_guid;
	uint64_t port_guid;
	uint32_t lid;
	uint32_t num_ports;
	uint32_t port;
	uint32_t node;		/* index in nodes, once known */
	int type;
	char description[VLR_MAX_NAME * 4 + 1];
};

struct lst_link {
	uint32_t node[2];
	uint64_t port_guid[2];
	uint32_t line;
	uint16_t lid[2];
	uint8_t port[2];
};

struct reader {
	struct vlr_fabric *fabric;
	struct vlr_lines lines;
	struct vlr_error *err;
	struct vlr_guid_map by_guid;
	struct lst_node *nodes;
	uint32_t num_nodes, nodes_capacity;
	struct lst_link *links;
	uint32_t num_links, links_capacity;
	char *pool;
	uint32_t pool_length, pool_capacity;
	uint32_t *link_line;	/* [port slot]: line that linked it */
};

/* ---- parsing a line ----------------------------------------------------- */

static int lex_type(const char **s, int *type)
{
	if (!vlr_lex_word(s, "SW"))
		*type = VLR_NODE_SWITCH;
	else if (!vlr_lex_word(s, "CA"))
		*type = VLR_NODE_CA;
	else if (!vlr_lex_word(s, "Rt"))
		*type = VLR_NODE_ROUTER;
	else
		return -1;
	vlr_lex_word(s, "-SM");
	return 0;
}

/* " NAME:HEX" with at most max_digits digits. */
static int lex_field(const char **s, const char *name, unsigned max_digits,
		     uint64_t *value)
{
	return vlr_lex_word(s, " ") || vlr_lex_word(s, name) ||
	       vlr_lex_hex(s, max_digits, value);
}

static int lex_description(const char **s, char *out, size_t size)
{
	const char *end;

	if (vlr_lex_word(s, " {"))
		return -1;
	end = strstr(*s, "} LID:");
	if (!end || (size_t)(end - *s) >= size)
		return -1;
	memcpy(out, *s, (size_t)(end - *s));
	out[end - *s] = '\0';
	*s = end + 1;
	return 0;
}

/* "{ TYPE Ports:.. ... {DESC} LID:.. PN:.. }" */
static int parse_half(const char **s, struct half *half)
{
	uint64_t ports, system_guid, vendor, device, revision, lid, port;

	if (vlr_lex_word(s, "{ ") || lex_type(s, &half->type) ||
	    lex_field(s, "Ports:", 2, &ports) ||
	    lex_field(s, "SystemGUID:", 16, &system_guid) ||
	    lex_field(s, "NodeGUID:", 16, &half->node_guid) ||
	    lex_field(s, "PortGUID:", 16, &half->port_guid) ||
	    lex_field(s, "VenID:", 8, &vendor) || lex_field(s, "DevID:", 8, &device) ||
	    lex_field(s, "Rev:", 8, &revision) ||
	    lex_description(s, half->description, sizeof(half->description)) ||
	    lex_field(s, "LID:", 4, &lid) || lex_field(s, "PN:", 2, &port) ||
	    vlr_lex_word(s, " }"))
		return -1;
	half->num_ports = (uint32_t)ports;
	half->lid = (uint32_t)lid;
	half->port = (uint32_t)port;
	return 0;
}

/* " PHY=.. LOG=.. SPD=.." to the end of the line. */
static int parse_link_state(const char *s)
{
	static const char *const words[] = { " PHY=", " LOG=", " SPD=" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		if (vlr_lex_word(&s, words[i]) || *s == ' ' || *s == '\0')
			return -1;
		while (*s && *s != ' ')
			s++;
	}
	return *vlr_skip_blanks(s) == '\0' ? 0 : -1;
}

static int check_half(struct reader *reader, const struct half *half)
{
	if (!half->node_guid)
		return vlr_fail_line(&reader->lines, "NodeGUID 0 is not a GUID");
	if (half->num_ports < 1 || half->num_ports > VLR_MAX_NODE_PORTS)
		return vlr_fail_line(&reader->lines,
				     "node 0x%016llx has %u ports; allowed: 1..%d",
				     (unsigned long long)half->node_guid, half->num_ports,
				     VLR_MAX_NODE_PORTS);
	if (half->port < 1 || half->port > half->num_ports)
		return vlr_fail_line(&reader->lines,
				     "PN:%02X is outside the ports 1..%u of node "
				     "0x%016llx", half->port, half->num_ports,
				     (unsigned long long)half->node_guid);
	if (half->lid > VLR_MAX_UNICAST_LID)
		return vlr_fail_line(&reader->lines, "LID:%04X is not a unicast LID", half->lid);
	return 0;
}

/* ---- nodes -------------------------------------------------------------- */

static int store_description(struct reader *reader, const char *text, uint32_t *offset)
{
	uint32_t length = (uint32_t)strlen(text) + 1;

	if (vlr_array_grow((void **)&reader->pool, &reader->pool_capacity,
			   reader->pool_length + length, 1, reader->err))
		return -1;
	memcpy(reader->pool + reader->pool_length, text, length);
	*offset = reader->pool_length;
	reader->pool_length += length;
	return 0;
}

static int add_node(struct reader *reader, const struct half *half, uint32_t *index)
{
	struct lst_node *node;
	uint32_t taken;

	if (vlr_array_grow((void **)&reader->nodes, &reader->nodes_capacity,
			   reader->num_nodes + 1, sizeof(*node), reader->err))
		return -1;
	taken = vlr_guid_map_put(&reader->by_guid, half->node_guid, reader->num_nodes,
				reader->err);
	if (taken == VLR_GUID_MAP_FAILED)
		return -1;
	node = &reader->nodes[reader->num_nodes];
	memset(node, 0, sizeof(*node));
	node->guid = half->node_guid;
	node->port_guid = half->port_guid;
	node->line = reader->lines.line;
	node->lid = (uint16_t)half->lid;
	node->type = (uint8_t)half->type;
	node->num_ports = (uint8_t)half->num_ports;
	if (store_description(reader, half->description, &node->description))
		return -1;
	*index = reader->num_nodes++;
	return 0;
}

/* The node of a half, added or checked against what earlier lines said. */
static int find_node(struct reader *reader, struct half *half)
{
	uint32_t index = vlr_guid_map_get(&reader->by_guid, half->node_guid);
	const struct lst_node *node;
	unsigned long long guid = (unsigned long long)half->node_guid;

	if (index == VLR_NONE)
		return add_node(reader, half, &half->node);
	node = &reader->nodes[index];
	half->node = index;
	if (node->type != half->type || node->num_ports != half->num_ports)
		return vlr_fail_line(&reader->lines,
				     "node 0x%016llx is a %s with %u ports here, but a "
				     "%s with %u ports at line %u", guid,
				     vlr_node_type_name(half->type), half->num_ports,
				     vlr_node_type_name(node->type), node->num_ports, node->line);
	if (strcmp(reader->pool + node->description, half->description))
		return vlr_fail_line(&reader->lines,
				     "node 0x%016llx is {%s} here, but {%s} at line %u",
				     guid, half->description, reader->pool + node->description,
				     node->line);
	if (half->type == VLR_NODE_SWITCH &&
	    (node->port_guid != half->port_guid || node->lid != half->lid))
		return vlr_fail_line(&reader->lines,
				     "switch 0x%016llx has PortGUID %016llx and LID "
				     "%04X here, but %016llx and %04X at line %u", guid,
				     (unsigned long long)half->port_guid, half->lid,
				     (unsigned long long)node->port_guid, node->lid, node->line);
	return 0;
}

static int add_link(struct reader *reader, const struct half *local,
		    const struct half *remote)
{
	struct lst_link *link;

	if (local->node_guid == remote->node_guid)
		return vlr_fail_line(&reader->lines, "node 0x%016llx links to itself",
				     (unsigned long long)local->node_guid);
	if (vlr_array_grow((void **)&reader->links, &reader->links_capacity,
			   reader->num_links + 1, sizeof(*link), reader->err))
		return -1;
	link = &reader->links[reader->num_links++];
	link->node[0] = local->node;
	link->node[1] = remote->node;
	link->port[0] = (uint8_t)local->port;
	link->port[1] = (uint8_t)remote->port;
	link->port_guid[0] = local->port_guid;
	link->port_guid[1] = remote->port_guid;
	link->lid[0] = (uint16_t)local->lid;
	link->lid[1] = (uint16_t)remote->lid;
	link->line = reader->lines.line;
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	struct half local, remote;
	const char *s = text;

	if (*vlr_skip_blanks(text) == '\0')
		return 0;
	if (parse_half(&s, &local) || vlr_lex_word(&s, " ") || parse_half(&s, &remote) ||
	    parse_link_state(s))
		return vlr_fail_line(&reader->lines,
				     "malformed line (expected \"{ TYPE Ports:.. "
				     "SystemGUID:.. NodeGUID:.. PortGUID:.. VenID:.. DevID:.. "
				     "Rev:.. {DESC} LID:.. PN:.. } { ...the remote port... } "
				     "PHY=.. LOG=.. SPD=..\")");
	if (check_half(reader, &local) || check_half(reader, &remote) ||
	    find_node(reader, &local) || find_node(reader, &remote))
		return -1;
	return add_link(reader, &local, &remote);
}

/* ---- building the fabric ------------------------------------------------ */

/* A NodeDescription the fabric can keep: what vlr_fabric_set_description takes. */
static int valid_description(const char *text)
{
	return text[0] && strlen(text) <= VLR_MAX_NAME && !strchr(text, '"');
}

/* A node id ibsim's net files can carry: no '#' (modules) or '@' (aliases). */
static int valid_name(const char *name)
{
	return valid_description(name) && !strpbrk(name, "#@");
}

struct named {
	const char *description;
	uint32_t node;
};

static int compare_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int order = strcmp(x->description, y->description);

	return order ? order : (x->node < y->node ? -1 : x->node > y->node);
}

/* Mark the nodes whose description no other node has. */
static int mark_unique(struct reader *reader)
{
	struct named *sorted = malloc(sizeof(*sorted) * (reader->num_nodes + 1));
	uint32_t i, j;

	if (!sorted)
		return vlr_fail(reader->err, "out of memory naming nodes");
	for (i = 0; i < reader->num_nodes; i++) {
		sorted[i].description = reader->pool + reader->nodes[i].description;
		sorted[i].node = i;
	}
	qsort(sorted, reader->num_nodes, sizeof(*sorted), compare_named);
	for (i = 0; i < reader->num_nodes; i = j) {
		for (j = i + 1; j < reader->num_nodes &&
		     !strcmp(sorted[i].description, sorted[j].description); j++)
			;
		reader->nodes[sorted[i].node].unique = j - i == 1;
		while (++i < j)
			reader->nodes[sorted[i].node].unique = 0;
	}
	free(sorted);
	return 0;
}

static int create_node(struct reader *reader, uint32_t index)
{
	const struct lst_node *node = &reader->nodes[index];
	const char *description = reader->pool + node->description;
	struct vlr_fabric *fabric = reader->fabric;
	char name[VLR_MAX_NAME + 1];
	struct vlr_error node_err;
	unsigned number;
	uint32_t made;

	if (node->unique && valid_name(description))
		snprintf(name, sizeof(name), "%s", description);
	else
		snprintf(name, sizeof(name), "%c-%016llx",
			 node->type == VLR_NODE_SWITCH ? 'S' : 'H',
			 (unsigned long long)node->guid);
	made = vlr_fabric_add_node(fabric, node->type, name, node->num_ports, node->guid,
				   &node_err);
	if (made == VLR_NONE)
		return vlr_fail_at(reader->err, reader->lines.path, node->line, "%s",
				   node_err.message);
	fabric->nodes[made].line = node->line;
	if (valid_description(description) &&
	    vlr_fabric_set_description(fabric, made, description, &node_err))
		return vlr_fail_at(reader->err, reader->lines.path, node->line, "%s",
				   node_err.message);
	if (node->type == VLR_NODE_SWITCH) {
		for (number = 0; number <= node->num_ports; number++)
			vlr_port_at(fabric, made, number)->guid = node->port_guid;
		vlr_port_at(fabric, made, 0)->lid = node->lid;
	}
	return 0;
}

/* An endpoint port's GUID and LID, the same on every line that names it. */
static int set_endpoint_port(struct reader *reader, const struct lst_link *link, int side)
{
	struct vlr_fabric *fabric = reader->fabric;
	struct vlr_port *port;

	if (vlr_node_is_switch(fabric, link->node[side]))
		return 0;
	port = vlr_port_at(fabric, link->node[side], link->port[side]);
	if (port->line && (port->guid != link->port_guid[side] || port->lid != link->lid[side]))
		return vlr_fail_at(reader->err, reader->lines.path, link->line,
				   "port %u of \"%s\" has PortGUID %016llx and LID %04X "
				   "here, but %016llx and %04X at line %u", port->number,
				   vlr_node_name(fabric, link->node[side]),
				   (unsigned long long)link->port_guid[side], link->lid[side],
				   (unsigned long long)port->guid, port->lid, port->line);
	if (!port->line)
		port->line = link->line;
	port->guid = link->port_guid[side];
	port->lid = link->lid[side];
	return 0;
}

static int make_link(struct reader *reader, const struct lst_link *link)
{
	struct vlr_fabric *fabric = reader->fabric;
	uint32_t a = vlr_port_index(fabric, link->node[0], link->port[0]);
	uint32_t b = vlr_port_index(fabric, link->node[1], link->port[1]);
	struct vlr_error link_err;
	int side;

	for (side = 0; side < 2; side++)
		if (set_endpoint_port(reader, link, side))
			return -1;
	if (fabric->ports[a].peer == b)
		return 0;
	if (fabric->ports[a].peer != VLR_NONE || fabric->ports[b].peer != VLR_NONE) {
		uint32_t taken = fabric->ports[a].peer != VLR_NONE ? a : b;

		return vlr_fail_at(reader->err, reader->lines.path, link->line,
				   "port %u of \"%s\" is already linked to port %u of "
				   "\"%s\" by line %u", fabric->ports[taken].number,
				   vlr_node_name(fabric, fabric->ports[taken].node),
				   fabric->ports[fabric->ports[taken].peer].number,
				   vlr_node_name(fabric,
				   fabric->ports[fabric->ports[taken].peer].node),
				   reader->link_line[taken]);
	}
	if (vlr_fabric_link(fabric, link->node[0], link->port[0], link->node[1],
			    link->port[1], &link_err))
		return vlr_fail_at(reader->err, reader->lines.path, link->line, "%s",
				   link_err.message);
	reader->link_line[a] = reader->link_line[b] = link->line;
	return 0;
}

static int build_fabric(struct reader *reader)
{
	uint32_t i;

	if (!reader->num_links)
		return vlr_fail(reader->err, "%s: holds no link", reader->lines.path);
	if (mark_unique(reader))
		return -1;
	for (i = 0; i < reader->num_nodes; i++)
		if (create_node(reader, i))
			return -1;
	reader->link_line = calloc(reader->fabric->num_ports + 1, sizeof(uint32_t));
	if (!reader->link_line)
		return vlr_fail(reader->err, "out of memory linking ports");
	for (i = 0; i < reader->num_links; i++)
		if (make_link(reader, &reader->links[i]))
			return -1;
	return 0;
}

static int read_all(struct reader *reader)
{
	if (vlr_lines_each(&reader->lines, read_line, reader))
		return -1;
	return build_fabric(reader);
}

int vlr_subnet_lst_read(struct vlr_fabric *fabric, const char *path,
			struct vlr_error *err)
{
	struct reader reader;
	int result;

	if (fabric->num_nodes)
		return vlr_fail(err, "%s: the fabric to read into is not empty", path);
	memset(&reader, 0, sizeof(reader));
	reader.fabric = fabric;
	reader.err = err;
	if (vlr_guid_map_init(&reader.by_guid, 1024, err))
		return -1;
	result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = read_all(&reader);
	vlr_lines_close(&reader.lines);
	vlr_guid_map_free(&reader.by_guid);
	free(reader.nodes);
	free(reader.links);
	free(reader.pool);
	free(reader.link_line);
	return result;
}
