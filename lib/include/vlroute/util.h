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
 * Results are written whole or not at all (vlr_whole_file, vlr_whole_dir):
 * into a temporary beside the target, synced, and only then put in its
 * place in one step, so that a reader, a kill or a full disk never leaves
 * half a file or a mixed directory.
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
 * SHA-256 (FIPS 180-4): init, feed bytes with update, then final writes
 * the digest (the context is used up). vlr_sha256_file is what sha256sum
 * prints for a file, in lowercase hex; update_file feeds a file's
 * contents and says how many bytes it read.
 */
#define VLR_SHA256_BYTES 32
#define VLR_SHA256_HEX 65		/* 64 hex digits and the NUL */

struct vlr_sha256 {
	uint32_t state[8];
	uint64_t bytes;			/* fed so far */
	unsigned char block[64];	/* the block not yet compressed */
};

void vlr_sha256_init(struct vlr_sha256 *ctx);
void vlr_sha256_update(struct vlr_sha256 *ctx, const void *data, size_t size);
void vlr_sha256_final(struct vlr_sha256 *ctx, unsigned char digest[VLR_SHA256_BYTES]);
void vlr_sha256_hex(const unsigned char digest[VLR_SHA256_BYTES], char hex[VLR_SHA256_HEX]);
int vlr_sha256_update_file(struct vlr_sha256 *ctx, const char *path, uint64_t *size,
			   struct vlr_error *err);
int vlr_sha256_file(const char *path, char hex[VLR_SHA256_HEX], struct vlr_error *err);

/*
 * The JSON writer of every JSON file vlroute writes. Each value goes into
 * the innermost open container with a key (objects) or with key NULL
 * (arrays); the writer puts the separators: ", " in an inline container,
 * ",\n" and two spaces of indent a level in one laid out a member a line.
 * Strings are escaped (quotes, backslashes, control characters and DEL as
 * \u00XX) and always valid UTF-8: valid characters pass unchanged, each
 * maximal invalid part (a stray or overlong byte, a surrogate, a code
 * point beyond U+10FFFF, a truncated sequence) becomes one U+FFFD, as
 * Python's decode("utf-8", "replace") does. Numbers keep the printf
 * precision asked for, and are null when not finite.
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

/*
 * A file written whole. open creates ".NAME.vlroute-tmp-PID" beside path
 * (permissions from the umask) and removes such temporaries of writers
 * that died; write to out; close flushes and syncs it, renames it over
 * path and syncs the directory. close with failed != 0 (a writer's
 * status), or any failure of its own, removes the temporary and leaves
 * path as it was; failed leaves err alone. Concurrent writers of one file
 * are not refused: the last to close wins, each whole.
 */
#define VLR_PATH_SIZE 4096

struct vlr_whole_file {
	FILE *out;				/* write here */
	char path[VLR_PATH_SIZE];		/* the file to replace */
	char temporary[VLR_PATH_SIZE + 64];
};

int vlr_whole_file_open(struct vlr_whole_file *file, const char *path,
			struct vlr_error *err);
int vlr_whole_file_close(struct vlr_whole_file *file, int failed, struct vlr_error *err);

/*
 * Flush, fsync and close out, the file written at path: 0, or -1 when that
 * or the writing before it (failed) went wrong, err saying why unless
 * failed already did. For files inside a temporary directory that
 * vlr_whole_dir_close puts in place; vlr_whole_file_close uses it too.
 */
int vlr_file_sync_close(FILE *out, int failed, const char *path, struct vlr_error *err);

/*
 * A directory written whole. open takes the lock file ".DIR.vlroute-lock"
 * beside DIR (flock; it holds the writer's PID, and a second writer is
 * refused with a message naming DIR and that PID), removes the
 * temporaries of writers that died (never a live writer's), refuses an
 * existing DIR that holds a name not in replaceable (NULL-terminated: the
 * files the caller writes there, so that no other file is lost), and
 * creates the empty directory temporary (".DIR.vlroute-tmp-PID") to write
 * into. close with failed == 0 syncs it and swaps it into place: a new
 * DIR appears complete; an existing one is exchanged with it in one step
 * (renameat2 RENAME_EXCHANGE) and the old tree removed. Where the system
 * or filesystem cannot exchange (exchange == 0, or EINVAL, ENOSYS,
 * ENOTSUP), DIR is renamed to ".DIR.vlroute-old-PID" and the new tree to
 * DIR: DIR is never mixed, but is missing between the two renames; a
 * writer killed there leaves the complete old tree, which the next open
 * puts back. close with failed != 0, or a failure of its own, removes the
 * temporary and leaves DIR as it was. Either way close releases the lock.
 * A symbolic link DIR is resolved: its target is replaced, the link kept.
 */
struct vlr_whole_dir {
	char path[VLR_PATH_SIZE];		/* DIR, a link resolved */
	char temporary[VLR_PATH_SIZE + 64];	/* write the files here */
	char lock[VLR_PATH_SIZE + 64];
	int lock_fd;
	int exchange;				/* 1 by open; 0: two renames */
};

int vlr_whole_dir_open(struct vlr_whole_dir *dir, const char *path,
		       const char *const *replaceable, struct vlr_error *err);
int vlr_whole_dir_close(struct vlr_whole_dir *dir, int failed, struct vlr_error *err);

/*
 * The provenance of a result: what made it, from what, where and when.
 * Every JSON result of the vlroute command carries one at its top level
 * as "provenance", and vlroute route writes one into the table directory
 * it writes (vlroute-provenance.json, formats.h). Strings that are empty
 * are not known, and are null in JSON; so is an lmc of -1.
 *
 * vlr_provenance_init records the version and commit given (the CLI's, as
 * "vlroute -V" prints them), the command line (vlr_shell_join of argv,
 * taken before getopt reorders argv), the host (gethostname) and the
 * date (UTC, ISO 8601, to the second);
 * the caller adds a table set with vlr_provenance_add_tables (filled by
 * formats' vlr_tables_provenance) and sets the seeds. free releases what
 * init and add_tables allocated.
 *
 * The JSON object, with key as its member name (NULL: a value of its own):
 *   {"version": "0.1.0", "commit": "063d5e9", "command_line": "vlroute ...",
 *    "tables": [{"path": DIR, "sha256": HEX, "fabric": FILE,
 *                "fabric_sha256": HEX, "engine": E, "vl_policy": P,
 *                "lmc": N}, ...],
 *    "seeds": [S, ...], "host": H, "date": "2026-03-01T12:00:00Z"}
 */
struct vlr_provenance_tables {
	char path[VLR_PATH_SIZE];		/* the table directory */
	char sha256[VLR_SHA256_HEX];		/* its files (vlr_tables_dir_hash) */
	char fabric[VLR_PATH_SIZE];		/* the fabric file read */
	char fabric_sha256[VLR_SHA256_HEX];	/* sha256sum of that file */
	char engine[32];			/* from vlroute-route.info */
	char vl_policy[128];			/* from vlroute-route.info */
	int lmc;				/* from vlroute-route.info; -1 */
};

struct vlr_provenance {
	char version[64];
	char commit[128];
	char *command_line;		/* argv joined, quoted for a shell */
	char host[256];
	char date[32];			/* "2026-03-01T12:00:00Z" */
	struct vlr_provenance_tables *tables;
	unsigned num_tables;
	uint64_t first_seed;		/* seeds first_seed .. + num_seeds - 1 */
	unsigned num_seeds;		/* 0: the command draws no random numbers */
};

int vlr_provenance_init(struct vlr_provenance *provenance, const char *version,
			const char *commit, const char *command_line, struct vlr_error *err);
struct vlr_provenance_tables *vlr_provenance_add_tables(struct vlr_provenance *provenance,
							 struct vlr_error *err);
void vlr_provenance_free(struct vlr_provenance *provenance);
void vlr_provenance_write_json(const struct vlr_provenance *provenance, const char *key,
			       struct vlr_json *json);

/*
 * argv joined by spaces, each word that a POSIX shell would not read as
 * itself in single quotes (as Python's shlex.join does), in a string to
 * free; NULL when out of memory.
 */
char *vlr_shell_join(int argc, char *const *argv);

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
