/*
 * node_name_map.c - rdma-core's node-name-map file, as every
 * infiniband-diags tool takes it with --node-name-map: lines
 * 'GUID "name"', '#' comments and blank lines, read strictly (FILE:LINE),
 * and applied to a fabric's node names for reports.
 *
 * rdma-core reads the GUID with strtoull(base 0) and the name up to the
 * next '"' or '#', quoted or not, and keeps the first of two lines for a
 * GUID. This reader takes the same lines (a hexadecimal GUID with 0x or a
 * decimal one; a quoted or a bare name) but refuses, naming the line, what
 * rdma-core skips or takes half of: a line without a name, an unclosed
 * quote, text after the name, a name that is too long or unprintable, and a
 * GUID given twice.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tablefiles_internal.h"

struct vlr_node_name_map {
	struct vlr_guid_map index;	/* GUID -> entry */
	uint64_t *guids;
	uint32_t *names;		/* offsets into strings */
	uint32_t *lines;
	uint32_t count;
	uint32_t capacity;
	char *strings;
	size_t strings_length;
	size_t strings_capacity;
};

struct reader {
	struct vlr_node_name_map *map;
	struct vlr_lines lines;
	struct vlr_error *err;
};

/* "0x" and 1..16 hex digits, or decimal digits (as strtoull with base 0). */
static int lex_guid(const char **s, uint64_t *guid)
{
	uint32_t small;

	if ((*s)[0] == '0' && ((*s)[1] == 'x' || (*s)[1] == 'X')) {
		*s += 2;
		return vlr_lex_hex(s, 16, guid);
	}
	if (vlr_lex_dec(s, &small))
		return -1;
	*guid = small;
	return 0;
}

/* The name at *s: quoted, or bare up to a '#' or the end, trailing blanks cut. */
static int lex_name(const char **s, const char **name, size_t *length,
		    const char **problem)
{
	const char *at = *s, *end;

	if (*at == '"') {
		end = strchr(++at, '"');
		if (!end) {
			*problem = "the name's quote is not closed";
			return -1;
		}
		*s = end + 1;
	} else {
		end = at + strcspn(at, "#");
		while (end > at && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*s = end;
	}
	*name = at;
	*length = (size_t)(end - at);
	return 0;
}

static int check_name(const char *name, size_t length, const char **problem)
{
	size_t i;

	*problem = "the name is empty";
	if (!length)
		return -1;
	*problem = "the name is longer than 64 characters (an IB NodeDescription)";
	if (length > VLR_MAX_NAME)
		return -1;
	*problem = "the name holds a control character";
	for (i = 0; i < length; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return -1;
	return 0;
}

static int grow(struct vlr_node_name_map *map, size_t length, struct vlr_error *err)
{
	if (map->count == map->capacity) {
		uint32_t capacity = map->capacity ? 2 * map->capacity : 64;
		uint64_t *guids = realloc(map->guids, sizeof(uint64_t) * capacity);
		uint32_t *names, *lines;

		if (guids)
			map->guids = guids;
		names = guids ? realloc(map->names, sizeof(uint32_t) * capacity) : NULL;
		if (names)
			map->names = names;
		lines = names ? realloc(map->lines, sizeof(uint32_t) * capacity) : NULL;
		if (!lines)
			return vlr_fail(err, "out of memory for the node name map");
		map->lines = lines;
		map->capacity = capacity;
	}
	while (map->strings_length + length + 1 > map->strings_capacity) {
		size_t capacity = map->strings_capacity ? 2 * map->strings_capacity : 4096;
		char *strings = realloc(map->strings, capacity);

		if (!strings || capacity > UINT32_MAX)
			return vlr_fail(err, "out of memory for the node name map");
		map->strings = strings;
		map->strings_capacity = capacity;
	}
	return 0;
}

static int add(struct reader *reader, uint64_t guid, const char *name, size_t length)
{
	struct vlr_node_name_map *map = reader->map;
	uint32_t other;

	if (grow(map, length, reader->err))
		return -1;
	other = vlr_guid_map_put(&map->index, guid, map->count, reader->err);
	if (other == VLR_GUID_MAP_FAILED)
		return -1;
	if (other != VLR_NONE)
		return vlr_fail_line(&reader->lines, "GUID 0x%016llx is named on line %u "
				     "already", (unsigned long long)guid,
				     map->lines[other]);
	map->guids[map->count] = guid;
	map->names[map->count] = (uint32_t)map->strings_length;
	map->lines[map->count] = reader->lines.line;
	memcpy(map->strings + map->strings_length, name, length);
	map->strings[map->strings_length + length] = '\0';
	map->strings_length += length + 1;
	map->count++;
	return 0;
}

static int read_line(void *context, const char *text)
{
	struct reader *reader = context;
	const char *s = vlr_skip_blanks(text), *name, *problem;
	uint64_t guid;
	size_t length;

	if (*s == '\0' || *s == '#')
		return 0;
	if (lex_guid(&s, &guid) || (*s && *s != ' ' && *s != '\t' && *s != '#'))
		return vlr_fail_line(&reader->lines, "malformed GUID (expected 'GUID "
				     "\"name\"', the GUID as 0x and hex digits)");
	if (!guid)
		return vlr_fail_line(&reader->lines, "GUID 0 names no node");
	s = vlr_skip_blanks(s);
	if (*s == '\0' || *s == '#')
		return vlr_fail_line(&reader->lines, "GUID 0x%016llx has no name",
				     (unsigned long long)guid);
	if (lex_name(&s, &name, &length, &problem) || check_name(name, length, &problem))
		return vlr_fail_line(&reader->lines, "%s", problem);
	s = vlr_skip_blanks(s);
	if (*s && *s != '#')
		return vlr_fail_line(&reader->lines, "unexpected text after the name "
				     "(a comment starts with '#')");
	return add(reader, guid, name, length);
}

struct vlr_node_name_map *vlr_node_name_map_read(const char *path, struct vlr_error *err)
{
	struct reader reader;
	int result;

	memset(&reader, 0, sizeof(reader));
	reader.err = err;
	reader.map = calloc(1, sizeof(*reader.map));
	if (!reader.map) {
		vlr_fail(err, "out of memory for the node name map");
		return NULL;
	}
	result = vlr_guid_map_init(&reader.map->index, 64, err);
	if (!result)
		result = vlr_lines_open(&reader.lines, path, err);
	if (!result)
		result = vlr_lines_each(&reader.lines, read_line, &reader);
	vlr_lines_close(&reader.lines);
	if (result) {
		vlr_node_name_map_free(reader.map);
		return NULL;
	}
	return reader.map;
}

void vlr_node_name_map_free(struct vlr_node_name_map *map)
{
	if (!map)
		return;
	vlr_guid_map_free(&map->index);
	free(map->guids);
	free(map->names);
	free(map->lines);
	free(map->strings);
	free(map);
}

unsigned vlr_node_name_map_size(const struct vlr_node_name_map *map)
{
	return map->count;
}

const char *vlr_node_name_map_get(const struct vlr_node_name_map *map, uint64_t guid)
{
	uint32_t entry = vlr_guid_map_get(&map->index, guid);

	return entry == VLR_NONE ? NULL : map->strings + map->names[entry];
}

int vlr_node_name_map_apply(const struct vlr_node_name_map *map,
			    struct vlr_fabric *fabric, unsigned *matched,
			    struct vlr_error *err)
{
	const char **names = calloc((size_t)fabric->num_nodes + 1, sizeof(*names));
	struct vlr_error inner;
	uint32_t node;
	int result;

	*matched = 0;
	if (!names)
		return vlr_fail(err, "out of memory for %u node names", fabric->num_nodes);
	for (node = 0; node < fabric->num_nodes; node++) {
		names[node] = vlr_node_name_map_get(map, fabric->nodes[node].guid);
		*matched += names[node] != NULL;
	}
	result = vlr_fabric_rename(fabric, names, &inner);
	free(names);
	if (result)
		return vlr_fail(err, "the node name map: %s (each node needs a name of "
				"its own)", inner.message);
	return 0;
}
