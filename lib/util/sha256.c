/*
 * sha256.c - SHA-256 as FIPS 180-4 defines it, for the provenance of
 * results: the digest of a file (what sha256sum prints) and of a table
 * directory (formats). Our own, so that the library needs no crypto
 * library; speed matters little (a table set is read once a command).
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <errno.h>
#include <string.h>

#include <vlroute/util.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/* The message schedule of one 64-byte block (FIPS 180-4, 6.2.2 step 1). */
static void schedule(const unsigned char *block, uint32_t w[64])
{
	unsigned t;

	for (t = 0; t < 16; t++)
		w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
		       (uint32_t)block[4 * t + 2] << 8 | (uint32_t)block[4 * t + 3];
	for (t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
}

/* One block into the hash value (6.2.2 steps 2 to 4). */
static void compress(uint32_t state[8], const unsigned char *block)
{
	uint32_t w[64], a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7], t1, t2;
	unsigned t;

	schedule(block, w);
	for (t = 0; t < 64; t++) {
		t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
		     round_constants[t] + w[t];
		t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

void vlr_sha256_init(struct vlr_sha256 *ctx)
{
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(ctx->state, initial, sizeof(initial));
	ctx->bytes = 0;
}

void vlr_sha256_update(struct vlr_sha256 *ctx, const void *data, size_t size)
{
	const unsigned char *p = data;
	size_t used = (size_t)(ctx->bytes % 64), take;

	ctx->bytes += size;
	if (used) {
		take = size < 64 - used ? size : 64 - used;
		memcpy(ctx->block + used, p, take);
		p += take;
		size -= take;
		if (used + take < 64)
			return;
		compress(ctx->state, ctx->block);
	}
	for (; size >= 64; p += 64, size -= 64)
		compress(ctx->state, p);
	memcpy(ctx->block, p, size);
}

/* Padding (5.1.1): a one bit, zeros, and the length in bits in 64 bits. */
void vlr_sha256_final(struct vlr_sha256 *ctx, unsigned char digest[VLR_SHA256_BYTES])
{
	uint64_t bits = ctx->bytes * 8;
	unsigned char tail[72];
	size_t zeros = (size_t)((119 - ctx->bytes % 64) % 64), i;

	tail[0] = 0x80;
	memset(tail + 1, 0, zeros);
	for (i = 0; i < 8; i++)
		tail[1 + zeros + i] = (unsigned char)(bits >> (56 - 8 * i));
	vlr_sha256_update(ctx, tail, 1 + zeros + 8);
	for (i = 0; i < 32; i++)
		digest[i] = (unsigned char)(ctx->state[i / 4] >> (24 - 8 * (i % 4)));
}

void vlr_sha256_hex(const unsigned char digest[VLR_SHA256_BYTES], char hex[VLR_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	unsigned i;

	for (i = 0; i < VLR_SHA256_BYTES; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * VLR_SHA256_BYTES] = '\0';
}

int vlr_sha256_update_file(struct vlr_sha256 *ctx, const char *path, uint64_t *size,
			   struct vlr_error *err)
{
	unsigned char buf[65536];
	FILE *in = fopen(path, "rb");
	size_t n;
	int failed;

	if (!in)
		return vlr_fail(err, "%s: cannot open: %s", path, strerror(errno));
	*size = 0;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		vlr_sha256_update(ctx, buf, n);
		*size += n;
	}
	failed = ferror(in);
	if (failed)
		vlr_fail(err, "%s: cannot read: %s", path, strerror(errno));
	fclose(in);
	return failed ? -1 : 0;
}

int vlr_sha256_file(const char *path, char hex[VLR_SHA256_HEX], struct vlr_error *err)
{
	struct vlr_sha256 ctx;
	unsigned char digest[VLR_SHA256_BYTES];
	uint64_t size;

	vlr_sha256_init(&ctx);
	if (vlr_sha256_update_file(&ctx, path, &size, err))
		return -1;
	vlr_sha256_final(&ctx, digest);
	vlr_sha256_hex(digest, hex);
	return 0;
}
