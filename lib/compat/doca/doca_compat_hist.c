/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA histograms on lib/dev's (pcc_dev_hist.h): configured from
 * doca_pcc_dev_user_init() before the device exists, applied by
 * pcc_dev_plugin_apply().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "doca_compat_internal.h"

/* ---- Histograms ---------------------------------------------------------------------- */

static bool
doca_device_ready(void)
{
	return pcc_dev_logical_ports() != 0;
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_init(uint32_t port_num, uint32_t target_app, uint32_t counter_group_id,
		uint32_t histogram_id, const uint32_t *edges, uint32_t num_bins,
		doca_pcc_dev_histogram_mode_t mode, const char *description,
		doca_pcc_dev_histogram_t *h)
{
	struct pcc_doca_histogram *d;
	bool uniform = true;
	uint32_t i;
	int rc;

	if (h == NULL || edges == NULL || port_num >= PCC_DEV_MAX_PORTS ||
			target_app != DOCA_PCC_DEV_TARGET_APP_RP ||
			counter_group_id > DOCA_PCC_DEV_MAX_NUM_COUNTER_GROUP ||
			histogram_id >= PCC_DEV_MAX_HISTS || num_bins < 1 ||
			num_bins > PCC_DEV_HIST_MAX_BINS ||
			(uint32_t)mode > DOCA_PCC_DEV_HISTOGRAM_MODE_FREE)
		return doca_fail("%s: port %u app %u group %u id %u bins %u mode %u", __func__,
				port_num, target_app, counter_group_id, histogram_id, num_bins,
				(unsigned int)mode);
	for (i = 0; i < num_bins; i++) {
		if (edges[i + 1] <= edges[i])
			return doca_fail("%s: histogram %u: edges must increase", __func__,
					histogram_id);
		if (edges[i + 1] - edges[i] != edges[1] - edges[0])
			uniform = false;
	}
	d = &doca_hists[port_num][histogram_id];
	memset(d, 0, sizeof(*d));
	d->used = 1;
	d->port = (uint8_t)port_num;
	d->id = (uint8_t)histogram_id;
	memcpy(d->edges, edges, num_bins * sizeof(uint32_t));
	if (description != NULL)
		snprintf(d->desc, sizeof(d->desc), "%s", description);
	d->conf.n_bins = (uint8_t)num_bins;
	d->conf.desc = d->desc;
	if (mode == DOCA_PCC_DEV_HISTOGRAM_MODE_LINEAR && uniform) {
		d->conf.mode = PCC_DEV_HIST_LINEAR;
		d->conf.min = edges[0];
		d->conf.step = edges[1] - edges[0];
	} else {
		d->conf.mode = PCC_DEV_HIST_FREE;
		d->conf.edges = d->edges;
	}
	*h = d;
	if (!doca_device_ready()) {
		d->pending = 1;
		return DOCA_PCC_DEV_STATUS_OK;
	}
	rc = pcc_dev_hist_init(d->port, d->id, &d->conf);
	if (rc < 0)
		return doca_fail("%s: port %u histogram %u: %s", __func__, port_num, histogram_id,
				strerror(-rc));
	return DOCA_PCC_DEV_STATUS_OK;
}

void
doca_pcc_dev_histogram_update(doca_pcc_dev_histogram_t h, uint32_t value)
{
	if (h == NULL || !doca_cur.in_algo || h->pending)
		return;
	pcc_dev_hist_update(h->port, doca_cur.slot, h->id, value);
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_clear(doca_pcc_dev_histogram_t h)
{
	if (h == NULL || !h->used)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (h->pending)
		return h->enable_pending ? DOCA_PCC_DEV_STATUS_FAIL : DOCA_PCC_DEV_STATUS_OK;
	return pcc_dev_hist_clear(h->port, h->id) == 0 ? DOCA_PCC_DEV_STATUS_OK :
							 DOCA_PCC_DEV_STATUS_FAIL;
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_enable(doca_pcc_dev_histogram_t h)
{
	if (h == NULL || !h->used)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (h->pending) {
		h->enable_pending = 1;
		return DOCA_PCC_DEV_STATUS_OK;
	}
	return pcc_dev_hist_enable(h->port, h->id) == 0 ? DOCA_PCC_DEV_STATUS_OK :
							  DOCA_PCC_DEV_STATUS_FAIL;
}

doca_pcc_dev_error_t
doca_pcc_dev_histogram_disable(doca_pcc_dev_histogram_t h)
{
	if (h == NULL || !h->used)
		return DOCA_PCC_DEV_STATUS_FAIL;
	if (h->pending) {
		h->enable_pending = 0;
		return DOCA_PCC_DEV_STATUS_OK;
	}
	return pcc_dev_hist_disable(h->port, h->id) == 0 ? DOCA_PCC_DEV_STATUS_OK :
							   DOCA_PCC_DEV_STATUS_FAIL;
}

const char *
doca_pcc_dev_histogram_get_description(doca_pcc_dev_histogram_t h)
{
	return h != NULL ? h->desc : "";
}

/* pcc_dev_plugin_apply(): histograms configured before the device existed. */
int
doca_hist_apply(void *arg)
{
	struct pcc_doca_histogram *d;
	uint32_t ports = pcc_dev_logical_ports();
	unsigned int p, i;
	int rc;

	RTE_SET_USED(arg);
	for (p = 0; p < PCC_DEV_MAX_PORTS; p++) {
		for (i = 0; i < PCC_DEV_MAX_HISTS; i++) {
			d = &doca_hists[p][i];
			if (!d->pending || (ports & (1u << p)) == 0)
				continue;
			rc = pcc_dev_hist_init(d->port, d->id, &d->conf);
			if (rc == 0 && d->enable_pending)
				rc = pcc_dev_hist_enable(d->port, d->id);
			if (rc < 0) {
				DOCA_LOG(ERR, "port %u histogram %u: %s", p, i, strerror(-rc));
				return rc;
			}
			d->pending = 0;
		}
	}
	return 0;
}
