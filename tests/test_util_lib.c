/*
 * test_util_lib.c - unit tests of the pieces every part shares from
 * lib/util: the line reader and lexers, the number lexer, the JSON
 * writer's escaping and layout, the name tables, the clock, SHA-256
 * against the test vectors of FIPS 180-4 and NIST's CAVP, command lines
 * quoted for a shell, and the provenance record.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A string through the JSON writer, as a malloc'ed text. */
static char *json_string_text(const char *text, size_t length)
{
	struct vlr_json json;
	char *out_text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&out_text, &size);

	assert_non_null(out);
	vlr_json_start(&json, out);
	vlr_json_string_n(&json, NULL, text, length);
	assert_int_equal(vlr_json_finish(&json), 0);
	fclose(out);
	return out_text;
}

/*
 * Node names are bytes: JSON strings are valid UTF-8 all the same. Each
 * maximal invalid part becomes one U+FFFD (what Python's decode("utf-8",
 * "replace") gives); valid characters of every length pass unchanged.
 */
static void test_json_utf8(void **state)
{
	static const struct {
		const char *name;
		size_t length;
		const char *json;
	} cases[] = {
		{ "sw \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 12,
		  "\"sw \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },	/* 2, 3, 4 bytes */
		{ "\xef\xbf\xbf\xf4\x8f\xbf\xbf", 7, "\"\xef\xbf\xbf\xf4\x8f\xbf\xbf\"" },
		{ "a\xff" "b", 3, "\"a\xef\xbf\xbd" "b\"" },		/* never UTF-8 */
		{ "\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" },	/* overlong '/' */
		{ "\xe0\x80\xaf", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xf0\x8f\xbf\xbf", 4,
		  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },	/* surrogate */
		{ "\xf4\x90\x80\x80", 4,					/* U+110000 */
		  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xf5\x80", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "x\xe2\x82", 3, "\"x\xef\xbf\xbd\"" },		/* truncated at the end */
		{ "\xe2\x82" "A", 3, "\"\xef\xbf\xbd" "A\"" },	/* truncated by ASCII */
		{ "\xf0\x9f\x98\xe2\x82\xac", 6, "\"\xef\xbf\xbd\xe2\x82\xac\"" },
		{ "\x80\xbf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" },	/* lone continuations */
		{ "a\0b\x01\x1f\x7f", 6, "\"a\\u0000b\\u0001\\u001f\\u007f\"" },
		{ "\"\\\n", 3, "\"\\\"\\\\\\u000a\"" },
	};
	size_t i;
	char *text;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		text = json_string_text(cases[i].name, cases[i].length);
		assert_string_equal(text, cases[i].json);
		free(text);
	}
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

/* The digest of size bytes at data, fed in pieces of at most chunk bytes. */
static void sha256_hex(const void *data, size_t size, size_t chunk, char hex[VLR_SHA256_HEX])
{
	const unsigned char *p = data;
	unsigned char digest[VLR_SHA256_BYTES];
	struct vlr_sha256 ctx;
	size_t done, n;

	vlr_sha256_init(&ctx);
	for (done = 0; done < size; done += n) {
		n = size - done < chunk ? size - done : chunk;
		vlr_sha256_update(&ctx, p + done, n);
	}
	vlr_sha256_final(&ctx, digest);
	vlr_sha256_hex(digest, hex);
}

/* The digest of text, whole and fed in pieces that cross block ends. */
static void assert_sha256(const void *data, size_t size, const char *expected)
{
	static const size_t chunks[] = { 1, 3, 63, 64, 65, 1000 };
	char hex[VLR_SHA256_HEX];
	size_t i;

	sha256_hex(data, size, size ? size : 1, hex);
	assert_string_equal(hex, expected);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		sha256_hex(data, size, chunks[i], hex);
		assert_string_equal(hex, expected);
	}
}

/*
 * FIPS 180-4's examples (one block "abc", two blocks of 448 bits, 896
 * bits, a million "a"), CAVP SHA256ShortMsg (the empty message, 8 and 16
 * bits), and lengths at the padding's edges (55 bytes fill one block, 56
 * need a second) as sha256sum gives them.
 */
static void test_sha256(void **state)
{
	static const struct {
		size_t count;
		const char *digest;
	} run_of_a[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
		{ 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	};
	static const unsigned char d3[] = { 0xd3 }, x11af[] = { 0x11, 0xaf };
	char *many = malloc(1000000);
	size_t i;

	(void)state;
	assert_non_null(many);
	memset(many, 'a', 1000000);
	assert_sha256("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert_sha256(d3, 1, "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1");
	assert_sha256(x11af, 2, "5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98");
	assert_sha256("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	assert_sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
		      "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 112,
		      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	for (i = 0; i < sizeof(run_of_a) / sizeof(run_of_a[0]); i++)
		assert_sha256(many, run_of_a[i].count, run_of_a[i].digest);
	free(many);
}

/* A file's digest is its contents' digest; a missing file is named. */
static void test_sha256_file(void **state)
{
	char *path = test_write_file("abc.txt", "abc");
	char hex[VLR_SHA256_HEX];
	struct vlr_error err;

	(void)state;
	assert_int_equal(vlr_sha256_file(path, hex, &err), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(vlr_sha256_file("/nonexistent/abc.txt", hex, &err), -1);
	assert_non_null(strstr(err.message, "/nonexistent/abc.txt: cannot open"));
	free(path);
}

/* Words a shell would split or expand are quoted as Python's shlex.join quotes them. */
static void test_shell_join(void **state)
{
	char *const argv[] = {
		"vlroute", "sim", "a b", "it's", "", "x=1,y", "\xc3\xa9", "--json", "-",
		"~/t", "$HOME",
	};
	char *text = vlr_shell_join(sizeof(argv) / sizeof(argv[0]), argv);

	(void)state;
	assert_string_equal(text, "vlroute sim 'a b' 'it'\"'\"'s' '' x=1,y '\xc3\xa9' --json - "
			    "'~/t' '$HOME'");
	free(text);
	text = vlr_shell_join(0, argv);
	assert_string_equal(text, "");
	free(text);
}

/* The record as JSON: what init found, the table sets, the seeds, nulls for the unknown. */
static void test_provenance(void **state)
{
	struct vlr_provenance p;
	struct vlr_provenance_tables *t;
	struct vlr_json json;
	struct vlr_error err;
	char host[256], *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	(void)state;
	assert_non_null(out);
	assert_int_equal(vlr_provenance_init(&p, "0.1.0", "abc1234-dirty",
					     "vlroute sim 'my tables'", &err), 0);
	assert_string_equal(p.command_line, "vlroute sim 'my tables'");
	assert_int_equal(gethostname(host, sizeof(host)), 0);
	assert_string_equal(p.host, host);
	assert_int_equal(strlen(p.date), 20);
	assert_true(p.date[4] == '-' && p.date[10] == 'T' && p.date[19] == 'Z');
	snprintf(p.host, sizeof(p.host), "node7");
	snprintf(p.date, sizeof(p.date), "2026-03-01T12:00:00Z");
	t = vlr_provenance_add_tables(&p, &err);
	assert_non_null(t);
	assert_int_equal(t->lmc, -1);
	snprintf(t->path, sizeof(t->path), "t");
	snprintf(t->sha256, sizeof(t->sha256), "%064d", 0);
	snprintf(t->engine, sizeof(t->engine), "dfsssp");
	t->lmc = 0;
	t = vlr_provenance_add_tables(&p, &err);
	assert_non_null(t);
	snprintf(t->path, sizeof(t->path), "u");
	p.first_seed = 7;
	p.num_seeds = 3;
	vlr_json_start(&json, out);
	vlr_provenance_write_json(&p, NULL, &json);
	assert_int_equal(vlr_json_finish(&json), 0);
	fclose(out);
	assert_string_equal(text,
			    "{\n"
			    "  \"version\": \"0.1.0\",\n"
			    "  \"commit\": \"abc1234-dirty\",\n"
			    "  \"command_line\": \"vlroute sim 'my tables'\",\n"
			    "  \"tables\": [\n"
			    "    {\"path\": \"t\", \"sha256\": \"0000000000000000000000000000000000000000"
			    "000000000000000000000000\", \"fabric\": null, \"fabric_sha256\": null, "
			    "\"engine\": \"dfsssp\", \"vl_policy\": null, \"lmc\": 0},\n"
			    "    {\"path\": \"u\", \"sha256\": null, \"fabric\": null, "
			    "\"fabric_sha256\": null, \"engine\": null, \"vl_policy\": null, "
			    "\"lmc\": null}\n"
			    "  ],\n"
			    "  \"seeds\": [7, 8, 9],\n"
			    "  \"host\": \"node7\",\n"
			    "  \"date\": \"2026-03-01T12:00:00Z\"\n"
			    "}");
	free(text);
	vlr_provenance_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lexers),
		cmocka_unit_test(test_lex_number),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_utf8),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_sha256_file),
		cmocka_unit_test(test_shell_join),
		cmocka_unit_test(test_provenance),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
