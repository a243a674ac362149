/*
 * util.h - what every part uses: error reporting, random numbers, the
 * monotonic clock, number lexing and the JSON writer.
 *
 * How the library reports what went wrong.
 *
 * Functions that can fail take a struct vlr_error and return -1 (or
 * VLR_NONE) after writing one complete, human-readable sentence into it:
 * "net.txt:12: port 9 of "sw1" is beyond its 8 ports". The caller decides
 * whether to print it; the library never prints.
 *
 * The one random number generator of vlroute: xoshiro256**
 * seeded through splitmix64, so a (seed, stream) pair always gives the same
 * sequence on every machine and whatever the thread count. Streams keep
 * independent users (one per server, per seed, per pattern) apart.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_UTIL_H
#define VLROUTE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Nanoseconds and seconds on CLOCK_MONOTONIC: for durations and deadlines. */
uint64_t vlr_clock_ns(void);
double vlr_clock_seconds(void);

/*
 * An unsigned number at *s that starts with a decimal digit, read like
 * strtoull in base (10, or 0 for 0x hex, 0 octal or decimal); advances past
 * it. -1 (*s unchanged) when there is no digit or the number exceeds max.
 */
int vlr_lex_number(const char **s, int base, uint64_t max, uint64_t *value);

/*
 * The JSON writer of every JSON file vlroute writes. Each value goes into
 * the innermost open container with a key (objects) or with key NULL
 * (arrays); the writer puts the separators: ", " in an inline container,
 * ",\n" and two spaces of indent a level in one laid out a member a line.
 * Strings are escaped (quotes, backslashes, control characters); numbers
 * keep the printf precision asked for, and are null when not finite.
 */
#define VLR_JSON_DEPTH 8

enum vlr_json_layout {
	VLR_JSON_INLINE,
	VLR_JSON_LINES,
};

struct vlr_json {
	FILE *out;
	unsigned depth;				/* containers open */
	unsigned members[VLR_JSON_DEPTH];	/* values in each so far */
	char closer[VLR_JSON_DEPTH];		/* '}' or ']' */
	unsigned char lines[VLR_JSON_DEPTH];	/* VLR_JSON_LINES? */
	int failed;				/* a write failed */
};

void vlr_json_start(struct vlr_json *json, FILE *out);

/*
 * The separator before the next value, and "key": when key is not NULL.
 * A caller that writes a value by other means (a nested writer) calls
 * this first.
 */
void vlr_json_next(struct vlr_json *json, const char *key);

/* Open an object ('{') or array ('['), and close the innermost one. */
void vlr_json_open(struct vlr_json *json, const char *key, char bracket,
		   enum vlr_json_layout layout);
void vlr_json_close(struct vlr_json *json);

void vlr_json_string(struct vlr_json *json, const char *key, const char *text);
void vlr_json_string_n(struct vlr_json *json, const char *key, const char *text,
		       size_t length);
void vlr_json_uint(struct vlr_json *json, const char *key, unsigned long long value);
void vlr_json_int(struct vlr_json *json, const char *key, long long value);
void vlr_json_bool(struct vlr_json *json, const char *key, int value);
void vlr_json_null(struct vlr_json *json, const char *key);

/* %.*g with digits significant digits; VLR_JSON_EXACT round-trips a double. */
#define VLR_JSON_EXACT 17
void vlr_json_real(struct vlr_json *json, const char *key, double value, int digits);

/* %.*f with decimals digits after the point. */
void vlr_json_fixed(struct vlr_json *json, const char *key, double value, int decimals);

/* 0, or -1 when anything written to the stream failed. */
int vlr_json_finish(const struct vlr_json *json);

struct vlr_rng {
	uint64_t state[4];
};

static inline uint64_t vlr_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void vlr_rng_seed(struct vlr_rng *rng, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ vlr_splitmix64(&stream);
	int i;

	for (i = 0; i < 4; i++)
		rng->state[i] = vlr_splitmix64(&x);
}

static inline uint64_t vlr_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t vlr_rng_next(struct vlr_rng *rng)
{
	uint64_t *s = rng->state;
	uint64_t result = vlr_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = vlr_rng_rotl(s[3], 45);
	return result;
}

/* Uniform in 0..n-1 (n > 0), without modulo bias worth measuring. */
static inline uint32_t vlr_rng_below(struct vlr_rng *rng, uint32_t n)
{
	return (uint32_t)(((vlr_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, 1). */
static inline double vlr_rng_unit(struct vlr_rng *rng)
{
	return (double)(vlr_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
