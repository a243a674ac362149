/*
 * tablefiles_provenance.c - a table directory in a result's provenance:
 * the SHA-256 of its files (the table-set hash), the fabric file's, and
 * how it was routed (vlroute-route.info); and vlroute-provenance.json,
 * the provenance vlroute route leaves in the directory it writes.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vlroute/formats.h>

#define PATH_SIZE 4096

/*
 * Files that say how the tables were made, not what they are: the
 * provenance (written after the hash) and the route info (it holds the
 * routing time, which differs from run to run).
 */
static int hashed_name(const char *name)
{
	return name[0] != '.' && strcmp(name, VLR_FILE_PROVENANCE) &&
	       strcmp(name, VLR_FILE_ROUTE_INFO);
}

static int select_name(const struct dirent *entry)
{
	return hashed_name(entry->d_name);
}

/* Byte order, whatever the locale (alphasort follows LC_COLLATE). */
static int byte_order(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* NAME NUL LENGTH NUL CONTENTS of a regular file; anything else adds nothing. */
static int hash_entry(struct vlr_sha256 *ctx, const char *dir, const char *name,
		      struct vlr_error *err)
{
	char path[PATH_SIZE], length[32];
	struct stat st;
	uint64_t read;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return vlr_fail(err, "%s/%s: path too long", dir, name);
	if (stat(path, &st))
		return vlr_fail(err, "%s: cannot read: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return 0;
	snprintf(length, sizeof(length), "%llu", (unsigned long long)st.st_size);
	vlr_sha256_update(ctx, name, strlen(name) + 1);
	vlr_sha256_update(ctx, length, strlen(length) + 1);
	if (vlr_sha256_update_file(ctx, path, &read, err))
		return -1;
	if (read != (uint64_t)st.st_size)
		return vlr_fail(err, "%s changed while it was read (%llu bytes, then %llu)",
				path, (unsigned long long)st.st_size, (unsigned long long)read);
	return 0;
}

int vlr_tables_dir_hash(const char *dir, char hex[VLR_SHA256_HEX], struct vlr_error *err)
{
	unsigned char digest[VLR_SHA256_BYTES];
	struct dirent **names;
	struct vlr_sha256 ctx;
	int count, i, status = 0;

	count = scandir(dir, &names, select_name, byte_order);
	if (count < 0)
		return vlr_fail(err, "%s: cannot list: %s", dir, strerror(errno));
	vlr_sha256_init(&ctx);
	for (i = 0; i < count; i++) {
		if (!status)
			status = hash_entry(&ctx, dir, names[i]->d_name, err);
		free(names[i]);
	}
	free(names);
	if (status)
		return -1;
	vlr_sha256_final(&ctx, digest);
	vlr_sha256_hex(digest, hex);
	return 0;
}

int vlr_tables_provenance(const char *dir, const char *fabric_file,
			  struct vlr_provenance_tables *t, struct vlr_error *err)
{
	struct vlr_route_info info;

	snprintf(t->path, sizeof(t->path), "%s", dir);
	snprintf(t->fabric, sizeof(t->fabric), "%s", fabric_file);
	if (vlr_tables_dir_hash(dir, t->sha256, err) ||
	    vlr_sha256_file(fabric_file, t->fabric_sha256, err) ||
	    vlr_route_info_read(dir, &info, err))
		return -1;
	snprintf(t->engine, sizeof(t->engine), "%s", info.engine);
	snprintf(t->vl_policy, sizeof(t->vl_policy), "%s", info.vl_policy);
	t->lmc = info.lmc;
	return 0;
}

int vlr_provenance_file_write(const char *dir, const struct vlr_provenance *provenance,
			      struct vlr_error *err)
{
	char path[PATH_SIZE];
	struct vlr_whole_file file;
	struct vlr_json json;
	int bad;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, VLR_FILE_PROVENANCE) >=
	    sizeof(path))
		return vlr_fail(err, "%s: the directory name is too long", dir);
	if (vlr_whole_file_open(&file, path, err))
		return -1;
	vlr_json_start(&json, file.out);
	vlr_provenance_write_json(provenance, NULL, &json);
	bad = fputc('\n', file.out) == EOF || vlr_json_finish(&json);
	if (bad)
		vlr_fail(err, "%s: cannot write: %s", path, strerror(errno));
	return vlr_whole_file_close(&file, bad, err);
}
