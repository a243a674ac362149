/*
 * json.c - the JSON writer: separators and indent by container, strings
 * escaped and made valid UTF-8 whatever their bytes (node names and paths
 * are bytes), numbers in the precision each report has always used.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <vlroute/util.h>

static void put(struct vlr_json *json, const char *text)
{
	if (fputs(text, json->out) == EOF)
		json->failed = 1;
}

static void put_bytes(struct vlr_json *json, const char *bytes, size_t count)
{
	if (fwrite(bytes, 1, count, json->out) != count)
		json->failed = 1;
}

static void put_format(struct vlr_json *json, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put_format(struct vlr_json *json, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	if (vfprintf(json->out, fmt, args) < 0)
		json->failed = 1;
	va_end(args);
}

/* A newline and two spaces a level, for a container laid out in lines. */
static void put_indent(struct vlr_json *json, unsigned level)
{
	put_format(json, "\n%*s", (int)(2 * level), "");
}

/*
 * The bytes at s (left of them, s[0] >= 0x80) that make one UTF-8
 * character, *whole set; or else the bytes of its longest valid beginning
 * (at least one), *whole clear, so that each maximal invalid part becomes
 * one U+FFFD as Unicode recommends (chapter 3, "U+FFFD Substitution of
 * Maximal Subparts"). Table 3-7's ranges: no overlong form (C0, C1, E0
 * 80..9F, F0 80..8F), no surrogate (ED A0..BF), nothing beyond U+10FFFF
 * (F4 90..BF, F5..FF), no lone continuation byte.
 */
static size_t utf8_sequence(const unsigned char *s, size_t left, int *whole)
{
	unsigned char lead = s[0], low = 0x80, high = 0xbf;
	size_t need, n;

	*whole = 0;
	if (lead >= 0xc2 && lead <= 0xdf)
		need = 2;
	else if (lead >= 0xe0 && lead <= 0xef)
		need = 3;
	else if (lead >= 0xf0 && lead <= 0xf4)
		need = 4;
	else
		return 1;
	if (lead == 0xe0)
		low = 0xa0;
	else if (lead == 0xed)
		high = 0x9f;
	else if (lead == 0xf0)
		low = 0x90;
	else if (lead == 0xf4)
		high = 0x8f;
	for (n = 1; n < need && n < left && s[n] >= low && s[n] <= high; n++) {
		low = 0x80;
		high = 0xbf;
	}
	*whole = n == need;
	return n;
}

/*
 * text as a JSON string that is valid UTF-8 whatever its bytes: quotes
 * and backslashes escaped, control characters (and DEL) as \u00XX,
 * valid characters as they are, invalid sequences as U+FFFD.
 */
static void put_escaped(struct vlr_json *json, const char *text, size_t length)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i, n;
	int whole;

	put(json, "\"");
	for (i = 0; i < length; i += n) {
		n = 1;
		if (s[i] == '"' || s[i] == '\\')
			put_format(json, "\\%c", s[i]);
		else if (s[i] < 0x20 || s[i] == 0x7f)
			put_format(json, "\\u%04x", s[i]);
		else if (s[i] < 0x80 || ((n = utf8_sequence(s + i, length - i, &whole)) && whole))
			put_bytes(json, text + i, n);
		else
			put(json, "\xef\xbf\xbd");	/* U+FFFD */
	}
	put(json, "\"");
}

void vlr_json_start(struct vlr_json *json, FILE *out)
{
	memset(json, 0, sizeof(*json));
	json->out = out;
}

void vlr_json_next(struct vlr_json *json, const char *key)
{
	unsigned level = json->depth;

	if (level) {
		if (json->members[level - 1])
			put(json, ",");
		if (json->lines[level - 1])
			put_indent(json, level);
		else if (json->members[level - 1])
			put(json, " ");
		json->members[level - 1]++;
	}
	if (key) {
		put_escaped(json, key, strlen(key));
		put(json, ": ");
	}
}

void vlr_json_open(struct vlr_json *json, const char *key, char bracket,
		   enum vlr_json_layout layout)
{
	vlr_json_next(json, key);
	if (json->depth == VLR_JSON_DEPTH) {
		json->failed = 1;
		return;
	}
	put_format(json, "%c", bracket);
	json->members[json->depth] = 0;
	json->closer[json->depth] = bracket == '{' ? '}' : ']';
	json->lines[json->depth] = layout == VLR_JSON_LINES;
	json->depth++;
}

void vlr_json_close(struct vlr_json *json)
{
	if (!json->depth)
		return;
	json->depth--;
	if (json->lines[json->depth] && json->members[json->depth])
		put_indent(json, json->depth);
	put_format(json, "%c", json->closer[json->depth]);
}

void vlr_json_string(struct vlr_json *json, const char *key, const char *text)
{
	vlr_json_string_n(json, key, text, strlen(text));
}

void vlr_json_string_n(struct vlr_json *json, const char *key, const char *text,
		       size_t length)
{
	vlr_json_next(json, key);
	put_escaped(json, text, length);
}

void vlr_json_uint(struct vlr_json *json, const char *key, unsigned long long value)
{
	vlr_json_next(json, key);
	put_format(json, "%llu", value);
}

void vlr_json_int(struct vlr_json *json, const char *key, long long value)
{
	vlr_json_next(json, key);
	put_format(json, "%lld", value);
}

void vlr_json_bool(struct vlr_json *json, const char *key, int value)
{
	vlr_json_next(json, key);
	put(json, value ? "true" : "false");
}

void vlr_json_null(struct vlr_json *json, const char *key)
{
	vlr_json_next(json, key);
	put(json, "null");
}

/* value in %.*g or %.*f (fixed), or null when it is not finite */
static void put_double(struct vlr_json *json, const char *key, double value,
		       int precision, int fixed)
{
	vlr_json_next(json, key);
	if (isfinite(value))
		put_format(json, fixed ? "%.*f" : "%.*g", precision, value);
	else
		put(json, "null");
}

void vlr_json_real(struct vlr_json *json, const char *key, double value, int digits)
{
	put_double(json, key, value, digits, 0);
}

void vlr_json_fixed(struct vlr_json *json, const char *key, double value, int decimals)
{
	put_double(json, key, value, decimals, 1);
}

int vlr_json_finish(const struct vlr_json *json)
{
	return json->failed || ferror(json->out) ? -1 : 0;
}
