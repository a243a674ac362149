/*
 * netfile_read.c - reading ibsim net files and ibnetdiscover output.
 *
 * Reading happens in two steps. The first walks the lines: node records
 * become fabric nodes at once, and every port line is kept as a pending
 * declaration ("port 3 of sw1 links to port 4 of sw2"). The second, once
 * every node is known, resolves the declarations and links a pair of ports
 * only when both sides agree. Every complaint names FILE:LINE.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vlroute/formats.h>

#include "util/array.h"
#include "util/lexer.h"

#define MAX_INCLUDE_DEPTH 9	/* as ibsim */
#define MAX_PREFIX 20		/* ibsim's NODEPREFIX */
#define MAX_KEY (MAX_PREFIX + 1 + VLR_MAX_NAME + 2)
/*
 * The largest net file read: ibnetdiscover output of a full subnet (49,151
 * LIDs) takes about 20 MB, so this bound refuses only what no fabric needs
 * (and stops "include /dev/zero" before it fills memory).
 */
#define MAX_FILE_BYTES (256u << 20)

/* A port line, resolved once every node is known. */
struct declaration {
	uint32_t port;		/* port slot that declares the link */
	uint32_t remote;	/* offset of the remote node name or alias key in keys */
	uint32_t line;
	uint16_t file;
	uint8_t remote_port;	/* 0: remote is an alias */
};

/* "@[N] "name"": port N of the current node is known as name. */
struct alias {
	uint32_t key;		/* offset in keys */
	uint32_t port;
	uint32_t line;
	uint16_t file;
};

struct reader {
	struct vlr_fabric *fabric;
	struct vlr_netfile_notes *notes;
	struct vlr_error *err;

	char *paths[MAX_INCLUDE_DEPTH * 64];	/* every file opened, for messages */
	unsigned num_files;
	unsigned depth;

	/* where we are */
	uint16_t file;
	uint32_t line;
	uint32_t node;		/* node whose port lines follow, or VLR_NONE */

	struct declaration *declarations;
	uint32_t num_declarations, declarations_capacity;
	struct alias *aliases;
	uint32_t num_aliases, aliases_capacity;
	char *keys;
	uint32_t keys_length, keys_capacity;
	uint16_t *node_file;	/* file of each node's record */
	uint32_t node_file_capacity;

	/* ibsim's running state */
	uint64_t guid_base[4];
	uint64_t guid_next[4];
	uint8_t width;
	uint8_t speed;
	char prefix[MAX_PREFIX + 1];
};

static const char *path_of(const struct reader *reader, unsigned file)
{
	return reader->paths[file];
}

static int fail_here(struct reader *reader, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail_here(struct reader *reader, const char *fmt, ...)
{
	va_list args;
	int result;

	va_start(args, fmt);
	result = vlr_vfail_at(reader->err, path_of(reader, reader->file), reader->line,
			      fmt, args);
	va_end(args);
	return result;
}

static int fail_at(struct reader *reader, unsigned file, uint32_t line,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail_at(struct reader *reader, unsigned file, uint32_t line,
		   const char *fmt, ...)
{
	va_list args;
	int result;

	va_start(args, fmt);
	result = vlr_vfail_at(reader->err, path_of(reader, file), line, fmt, args);
	va_end(args);
	return result;
}

/* ---- small lexing helpers ---------------------------------------------- */

static int is_blank_line(const char *s)
{
	return *vlr_skip_blanks(s) == '\0';
}

/* Copy a "quoted" string at *s (after blanks) into out; advance past it. */
static int parse_quoted(struct reader *reader, const char **s, char *out,
			size_t size, const char *what)
{
	const char *start = vlr_skip_blanks(*s), *end;

	if (*start != '"')
		return fail_here(reader, "expected the %s in double quotes", what);
	end = strchr(start + 1, '"');
	if (!end)
		return fail_here(reader, "the %s has no closing double quote", what);
	if ((size_t)(end - start - 1) >= size)
		return fail_here(reader, "the %s \"%.*s\" is longer than %zu characters",
				 what, (int)(end - start - 1), start + 1, size - 1);
	memcpy(out, start + 1, end - start - 1);
	out[end - start - 1] = '\0';
	*s = end + 1;
	return 0;
}

/*
 * Where phrase stands in text as whole words outside double quotes, or
 * NULL: the keywords after '#' ("lid 3", "enhanced port 0") are found as
 * tokens, so a node description "Solid 7" or "valid" in quotes, which
 * ibsim's substring search would take for "lid 7", is never one.
 */
static const char *find_phrase(const char *text, const char *phrase)
{
	size_t length = strlen(phrase);
	int quoted = 0;
	const char *s;

	for (s = text; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && (s == text || isspace((unsigned char)s[-1])) &&
			 !strncmp(s, phrase, length) &&
			 (!s[length] || isspace((unsigned char)s[length])))
			return s;
	}
	return NULL;
}

/* The number after the keyword word, if the keyword is there. */
static int find_keyword_number(const char *text, const char *word, uint64_t *value)
{
	const char *s = find_phrase(text, word);

	if (!s)
		return 0;
	s = vlr_skip_blanks(s + strlen(word));
	return vlr_lex_number(&s, 0, UINT64_MAX, value) == 0;
}

static int store_key(struct reader *reader, const char *key, uint32_t *offset)
{
	uint32_t length = (uint32_t)strlen(key) + 1;

	if (vlr_array_grow((void **)&reader->keys, &reader->keys_capacity,
			   reader->keys_length + length, 1, reader->err))
		return -1;
	memcpy(reader->keys + reader->keys_length, key, length);
	*offset = reader->keys_length;
	reader->keys_length += length;
	return 0;
}

/* A node id as ibsim names it: "prefix#id" inside a module. */
static void qualify_name(const struct reader *reader, const char *id, char *name,
			 size_t size)
{
	if (reader->prefix[0] && !strchr(id, '#'))
		snprintf(name, size, "%s#%s", reader->prefix, id);
	else
		snprintf(name, size, "%s", id);
}

/* ---- node records ------------------------------------------------------- */

static int type_slot(enum vlr_node_type type)
{
	return (int)type;	/* 1..3, as ibsim's guid tables */
}

/*
 * Description after '#': quoted (exactly what the quotes hold, blanks at
 * its ends too, as the writer writes it), or the text before ibsim's
 * keywords without the blanks around it.
 */
static void parse_description(const char *comment, char *out, size_t size)
{
	static const char *const stops[] = { " enhanced port ", " base port ",
					     " lid ", " lmc " };
	const char *s = vlr_skip_blanks(comment), *end = NULL;
	size_t i, length;

	if (*s == '"') {
		s++;
		end = strchr(s, '"');
		if (!end)
			end = s + strlen(s);
	} else {
		for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
			const char *hit = strstr(s, stops[i]);

			if (hit && (!end || hit < end))
				end = hit;
		}
		if (!end)
			end = s + strlen(s);
		while (end > s && isspace((unsigned char)end[-1]))
			end--;
	}
	length = (size_t)(end - s) < size - 1 ? (size_t)(end - s) : size - 1;
	memcpy(out, s, length);
	out[length] = '\0';
}

static int remember_node_file(struct reader *reader, uint32_t node)
{
	if (vlr_array_grow((void **)&reader->node_file, &reader->node_file_capacity,
			   node + 1, sizeof(uint16_t), reader->err))
		return -1;
	reader->node_file[node] = reader->file;
	return 0;
}

static int parse_switch_lid(struct reader *reader, uint32_t node, const char *rest)
{
	struct vlr_port *port0 = vlr_port_at(reader->fabric, node, 0);
	uint64_t value;

	if (find_keyword_number(rest, "lid", &value)) {
		if (value > VLR_MAX_UNICAST_LID)
			return fail_here(reader, "switch LID %llu is not a unicast LID (1..%d, "
					 "or 0 before an SM assigned one)",
					 (unsigned long long)value, VLR_MAX_UNICAST_LID);
		port0->lid = (uint16_t)value;
	}
	if (find_keyword_number(rest, "lmc", &value)) {
		if (value > VLR_MAX_LMC)
			return fail_here(reader, "LMC %llu is out of range 0..%d",
					 (unsigned long long)value, VLR_MAX_LMC);
		port0->lmc = (uint8_t)value;
	}
	if (find_phrase(rest, "enhanced port 0"))
		reader->fabric->nodes[node].enhanced_port0 = 1;
	else if (find_phrase(rest, "base port 0"))
		reader->fabric->nodes[node].enhanced_port0 = -1;
	return 0;
}

static int parse_node_header(struct reader *reader, const char *text,
			     enum vlr_node_type type)
{
	char id[VLR_MAX_NAME + 2], name[MAX_KEY], description[VLR_MAX_NAME + 1];
	struct vlr_error node_err;
	const char *s = text, *comment;
	uint64_t ports;
	uint32_t node, number;
	int slot = type_slot(type);

	while (isalpha((unsigned char)*s))
		s++;
	s = vlr_skip_blanks(s);
	if (vlr_lex_number(&s, 0, VLR_MAX_NODE_PORTS, &ports) || ports < 1)
		return fail_here(reader, "expected a port count 1..%d after the node type",
				 VLR_MAX_NODE_PORTS);
	if (parse_quoted(reader, &s, id, sizeof(id), "node id"))
		return -1;
	qualify_name(reader, id, name, sizeof(name));

	node = vlr_fabric_add_node(reader->fabric, type, name, (unsigned)ports,
				   reader->guid_next[slot], &node_err);
	if (node == VLR_NONE) {
		uint32_t other = vlr_fabric_find(reader->fabric, name);

		if (other != VLR_NONE)
			return fail_here(reader, "duplicate node name \"%s\" (first at %s:%u)",
					 name, path_of(reader, reader->node_file[other]),
					 reader->fabric->nodes[other].line);
		return fail_here(reader, "%s", node_err.message);
	}
	reader->fabric->nodes[node].line = reader->line;
	if (remember_node_file(reader, node))
		return -1;

	/* ibsim: a switch takes one GUID, other nodes one per port plus one */
	reader->guid_next[slot] += type == VLR_NODE_SWITCH ? 1 : ports + 1;
	for (number = type == VLR_NODE_SWITCH ? 0 : 1; number <= ports; number++)
		vlr_port_at(reader->fabric, node, number)->guid =
			reader->fabric->nodes[node].guid +
			(type == VLR_NODE_SWITCH ? 0 : number);

	comment = strchr(s, '#');
	if (comment) {
		parse_description(comment + 1, description, sizeof(description));
		if (description[0] &&
		    vlr_fabric_set_description(reader->fabric, node, description, &node_err))
			return fail_here(reader, "%s", node_err.message);
	}
	if (type == VLR_NODE_SWITCH && parse_switch_lid(reader, node, s))
		return -1;
	reader->node = node;
	return 0;
}

/* ---- port lines --------------------------------------------------------- */

static int parse_port_options(struct reader *reader, struct vlr_port *port,
			      const char *s)
{
	while (*(s = vlr_skip_blanks(s)) && *s != '#') {
		const char *end = s, *number = s + 2;
		char option = s[0];
		uint64_t value;

		while (*end && *end != ' ' && *end != '\t' && *end != '#')
			end++;
		if ((option != 'w' && option != 's') || s[1] != '=')
			return fail_here(reader, "unknown port option \"%.*s\" "
					 "(ibsim knows w=WIDTH and s=SPEED)",
					 (int)(end - s), s);
		if (vlr_lex_number(&number, 0, UINT64_MAX, &value) || number != end)
			return fail_here(reader, "port option %c= needs a number", option);
		if (option == 'w' && (value < 1 || value > 15))
			return fail_here(reader, "link width %llu is out of range 1..15",
					 (unsigned long long)value);
		if (option == 's' && (value < 1 || value > 7))
			return fail_here(reader, "link speed %llu is out of range 1..7",
					 (unsigned long long)value);
		if (option == 'w')
			port->width = (uint8_t)value;
		else
			port->speed = (uint8_t)value;
		s = end;
	}
	return 0;
}

static int parse_endpoint_lid(struct reader *reader, struct vlr_port *port,
			      const char *comment)
{
	uint64_t value;

	if (find_keyword_number(comment, "lid", &value)) {
		if (value > VLR_MAX_UNICAST_LID)
			return fail_here(reader, "LID %llu is not a unicast LID (1..%d, "
					 "or 0 before an SM assigned one)",
					 (unsigned long long)value, VLR_MAX_UNICAST_LID);
		port->lid = (uint16_t)value;
	}
	if (find_keyword_number(comment, "lmc", &value)) {
		if (value > VLR_MAX_LMC)
			return fail_here(reader, "LMC %llu is out of range 0..%d",
					 (unsigned long long)value, VLR_MAX_LMC);
		port->lmc = (uint8_t)value;
		if (port->lmc > reader->fabric->lmc)
			reader->fabric->lmc = port->lmc;
	}
	return 0;
}

/* "(hex)" right here: a GUID as ibnetdiscover prints them. */
static int parse_parenthesised_guid(const char **s, uint64_t *guid)
{
	char *end;

	if (**s != '(')
		return 0;
	*guid = strtoull(*s + 1, &end, 16);
	if (*end != ')')
		return -1;
	*s = end + 1;
	return 1;
}

static int add_declaration(struct reader *reader, uint32_t port,
			   const char *remote_key, unsigned remote_port)
{
	struct declaration *decl;

	if (vlr_array_grow((void **)&reader->declarations,
			   &reader->declarations_capacity,
			   reader->num_declarations + 1, sizeof(*decl), reader->err))
		return -1;
	decl = &reader->declarations[reader->num_declarations];
	if (store_key(reader, remote_key, &decl->remote))
		return -1;
	decl->port = port;
	decl->line = reader->line;
	decl->file = reader->file;
	decl->remote_port = (uint8_t)remote_port;
	reader->num_declarations++;
	return 0;
}

static int add_alias(struct reader *reader, uint32_t port, const char *name)
{
	char key[MAX_KEY];
	struct alias *alias;
	uint32_t i;

	snprintf(key, sizeof(key), "%s@%s", reader->prefix, name);
	for (i = 0; i < reader->num_aliases; i++)
		if (!strcmp(reader->keys + reader->aliases[i].key, key))
			return fail_here(reader, "port alias \"%s\" is already defined at %s:%u",
					 name, path_of(reader, reader->aliases[i].file),
					 reader->aliases[i].line);
	if (vlr_array_grow((void **)&reader->aliases, &reader->aliases_capacity,
			   reader->num_aliases + 1, sizeof(*alias), reader->err))
		return -1;
	alias = &reader->aliases[reader->num_aliases];
	if (store_key(reader, key, &alias->key))
		return -1;
	alias->port = port;
	alias->line = reader->line;
	alias->file = reader->file;
	reader->num_aliases++;
	return 0;
}

/* The remote end: "name"[port], "name" (port 1, as ibsim), or "@alias". */
static int parse_remote(struct reader *reader, const char **s, uint32_t port)
{
	char id[VLR_MAX_NAME + 2], key[MAX_KEY];
	uint64_t remote_port = 1, guid;

	if (parse_quoted(reader, s, id, sizeof(id), "remote node id"))
		return -1;
	if (strchr(id, '@')) {
		snprintf(key, sizeof(key), "%s%s", id[0] == '@' ? reader->prefix : "", id);
		return add_declaration(reader, port, key, 0);
	}
	if (**s == '[') {
		(*s)++;
		if (vlr_lex_number(s, 0, VLR_MAX_NODE_PORTS, &remote_port) || **s != ']' ||
		    remote_port < 1)
			return fail_here(reader, "the remote port of \"%s\" must be [1..%d]",
					 id, VLR_MAX_NODE_PORTS);
		(*s)++;
	}
	if (parse_parenthesised_guid(s, &guid) < 0)
		return fail_here(reader, "malformed (GUID) after the remote port");
	qualify_name(reader, id, key, sizeof(key));
	return add_declaration(reader, port, key, (unsigned)remote_port);
}

static int parse_port_line(struct reader *reader, const char *text)
{
	struct vlr_fabric *fabric = reader->fabric;
	const struct vlr_node *node = &fabric->nodes[reader->node];
	const char *s = text, *comment;
	int is_alias = *s == '@';
	struct vlr_port *port;
	uint64_t number, guid;
	char alias_name[VLR_MAX_NAME + 2];
	int has_guid;

	s += is_alias;
	if (*s != '[')
		return fail_here(reader, "expected [PORT] at the start of the port line");
	s++;
	if (vlr_lex_number(&s, 0, UINT64_MAX, &number) || *s != ']')
		return fail_here(reader, "expected a port number in [PORT]");
	s++;
	if (number == 0)
		return fail_here(reader, "port 0 of \"%s\" cannot be linked: %s",
				 vlr_node_name(fabric, reader->node),
				 node->type == VLR_NODE_SWITCH ?
				 "it is the switch's management port" : "CA ports start at 1");
	if (number > node->num_ports)
		return fail_here(reader, "port %llu of \"%s\" is beyond its %u ports",
				 (unsigned long long)number,
				 vlr_node_name(fabric, reader->node), node->num_ports);
	port = vlr_port_at(fabric, reader->node, (unsigned)number);
	if (port->line)
		return fail_here(reader, "port %llu of \"%s\" is declared twice "
				 "(first at line %u)", (unsigned long long)number,
				 vlr_node_name(fabric, reader->node), port->line);
	port->line = reader->line;
	port->width = reader->width;
	port->speed = reader->speed;

	has_guid = parse_parenthesised_guid(&s, &guid);
	if (has_guid < 0)
		return fail_here(reader, "malformed (GUID) after the port number");
	if (has_guid && node->type != VLR_NODE_SWITCH)
		port->guid = guid;

	if (is_alias) {
		if (parse_quoted(reader, &s, alias_name, sizeof(alias_name), "port alias") ||
		    add_alias(reader, vlr_port_index(fabric, reader->node, (unsigned)number),
			      alias_name))
			return -1;
	} else if (parse_remote(reader, &s,
				vlr_port_index(fabric, reader->node, (unsigned)number))) {
		return -1;
	}
	if (parse_port_options(reader, port, s))
		return -1;
	comment = strchr(s, '#');
	if (comment && node->type != VLR_NODE_SWITCH)
		return parse_endpoint_lid(reader, port, comment);
	return 0;
}

/* ---- settings lines ----------------------------------------------------- */

/* switchguid=0x..., caguid+16: ibsim's absolute or relative GUID bases. */
static int parse_guid_base(struct reader *reader, const char *text,
			   enum vlr_node_type type)
{
	const char *s = strchr(text, '=');
	int relative = 0, slot = type_slot(type);
	char *end;
	uint64_t value;

	if (!s) {
		s = strchr(text, '+');
		relative = 1;
	}
	if (!s)
		return fail_here(reader, "expected '=' or '+' and a GUID");
	errno = 0;
	value = strtoull(vlr_skip_blanks(s + 1), &end, 0);
	if (errno || end == vlr_skip_blanks(s + 1))
		return fail_here(reader, "expected a GUID after '%c'", *s);
	if (!relative) {
		reader->guid_base[slot] = value;
		value = 0;
	}
	reader->guid_next[slot] = reader->guid_base[slot] + value;
	return 0;
}

static int parse_link_default(struct reader *reader, const char *text,
			      uint8_t *target, unsigned max, const char *what)
{
	const char *s = strchr(text, '=');
	uint64_t value;

	if (!s)
		return fail_here(reader, "expected '=' and a %s code", what);
	s = vlr_skip_blanks(s + 1);
	if (vlr_lex_number(&s, 0, max, &value) || value < 1)
		return fail_here(reader, "the %s code must be 1..%u", what, max);
	*target = (uint8_t)value;
	return 0;
}

static int parse_module(struct reader *reader, const char *text)
{
	const char *s = strchr(text, '=');
	char prefix[MAX_PREFIX + 1];

	if (!s)
		return fail_here(reader, "expected module = \"PREFIX\"");
	s++;
	if (parse_quoted(reader, &s, prefix, sizeof(prefix), "module prefix"))
		return -1;
	memcpy(reader->prefix, prefix, sizeof(prefix));
	return 0;
}

static void note_ignored_command(struct reader *reader)
{
	struct vlr_netfile_notes *notes = reader->notes;

	if (!notes)
		return;
	if (!notes->ignored_commands++)
		snprintf(notes->first_ignored, sizeof(notes->first_ignored), "%s:%u",
			 path_of(reader, reader->file), reader->line);
}

static int read_file(struct reader *reader, const char *path);

/* include "FILE": as given (ibsim), else beside the including file. */
static int parse_include(struct reader *reader, const char *text)
{
	char name[4096], beside[8192];
	const char *s = text + strlen("include"), *slash;
	const char *including = path_of(reader, reader->file);
	uint16_t file = reader->file;
	uint32_t line = reader->line;
	int result;

	if (parse_quoted(reader, &s, name, sizeof(name), "include file name"))
		return -1;
	if (reader->depth >= MAX_INCLUDE_DEPTH)
		return fail_here(reader, "includes nest deeper than %d files",
				 MAX_INCLUDE_DEPTH);
	slash = strrchr(including, '/');
	if (name[0] != '/' && slash && access(name, R_OK) != 0) {
		if (snprintf(beside, sizeof(beside), "%.*s/%s", (int)(slash - including),
			     including, name) >= (int)sizeof(beside))
			return fail_here(reader, "include path too long");
		if (access(beside, R_OK) != 0)
			return fail_here(reader, "cannot open the included file \"%s\" (nor %s): %s",
					 name, beside, strerror(errno));
		result = read_file(reader, beside);
	} else {
		if (access(name, R_OK) != 0)
			return fail_here(reader, "cannot open the included file \"%s\": %s", name,
					 strerror(errno));
		result = read_file(reader, name);
	}
	reader->file = file;
	reader->line = line;
	reader->node = VLR_NONE;
	return result;
}

/* ---- lines and files ---------------------------------------------------- */

struct keyword {
	const char *word;
	int (*handle)(struct reader *reader, const char *text);
};

static int handle_switch(struct reader *r, const char *t)
{
	return parse_node_header(r, t, VLR_NODE_SWITCH);
}

static int handle_ca(struct reader *r, const char *t)
{
	return parse_node_header(r, t, VLR_NODE_CA);
}

static int handle_router(struct reader *r, const char *t)
{
	return parse_node_header(r, t, VLR_NODE_ROUTER);
}

static int handle_switch_guid(struct reader *r, const char *t)
{
	return parse_guid_base(r, t, VLR_NODE_SWITCH);
}

static int handle_ca_guid(struct reader *r, const char *t)
{
	return parse_guid_base(r, t, VLR_NODE_CA);
}

static int handle_router_guid(struct reader *r, const char *t)
{
	return parse_guid_base(r, t, VLR_NODE_ROUTER);
}

static int handle_width(struct reader *r, const char *t)
{
	return parse_link_default(r, t, &r->width, 15, "link width");
}

static int handle_speed(struct reader *r, const char *t)
{
	return parse_link_default(r, t, &r->speed, 7, "link speed");
}

static int handle_do(struct reader *r, const char *t)
{
	(void)t;
	note_ignored_command(r);
	return 0;
}

/* Lines that carry nothing about the topology (device ids, debug). */
static int handle_informational(struct reader *r, const char *t)
{
	(void)r;
	(void)t;
	return 0;
}

static const struct keyword keywords[] = {
	{ "Switch", handle_switch },
	{ "Ca", handle_ca },
	{ "Hca", handle_ca },
	{ "Rt", handle_router },
	{ "switchguid", handle_switch_guid },
	{ "caguid", handle_ca_guid },
	{ "hcaguids", handle_ca_guid },
	{ "rtguid", handle_router_guid },
	{ "width", handle_width },
	{ "speed", handle_speed },
	{ "module", parse_module },
	{ "include", parse_include },
	{ "do", handle_do },
	{ "devid", handle_informational },
	{ "vendid", handle_informational },
	{ "sysimgguid", handle_informational },
	{ "pdebug", handle_informational },
};

static int parse_top_line(struct reader *reader, const char *text)
{
	size_t length = 0, i;

	if (text[0] == '#' || is_blank_line(text))
		return 0;
	if (text[0] == ' ' || text[0] == '\t')
		return fail_here(reader, "line starts with white space; ibsim would "
				 "ignore it");
	if (text[0] == '[' || text[0] == '@')
		return fail_here(reader, "port line outside a node record (a blank "
				 "or other line ended the record before it)");
	while (isalpha((unsigned char)text[length]))
		length++;
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strlen(keywords[i].word) == length &&
		    !strncmp(text, keywords[i].word, length))
			return keywords[i].handle(reader, text);
	return fail_here(reader, "unknown keyword \"%.*s\"", (int)(length ? length : 1),
			 text);
}

static int parse_line(struct reader *reader, const char *text)
{
	if (reader->node != VLR_NONE) {
		if (text[0] == '#')
			return 0;
		if (text[0] == '[' || text[0] == '@')
			return parse_port_line(reader, text);
		reader->node = VLR_NONE;
	}
	return parse_top_line(reader, text);
}

/* The whole file as one NUL-terminated string, or NULL with the error set. */
static char *load_text(struct reader *reader, const char *path)
{
	FILE *in = fopen(path, "rb");
	size_t length = 0, capacity = 1 << 16, got;
	char *text, *bigger;
	int binary = 0;

	if (!in) {
		vlr_fail(reader->err, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	text = malloc(capacity);
	while (text && (got = fread(text + length, 1, capacity - length - 1, in)) > 0) {
		binary = memchr(text + length, '\0', got) != NULL;
		length += got;
		if (binary || length > MAX_FILE_BYTES)
			break;
		if (length + 1 < capacity)
			continue;
		bigger = realloc(text, capacity * 2);
		if (!bigger)
			free(text);
		text = bigger;
		capacity *= 2;
	}
	if (!text || ferror(in)) {
		vlr_fail(reader->err, "%s: cannot read: %s", path,
			 text ? strerror(errno) : "out of memory");
		fclose(in);
		free(text);
		return NULL;
	}
	fclose(in);
	if (binary) {
		vlr_fail(reader->err, "%s: is not a text file (it holds NUL bytes)", path);
		free(text);
		return NULL;
	}
	if (length > MAX_FILE_BYTES) {
		vlr_fail(reader->err, "%s: is larger than %u MiB, more than any fabric a subnet "
			 "can hold needs", path, MAX_FILE_BYTES >> 20);
		free(text);
		return NULL;
	}
	text[length] = '\0';
	return text;
}

static int read_file(struct reader *reader, const char *path)
{
	char *text, *line, *next;
	int result = 0;

	if (reader->num_files >= sizeof(reader->paths) / sizeof(reader->paths[0]))
		return fail_here(reader, "too many include files");
	text = load_text(reader, path);
	if (!text)
		return -1;
	reader->paths[reader->num_files] = strdup(path);
	if (!reader->paths[reader->num_files]) {
		free(text);
		return vlr_fail(reader->err, "out of memory");
	}
	reader->file = (uint16_t)reader->num_files++;
	reader->line = 0;
	reader->node = VLR_NONE;
	reader->depth++;
	for (line = text; line && !result; line = next) {
		size_t length;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		length = strlen(line);
		if (length && line[length - 1] == '\r')
			line[length - 1] = '\0';
		reader->line++;
		result = parse_line(reader, line);
		if (!next)
			break;
	}
	reader->depth--;
	free(text);
	return result;
}

/* ---- resolving the declared links --------------------------------------- */

static const char *port_owner(const struct vlr_fabric *fabric, uint32_t port)
{
	return vlr_node_name(fabric, fabric->ports[port].node);
}

static uint32_t find_alias(const struct reader *reader, const char *key)
{
	uint32_t i;

	for (i = 0; i < reader->num_aliases; i++)
		if (!strcmp(reader->keys + reader->aliases[i].key, key))
			return i;
	return VLR_NONE;
}

/* Port slot a declaration points at, or VLR_NONE with the error set. */
static uint32_t resolve_target(struct reader *reader, const struct declaration *decl)
{
	const struct vlr_fabric *fabric = reader->fabric;
	const char *key = reader->keys + decl->remote;
	const struct vlr_port *from = &fabric->ports[decl->port];
	uint32_t node, alias;

	if (!decl->remote_port) {
		alias = find_alias(reader, key);
		if (alias == VLR_NONE)
			fail_at(reader, decl->file, decl->line, "unknown port alias \"%s\"", key);
		return alias == VLR_NONE ? VLR_NONE : reader->aliases[alias].port;
	}
	node = vlr_fabric_find(fabric, key);
	if (node == VLR_NONE) {
		fail_at(reader, decl->file, decl->line,
			"port %u of \"%s\" links to unknown node \"%s\"", from->number,
			port_owner(fabric, decl->port), key);
		return VLR_NONE;
	}
	if (decl->remote_port > fabric->nodes[node].num_ports) {
		fail_at(reader, decl->file, decl->line,
			"port %u of \"%s\" links to port %u of \"%s\", which has only "
			"%u ports (%s:%u)", from->number, port_owner(fabric, decl->port),
			decl->remote_port, key, fabric->nodes[node].num_ports,
			path_of(reader, reader->node_file[node]), fabric->nodes[node].line);
		return VLR_NONE;
	}
	return vlr_port_index(fabric, node, decl->remote_port);
}

static int complain_one_sided(struct reader *reader, const struct declaration *decl,
			      uint32_t target, const uint32_t *declared)
{
	const struct vlr_fabric *fabric = reader->fabric;
	const struct vlr_port *from = &fabric->ports[decl->port];
	const struct vlr_port *to = &fabric->ports[target];
	uint32_t node = to->node;

	if (declared[target] == VLR_NONE)
		return fail_at(reader, decl->file, decl->line,
			       "port %u of \"%s\" links to port %u of \"%s\", but \"%s\" "
			       "(%s:%u) declares no link on port %u", from->number,
			       port_owner(fabric, decl->port), to->number,
			       vlr_node_name(fabric, node), vlr_node_name(fabric, node),
			       path_of(reader, reader->node_file[node]),
			       fabric->nodes[node].line, to->number);
	return fail_at(reader, decl->file, decl->line,
		       "port %u of \"%s\" links to port %u of \"%s\", but %s:%u links "
		       "that port to port %u of \"%s\"", from->number,
		       port_owner(fabric, decl->port), to->number,
		       vlr_node_name(fabric, node),
		       path_of(reader, reader->node_file[node]), to->line,
		       fabric->ports[declared[target]].number,
		       port_owner(fabric, declared[target]));
}

static int resolve_links(struct reader *reader)
{
	struct vlr_fabric *fabric = reader->fabric;
	uint32_t *declared, *target, i;
	int result = 0;

	declared = malloc(sizeof(uint32_t) * (fabric->num_ports + 1));
	target = malloc(sizeof(uint32_t) * (reader->num_declarations + 1));
	if (!declared || !target) {
		free(declared);
		free(target);
		return vlr_fail(reader->err, "out of memory resolving links");
	}
	for (i = 0; i < fabric->num_ports; i++)
		declared[i] = VLR_NONE;
	for (i = 0; i < reader->num_declarations && !result; i++) {
		const struct declaration *decl = &reader->declarations[i];

		target[i] = resolve_target(reader, decl);
		if (target[i] == VLR_NONE) {
			result = -1;
		} else if (!decl->remote_port) {
			if (declared[target[i]] != VLR_NONE)
				result = fail_at(reader, decl->file, decl->line,
						 "port alias \"%s\" is already linked",
						 reader->keys + decl->remote);
			declared[target[i]] = decl->port;
		}
		if (!result)
			declared[decl->port] = target[i];
	}
	for (i = 0; i < reader->num_declarations && !result; i++) {
		const struct declaration *decl = &reader->declarations[i];
		struct vlr_error link_err;

		if (declared[target[i]] != decl->port)
			result = complain_one_sided(reader, decl, target[i], declared);
		else if (fabric->ports[target[i]].node == fabric->ports[decl->port].node)
			result = fail_at(reader, decl->file, decl->line,
					 "port %u of \"%s\" links to its own node",
					 fabric->ports[decl->port].number,
					 port_owner(fabric, decl->port));
		else if (fabric->ports[decl->port].peer == VLR_NONE &&
			 vlr_fabric_link(fabric, fabric->ports[decl->port].node,
					 fabric->ports[decl->port].number,
					 fabric->ports[target[i]].node,
					 fabric->ports[target[i]].number, &link_err))
			result = fail_at(reader, decl->file, decl->line, "%s",
					 link_err.message);
	}
	free(declared);
	free(target);
	return result;
}

/* ---- whole-fabric checks ------------------------------------------------ */

static int check_endpoints_linked(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->fabric;
	uint32_t node;
	unsigned number;

	for (node = 0; node < fabric->num_nodes; node++) {
		const struct vlr_node *record = &fabric->nodes[node];
		int linked = 0;

		if (record->type == VLR_NODE_SWITCH)
			continue;
		for (number = 1; number <= record->num_ports; number++)
			linked |= vlr_port_at(fabric, node, number)->peer != VLR_NONE;
		if (!linked)
			return fail_at(reader, reader->node_file[node], record->line,
				       "%s \"%s\" has no linked port",
				       vlr_node_type_name(record->type),
				       vlr_node_name(fabric, node));
	}
	return 0;
}

/* ibsim refuses two nodes with one GUID; say which two. */
static int check_unique_guids(struct reader *reader)
{
	const struct vlr_fabric *fabric = reader->fabric;
	struct vlr_keyed *owners;
	uint32_t i;
	int result = 0;

	owners = malloc(sizeof(*owners) * (fabric->num_nodes + 1));
	if (!owners)
		return vlr_fail(reader->err, "out of memory checking GUIDs");
	for (i = 0; i < fabric->num_nodes; i++) {
		owners[i].key = fabric->nodes[i].guid;
		owners[i].index = i;
	}
	vlr_sort_keyed(owners, fabric->num_nodes);
	for (i = 1; i < fabric->num_nodes && !result; i++) {
		uint32_t first = owners[i - 1].index, second = owners[i].index;

		if (owners[i - 1].key == owners[i].key)
			result = fail_at(reader, reader->node_file[second],
					 fabric->nodes[second].line,
					 "\"%s\" has GUID 0x%016llx, already taken by "
					 "\"%s\" (%s:%u)", vlr_node_name(fabric, second),
					 (unsigned long long)owners[i].key,
					 vlr_node_name(fabric, first),
					 path_of(reader, reader->node_file[first]),
					 fabric->nodes[first].line);
	}
	free(owners);
	return result;
}

static void free_reader(struct reader *reader)
{
	unsigned i;

	for (i = 0; i < reader->num_files; i++)
		free(reader->paths[i]);
	free(reader->declarations);
	free(reader->aliases);
	free(reader->keys);
	free(reader->node_file);
}

int vlr_netfile_read(struct vlr_fabric *fabric, const char *path,
		     struct vlr_netfile_notes *notes, struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.fabric = fabric;
	reader.notes = notes;
	reader.err = err;
	reader.node = VLR_NONE;
	/* ibsim's GUID bases: CAs 0x100000, switches 0x200000, routers 0 */
	reader.guid_base[VLR_NODE_CA] = reader.guid_next[VLR_NODE_CA] = 0x100000;
	reader.guid_base[VLR_NODE_SWITCH] = reader.guid_next[VLR_NODE_SWITCH] = 0x200000;
	if (notes)
		memset(notes, 0, sizeof(*notes));
	if (fabric->num_nodes)
		return vlr_fail(err, "%s: the fabric to read into is not empty", path);

	result = read_file(&reader, path);
	if (!result && !fabric->num_nodes)
		result = vlr_fail(err, "%s: holds no Switch, Ca or Rt record", path);
	if (!result)
		result = resolve_links(&reader);
	if (!result)
		result = check_endpoints_linked(&reader);
	if (!result)
		result = check_unique_guids(&reader);
	free_reader(&reader);
	return result;
}
