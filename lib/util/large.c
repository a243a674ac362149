/*
 * large.c - arrays of hundreds of megabytes read at random (see large.h).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "large.h"

#define HUGE_PAGE ((size_t)2 << 20)	/* x86-64's and arm64's usual size */

void *vlr_large_alloc(size_t bytes, int zero)
{
	size_t rounded;
	void *memory;

	if (bytes < HUGE_PAGE)
		return zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
	if (bytes > (size_t)-1 - HUGE_PAGE)
		return NULL;
	rounded = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	memory = aligned_alloc(HUGE_PAGE, rounded);
	if (!memory)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(memory, rounded, MADV_HUGEPAGE);	/* a hint: no huge pages is fine */
#endif
	if (zero)
		memset(memory, 0, rounded);
	return memory;
}
