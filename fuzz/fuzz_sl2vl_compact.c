/*
 * fuzz_sl2vl_compact.c - libFuzzer harness of the reader of
 * vlroute-sl2vl.bin, the SL2VL tables in compact form (vlroute-tables(5)).
 * Each input replaces that file in the fixture's compact table directory (a
 * small routed HyperX, see fuzz_util.h), the directory is read as "vlroute
 * verify" reads it, and whatever the readers accept is verified: neither
 * the reader nor the verifier may crash, leak or hang.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include "fuzz_util.h"

FUZZ_TABLE_HARNESS(VLR_FILE_SL2VL_COMPACT)
