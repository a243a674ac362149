/*
 * whole.c - results written whole or not at all. A file goes to
 * ".NAME.vlroute-tmp-PID" beside it, is synced and renamed over NAME; a
 * directory is written as ".DIR.vlroute-tmp-PID" beside it, synced and
 * swapped with DIR in one step, under the lock file ".DIR.vlroute-lock"
 * that refuses a second writer. A kill at any moment leaves the old
 * result or the new one, plus a temporary that the next writer removes
 * once its PID is gone; a full disk fails the write and keeps the old.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#define _GNU_SOURCE		/* renameat2, RENAME_EXCHANGE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vlroute/util.h>

#define TMP_TAG ".vlroute-tmp-"
#define OLD_TAG ".vlroute-old-"
#define LOCK_TAG ".vlroute-lock"
#define SIBLING_SIZE (VLR_PATH_SIZE + 64)

/* ---- names -------------------------------------------------------------- */

/* "PARENT/.BASE" + tag (+ pid when pid > 0) beside path. */
static int sibling(char *out, const char *path, const char *tag, long pid,
		   struct vlr_error *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int parent = slash ? (int)(base - path) : 0, length;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return vlr_fail(err, "%s: not a name that can be replaced", path);
	length = pid > 0 ? snprintf(out, SIBLING_SIZE, "%.*s.%s%s%ld", parent, path,
				    base, tag, pid) :
		 snprintf(out, SIBLING_SIZE, "%.*s.%s%s", parent, path, base, tag);
	if (length >= SIBLING_SIZE)
		return vlr_fail(err, "%s: path too long", path);
	return 0;
}

/* The directory holding path: "." for a bare name. */
static void parent_of(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(out, VLR_PATH_SIZE, ".");
	else
		snprintf(out, VLR_PATH_SIZE, "%.*s", slash == path ? 1 : (int)(slash - path),
			 path);
}

/* ---- syncing and removing ----------------------------------------------- */

/* fsync a directory; a filesystem that cannot (EINVAL) is taken at its word. */
static int sync_dir(const char *path, struct vlr_error *err)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), bad;

	if (fd < 0)
		return vlr_fail(err, "%s: cannot open the directory to sync it: %s", path,
				strerror(errno));
	bad = fsync(fd) && errno != EINVAL;
	if (bad)
		vlr_fail(err, "%s: cannot sync the directory: %s", path, strerror(errno));
	close(fd);
	return bad ? -1 : 0;
}

static int sync_parent(const char *path, struct vlr_error *err)
{
	char parent[VLR_PATH_SIZE];

	parent_of(path, parent);
	return sync_dir(parent, err);
}

static int remove_entry(const char *path, const struct stat *info, int type,
			struct FTW *walk)
{
	(void)info;
	(void)type;
	(void)walk;
	return remove(path) && errno != ENOENT ? -1 : 0;
}

/* Remove a file or a tree, never following a link out of it. */
static int remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) && errno != ENOENT ?
	       -1 : 0;
}

/* ---- temporaries of writers that died ----------------------------------- */

/* A temporary of ours is stale once its PID is gone (or is our own). */
static int stale(long pid)
{
	return pid == (long)getpid() || (kill((pid_t)pid, 0) && errno == ESRCH);
}

/* The PID of a temporary name "PREFIX<digits>", or 0 if name is not one. */
static long temporary_pid(const char *name, const char *prefix)
{
	size_t length = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, length) || name[length] < '1' || name[length] > '9')
		return 0;
	pid = strtol(name + length, &end, 10);
	return *end || pid <= 0 || pid > INT_MAX ? 0 : pid;
}

/*
 * A stale ".BASE.vlroute-old-PID" is a complete old tree whose writer died
 * between its two renames: put back if path is missing, else removed.
 */
static void clean_old(const char *path, const char *entry)
{
	struct stat info;

	if (lstat(path, &info) && errno == ENOENT && !rename(entry, path))
		return;
	remove_tree(entry);
}

/* Remove (or put back) the temporaries beside path whose writers died. */
static void clean_stale(const char *path)
{
	char parent[VLR_PATH_SIZE], tmp[SIBLING_SIZE], old[SIBLING_SIZE];
	char entry[2 * SIBLING_SIZE];
	const char *tmp_name, *old_name;
	struct dirent *item;
	DIR *list;
	long pid;

	parent_of(path, parent);
	if (sibling(tmp, path, TMP_TAG, 0, NULL) || sibling(old, path, OLD_TAG, 0, NULL))
		return;
	tmp_name = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
	old_name = strrchr(old, '/') ? strrchr(old, '/') + 1 : old;
	list = opendir(parent);
	if (!list)
		return;
	while ((item = readdir(list))) {
		snprintf(entry, sizeof(entry), "%s/%s", parent, item->d_name);
		if ((pid = temporary_pid(item->d_name, old_name)) && stale(pid))
			clean_old(path, entry);
		else if ((pid = temporary_pid(item->d_name, tmp_name)) && stale(pid))
			remove_tree(entry);
	}
	closedir(list);
}

/* ---- a file ------------------------------------------------------------- */

int vlr_whole_file_open(struct vlr_whole_file *file, const char *path,
			struct vlr_error *err)
{
	int fd;

	memset(file, 0, sizeof(*file));
	if ((size_t)snprintf(file->path, sizeof(file->path), "%s", path) >=
	    sizeof(file->path))
		return vlr_fail(err, "%s: path too long", path);
	if (sibling(file->temporary, path, TMP_TAG, (long)getpid(), err))
		return -1;
	clean_stale(path);
	fd = open(file->temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	file->out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!file->out) {
		vlr_fail(err, "%s: cannot create a temporary file beside it: %s", path,
			 strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(file->temporary);
		}
		return -1;
	}
	return 0;
}

int vlr_file_sync_close(FILE *out, int failed, const char *path, struct vlr_error *err)
{
	if (!failed && (fflush(out) || fsync(fileno(out))))
		failed = vlr_fail(err, "%s: cannot write: %s", path, strerror(errno));
	if (fclose(out) && !failed)
		failed = vlr_fail(err, "%s: cannot write: %s", path, strerror(errno));
	return failed ? -1 : 0;
}

int vlr_whole_file_close(struct vlr_whole_file *file, int failed, struct vlr_error *err)
{
	failed = vlr_file_sync_close(file->out, failed, file->path, err);
	file->out = NULL;
	if (!failed && rename(file->temporary, file->path))
		failed = vlr_fail(err, "%s: cannot rename %s into place: %s", file->path,
				  file->temporary, strerror(errno));
	if (failed) {
		unlink(file->temporary);
		return -1;
	}
	return sync_parent(file->path, err);
}

/* ---- a directory: the lock ---------------------------------------------- */

/* Whether fd is still the file at path (not one removed by its last holder). */
static int still_at(int fd, const char *path)
{
	struct stat open_file, named;

	return !fstat(fd, &open_file) && !stat(path, &named) &&
	       open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

/* The refusal when another writer holds the lock open on fd. */
static int refuse_busy(const struct vlr_whole_dir *dir, int fd, struct vlr_error *err)
{
	char text[32] = "";
	ssize_t length = pread(fd, text, sizeof(text) - 1, 0);
	long pid = length > 0 ? strtol(text, NULL, 10) : 0;

	if (pid > 0)
		return vlr_fail(err, "%s: another vlroute (PID %ld) is writing this "
				"directory (lock %s); not written", dir->path, pid, dir->lock);
	return vlr_fail(err, "%s: another vlroute is writing this directory (lock %s); "
			"not written", dir->path, dir->lock);
}

/*
 * A new lock file, locked and holding our PID before anyone can see it:
 * written under the temporary's name (which a dead writer's cleaner
 * removes) and linked into place. -1 with errno EEXIST when another
 * writer's lock is there first; other failures set err.
 */
static int create_lock(const struct vlr_whole_dir *dir, struct vlr_error *err)
{
	char pid[32];
	int fd, saved;

	remove_tree(dir->temporary);	/* ours, left by a process of our PID */
	fd = open(dir->temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		vlr_fail(err, "%s: cannot create the lock file %s: %s", dir->path,
			 dir->temporary, strerror(errno));
		return -1;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (write(fd, pid, strlen(pid)) != (ssize_t)strlen(pid) || flock(fd, LOCK_EX) ||
	    link(dir->temporary, dir->lock)) {
		saved = errno;
		if (saved != EEXIST)
			vlr_fail(err, "%s: cannot create the lock file %s: %s", dir->path,
				 dir->lock, strerror(saved));
		unlink(dir->temporary);
		close(fd);
		errno = saved;
		return -1;
	}
	unlink(dir->temporary);
	return fd;
}

/*
 * Take the lock, or refuse naming the writer that holds it. A lock file
 * that no one holds is a dead writer's: it is removed and a new one made.
 */
static int lock(struct vlr_whole_dir *dir, struct vlr_error *err)
{
	int fd;

	for (;;) {
		fd = open(dir->lock, O_RDWR | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			fd = create_lock(dir, err);
			if (fd >= 0)
				break;
			if (errno == EEXIST)
				continue;
			return -1;
		}
		if (fd < 0)
			return vlr_fail(err, "%s: cannot open the lock file %s: %s", dir->path,
					dir->lock, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			if (errno == EWOULDBLOCK)
				refuse_busy(dir, fd, err);
			else
				vlr_fail(err, "%s: cannot lock %s: %s", dir->path, dir->lock,
					 strerror(errno));
			close(fd);
			return -1;
		}
		if (still_at(fd, dir->lock))
			unlink(dir->lock);
		close(fd);
	}
	dir->lock_fd = fd;
	return 0;
}

/* Removed before it is closed, so that a waiter sees it is gone. */
static void unlock(struct vlr_whole_dir *dir)
{
	unlink(dir->lock);
	close(dir->lock_fd);
	dir->lock_fd = -1;
}

/* ---- a directory: open -------------------------------------------------- */

/* DIR without trailing slashes, a symbolic link resolved; not a file. */
static int resolve(struct vlr_whole_dir *dir, const char *path, struct vlr_error *err)
{
	size_t length = strlen(path);
	struct stat info;

	while (length > 1 && path[length - 1] == '/')
		length--;
	if (length >= sizeof(dir->path))
		return vlr_fail(err, "%s: path too long", path);
	snprintf(dir->path, sizeof(dir->path), "%.*s", (int)length, path);
	if (!lstat(dir->path, &info) && S_ISLNK(info.st_mode)) {
		char *target = realpath(dir->path, NULL);

		if (!target)
			return vlr_fail(err, "%s: cannot follow the link: %s", dir->path,
					strerror(errno));
		snprintf(dir->path, sizeof(dir->path), "%s", target);
		free(target);
	}
	if (!stat(dir->path, &info) && !S_ISDIR(info.st_mode))
		return vlr_fail(err, "%s: exists and is not a directory", dir->path);
	return 0;
}

static int listed(const char *name, const char *const *names)
{
	for (; names && *names; names++)
		if (!strcmp(name, *names))
			return 1;
	return 0;
}

/* An existing DIR may hold only names the caller writes: nothing else is lost. */
static int check_replaceable(const char *path, const char *const *replaceable,
			     struct vlr_error *err)
{
	DIR *list = opendir(path);
	struct dirent *item;
	int result = 0;

	if (!list)
		return errno == ENOENT ? 0 : vlr_fail(err, "%s: cannot read the directory: "
						      "%s", path, strerror(errno));
	while (!result && (item = readdir(list)))
		if (strcmp(item->d_name, ".") && strcmp(item->d_name, "..") &&
		    !listed(item->d_name, replaceable))
			result = vlr_fail(err, "%s: holds \"%s\", which vlroute does not write "
					  "there; the directory is not replaced (move the "
					  "file away or choose another directory)", path,
					  item->d_name);
	closedir(list);
	return result;
}

/* The empty temporary, with the permissions of the DIR it replaces. */
static int make_temporary(const struct vlr_whole_dir *dir, struct vlr_error *err)
{
	struct stat info;

	if (mkdir(dir->temporary, 0777))
		return vlr_fail(err, "%s: cannot create the directory %s: %s", dir->path,
				dir->temporary, strerror(errno));
	if (!stat(dir->path, &info))
		chmod(dir->temporary, info.st_mode & 07777);
	return 0;
}

int vlr_whole_dir_open(struct vlr_whole_dir *dir, const char *path,
		       const char *const *replaceable, struct vlr_error *err)
{
	memset(dir, 0, sizeof(*dir));
	dir->lock_fd = -1;
	dir->exchange = 1;
	if (resolve(dir, path, err) ||
	    sibling(dir->lock, dir->path, LOCK_TAG, 0, err) ||
	    sibling(dir->temporary, dir->path, TMP_TAG, (long)getpid(), err) ||
	    lock(dir, err))
		return -1;
	clean_stale(dir->path);
	if (check_replaceable(dir->path, replaceable, err) || make_temporary(dir, err)) {
		unlock(dir);
		return -1;
	}
	return 0;
}

/* ---- a directory: close ------------------------------------------------- */

/* Without RENAME_EXCHANGE: DIR aside, the new tree in, the old tree out. */
static int swap_by_renames(const struct vlr_whole_dir *dir, struct vlr_error *err)
{
	char old[SIBLING_SIZE];
	int error;

	if (sibling(old, dir->path, OLD_TAG, (long)getpid(), err))
		return -1;
	if (rename(dir->path, old))
		return vlr_fail(err, "%s: cannot move the old directory aside: %s",
				dir->path, strerror(errno));
	if (rename(dir->temporary, dir->path)) {
		error = errno;
		rename(old, dir->path);
		return vlr_fail(err, "%s: cannot rename %s into place: %s", dir->path,
				dir->temporary, strerror(error));
	}
	remove_tree(old);
	return 0;
}

/* Exchange DIR and the temporary in one step, or say why not (errno). */
static int exchange(const struct vlr_whole_dir *dir)
{
#ifdef RENAME_EXCHANGE
	return renameat2(AT_FDCWD, dir->temporary, AT_FDCWD, dir->path, RENAME_EXCHANGE);
#else
	(void)dir;
	errno = ENOSYS;
	return -1;
#endif
}

static int swap(const struct vlr_whole_dir *dir, struct vlr_error *err)
{
	struct stat info;

	if (lstat(dir->path, &info) && errno == ENOENT) {
		if (rename(dir->temporary, dir->path))
			return vlr_fail(err, "%s: cannot rename %s into place: %s", dir->path,
					dir->temporary, strerror(errno));
		return 0;
	}
	if (!dir->exchange)
		return swap_by_renames(dir, err);
	if (!exchange(dir)) {
		remove_tree(dir->temporary);
		return 0;
	}
	if (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP)
		return swap_by_renames(dir, err);
	return vlr_fail(err, "%s: cannot exchange it with %s: %s", dir->path,
			dir->temporary, strerror(errno));
}

int vlr_whole_dir_close(struct vlr_whole_dir *dir, int failed, struct vlr_error *err)
{
	if (!failed)
		failed = sync_dir(dir->temporary, err) || swap(dir, err) ||
			 sync_parent(dir->path, err);
	if (failed)
		remove_tree(dir->temporary);
	unlock(dir);
	return failed ? -1 : 0;
}
