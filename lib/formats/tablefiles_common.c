/*
 * tablefiles_common.c - the line reader, writer, GUID indexes and lexing the
 * table file formats share.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "tablefiles_internal.h"

#define LINES_INITIAL (1u << 20)
#define LINES_MAX ((size_t)1 << 28)	/* longest line: 256 MiB */

/* ---- reading lines ------------------------------------------------------ */

int tf_fail_line(const struct tf_lines *lines, const char *fmt, ...)
{
	va_list args;
	int result;

	va_start(args, fmt);
	result = vlr_vfail_at(lines->err, lines->path, lines->line, fmt, args);
	va_end(args);
	return result;
}

int tf_lines_open(struct tf_lines *lines, const char *path, struct vlr_error *err)
{
	memset(lines, 0, sizeof(*lines));
	lines->path = path;
	lines->err = err;
	lines->in = fopen(path, "rb");
	if (!lines->in)
		return vlr_fail(err, "%s: cannot open: %s", path, strerror(errno));
	lines->size = LINES_INITIAL;
	lines->buf = malloc(lines->size);
	if (!lines->buf) {
		fclose(lines->in);
		lines->in = NULL;
		return vlr_fail(err, "%s: out of memory for reading", path);
	}
	return 0;
}

void tf_lines_close(struct tf_lines *lines)
{
	if (lines->in)
		fclose(lines->in);
	free(lines->buf);
	lines->in = NULL;
	lines->buf = NULL;
}

/* Move the unread bytes to the front, grow if full, and read more. */
static int refill(struct tf_lines *lines, struct vlr_error *err)
{
	size_t got;

	if (lines->start > 0) {
		memmove(lines->buf, lines->buf + lines->start, lines->end - lines->start);
		lines->end -= lines->start;
		lines->start = 0;
	}
	if (lines->end + 1 >= lines->size) {
		char *bigger;

		if (lines->size >= LINES_MAX)
			return vlr_fail_at(err, lines->path, lines->line + 1,
					   "line longer than %zu bytes", LINES_MAX);
		bigger = realloc(lines->buf, lines->size * 2);
		if (!bigger)
			return vlr_fail(err, "%s: out of memory for a long line", lines->path);
		lines->buf = bigger;
		lines->size *= 2;
	}
	got = fread(lines->buf + lines->end, 1, lines->size - lines->end - 1, lines->in);
	lines->end += got;
	if (!got) {
		if (ferror(lines->in))
			return vlr_fail(err, "%s: cannot read: %s", lines->path,
					strerror(errno));
		lines->eof = 1;
	}
	return 0;
}

int tf_lines_each(struct tf_lines *lines,
		  int (*read_line)(void *context, const char *line), void *context)
{
	char *text;
	int got;

	while ((got = tf_lines_next(lines, &text, lines->err)) > 0)
		if (read_line(context, text))
			return -1;
	return got;
}

int tf_lines_next(struct tf_lines *lines, char **line, struct vlr_error *err)
{
	char *start, *newline;
	size_t scanned = 0, length;

	for (;;) {
		start = lines->buf + lines->start;
		newline = memchr(start + scanned, '\n', lines->end - lines->start - scanned);
		if (newline || lines->eof)
			break;
		scanned = lines->end - lines->start;
		if (refill(lines, err))
			return -1;
	}
	if (!newline) {
		if (lines->start == lines->end)
			return 0;
		newline = lines->buf + lines->end;	/* refill keeps a spare byte */
		lines->start = lines->end;
	} else {
		lines->start = (size_t)(newline - lines->buf) + 1;
	}
	length = (size_t)(newline - start);
	*newline = '\0';
	if (length && start[length - 1] == '\r')
		start[--length] = '\0';
	lines->line++;
	if (memchr(start, '\0', length))
		return vlr_fail_at(err, lines->path, lines->line,
				   "NUL byte in the line: not a text file");
	*line = start;
	return 1;
}

/* ---- writing ------------------------------------------------------------ */

struct tf_out *tf_out_new(FILE *stream, struct vlr_error *err)
{
	struct tf_out *out = malloc(sizeof(*out));

	if (!out) {
		vlr_fail(err, "out of memory for the output buffer");
		return NULL;
	}
	out->out = stream;
	out->used = 0;
	return out;
}

void tf_out_text(struct tf_out *out, const char *text, size_t length)
{
	while (length) {
		size_t chunk = length < TF_OUT_SIZE ? length : TF_OUT_SIZE;

		memcpy(tf_out_reserve(out, chunk), text, chunk);
		out->used += chunk;
		text += chunk;
		length -= chunk;
	}
}

void tf_out_printf(struct tf_out *out, const char *fmt, ...)
{
	char text[1024];
	va_list args;
	int length;

	va_start(args, fmt);
	length = vsnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	if (length < 0)
		return;
	if ((size_t)length >= sizeof(text))
		length = sizeof(text) - 1;
	tf_out_text(out, text, (size_t)length);
}

int tf_out_finish(struct tf_out *out, const char *what, struct vlr_error *err)
{
	if (out->used)
		fwrite(out->buf, 1, out->used, out->out);
	out->used = 0;
	if (fflush(out->out) || ferror(out->out))
		return vlr_fail(err, "cannot write the %s: %s", what, strerror(errno));
	return 0;
}

/* ---- formatting --------------------------------------------------------- */

char *tf_put_hex(char *dst, uint64_t value, unsigned digits)
{
	static const char hex[] = "0123456789abcdef";
	unsigned i;

	for (i = digits; i > 0; i--) {
		dst[i - 1] = hex[value & 15];
		value >>= 4;
	}
	return dst + digits;
}

char *tf_put_dec(char *dst, unsigned value, unsigned width)
{
	char digits[12];
	unsigned count = 0;

	do {
		digits[count++] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	while (width > count) {
		*dst++ = '0';
		width--;
	}
	while (count)
		*dst++ = digits[--count];
	return dst;
}

/* ---- lexing ------------------------------------------------------------- */

const char *tf_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Value + 1 of every hex digit character, 0 for the others. */
static const uint8_t hex_values[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

int tf_lex_hex(const char **s, unsigned max_digits, uint64_t *value)
{
	const unsigned char *p = (const unsigned char *)*s;
	uint64_t result = 0;
	unsigned count = 0;
	unsigned digit;

	while ((digit = hex_values[*p]) != 0) {
		if (++count > max_digits)
			return -1;
		result = result << 4 | (digit - 1);
		p++;
	}
	if (!count)
		return -1;
	*value = result;
	*s = (const char *)p;
	return 0;
}

int tf_lex_dec(const char **s, uint32_t *value)
{
	const char *p = *s;
	uint32_t result = 0;
	unsigned count = 0;

	while (*p >= '0' && *p <= '9') {
		if (++count > 9)
			return -1;
		result = result * 10 + (uint32_t)(*p - '0');
		p++;
	}
	if (!count)
		return -1;
	*value = result;
	*s = p;
	return 0;
}

int tf_lex_word(const char **s, const char *word)
{
	size_t length = strlen(word);

	if (strncmp(*s, word, length))
		return -1;
	*s += length;
	return 0;
}

/* ---- fabric indexes ----------------------------------------------------- */

uint64_t tf_port_guid(const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];

	if (vlr_node_is_switch(fabric, record->node))
		return vlr_port_at(fabric, record->node, 0)->guid ?
		       vlr_port_at(fabric, record->node, 0)->guid :
		       fabric->nodes[record->node].guid;
	return record->guid;
}

int tf_port_owns_lids(const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];

	if (vlr_node_is_switch(fabric, record->node))
		return record->number == 0;
	return record->number > 0 && record->peer != VLR_NONE;
}

const char *tf_opensm_type_name(enum vlr_node_type type)
{
	switch (type) {
	case VLR_NODE_CA:
		return "Channel Adapter";
	case VLR_NODE_SWITCH:
		return "Switch";
	case VLR_NODE_ROUTER:
		return "Router";
	}
	return "Unknown";
}

void tf_port_label(const struct vlr_fabric *fabric, uint32_t port, char *buf,
		   size_t size)
{
	snprintf(buf, size, "\"%s\" port %u",
		 vlr_node_name(fabric, fabric->ports[port].node),
		 fabric->ports[port].number);
}

/* Switch port 0 and every endpoint port: the ports OpenSM names by GUID. */
static int is_named_port(const struct vlr_fabric *fabric, uint32_t port)
{
	const struct vlr_port *record = &fabric->ports[port];

	if (vlr_node_is_switch(fabric, record->node))
		return record->number == 0;
	return record->number > 0;
}

int tf_index_ports(const struct vlr_fabric *fabric, struct vlr_guid_map *map,
		   struct vlr_error *err)
{
	uint32_t port, other;

	if (vlr_guid_map_init(map, fabric->num_ports, err))
		return -1;
	for (port = 0; port < fabric->num_ports; port++) {
		uint64_t guid = tf_port_guid(fabric, port);
		char first[128], second[128];

		if (!guid || !is_named_port(fabric, port))
			continue;
		other = vlr_guid_map_put(map, guid, port, err);
		if (other == VLR_NONE)
			continue;
		if (other != VLR_GUID_MAP_FAILED) {
			tf_port_label(fabric, other, first, sizeof(first));
			tf_port_label(fabric, port, second, sizeof(second));
			vlr_fail(err, "port GUID 0x%016llx belongs to both %s and %s",
				 (unsigned long long)guid, first, second);
		}
		vlr_guid_map_free(map);
		return -1;
	}
	return 0;
}

int tf_index_switches(const struct vlr_tables *tables, struct vlr_guid_map *map,
		      struct vlr_error *err)
{
	const struct vlr_fabric *fabric = tables->fabric;
	uint32_t sw, other;

	if (vlr_guid_map_init(map, tables->num_switches, err))
		return -1;
	for (sw = 0; sw < tables->num_switches; sw++) {
		uint32_t node = tables->switch_node[sw];
		uint64_t guid = fabric->nodes[node].guid;

		other = vlr_guid_map_put(map, guid, sw, err);
		if (other == VLR_NONE)
			continue;
		if (other != VLR_GUID_MAP_FAILED)
			vlr_fail(err, "switches \"%s\" and \"%s\" share GUID 0x%016llx",
				 vlr_node_name(fabric, tables->switch_node[other]),
				 vlr_node_name(fabric, node), (unsigned long long)guid);
		vlr_guid_map_free(map);
		return -1;
	}
	return 0;
}

static uint64_t byte_swap(uint64_t value)
{
	uint64_t result = 0;
	unsigned i;

	for (i = 0; i < 8; i++) {
		result = result << 8 | (value & 0xff);
		value >>= 8;
	}
	return result;
}

uint32_t *tf_wire_order(const uint64_t *guids, uint32_t count, struct vlr_error *err)
{
	struct vlr_keyed *keys = malloc(sizeof(*keys) * ((size_t)count + 1));
	uint32_t *order = malloc(sizeof(uint32_t) * ((size_t)count + 1));
	uint32_t i;

	if (!keys || !order) {
		free(keys);
		free(order);
		vlr_fail(err, "out of memory for sorting %u GUIDs", count);
		return NULL;
	}
	for (i = 0; i < count; i++) {
		keys[i].key = byte_swap(guids[i]);
		keys[i].index = i;
	}
	vlr_sort_keyed(keys, count);
	for (i = 0; i < count; i++)
		order[i] = keys[i].index;
	free(keys);
	return order;
}
