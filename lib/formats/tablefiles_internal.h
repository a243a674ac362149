/*
 * tablefiles_common.h - what the table file readers and writers share
 * (internal): a buffered writer, GUID indexes, OpenSM's listing order,
 * and number formatting without stdio. They read lines and lex through
 * util/lexer.h.
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

#include "util/lexer.h"

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

/* Fail naming the first path SL of the tables' SL rows above 15, if any. */
int tf_check_sls(const struct vlr_tables *tables, struct vlr_error *err);

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

/* ---- table directories ------------------------------------------------ */

/* The tables a directory holds in either form, and their files. */
enum tf_form_table {
	TF_FORM_LFTS,
	TF_FORM_SL2VL,
	TF_FORM_PATH_SL,
	TF_FORM_FILES,
};

typedef int (*tf_table_reader)(struct vlr_tables *tables, const char *path,
			       struct vlr_error *err);

/* Indexed by enum vlr_tables_form. */
struct tf_form_file {
	const char *name[2];
	vlr_tables_writer write[2];
	tf_table_reader read[2];
};

extern const struct tf_form_file tf_form_files[TF_FORM_FILES];

/*
 * DIR/NAME written by writer and synced. DIR is a private temporary
 * directory that vlr_whole_dir_close swaps in whole, so the file needs no
 * temporary and rename of its own.
 */
int tf_write_into(const struct vlr_tables *tables, const char *dir, const char *name,
		  vlr_tables_writer writer, struct vlr_error *err);

#endif
