/*
 * error.c - filling a struct vlr_error.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdio.h>

#include <vlroute/error.h>

int vlr_fail(struct vlr_error *err, const char *fmt, ...)
{
	va_list args;

	if (err) {
		va_start(args, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, args);
		va_end(args);
	}
	return -1;
}
