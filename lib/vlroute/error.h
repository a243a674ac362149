/*
 * error.h - how the library reports what went wrong.
 *
 * Functions that can fail take a struct vlr_error and return -1 (or
 * VLR_NONE) after writing one complete, human-readable sentence into it:
 * "net.txt:12: port 9 of "sw1" is beyond its 8 ports". The caller decides
 * whether to print it; the library never prints.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_ERROR_H
#define VLROUTE_ERROR_H

#include <stdarg.h>

#define VLR_ERROR_SIZE 1024

struct vlr_error {
	char message[VLR_ERROR_SIZE];
};

/* Write a message into err (if err is not NULL) and return -1. */
int vlr_fail(struct vlr_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "PATH:LINE: message" into err (if not NULL); returns -1. */
int vlr_fail_at(struct vlr_error *err, const char *path, unsigned long line,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int vlr_vfail_at(struct vlr_error *err, const char *path, unsigned long line,
		 const char *fmt, va_list args) __attribute__((format(printf, 4, 0)));

#endif
