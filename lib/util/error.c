/*
 * error.c - filling a struct vlr_error.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdarg.h>
#include <stdio.h>

#include <vlroute/util.h>

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

int vlr_vfail_at(struct vlr_error *err, const char *path, unsigned long line,
		 const char *fmt, va_list args)
{
	char text[VLR_ERROR_SIZE];

	vsnprintf(text, sizeof(text), fmt, args);
	return vlr_fail(err, "%s:%lu: %s", path, line, text);
}

int vlr_fail_at(struct vlr_error *err, const char *path, unsigned long line,
		const char *fmt, ...)
{
	va_list args;
	int result;

	va_start(args, fmt);
	result = vlr_vfail_at(err, path, line, fmt, args);
	va_end(args);
	return result;
}
