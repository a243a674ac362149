/*
 * lexer.c - the line reader and the lexers every text format shares.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

#define LINES_INITIAL (1u << 20)
#define LINES_MAX ((size_t)1 << 28)	/* longest line: 256 MiB */

/* ---- reading lines ------------------------------------------------------ */

int vlr_fail_line(const struct vlr_lines *lines, const char *fmt, ...)
{
	va_list args;
	int result;

	va_start(args, fmt);
	result = vlr_vfail_at(lines->err, lines->path, lines->line, fmt, args);
	va_end(args);
	return result;
}

int vlr_lines_open(struct vlr_lines *lines, const char *path, struct vlr_error *err)
{
	memset(lines, 0, sizeof(*lines));
	lines->path = path;
	lines->err = err;
	lines->in = fopen(path, "rb");
	if (!lines->in)
		return vlr_fail(err, "%s: cannot open: %s", path, strerror(errno));
	lines->size = LINES_INITIAL;
	lines->buf = malloc(lines->size);
	if (!lines->buf) {
		fclose(lines->in);
		lines->in = NULL;
		return vlr_fail(err, "%s: out of memory for reading", path);
	}
	return 0;
}

void vlr_lines_close(struct vlr_lines *lines)
{
	if (lines->in)
		fclose(lines->in);
	free(lines->buf);
	lines->in = NULL;
	lines->buf = NULL;
}

/* Move the unread bytes to the front, grow if full, and read more. */
static int refill(struct vlr_lines *lines, struct vlr_error *err)
{
	size_t got;

	if (lines->start > 0) {
		memmove(lines->buf, lines->buf + lines->start, lines->end - lines->start);
		lines->end -= lines->start;
		lines->start = 0;
	}
	if (lines->end + 1 >= lines->size) {
		char *bigger;

		if (lines->size >= LINES_MAX)
			return vlr_fail_at(err, lines->path, lines->line + 1,
					   "line longer than %zu bytes", LINES_MAX);
		bigger = realloc(lines->buf, lines->size * 2);
		if (!bigger)
			return vlr_fail(err, "%s: out of memory for a long line", lines->path);
		lines->buf = bigger;
		lines->size *= 2;
	}
	got = fread(lines->buf + lines->end, 1, lines->size - lines->end - 1, lines->in);
	lines->end += got;
	if (!got) {
		if (ferror(lines->in))
			return vlr_fail(err, "%s: cannot read: %s", lines->path,
					strerror(errno));
		lines->eof = 1;
	}
	return 0;
}

int vlr_lines_each(struct vlr_lines *lines,
		   int (*read_line)(void *context, const char *line), void *context)
{
	char *text;
	int got;

	while ((got = vlr_lines_next(lines, &text, lines->err)) > 0)
		if (read_line(context, text))
			return -1;
	return got;
}

int vlr_lines_next(struct vlr_lines *lines, char **line, struct vlr_error *err)
{
	char *start, *newline;
	size_t scanned = 0, length;

	for (;;) {
		start = lines->buf + lines->start;
		newline = memchr(start + scanned, '\n', lines->end - lines->start - scanned);
		if (newline || lines->eof)
			break;
		scanned = lines->end - lines->start;
		if (refill(lines, err))
			return -1;
	}
	if (!newline) {
		if (lines->start == lines->end)
			return 0;
		newline = lines->buf + lines->end;	/* refill keeps a spare byte */
		lines->start = lines->end;
	} else {
		lines->start = (size_t)(newline - lines->buf) + 1;
	}
	length = (size_t)(newline - start);
	*newline = '\0';
	if (length && start[length - 1] == '\r')
		start[--length] = '\0';
	lines->line++;
	if (memchr(start, '\0', length))
		return vlr_fail_at(err, lines->path, lines->line,
				   "NUL byte in the line: not a text file");
	*line = start;
	return 1;
}

/* ---- lexing ------------------------------------------------------------- */

const char *vlr_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Value + 1 of every hex digit character, 0 for the others. */
static const uint8_t hex_values[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

int vlr_lex_hex(const char **s, unsigned max_digits, uint64_t *value)
{
	const unsigned char *p = (const unsigned char *)*s;
	uint64_t result = 0;
	unsigned count = 0;
	unsigned digit;

	while ((digit = hex_values[*p]) != 0) {
		if (++count > max_digits)
			return -1;
		result = result << 4 | (digit - 1);
		p++;
	}
	if (!count)
		return -1;
	*value = result;
	*s = (const char *)p;
	return 0;
}

int vlr_lex_dec(const char **s, uint32_t *value)
{
	const char *p = *s;
	uint32_t result = 0;
	unsigned count = 0;

	while (*p >= '0' && *p <= '9') {
		if (++count > 9)
			return -1;
		result = result * 10 + (uint32_t)(*p - '0');
		p++;
	}
	if (!count)
		return -1;
	*value = result;
	*s = p;
	return 0;
}

int vlr_lex_word(const char **s, const char *word)
{
	size_t length = strlen(word);

	if (strncmp(*s, word, length))
		return -1;
	*s += length;
	return 0;
}

int vlr_lex_number(const char **s, int base, uint64_t max, uint64_t *value)
{
	unsigned long long result;
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	result = strtoull(*s, &end, base);
	if (errno || result > max)
		return -1;
	*value = result;
	*s = end;
	return 0;
}
