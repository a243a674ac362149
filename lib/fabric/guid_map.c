/*
 * guid_map.c - GUID -> index maps: open addressing from a non-zero node or
 * port GUID to a node index, port slot or switch index. The table-file
 * readers, the capture, the fabric builder and the OpenSM plugin find what
 * a GUID names through them.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <stdlib.h>

#include <vlroute/fabric.h>

static uint32_t slot_of(uint64_t guid, uint32_t mask)
{
	return (uint32_t)((guid * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

static int map_alloc(struct vlr_guid_map *map, uint32_t slots, struct vlr_error *err)
{
	map->keys = calloc(slots, sizeof(uint64_t));
	map->values = malloc(sizeof(uint32_t) * slots);
	map->mask = slots - 1;
	map->count = 0;
	if (!map->keys || !map->values) {
		free(map->keys);
		free(map->values);
		map->keys = NULL;
		map->values = NULL;
		return vlr_fail(err, "out of memory for a GUID index of %u entries", slots);
	}
	return 0;
}

int vlr_guid_map_init(struct vlr_guid_map *map, uint32_t expected,
		      struct vlr_error *err)
{
	uint32_t slots = 64;

	while (slots < 2 * (uint64_t)expected && slots < (1u << 31))
		slots *= 2;
	return map_alloc(map, slots, err);
}

void vlr_guid_map_free(struct vlr_guid_map *map)
{
	free(map->keys);
	free(map->values);
	map->keys = NULL;
	map->values = NULL;
}

uint32_t vlr_guid_map_get(const struct vlr_guid_map *map, uint64_t guid)
{
	uint32_t slot = slot_of(guid, map->mask);

	if (!guid || !map->keys)
		return VLR_NONE;
	while (map->keys[slot]) {
		if (map->keys[slot] == guid)
			return map->values[slot];
		slot = (slot + 1) & map->mask;
	}
	return VLR_NONE;
}

static void insert_fresh(struct vlr_guid_map *map, uint64_t guid, uint32_t value)
{
	uint32_t slot = slot_of(guid, map->mask);

	while (map->keys[slot])
		slot = (slot + 1) & map->mask;
	map->keys[slot] = guid;
	map->values[slot] = value;
	map->count++;
}

static int grow(struct vlr_guid_map *map, struct vlr_error *err)
{
	struct vlr_guid_map old = *map;
	uint32_t slot;

	if (map_alloc(map, (old.mask + 1) * 2, err)) {
		*map = old;
		return -1;
	}
	for (slot = 0; slot <= old.mask; slot++)
		if (old.keys[slot])
			insert_fresh(map, old.keys[slot], old.values[slot]);
	vlr_guid_map_free(&old);
	return 0;
}

uint32_t vlr_guid_map_put(struct vlr_guid_map *map, uint64_t guid, uint32_t value,
			  struct vlr_error *err)
{
	uint32_t existing = vlr_guid_map_get(map, guid);

	if (existing != VLR_NONE)
		return existing;
	if ((map->count + 1) * 2 > map->mask + 1 && grow(map, err))
		return VLR_GUID_MAP_FAILED;
	insert_fresh(map, guid, value);
	return VLR_NONE;
}
