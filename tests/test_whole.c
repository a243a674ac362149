/*
 * test_whole.c - unit tests of results written whole (lib/util/whole.c):
 * a file or a directory is replaced only once complete, a failed write
 * keeps the old one and leaves no temporary, a second writer of a
 * directory is refused naming the first, an existing directory holding a
 * foreign file is not replaced, the two-rename fallback replaces as the
 * exchange does, and what dead writers left is removed or put back.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/* A fresh empty directory for one test; its path is static. */
static const char *fresh_dir(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/vlroute-whole-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void put(const char *path, const char *text)
{
	FILE *out = fopen(path, "w");

	assert_non_null(out);
	fputs(text, out);
	assert_int_equal(fclose(out), 0);
}

/* The first line of path, or "" if it cannot be read. */
static const char *first_line(const char *path)
{
	static char line[256];
	FILE *in = fopen(path, "r");

	line[0] = '\0';
	if (in) {
		if (!fgets(line, sizeof(line), in))
			line[0] = '\0';
		fclose(in);
	}
	return line;
}

/* How many entries of dir (other than . and ..) there are. */
static int entries(const char *dir)
{
	DIR *list = opendir(dir);
	struct dirent *item;
	int count = 0;

	assert_non_null(list);
	while ((item = readdir(list)))
		count += strcmp(item->d_name, ".") && strcmp(item->d_name, "..");
	closedir(list);
	return count;
}

/* A PID that no process has: a child that has exited and been reaped. */
static long dead_pid(void)
{
	pid_t child = fork();

	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	return (long)child;
}

static void test_file(void **state)
{
	const char *top = fresh_dir();
	struct vlr_whole_file file;
	struct vlr_error err;
	char path[128], stale[160];

	(void)state;
	snprintf(path, sizeof(path), "%s/result.json", top);
	put(path, "old\n");
	snprintf(stale, sizeof(stale), "%s/.result.json.vlroute-tmp-%ld", top, dead_pid());
	put(stale, "half");

	/* failed: the old file stays, the temporary goes (and the dead one) */
	assert_int_equal(vlr_whole_file_open(&file, path, &err), 0);
	assert_int_equal(access(stale, F_OK), -1);
	fputs("new\n", file.out);
	assert_string_equal(first_line(path), "old\n");
	assert_int_equal(vlr_whole_file_close(&file, -1, &err), -1);
	assert_string_equal(first_line(path), "old\n");
	assert_int_equal(entries(top), 1);

	/* done: the new file in place, nothing beside it */
	assert_int_equal(vlr_whole_file_open(&file, path, &err), 0);
	fputs("new\n", file.out);
	assert_int_equal(vlr_whole_file_close(&file, 0, &err), 0);
	assert_string_equal(first_line(path), "new\n");
	assert_int_equal(entries(top), 1);

	snprintf(path, sizeof(path), "%s/no/such/dir/x", top);
	assert_int_equal(vlr_whole_file_open(&file, path, &err), -1);
	assert_non_null(strstr(err.message, "cannot create"));
	unlink(stale);
	snprintf(path, sizeof(path), "%s/result.json", top);
	unlink(path);
	assert_int_equal(rmdir(top), 0);
}

static const char *const names[] = { "a", "b", NULL };

/* Write DIR/a holding text through a whole directory; 0 or -1. */
static int write_a(const char *dir, const char *text, int exchange, int failed,
		   struct vlr_error *err)
{
	struct vlr_whole_dir out;
	char path[VLR_PATH_SIZE + 80];

	if (vlr_whole_dir_open(&out, dir, names, err))
		return -1;
	out.exchange = exchange;
	snprintf(path, sizeof(path), "%s/a", out.temporary);
	put(path, text);
	return vlr_whole_dir_close(&out, failed, err);
}

static void remove_dir(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/a", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/b", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void test_dir_replaced(void **state)
{
	const char *top = fresh_dir();
	char dir[128], a[160], b[160];
	struct vlr_error err;
	int exchange;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tables", top);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);

	/* a failed first write leaves no directory */
	assert_int_equal(write_a(dir, "one\n", 1, -1, &err), -1);
	assert_int_equal(entries(top), 0);
	assert_int_equal(write_a(dir, "one\n", 1, 0, &err), 0);
	assert_string_equal(first_line(a), "one\n");

	/* by exchange and by two renames: the new tree whole, the old one gone */
	for (exchange = 1; exchange >= 0; exchange--) {
		put(b, "from before\n");
		assert_int_equal(write_a(dir, "two\n", exchange, -1, &err), -1);
		assert_string_equal(first_line(a), exchange ? "one\n" : "three\n");
		assert_int_equal(write_a(dir, exchange ? "three\n" : "four\n", exchange, 0,
					 &err), 0);
		assert_string_equal(first_line(a), exchange ? "three\n" : "four\n");
		assert_int_equal(access(b, F_OK), -1);
		assert_int_equal(entries(dir), 1);
		assert_int_equal(entries(top), 1);
	}
	remove_dir(dir);
	assert_int_equal(rmdir(top), 0);
}

static void test_dir_refused(void **state)
{
	const char *top = fresh_dir();
	struct vlr_whole_dir first, second;
	char dir[128], path[192], expected[256];
	struct vlr_error err;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tables", top);
	assert_int_equal(write_a(dir, "one\n", 1, 0, &err), 0);

	/* a second writer while the first holds the lock */
	assert_int_equal(vlr_whole_dir_open(&first, dir, names, &err), 0);
	assert_int_equal(vlr_whole_dir_open(&second, dir, names, &err), -1);
	snprintf(expected, sizeof(expected), "%s: another vlroute (PID %ld) is writing",
		 dir, (long)getpid());
	assert_non_null(strstr(err.message, expected));
	assert_int_equal(vlr_whole_dir_close(&first, -1, &err), -1);
	assert_int_equal(entries(top), 1);

	/* a file the caller does not write there */
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	put(path, "mine\n");
	assert_int_equal(vlr_whole_dir_open(&first, dir, names, &err), -1);
	assert_non_null(strstr(err.message, "holds \"notes.txt\""));
	assert_string_equal(first_line(path), "mine\n");
	assert_int_equal(entries(top), 1);
	unlink(path);

	/* a file in the way */
	snprintf(path, sizeof(path), "%s/file", top);
	put(path, "x");
	assert_int_equal(vlr_whole_dir_open(&first, path, names, &err), -1);
	assert_non_null(strstr(err.message, "exists and is not a directory"));
	unlink(path);
	remove_dir(dir);
	assert_int_equal(rmdir(top), 0);
}

static void test_dir_dead_writers(void **state)
{
	const char *top = fresh_dir();
	char dir[128], old[192], tmp[192], live[192], a[256];
	struct vlr_error err;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tables", top);
	snprintf(a, sizeof(a), "%s/a", dir);

	/* killed between its two renames: the complete old tree is put back */
	snprintf(old, sizeof(old), "%s/.tables.vlroute-old-%ld", top, dead_pid());
	snprintf(tmp, sizeof(tmp), "%s/.tables.vlroute-tmp-%ld", top, dead_pid());
	snprintf(live, sizeof(live), "%s/.tables.vlroute-tmp-%ld", top, (long)getppid());
	assert_int_equal(mkdir(old, 0777), 0);
	assert_int_equal(mkdir(tmp, 0777), 0);
	assert_int_equal(mkdir(live, 0777), 0);
	snprintf(a, sizeof(a), "%s/a", old);
	put(a, "old\n");
	snprintf(a, sizeof(a), "%s/a", dir);
	assert_int_equal(write_a(dir, "new\n", 1, -1, &err), -1);
	assert_string_equal(first_line(a), "old\n");
	assert_int_equal(access(old, F_OK), -1);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	assert_int_equal(entries(top), 2);
	assert_int_equal(rmdir(live), 0);
	remove_dir(dir);
	assert_int_equal(rmdir(top), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_dir_replaced),
		cmocka_unit_test(test_dir_refused),
		cmocka_unit_test(test_dir_dead_writers),
	};

	return cmocka_run_group_tests_name("whole", tests, NULL, NULL);
}
