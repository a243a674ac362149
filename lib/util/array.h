/*
 * array.h - growing the library's flat arrays (internal).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ARRAY_H
#define VLROUTE_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/util.h>

/*
 * Make *array hold at least `needed` elements of element_size bytes,
 * doubling its capacity as it grows. On failure the array is unchanged.
 */
int vlr_array_grow(void **array, uint32_t *capacity, uint32_t needed,
		   size_t element_size, struct vlr_error *err);

/* An index with a 64-bit sort key (a GUID, say). */
struct vlr_keyed {
	uint64_t key;
	uint32_t index;
};

/* Sort by key, equal keys by index: a stable, deterministic order. */
void vlr_sort_keyed(struct vlr_keyed *items, uint32_t count);

#endif
