/*
 * tablefiles_compact.c - the header, numbers and rows of the compact table
 * files (vlroute-tables(5)): little-endian integers, LEB128 counts, and rows
 * of bytes written raw or as runs, whichever is shorter. A plain layout
 * rather than a compressor's stream, so that the bytes - and the table-set
 * hash over them - are a function of the tables alone, whatever library
 * version wrote them. The reader counts bytes so that every complaint names
 * the file and the offset.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "tablefiles_compact_internal.h"

/* LEB128 of a count below 2^35: at most 5 bytes. */
#define VARINT_MAX_BYTES 5

/* ---- writing ------------------------------------------------------------ */

void tf_put_u8(struct tf_out *out, unsigned value)
{
	char *at = tf_out_reserve(out, 1);

	*at = (char)(value & 0xff);
	out->used++;
}

static void put_le(struct tf_out *out, uint64_t value, unsigned bytes)
{
	char *at = tf_out_reserve(out, bytes);
	unsigned i;

	for (i = 0; i < bytes; i++)
		at[i] = (char)((value >> (8 * i)) & 0xff);
	out->used += bytes;
}

void tf_put_u16(struct tf_out *out, unsigned value)
{
	put_le(out, value, 2);
}

void tf_put_u32(struct tf_out *out, uint32_t value)
{
	put_le(out, value, 4);
}

void tf_put_u64(struct tf_out *out, uint64_t value)
{
	put_le(out, value, 8);
}

void tf_put_varint(struct tf_out *out, uint64_t value)
{
	char *at = tf_out_reserve(out, 10);
	char *start = at;

	while (value >= 0x80) {
		*at++ = (char)(0x80 | (value & 0x7f));
		value >>= 7;
	}
	*at++ = (char)value;
	out->used += (size_t)(at - start);
}

void tf_put_header(struct tf_out *out, const struct tf_compact_header *header)
{
	tf_out_text(out, TF_COMPACT_MAGIC, TF_COMPACT_MAGIC_SIZE);
	tf_put_u8(out, header->kind);
	tf_put_u8(out, TF_COMPACT_VERSION);
	tf_put_u16(out, header->max_lid);
	tf_put_u32(out, header->count);
	tf_put_u32(out, header->count2);
}

static unsigned varint_size(uint32_t value)
{
	unsigned size = 1;

	while (value >= 0x80) {
		value >>= 7;
		size++;
	}
	return size;
}

/* The bytes the runs of a row take. */
static uint64_t runs_size(const uint8_t *bytes, uint32_t count)
{
	uint64_t size = 0;
	uint32_t i = 0, run;

	while (i < count) {
		for (run = 1; i + run < count && bytes[i + run] == bytes[i]; run++)
			;
		size += 1 + varint_size(run);
		i += run;
	}
	return size;
}

void tf_put_row(struct tf_out *out, const uint8_t *bytes, uint32_t count)
{
	uint32_t i = 0, run;

	if (runs_size(bytes, count) >= count) {
		tf_put_u8(out, TF_ROW_RAW);
		tf_out_text(out, (const char *)bytes, count);
		return;
	}
	tf_put_u8(out, TF_ROW_RUNS);
	while (i < count) {
		for (run = 1; i + run < count && bytes[i + run] == bytes[i]; run++)
			;
		tf_put_u8(out, bytes[i]);
		tf_put_varint(out, run);
		i += run;
	}
}

/* ---- reading ------------------------------------------------------------ */

int tf_in_open(struct tf_in *in, const char *path, struct vlr_error *err)
{
	memset(in, 0, sizeof(*in));
	in->path = path;
	in->err = err;
	in->file = fopen(path, "rb");
	if (!in->file)
		return vlr_fail(err, "%s: cannot open: %s", path, strerror(errno));
	return 0;
}

void tf_in_close(struct tf_in *in)
{
	if (in->file)
		fclose(in->file);
	in->file = NULL;
}

int tf_in_fail(const struct tf_in *in, uint64_t offset, const char *fmt, ...)
{
	char message[VLR_ERROR_SIZE];
	va_list args;

	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	return vlr_fail(in->err, "%s: byte %llu: %s", in->path, (unsigned long long)offset,
			message);
}

void tf_in_context(struct tf_in *in, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(in->context, sizeof(in->context), fmt, args);
	va_end(args);
}

/* The file ended (or failed) with fewer than size bytes left. */
static int fail_short(const struct tf_in *in, size_t got)
{
	if (ferror(in->file))
		return vlr_fail(in->err, "%s: cannot read at byte %llu: %s", in->path,
				(unsigned long long)(in->offset + got), strerror(errno));
	return vlr_fail(in->err, "%s: the file ends at byte %llu, inside %s: truncated?",
			in->path, (unsigned long long)(in->offset + got), in->context);
}

int tf_get_bytes(struct tf_in *in, void *buf, size_t size)
{
	size_t got = fread(buf, 1, size, in->file);

	if (got != size)
		return fail_short(in, got);
	in->offset += size;
	return 0;
}

/* *value is set on failure too (0), where the compiler cannot see -1 returned. */
int tf_get_u8(struct tf_in *in, uint8_t *value)
{
	int c = getc(in->file);

	*value = 0;
	if (c == EOF)
		return fail_short(in, 0);
	in->offset++;
	*value = (uint8_t)c;
	return 0;
}

static int get_le(struct tf_in *in, uint64_t *value, unsigned bytes)
{
	uint8_t buf[8];
	unsigned i;

	if (tf_get_bytes(in, buf, bytes))
		return -1;
	*value = 0;
	for (i = 0; i < bytes; i++)
		*value |= (uint64_t)buf[i] << (8 * i);
	return 0;
}

int tf_get_u16(struct tf_in *in, uint16_t *value)
{
	uint64_t wide;

	if (get_le(in, &wide, 2))
		return -1;
	*value = (uint16_t)wide;
	return 0;
}

int tf_get_u32(struct tf_in *in, uint32_t *value)
{
	uint64_t wide;

	if (get_le(in, &wide, 4))
		return -1;
	*value = (uint32_t)wide;
	return 0;
}

int tf_get_u64(struct tf_in *in, uint64_t *value)
{
	return get_le(in, value, 8);
}

int tf_get_count(struct tf_in *in, uint32_t limit, uint32_t *count)
{
	uint64_t start = in->offset, value = 0;
	unsigned i;
	uint8_t byte = 0x80;

	for (i = 0; i < VARINT_MAX_BYTES && (byte & 0x80); i++) {
		if (tf_get_u8(in, &byte))
			return -1;
		value |= (uint64_t)(byte & 0x7f) << (7 * i);
	}
	if (byte & 0x80)
		return tf_in_fail(in, start, "a count longer than %d bytes, inside %s",
				  VARINT_MAX_BYTES, in->context);
	if (!value || value > limit)
		return tf_in_fail(in, start, "a run of %llu where 1..%u remain, inside %s",
				  (unsigned long long)value, limit, in->context);
	*count = (uint32_t)value;
	return 0;
}

static int get_raw_row(struct tf_in *in, uint8_t *bytes, uint32_t count,
		       tf_value_check check, void *context)
{
	uint64_t start = in->offset;
	uint32_t i;

	if (tf_get_bytes(in, bytes, count))
		return -1;
	for (i = 0; i < count; i++)
		if (check(in, start + i, i, bytes[i], context))
			return -1;
	return 0;
}

static int get_runs(struct tf_in *in, uint8_t *bytes, uint32_t count,
		    tf_value_check check, void *context)
{
	uint32_t i = 0, run;
	uint8_t value;

	while (i < count) {
		uint64_t at = in->offset;

		if (tf_get_u8(in, &value) || tf_get_count(in, count - i, &run) ||
		    check(in, at, i, value, context))
			return -1;
		memset(bytes + i, value, run);
		i += run;
	}
	return 0;
}

int tf_get_row(struct tf_in *in, uint8_t *bytes, uint32_t count, tf_value_check check,
	       void *context)
{
	uint64_t at = in->offset;
	uint8_t encoding;

	if (tf_get_u8(in, &encoding))
		return -1;
	if (encoding == TF_ROW_RAW)
		return get_raw_row(in, bytes, count, check, context);
	if (encoding == TF_ROW_RUNS)
		return get_runs(in, bytes, count, check, context);
	return tf_in_fail(in, at, "row encoding %u, inside %s (0 raw or 1 runs)", encoding,
			  in->context);
}

static const char *kind_name(unsigned kind)
{
	switch (kind) {
	case TF_COMPACT_LFTS:
		return "LFTs";
	case TF_COMPACT_SL2VL:
		return "SL2VL tables";
	case TF_COMPACT_PATH_SL:
		return "path SLs";
	}
	return NULL;
}

int tf_get_header(struct tf_in *in, enum tf_compact_kind kind, const char *what,
		  uint32_t max_lid, struct tf_compact_header *header)
{
	char magic[TF_COMPACT_MAGIC_SIZE];
	uint8_t file_kind, version;
	uint16_t lid;

	tf_in_context(in, "the header");
	if (tf_get_bytes(in, magic, sizeof(magic)))
		return -1;
	if (memcmp(magic, TF_COMPACT_MAGIC, TF_COMPACT_MAGIC_SIZE))
		return tf_in_fail(in, 0, "not a compact table file of vlroute (no "
				  "\"\\x89VLRTBL\" at its start)");
	if (tf_get_u8(in, &file_kind) || tf_get_u8(in, &version))
		return -1;
	if (file_kind != kind)
		return tf_in_fail(in, 8, "holds %s, not %s", kind_name(file_kind) ?
				  kind_name(file_kind) : "an unknown kind of table", what);
	if (version != TF_COMPACT_VERSION)
		return tf_in_fail(in, 9, "format version %u: this reader knows version %d",
				  version, TF_COMPACT_VERSION);
	if (tf_get_u16(in, &lid) || tf_get_u32(in, &header->count) ||
	    tf_get_u32(in, &header->count2))
		return -1;
	if (lid != max_lid)
		return tf_in_fail(in, 10, "its tables end at LID %u, the fabric's at LID %u",
				  lid, max_lid);
	header->kind = kind;
	header->max_lid = lid;
	return 0;
}

int tf_in_check_end(struct tf_in *in)
{
	int c = getc(in->file);

	if (c != EOF)
		return tf_in_fail(in, in->offset, "bytes after the last record (the header's "
				  "counts are used up)");
	if (ferror(in->file))
		return vlr_fail(in->err, "%s: cannot read at byte %llu: %s", in->path,
				(unsigned long long)in->offset, strerror(errno));
	return 0;
}
