/*
 * fuzz_experiment_csv.c - libFuzzer harness of the reader of the merged
 * CSV files of vlroute experiment (exp_csv_read, exp_csv_get: runs.csv
 * and bins.csv, RFC 4180 quoting, read back by "experiment plot"). It may
 * refuse an input, with a message naming the file, but never crash, leak
 * or hang; what it accepts has a field for every row and column, found
 * by exp_csv_get under its column's name; and the same fields written
 * again by the merge's own writer (exp_csv_field) read back to the same
 * fields: the reader and the writer agree.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void write_csv(const struct exp_csv *csv, const char *path)
{
	FILE *out = fopen(path, "w");
	unsigned r, c;

	if (!out)
		fuzz_die("cannot write", path);
	for (c = 0; c < csv->columns; c++)
		exp_csv_field(out, csv->names[c], !c);
	if (csv->columns)
		fputc('\n', out);
	for (r = 0; r < csv->rows; r++) {
		for (c = 0; c < csv->columns; c++)
			exp_csv_field(out, csv->fields[r * csv->columns + c], !c);
		fputc('\n', out);
	}
	if (fclose(out))
		fuzz_die("cannot write", path);
}

/* The first column of csv named name (exp_csv_get finds that one). */
static unsigned first_column(const struct exp_csv *csv, const char *name)
{
	unsigned c = 0;

	while (strcmp(csv->names[c], name))
		c++;
	return c;
}

static void check_fields(const struct exp_csv *csv)
{
	unsigned r, c;

	for (c = 0; c < csv->columns; c++)
		if (!csv->names[c])
			fuzz_die("a column without a name", "runs.csv");
	for (r = 0; r < csv->rows; r++)
		for (c = 0; c < csv->columns; c++)
			if (exp_csv_get(csv, r, csv->names[c]) !=
			    csv->fields[r * csv->columns + first_column(csv, csv->names[c])])
				fuzz_die("exp_csv_get misses a field", csv->names[c]);
	if (csv->columns && exp_csv_get(csv, csv->rows, csv->names[0]))
		fuzz_die("exp_csv_get finds a row past the last", "runs.csv");
}

/* Written again as the merge writes, the fields read back the same. */
static void check_round_trip(const struct exp_csv *csv)
{
	const char *path = fuzz_path("again.csv");
	struct exp_csv *again;
	struct vlr_error err;
	unsigned i;

	write_csv(csv, path);
	again = exp_csv_read(path, &err);
	if (!again)
		fuzz_die("the fields written again are refused", err.message);
	if (again->columns != csv->columns || again->rows != csv->rows)
		fuzz_die("the fields written again read back to another shape", path);
	for (i = 0; i < csv->columns; i++)
		if (strcmp(again->names[i], csv->names[i]))
			fuzz_die("a column name written again reads back otherwise", csv->names[i]);
	for (i = 0; i < csv->rows * csv->columns; i++)
		if (strcmp(again->fields[i], csv->fields[i]))
			fuzz_die("a field written again reads back otherwise", csv->fields[i]);
	exp_csv_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path("runs.csv");
	struct exp_csv *csv;
	struct vlr_error err;

	fuzz_write(path, data, size);
	csv = exp_csv_read(path, &err);
	if (!csv) {
		if (!strstr(err.message, "runs.csv"))
			fuzz_die("a refusal that does not name the file", err.message);
		return 0;
	}
	check_fields(csv);
	check_round_trip(csv);
	exp_csv_free(csv);
	return 0;
}
