/*
 * tablefiles_common.h - what the table file readers and writers share
 * (internal): a buffered line reader, a buffered writer, GUID hash maps,
 * OpenSM's listing order, and number lexing and formatting without stdio.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TABLEFILES_COMMON_H
#define VLROUTE_TABLEFILES_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vlroute/formats.h>

/* ---- reading lines ------------------------------------------------------ */

struct tf_lines {
	FILE *in;
	const char *path;
	char *buf;
	size_t size;		/* bytes allocated */
	size_t start;		/* first unread byte */
	size_t end;		/* one past the last byte read */
	uint32_t line;		/* number of the line last returned */
	int eof;
	struct vlr_error *err;	/* where complaints about the file go */
};

int tf_lines_open(struct tf_lines *lines, const char *path, struct vlr_error *err);
void tf_lines_close(struct tf_lines *lines);

/*
 * The next line, NUL-terminated, without its end of line (\n or \r\n),
 * valid until the next call. Returns 1, or 0 at the end of the file, or -1
 * with err set.
 */
int tf_lines_next(struct tf_lines *lines, char **line, struct vlr_error *err);

/*
 * Hand every line, in order, to read_line(context, line) until the file
 * ends (returns 0) or read_line or reading fails (returns -1).
 */
int tf_lines_each(struct tf_lines *lines,
		  int (*read_line)(void *context, const char *line), void *context);

/* The same about the line last returned, into the error given at opening. */
int tf_fail_line(const struct tf_lines *lines, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- writing ------------------------------------------------------------ */

#define TF_OUT_SIZE (1 << 18)

struct tf_out {
	FILE *out;
	size_t used;
	char buf[TF_OUT_SIZE];
};

/* Room for at least `need` (<= TF_OUT_SIZE) more bytes at out->buf + used. */
static inline char *tf_out_reserve(struct tf_out *out, size_t need)
{
	if (out->used + need > TF_OUT_SIZE) {
		fwrite(out->buf, 1, out->used, out->out);
		out->used = 0;
	}
	return out->buf + out->used;
}

void tf_out_text(struct tf_out *out, const char *text, size_t length);
void tf_out_printf(struct tf_out *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Write what is buffered and check the stream; what names the file. */
int tf_out_finish(struct tf_out *out, const char *what, struct vlr_error *err);

/* A zero-filled struct tf_out for out (it is too large for the stack). */
struct tf_out *tf_out_new(FILE *stream, struct vlr_error *err);

/* ---- formatting --------------------------------------------------------- */

/* `digits` lower-case hex digits of value. Returns dst + digits. */
char *tf_put_hex(char *dst, uint64_t value, unsigned digits);

/* Decimal, at least `width` digits with leading zeros. Returns the end. */
char *tf_put_dec(char *dst, unsigned value, unsigned width);

/* ---- lexing ------------------------------------------------------------- */

const char *tf_skip_blanks(const char *s);

/* Hex digits (1..max_digits) at *s; advances. -1 if none or too many. */
int tf_lex_hex(const char **s, unsigned max_digits, uint64_t *value);

/* Decimal digits at *s (at most 9); advances. -1 if none or too many. */
int tf_lex_dec(const char **s, uint32_t *value);

/* The literal text at *s; advances. -1 if it is not there. */
int tf_lex_word(const char **s, const char *word);

/* ---- fabric indexes (GUID maps: vlr_guid_map in <vlroute/fabric.h>) ---- */

/* The GUID a port goes by in OpenSM's files: a switch's port 0 GUID. */
uint64_t tf_port_guid(const struct vlr_fabric *fabric, uint32_t port);

/* Does this port slot own LIDs: a switch's port 0 or a linked endpoint port? */
int tf_port_owns_lids(const struct vlr_fabric *fabric, uint32_t port);

/*
 * Port GUID -> port slot for every switch port 0 and every endpoint port
 * with a GUID; fails naming both ports when two share a GUID.
 */
int tf_index_ports(const struct vlr_fabric *fabric, struct vlr_guid_map *map,
		   struct vlr_error *err);

/* Node GUID -> switch index of tables. */
int tf_index_switches(const struct vlr_tables *tables, struct vlr_guid_map *map,
		      struct vlr_error *err);

/* OpenSM's name of a node type: "Channel Adapter", "Switch", "Router". */
const char *tf_opensm_type_name(enum vlr_node_type type);

/* "\"name\" port N" for messages. */
void tf_port_label(const struct vlr_fabric *fabric, uint32_t port, char *buf,
		   size_t size);

/*
 * Indices 0..count-1 sorted as OpenSM lists GUID-keyed maps on x86: by the
 * GUID's bytes in network order read as a little-endian number, that is by
 * the byte-swapped GUID. Returns a malloc'ed array or NULL with err set.
 */
uint32_t *tf_wire_order(const uint64_t *guids, uint32_t count, struct vlr_error *err);

#endif
