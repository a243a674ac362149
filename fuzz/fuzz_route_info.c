/*
 * fuzz_route_info.c - libFuzzer harness of the reader of
 * vlroute-route.info (the engine that made a table directory, its routing
 * time, VL policy, LMC and data VLs, and the mark of tables for ideal VLs
 * only): it may refuse an input but never crash, leak or hang, and what it
 * accepts is an engine name and a policy that fit and are terminated, an
 * LMC and data VLs in range or unknown, and a mark that says what the
 * tables need.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vlr_route_info info;
	struct vlr_error err;

	fuzz_write(fuzz_path(VLR_FILE_ROUTE_INFO), data, size);
	if (vlr_route_info_read(fuzz_path(""), &info, &err))
		return 0;
	if (strnlen(info.engine, sizeof(info.engine)) == sizeof(info.engine))
		fuzz_die("the engine name is not terminated", VLR_FILE_ROUTE_INFO);
	if (strnlen(info.vl_policy, sizeof(info.vl_policy)) == sizeof(info.vl_policy))
		fuzz_die("the VL policy is not terminated", VLR_FILE_ROUTE_INFO);
	if (info.lmc < -1 || info.lmc > VLR_MAX_LMC)
		fuzz_die("the LMC is out of range", VLR_FILE_ROUTE_INFO);
	if (info.vls != -1 && (info.vls < 1 || info.vls > VLR_MAX_DATA_VLS))
		fuzz_die("the data VLs are out of range", VLR_FILE_ROUTE_INFO);
	if (info.unprogrammable.marked && !info.unprogrammable.vls)
		fuzz_die("a mark without the VLs the tables need", VLR_FILE_ROUTE_INFO);
	return 0;
}
