/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Histograms.  Configuration per (port, id); bins in the counter groups
 * of the updating slot, one set per thread (see pcc_dev_hist.h).
 */

#include <errno.h>
#include <string.h>

#include <rte_string_fns.h>

#include "dev_internal.h"
#include "pcc_dev_fxp.h"

static int
check_hist(uint8_t port, uint8_t h)
{
	if (!dev_g.init)
		return -ENODEV;
	if (port >= dev_g.n_ports || h >= PCC_DEV_MAX_HISTS)
		return -EINVAL;
	return 0;
}

/* Bins of histogram h in thread set t of slot s, NULL if it has none. */
static uint32_t *
slot_bins(const struct dev_slot *s, uint32_t t, uint8_t h)
{
	if (!s->bound || s->ctrs == NULL || DEV_HIST_GROUP(h) >= s->n_groups)
		return NULL;
	return s->ctrs + t * s->stride + dev_group_off(s, DEV_HIST_GROUP(h)) + DEV_HIST_OFF(h);
}

void
dev_hist_clear_bins(uint8_t port, uint8_t h)
{
	uint32_t sets = (uint32_t)dev_g.n_threads + 1, t, i, b;

	for (i = 0; i < DEV_NB_SLOTS; i++) {
		for (t = 0; t < sets; t++) {
			uint32_t *bins = slot_bins(&dev_g.port[port].slot[i], t, h);

			if (bins == NULL)
				break;
			for (b = 0; b < PCC_DEV_HIST_MAX_BINS; b++)
				__atomic_store_n(&bins[b], 0, __ATOMIC_RELAXED);
		}
	}
}

/* Compute the lower edges of conf into h; 0 or errno. */
static int
build_edges(struct dev_hist *h, const struct pcc_dev_hist_conf *c)
{
	uint32_t i;
	uint64_t e;

	switch (c->mode) {
	case PCC_DEV_HIST_LINEAR:
		if (c->step == 0)
			return -EINVAL;
		for (i = 0; i < c->n_bins; i++) {
			e = (uint64_t)c->min + (uint64_t)i * c->step;
			if (e > UINT32_MAX)
				return -ERANGE;
			h->edges[i] = (uint32_t)e;
		}
		h->lin_shift = rte_is_power_of_2(c->step) ? (uint8_t)rte_bsf32(c->step) : 0xff;
		return 0;
	case PCC_DEV_HIST_EXPONENTIAL:
		if (c->min == 0 || c->factor <= PCC_DEV_FXP16_ONE)
			return -EINVAL;
		h->edges[0] = c->min;
		for (i = 1; i < c->n_bins; i++) {
			e = pcc_dev_mult(h->edges[i - 1], c->factor) >> PCC_DEV_FXP16_SHIFT;
			e = RTE_MAX(e, (uint64_t)h->edges[i - 1] + 1);
			if (e > UINT32_MAX)
				return -ERANGE;
			h->edges[i] = (uint32_t)e;
		}
		return 0;
	case PCC_DEV_HIST_FREE:
		if (c->edges == NULL)
			return -EINVAL;
		for (i = 0; i < c->n_bins; i++) {
			if (i > 0 && c->edges[i] <= c->edges[i - 1])
				return -EINVAL;
			h->edges[i] = c->edges[i];
		}
		return 0;
	default:
		return -EINVAL;
	}
}

int
pcc_dev_hist_init(uint8_t port, uint8_t hist_id, const struct pcc_dev_hist_conf *conf)
{
	struct dev_hist tmp, *h;
	int rc;

	dev_lock();
	rc = check_hist(port, hist_id);
	if (rc == 0 && (conf == NULL || conf->n_bins == 0 || conf->n_bins > PCC_DEV_HIST_MAX_BINS))
		rc = -EINVAL;
	if (rc < 0)
		goto out;
	h = &dev_g.port[port].hist[hist_id];
	if (h->enabled) {
		rc = -EBUSY;
		goto out;
	}
	memset(&tmp, 0, sizeof(tmp));
	rc = build_edges(&tmp, conf);
	if (rc < 0) {
		DEV_LOG(ERR, "port %u histogram %u: bad configuration (%d)", port, hist_id, rc);
		goto out;
	}
	tmp.configured = 1;
	tmp.mode = conf->mode;
	tmp.n_bins = conf->n_bins;
	tmp.min = conf->min;
	tmp.step = conf->step;
	tmp.factor = conf->factor;
	if (conf->desc != NULL)
		rte_strlcpy(tmp.desc, conf->desc, sizeof(tmp.desc));
	*h = tmp;
	dev_hist_clear_bins(port, hist_id);
out:
	dev_unlock();
	return rc;
}

static int
set_enabled(uint8_t port, uint8_t hist_id, bool enable)
{
	struct dev_hist *h;
	int rc;

	dev_lock();
	rc = check_hist(port, hist_id);
	if (rc == 0) {
		h = &dev_g.port[port].hist[hist_id];
		if (!h->configured)
			rc = -ENOENT;
		else
			__atomic_store_n(&h->enabled, enable ? 1 : 0, __ATOMIC_RELEASE);
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_hist_enable(uint8_t port, uint8_t hist_id)
{
	return set_enabled(port, hist_id, true);
}

int
pcc_dev_hist_disable(uint8_t port, uint8_t hist_id)
{
	return set_enabled(port, hist_id, false);
}

int
pcc_dev_hist_clear(uint8_t port, uint8_t hist_id)
{
	struct dev_hist *h;
	int rc;

	dev_lock();
	rc = check_hist(port, hist_id);
	if (rc == 0) {
		h = &dev_g.port[port].hist[hist_id];
		if (!h->configured)
			rc = -ENOENT;
		else if (h->enabled)
			rc = -EBUSY;
		else
			dev_hist_clear_bins(port, hist_id);
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_hist_describe(uint8_t port, uint8_t hist_id, struct pcc_dev_hist_desc *d)
{
	const struct dev_hist *h;
	int rc;

	dev_lock();
	rc = check_hist(port, hist_id);
	if (rc == 0 && d == NULL)
		rc = -EINVAL;
	if (rc == 0) {
		h = &dev_g.port[port].hist[hist_id];
		if (!h->configured) {
			rc = -ENOENT;
		} else {
			memset(d, 0, sizeof(*d));
			d->mode = h->mode;
			d->n_bins = h->n_bins;
			d->enabled = h->enabled;
			d->counter_group = (uint8_t)DEV_HIST_GROUP(hist_id);
			d->group_offset = (uint8_t)DEV_HIST_OFF(hist_id);
			d->min = h->min;
			d->step = h->step;
			d->factor = h->factor;
			memcpy(d->edges, h->edges, sizeof(d->edges));
			memcpy(d->desc, h->desc, sizeof(d->desc));
		}
	}
	dev_unlock();
	return rc;
}

int
pcc_dev_hist_bins(uint8_t port, uint8_t hist_id, uint32_t *bins, uint32_t n)
{
	uint32_t sets = (uint32_t)dev_g.n_threads + 1, i, t, b;
	uint64_t sum[PCC_DEV_HIST_MAX_BINS] = { 0 };
	const struct dev_hist *h;
	int rc;

	dev_lock();
	rc = check_hist(port, hist_id);
	if (rc == 0 && bins == NULL)
		rc = -EINVAL;
	if (rc < 0)
		goto out;
	h = &dev_g.port[port].hist[hist_id];
	if (!h->configured) {
		rc = -ENOENT;
		goto out;
	}
	n = RTE_MIN(n, (uint32_t)h->n_bins);
	for (i = 0; i < DEV_NB_SLOTS; i++) {
		for (t = 0; t < sets; t++) {
			const uint32_t *p = slot_bins(&dev_g.port[port].slot[i], t, hist_id);

			if (p == NULL)
				break;
			for (b = 0; b < n; b++)
				sum[b] += dev_ctr_read(&p[b]);
		}
	}
	for (b = 0; b < n; b++)
		bins[b] = sum[b] > UINT32_MAX ? UINT32_MAX : (uint32_t)sum[b];
	rc = (int)n;
out:
	dev_unlock();
	return rc;
}

uint32_t
pcc_dev_hist_configured(uint8_t port)
{
	uint32_t m = 0, i;

	dev_lock();
	if (dev_g.init && port < dev_g.n_ports)
		for (i = 0; i < PCC_DEV_MAX_HISTS; i++)
			if (dev_g.port[port].hist[i].configured)
				m |= 1u << i;
	dev_unlock();
	return m;
}

/* Index of the last edge <= v (0 when v is below every edge). */
static inline uint32_t
bin_of(const struct dev_hist *h, uint32_t v)
{
	uint32_t lo = 0, n = h->n_bins, half;

	if (h->mode == PCC_DEV_HIST_LINEAR) {
		uint32_t b;

		if (v < h->min)
			return 0;
		b = h->lin_shift != 0xff ? (v - h->min) >> h->lin_shift : (v - h->min) / h->step;
		return b < n ? b : n - 1;
	}
	while (n > 1) {
		half = n / 2;
		lo += h->edges[lo + half] <= v ? half : 0; /* branchless (cmov) */
		n -= half;
	}
	return lo;
}

int
pcc_dev_hist_update(uint8_t port, uint8_t slot, uint8_t hist_id, uint32_t value)
{
	struct dev_port *P;
	const struct dev_slot *s;
	const struct dev_hist *h;
	uint32_t set, *bins, b;

	if (unlikely(port >= dev_g.n_ports))
		return -EINVAL;
	P = &dev_g.port[port];
	set = dev_thread_set();
	if (unlikely(!dev_slot_valid(slot) || hist_id >= PCC_DEV_MAX_HISTS)) {
		P->hist_err[set]++;
		return -EINVAL;
	}
	s = &P->slot[slot];
	if (unlikely(!((s->hist_allowed >> hist_id) & 1u))) {
		P->hist_err[set]++;
		return s->bound ? -EPERM : -ENOENT;
	}
	h = &P->hist[hist_id];
	if (!__atomic_load_n(&h->enabled, __ATOMIC_ACQUIRE))
		return 1;
	b = bin_of(h, value);
	bins = s->ctrs + dev_counter_set() * s->stride + dev_group_off(s, DEV_HIST_GROUP(hist_id)) +
			DEV_HIST_OFF(hist_id);
	if (bins[b] != UINT32_MAX)
		__atomic_store_n(&bins[b], bins[b] + 1, __ATOMIC_RELAXED);
	return 0;
}

uint64_t
pcc_dev_hist_errors(uint8_t port)
{
	uint64_t sum = 0;
	uint32_t t;

	if (!dev_g.init || port >= dev_g.n_ports)
		return 0;
	for (t = 0; t <= dev_g.n_threads; t++)
		sum += __atomic_load_n(&dev_g.port[port].hist_err[t], __ATOMIC_RELAXED);
	return sum;
}
