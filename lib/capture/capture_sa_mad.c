/*
 * capture_sa_mad.c - PathRecord queries to the subnet administrator and
 * its answers on the wire (IBA 15.2.1, 15.2.5.16).
 *
 * An SA MAD is the common MAD header, the RMPP header at 24, SM_Key at 36,
 * AttributeOffset (record size in 8-byte words) at 44, ComponentMask at 48
 * and the records from 56. A PathRecord has DLID at 40, SLID at 42 and the
 * SL in the low nibble of byte 53.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "capture_internal.h"

#define SA_CLASS 0x03
#define SA_CLASS_VERSION 2
#define SA_GET_RESPONSE 0x81
#define PATH_RECORD_SIZE 64
#define MASK_DLID (1u << 4)		/* PathRecord component mask bits */
#define MASK_SLID (1u << 5)

void cap_sa_build_path_query(uint8_t *mad, uint32_t tid, uint8_t method,
			     uint16_t slid, uint16_t dlid)
{
	uint8_t *record = mad + CAP_SA_HEADER;

	memset(mad, 0, VLR_MAD_SIZE);
	mad[0] = 1;
	mad[1] = SA_CLASS;
	mad[2] = SA_CLASS_VERSION;
	mad[3] = method;
	cap_put_be32(mad + 12, tid);
	cap_put_be16(mad + 16, CAP_ATTR_PATH_RECORD);
	cap_put_be64(mad + 48, MASK_SLID | (dlid ? MASK_DLID : 0));
	cap_put_be16(record + 40, dlid);
	cap_put_be16(record + 42, slid);
}

/* Bytes per record: AttributeOffset words, a Get's single record when 0. */
static size_t record_size(const uint8_t *mad)
{
	size_t size = (size_t)cap_be16(mad + 44) * 8;

	return size >= PATH_RECORD_SIZE ? size : PATH_RECORD_SIZE;
}

unsigned cap_sa_record_count(const uint8_t *mad, size_t length)
{
	size_t count;

	if (length < CAP_SA_HEADER + PATH_RECORD_SIZE)
		return 0;
	if (mad[3] == SA_GET_RESPONSE)
		return 1;
	count = (length - CAP_SA_HEADER) / record_size(mad);
	return count > 0xffffffu ? 0xffffffu : (unsigned)count;
}

void cap_sa_record(const uint8_t *mad, unsigned i, struct cap_path_record *record)
{
	const uint8_t *at = mad + CAP_SA_HEADER + (size_t)i * record_size(mad);

	record->dlid = cap_be16(at + 40);
	record->slid = cap_be16(at + 42);
	record->sl = at[53] & 0x0f;
}
