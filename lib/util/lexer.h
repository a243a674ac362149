/*
 * lexer.h - reading text files line by line and taking them apart
 * without stdio (internal): the table files, net files and simulator
 * traces all read through these, so every reader counts lines, refuses
 * NUL bytes and names FILE:LINE in the same way.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_LEXER_H
#define VLROUTE_LEXER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vlroute/util.h>

/* ---- reading lines ------------------------------------------------------ */

struct vlr_lines {
	FILE *in;
	const char *path;
	char *buf;
	size_t size;		/* bytes allocated */
	size_t start;		/* first unread byte */
	size_t end;		/* one past the last byte read */
	uint32_t line;		/* number of the line last returned */
	int eof;
	struct vlr_error *err;	/* where complaints about the file go */
};

int vlr_lines_open(struct vlr_lines *lines, const char *path, struct vlr_error *err);
void vlr_lines_close(struct vlr_lines *lines);

/*
 * The next line, NUL-terminated, without its end of line (\n or \r\n),
 * valid until the next call. Returns 1, or 0 at the end of the file, or -1
 * with err set.
 */
int vlr_lines_next(struct vlr_lines *lines, char **line, struct vlr_error *err);

/*
 * Hand every line, in order, to read_line(context, line) until the file
 * ends (returns 0) or read_line or reading fails (returns -1).
 */
int vlr_lines_each(struct vlr_lines *lines,
		   int (*read_line)(void *context, const char *line), void *context);

/* "PATH:LINE: message" about the line last returned, into the error given
 * at opening; returns -1. */
int vlr_fail_line(const struct vlr_lines *lines, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- lexing ------------------------------------------------------------- */

/* Past spaces and tabs. */
const char *vlr_skip_blanks(const char *s);

/* Hex digits (1..max_digits) at *s; advances. -1 if none or too many. */
int vlr_lex_hex(const char **s, unsigned max_digits, uint64_t *value);

/* Decimal digits at *s (at most 9); advances. -1 if none or too many. */
int vlr_lex_dec(const char **s, uint32_t *value);

/* The literal text at *s; advances. -1 if it is not there. */
int vlr_lex_word(const char **s, const char *word);

#endif
