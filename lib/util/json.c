/*
 * json.c - the JSON writer: separators and indent by container, escaped
 * strings, numbers in the precision each report has always used.
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

static void put_escaped(struct vlr_json *json, const char *text, size_t length)
{
	size_t i;

	put(json, "\"");
	for (i = 0; i < length; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			put_format(json, "\\%c", c);
		else if (c < 0x20)
			put_format(json, "\\u%04x", c);
		else if (putc(c, json->out) == EOF)
			json->failed = 1;
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
