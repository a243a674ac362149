/*
 * fuzz_osm_config.c - libFuzzer harness of the OpenSM plugin's
 * vlroute.conf reader (osm_plugin/config.c, linked from
 * libvlroute_osm_config without OpenSM's libraries): it may refuse an
 * input but never crash, leak or hang, and what it accepts stays within
 * the limits vlroute.conf(5) gives.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "fuzz_util.h"
#include "vlroute_osm.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_path("vlroute.conf");
	struct vlr_osm_config config;
	struct vlr_error err;

	fuzz_write(path, data, size);
	if (vlr_osm_config_read(path, 1, &config, &err))
		return 0;
	if (config.max_vls > VLR_MAX_DATA_VLS || config.dim_order_count > VLR_MAX_DIMS ||
	    config.restricted > VLR_MAX_RESTRICTED ||
	    strnlen(config.path_sl_file, sizeof(config.path_sl_file)) ==
	    sizeof(config.path_sl_file))
		fuzz_die("vlroute.conf", "an accepted option is out of its range");
	return 0;
}
