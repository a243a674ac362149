/*
 * fuzz_util.h - what the libFuzzer harnesses share: each run's input as a
 * file in a private scratch directory (the readers take paths), and a
 * fixed small fabric routed into a table directory, against which the
 * table-file harnesses read their input and then verify the tables.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#ifndef VLROUTE_FUZZ_UTIL_H
#define VLROUTE_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <vlroute/vlroute.h>

/* libFuzzer's entry points; every harness defines the second. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop the fuzzer with a message: something the harness checks is wrong. */
void fuzz_die(const char *what, const char *detail);

/*
 * The scratch directory of this process (created on first use, removed at
 * exit) and a path inside it; the path lives until the next call.
 */
const char *fuzz_path(const char *name);

/* Write size bytes of data to path, replacing it, or die. */
void fuzz_write(const char *path, const uint8_t *data, size_t size);

/*
 * Does the input name a file to include outside the scratch directory
 * ("include" and a '/' anywhere)? The net-file reader opens what an
 * include names, and a device such as /dev/stdin would block the run.
 */
int fuzz_includes_outside(const uint8_t *data, size_t size);

/*
 * Make the fixture now (libFuzzer's LLVMFuzzerInitialize): the 3x2 HyperX
 * with one host per switch, LMC 1, routed by the valiant engine and
 * written by vlr_tables_write_dir with the text dumps (fabric.net,
 * guid2lid, opensm-lfts.dump, opensm-sl2vl.dump, vlroute-path-sl.dump,
 * vlroute-valiant.dump) with an opensm-subnet.lst as OpenSM writes it,
 * into the scratch directory, or into $VLR_FUZZ_FIXTURE (kept:
 * fuzz/make-corpus.sh takes its seeds there), and in its compact form
 * (vlroute-lfts.bin, vlroute-sl2vl.bin, vlroute-path-sl.bin) into the
 * scratch directory.
 */
void fuzz_init_fixture(void);

/* Verify tables; a verifier that cannot run on tables a reader accepted dies. */
void fuzz_verify(const struct vlr_tables *tables);

/*
 * The table-file harnesses: put the input in place of file in the
 * fixture's directory (the compact one for a compact file), read the
 * directory as "vlroute verify" does and verify what was accepted. For
 * opensm-subnet.lst the directory holds only it and opensm-lfts.dump, so
 * that the topology and LIDs come from it.
 */
int fuzz_table_file(const char *file, const uint8_t *data, size_t size);

/* The whole harness of the table file named file (a VLR_FILE_ name). */
#define FUZZ_TABLE_HARNESS(file)						\
	int LLVMFuzzerInitialize(int *argc, char ***argv)			\
	{									\
		(void)argc;							\
		(void)argv;							\
		fuzz_init_fixture();						\
		return 0;							\
	}									\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
	{									\
		return fuzz_table_file(file, data, size);			\
	}

#endif
