/*
 * analyze_linkload.c - the all-to-all load of every channel, summed up:
 * per class of channel, a histogram of the switch-to-switch channels and
 * the hottest of them, named by switch and port.
 *
 * Copyright (c) 2026 the vlroute developers.
 * SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
 */
#include <string.h>

#include "analyze_internal.h"

static int is_switch_class(unsigned channel_class)
{
	return channel_class >= VLR_CHANNEL_SWITCH && channel_class < VLR_CHANNEL_CLASSES;
}

static void add_load(struct vlr_load_stats *stats, double load)
{
	if (!stats->channels || load < stats->min)
		stats->min = load;
	if (!stats->channels || load > stats->max)
		stats->max = load;
	stats->mean += load;	/* a sum until finish_stats */
	stats->channels++;
}

static void finish_stats(struct vlr_load_stats *stats)
{
	if (stats->channels)
		stats->mean /= stats->channels;
}

/* Keep the VLR_ANALYZE_HOTTEST busiest channels, busiest first, ties by port. */
static void consider_hot(struct vlr_linkload_report *r, uint32_t port, double load)
{
	unsigned i = r->hottest_count < VLR_ANALYZE_HOTTEST ? r->hottest_count++ :
		     VLR_ANALYZE_HOTTEST;

	if (i == VLR_ANALYZE_HOTTEST) {
		if (load <= r->hottest[i - 1].load)
			return;
		i--;
	}
	while (i > 0 && r->hottest[i - 1].load < load) {
		r->hottest[i] = r->hottest[i - 1];
		i--;
	}
	r->hottest[i].port = port;
	r->hottest[i].load = load;
}

static void fill_histogram(const struct vlr_analysis *a, struct vlr_linkload_report *r)
{
	uint32_t port;

	r->bin_start = r->switch_links.min;
	r->bin_width = (r->switch_links.max - r->switch_links.min) / VLR_ANALYZE_BINS;
	if (r->bin_width <= 0.0)
		r->bin_width = 1.0;
	for (port = 0; port < a->tables->fabric->num_ports; port++) {
		double bin;

		if (!is_switch_class(a->channel_class[port]))
			continue;
		bin = (vlr_analysis_channel_load(a, port) - r->bin_start) / r->bin_width;
		r->histogram[bin >= VLR_ANALYZE_BINS - 1 ? VLR_ANALYZE_BINS - 1 :
			     (unsigned)bin]++;
	}
}

void analyze_summarise_loads(struct vlr_analysis *a, const struct analyze_tally *tally)
{
	struct vlr_linkload_report *r = &a->linkload;
	uint32_t port;
	unsigned c;

	memset(r, 0, sizeof(*r));
	r->servers = a->servers.count;
	r->pairs = tally->pairs;
	r->routes = tally->routes;
	r->hops_min = tally->routes ? tally->hops_min : 0;
	r->hops_max = tally->hops_max;
	r->hops_mean = tally->routes ? (double)tally->hop_sum / (double)tally->routes : 0.0;
	r->bandwidth_mean = tally->pairs ? tally->bandwidth_sum / (double)tally->pairs : 0.0;
	r->bandwidth_min = tally->bandwidth_min;
	for (port = 0; port < a->tables->fabric->num_ports; port++) {
		unsigned channel_class = a->channel_class[port];
		double load = vlr_analysis_channel_load(a, port);

		if (channel_class == VLR_CHANNEL_CLASSES)
			continue;
		add_load(&r->by_class[channel_class], load);
		if (!is_switch_class(channel_class))
			continue;
		add_load(&r->switch_links, load);
		consider_hot(r, port, load);
	}
	for (c = 0; c < VLR_CHANNEL_CLASSES; c++)
		finish_stats(&r->by_class[c]);
	finish_stats(&r->switch_links);
	fill_histogram(a, r);
}
