/*
 * large.h - arrays of hundreds of megabytes read at random (internal).
 *
 * The layering's per-LID cells and per-layer dependency counts are read
 * one cache line here, one there, across the whole array: with 4 KiB pages
 * nearly every read also misses the TLB. Asking the kernel for huge pages
 * (transparent, where it offers them on request) takes most of those
 * misses away; elsewhere the memory is plain. Free with free().
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_LARGE_H
#define VLROUTE_LARGE_H

#include <stddef.h>

/* At least bytes of memory, zeroed if zero is set; NULL when there is none. */
void *vlr_large_alloc(size_t bytes, int zero);

#endif
