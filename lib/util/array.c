/*
 * array.c - growing the library's flat arrays.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include "array.h"

int vlr_array_grow(void **array, uint32_t *capacity, uint32_t needed,
		   size_t element_size, struct vlr_error *err)
{
	uint32_t new_capacity = *capacity ? *capacity : 64;
	void *bigger;

	if (needed <= *capacity)
		return 0;
	while (new_capacity < needed)
		new_capacity = new_capacity > UINT32_MAX / 2 ? needed : new_capacity * 2;
	bigger = realloc(*array, (size_t)new_capacity * element_size);
	if (!bigger)
		return vlr_fail(err, "out of memory for %u elements of %zu bytes",
				needed, element_size);
	*array = bigger;
	*capacity = new_capacity;
	return 0;
}

static int compare_keyed(const void *a, const void *b)
{
	const struct vlr_keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void vlr_sort_keyed(struct vlr_keyed *items, uint32_t count)
{
	qsort(items, count, sizeof(*items), compare_keyed);
}
