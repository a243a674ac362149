/*
 * tablefiles_compact_internal.h - what the compact table files share
 * (internal): the header, the runs that rows of bytes are written as, and
 * a reader that knows its byte offset, so that every complaint names the
 * file and the byte where the trouble is. The layout is in
 * vlroute-tables(5).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_TABLEFILES_COMPACT_H
#define VLROUTE_TABLEFILES_COMPACT_H

#include "tablefiles_internal.h"

#define TF_COMPACT_MAGIC "\x89VLRTBL\n"
#define TF_COMPACT_MAGIC_SIZE 8
#define TF_COMPACT_VERSION 1

/* What a compact file holds: the kind byte of its header. */
enum tf_compact_kind {
	TF_COMPACT_LFTS = 'L',
	TF_COMPACT_SL2VL = 'S',
	TF_COMPACT_PATH_SL = 'P',
};

/* How a row of bytes is written: the byte before it. */
enum tf_row_encoding {
	TF_ROW_RAW = 0,		/* the bytes as they are */
	TF_ROW_RUNS = 1,	/* (value, LEB128 count) pairs */
};

struct tf_compact_header {
	enum tf_compact_kind kind;
	uint32_t max_lid;
	uint32_t count;		/* records (path SLs: rows) */
	uint32_t count2;	/* path SLs: port records; else 0 */
};

/* ---- writing ------------------------------------------------------------ */

void tf_put_header(struct tf_out *out, const struct tf_compact_header *header);
void tf_put_u8(struct tf_out *out, unsigned value);
void tf_put_u16(struct tf_out *out, unsigned value);
void tf_put_u32(struct tf_out *out, uint32_t value);
void tf_put_u64(struct tf_out *out, uint64_t value);
void tf_put_varint(struct tf_out *out, uint64_t value);

/* bytes[0..count-1] as a row: raw or as runs, whichever is shorter. */
void tf_put_row(struct tf_out *out, const uint8_t *bytes, uint32_t count);

/* ---- reading ------------------------------------------------------------ */

struct tf_in {
	FILE *file;
	const char *path;
	uint64_t offset;	/* bytes read so far */
	struct vlr_error *err;
	char context[160];	/* what is being read, for "ends inside ..." */
};

/* Open path; fails naming it. */
int tf_in_open(struct tf_in *in, const char *path, struct vlr_error *err);
void tf_in_close(struct tf_in *in);

/* "PATH: byte OFFSET: message" into in->err; returns -1. */
int tf_in_fail(const struct tf_in *in, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Set in->context ("the record of switch 3 of 876"). */
void tf_in_context(struct tf_in *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Readers: 0, or -1 naming the file, the offset and the context. */
int tf_get_bytes(struct tf_in *in, void *buf, size_t size);
int tf_get_u8(struct tf_in *in, uint8_t *value);
int tf_get_u16(struct tf_in *in, uint16_t *value);
int tf_get_u32(struct tf_in *in, uint32_t *value);
int tf_get_u64(struct tf_in *in, uint64_t *value);

/* A LEB128 count of 1..limit (a run's length). */
int tf_get_count(struct tf_in *in, uint32_t limit, uint32_t *count);

/*
 * The header, which must be of kind; its LIDs must be the tables'
 * (max_lid); what names the kind in messages ("LFTs").
 */
int tf_get_header(struct tf_in *in, enum tf_compact_kind kind, const char *what,
		  uint32_t max_lid, struct tf_compact_header *header);

/*
 * A judge of the values of a row: 0, or -1 having failed through
 * tf_in_fail at offset (the byte of the value); index is the value's
 * place in the row (of its run's first value).
 */
typedef int (*tf_value_check)(const struct tf_in *in, uint64_t offset, uint32_t index,
			      unsigned value, void *context);

/* A row of count bytes into bytes, each value judged by check. */
int tf_get_row(struct tf_in *in, uint8_t *bytes, uint32_t count, tf_value_check check,
	       void *context);

/* The end of the file: refuses bytes after the last record. */
int tf_in_check_end(struct tf_in *in);

#endif
