/*
 * guid_index.c - sorted GUID lookups: OpenSM names nodes and ports by
 * GUID, our tables by index. Built once per routing, searched by the
 * path-SL and SL2VL callbacks with a binary search.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vlroute_osm.h"

int vlr_osm_guid_index_add(struct vlr_osm_guid_index *index, uint64_t guid,
			   uint32_t value, struct vlr_error *err)
{
	struct vlr_osm_guid_entry *bigger;
	uint32_t capacity;

	if (index->count == index->capacity) {
		capacity = index->capacity ? index->capacity * 2 : 256;
		bigger = realloc(index->entries, sizeof(*bigger) * capacity);
		if (!bigger)
			return vlr_fail(err, "out of memory for %u GUIDs", capacity);
		index->entries = bigger;
		index->capacity = capacity;
	}
	index->entries[index->count].guid = guid;
	index->entries[index->count].index = value;
	index->count++;
	return 0;
}

static int compare_entries(const void *a, const void *b)
{
	const struct vlr_osm_guid_entry *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int vlr_osm_guid_index_sort(struct vlr_osm_guid_index *index, const char *what,
			    struct vlr_error *err)
{
	uint32_t i;

	if (index->count)
		qsort(index->entries, index->count, sizeof(index->entries[0]),
		      compare_entries);
	for (i = 1; i < index->count; i++)
		if (index->entries[i].guid == index->entries[i - 1].guid)
			return vlr_fail(err, "two %s have GUID 0x%016" PRIx64, what,
					index->entries[i].guid);
	return 0;
}

uint32_t vlr_osm_guid_index_find(const struct vlr_osm_guid_index *index, uint64_t guid)
{
	uint32_t low = 0, high = index->count;

	while (low < high) {
		uint32_t middle = low + (high - low) / 2;

		if (index->entries[middle].guid < guid)
			low = middle + 1;
		else
			high = middle;
	}
	if (low < index->count && index->entries[low].guid == guid)
		return index->entries[low].index;
	return VLR_NONE;
}

void vlr_osm_guid_index_free(struct vlr_osm_guid_index *index)
{
	free(index->entries);
	memset(index, 0, sizeof(*index));
}
