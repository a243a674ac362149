/*
 * test_util_lib.c - unit tests of the pieces every part shares from
 * lib/util: the line reader and lexers, the number lexer, the JSON
 * writer's escaping and layout, the name tables, and the clock.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "util/lexer.h"
#include "util/names.h"

/* What write(json) writes, as a malloc'ed string. */
static char *json_text(void (*write)(struct vlr_json *json))
{
	struct vlr_json json;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	vlr_json_start(&json, out);
	write(&json);
	assert_int_equal(vlr_json_finish(&json), 0);
	fclose(out);
	return text;
}

static void test_lexers(void **state)
{
	const char *s = " \t0x1aF 42 guid";
	uint64_t hex;
	uint32_t dec;

	(void)state;
	s = vlr_skip_blanks(s);
	assert_int_equal(vlr_lex_word(&s, "0x"), 0);
	assert_int_equal(vlr_lex_hex(&s, 16, &hex), 0);
	assert_int_equal(hex, 0x1af);
	s = vlr_skip_blanks(s);
	assert_int_equal(vlr_lex_dec(&s, &dec), 0);
	assert_int_equal(dec, 42);
	assert_string_equal(s, " guid");
	assert_int_equal(vlr_lex_word(&s, "guid"), -1);
	s = "12345";
	assert_int_equal(vlr_lex_hex(&s, 4, &hex), -1);		/* too many digits */
	assert_string_equal(s, "12345");
	s = "1234567890";
	assert_int_equal(vlr_lex_dec(&s, &dec), -1);		/* more than 9 */
	s = "x";
	assert_int_equal(vlr_lex_dec(&s, &dec), -1);
}

static void test_lex_number(void **state)
{
	const char *s = "0x10 017 255]";
	uint64_t value;

	(void)state;
	assert_int_equal(vlr_lex_number(&s, 0, UINT64_MAX, &value), 0);
	assert_int_equal(value, 16);
	s = vlr_skip_blanks(s);
	assert_int_equal(vlr_lex_number(&s, 0, UINT64_MAX, &value), 0);
	assert_int_equal(value, 15);				/* octal */
	s = vlr_skip_blanks(s);
	assert_int_equal(vlr_lex_number(&s, 10, 254, &value), -1);	/* above max */
	assert_string_equal(s, "255]");
	assert_int_equal(vlr_lex_number(&s, 10, 255, &value), 0);
	assert_string_equal(s, "]");
	s = "017";
	assert_int_equal(vlr_lex_number(&s, 10, UINT64_MAX, &value), 0);
	assert_int_equal(value, 17);				/* base 10 */
	s = "+5";
	assert_int_equal(vlr_lex_number(&s, 10, UINT64_MAX, &value), -1);
	s = " 5";
	assert_int_equal(vlr_lex_number(&s, 10, UINT64_MAX, &value), -1);
	s = "99999999999999999999";
	assert_int_equal(vlr_lex_number(&s, 10, UINT64_MAX, &value), -1);	/* overflow */
}

static void test_lines(void **state)
{
	char *path = test_write_file("lines.txt", "first\r\n\nthird");
	struct vlr_lines lines;
	struct vlr_error err;
	char *line;

	(void)state;
	assert_int_equal(vlr_lines_open(&lines, path, &err), 0);
	assert_int_equal(vlr_lines_next(&lines, &line, &err), 1);
	assert_string_equal(line, "first");
	assert_int_equal(vlr_lines_next(&lines, &line, &err), 1);
	assert_string_equal(line, "");
	assert_int_equal(vlr_lines_next(&lines, &line, &err), 1);
	assert_string_equal(line, "third");
	assert_int_equal(vlr_fail_line(&lines, "bad %s", "word"), -1);
	assert_true(strstr(err.message, "lines.txt:3: bad word") != NULL);
	assert_int_equal(vlr_lines_next(&lines, &line, &err), 0);
	vlr_lines_close(&lines);
	assert_int_equal(vlr_lines_open(&lines, "/nonexistent/x", &err), -1);
	assert_true(strstr(err.message, "/nonexistent/x: cannot open") != NULL);
	free(path);
}

static void write_escapes(struct vlr_json *json)
{
	vlr_json_string(json, NULL, "a\"b\\c\td\x01");
}

static void write_lines(struct vlr_json *json)
{
	vlr_json_open(json, NULL, '{', VLR_JSON_LINES);
	vlr_json_bool(json, "ok", 1);
	vlr_json_open(json, "empty", '[', VLR_JSON_LINES);
	vlr_json_close(json);
	vlr_json_open(json, "list", '[', VLR_JSON_LINES);
	vlr_json_string_n(json, NULL, "xyz", 2);
	vlr_json_null(json, NULL);
	vlr_json_close(json);
	vlr_json_open(json, "in", '{', VLR_JSON_INLINE);
	vlr_json_uint(json, "u", 18446744073709551615ull);
	vlr_json_int(json, "i", -3);
	vlr_json_fixed(json, "f", 2.0 / 3.0, 3);
	vlr_json_real(json, "g", 0.1, VLR_JSON_EXACT);
	vlr_json_real(json, "h", 1.0 / 3.0, 6);
	vlr_json_real(json, "inf", INFINITY, 6);
	vlr_json_close(json);
	vlr_json_close(json);
}

static void test_json(void **state)
{
	char *text;

	(void)state;
	text = json_text(write_escapes);
	assert_string_equal(text, "\"a\\\"b\\\\c\\u0009d\\u0001\"");
	free(text);
	text = json_text(write_lines);
	assert_string_equal(text, "{\n  \"ok\": true,\n  \"empty\": [],\n  \"list\": [\n"
			    "    \"xy\",\n    null\n  ],\n  \"in\": {\"u\": 18446744073709551615, "
			    "\"i\": -3, \"f\": 0.667, \"g\": 0.10000000000000001, "
			    "\"h\": 0.333333, \"inf\": null}\n}");
	free(text);
}

static const struct vlr_name colours[] = {
	{ "red", 4 },
	{ "green", 7 },
	{ "blue", 9 },
	{ NULL, 0 },
};

static void test_names(void **state)
{
	struct vlr_error err;
	char list[32];
	int value = 0;

	(void)state;
	assert_string_equal(vlr_name_of(colours, 7, "?"), "green");
	assert_string_equal(vlr_name_of(colours, 5, "?"), "?");
	assert_int_equal(vlr_name_value(colours, "blue", &value), 0);
	assert_int_equal(value, 9);
	assert_int_equal(vlr_name_value(colours, "Blue", &value), -1);
	assert_string_equal(vlr_name_list(colours, list, sizeof(list)),
			    "red, green or blue");
	assert_string_equal(vlr_name_list(colours + 2, list, sizeof(list)), "blue");
	assert_string_equal(vlr_name_list(colours + 1, list, sizeof(list)),
			    "green or blue");
	assert_int_equal(vlr_name_parse(colours, "pink", &value, &err), -1);
	assert_string_equal(err.message, "red, green or blue, not \"pink\"");
	assert_int_equal(vlr_name_parse(colours, "red", &value, &err), 0);
	assert_int_equal(value, 4);
}

static void test_clock(void **state)
{
	uint64_t before = vlr_clock_ns();
	double seconds = vlr_clock_seconds();

	(void)state;
	assert_true(vlr_clock_ns() >= before);
	assert_true(seconds >= (double)before / 1e9 - 1e-6);
	assert_true(seconds <= (double)vlr_clock_ns() / 1e9 + 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lexers),
		cmocka_unit_test(test_lex_number),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_clock),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
