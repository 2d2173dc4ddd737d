/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A slot's counters: the calling thread's block (fast path), set by
 * algorithms, read and cleared by the host over all thread sets (layout:
 * dev_core.c).
 */

#include <errno.h>

#include "dev_internal.h"

/* ---- Counters -------------------------------------------------------- */

uint32_t *
pcc_dev_counters_group(uint8_t port, uint8_t slot, uint8_t group)
{
	struct dev_slot *s = dev_slot_get(port, slot);
	uint32_t *c = s != NULL ? dev_slot_counters(s) : NULL;

	if (c == NULL || group >= s->n_groups)
		return NULL;
	return c + dev_group_off(s, group);
}

int
pcc_dev_threads_per_counter_set(uint32_t n)
{
	int rc = 0;

	if (n < 1 || n > PCC_DEV_MAX_THREADS)
		return -EINVAL;
	dev_lock();
	if (dev_g.init && n != dev_tpcs)
		rc = -EBUSY;
	else
		dev_tpcs = n;
	dev_unlock();
	return rc;
}

uint32_t
pcc_dev_threads_per_counter_set_get(void)
{
	return dev_tpcs;
}

/*
 * pcc_dev_counters_group(port, slot, 0) without the group's arithmetic:
 * algorithms fetch their counters on every event that counts.
 */
uint32_t *
pcc_dev_counters(uint8_t port, uint8_t slot)
{
	struct dev_slot *s = dev_slot_get(port, slot);

	return s != NULL ? dev_slot_counters(s) : NULL;
}

void
pcc_dev_counter_add(uint8_t port, uint8_t slot, uint32_t id, uint32_t v)
{
	struct dev_slot *s = dev_slot_get(port, slot);
	uint32_t *c, cur, max;

	if (s == NULL || s->ctrs == NULL || !s->counters_on || id >= s->n_counters)
		return;
	c = &s->ctrs[dev_counter_set() * s->stride + id];
	if (s->ctr_type[id] != PCC_DEV_COUNTER_ACCUMULATE) {
		pcc_dev_counter_update(port, slot, id, v);
		return;
	}
	cur = *c;
	max = s->ctr_max[id];
	cur = (v > max || cur > max - v) ? max : cur + v;
	__atomic_store_n(c, cur, __ATOMIC_RELAXED);
}

void
pcc_dev_counter_update(uint8_t port, uint8_t slot, uint32_t id, uint32_t v)
{
	struct dev_slot *s = dev_slot_get(port, slot);
	uint32_t *c, cur, max, nv;

	if (s == NULL || s->ctrs == NULL || !s->counters_on || id >= s->n_counters)
		return;
	c = &s->ctrs[dev_counter_set() * s->stride + id];
	cur = *c;
	max = s->ctr_max[id];
	v = RTE_MIN(v, max);
	switch (s->ctr_type[id]) {
	case PCC_DEV_COUNTER_MIN:
		nv = RTE_MIN(cur, v);
		break;
	case PCC_DEV_COUNTER_MAX:
		nv = RTE_MAX(cur, v);
		break;
	default:
		nv = v;
		break;
	}
	__atomic_store_n(c, nv, __ATOMIC_RELAXED);
}

int
pcc_dev_counters_enable(uint8_t port, uint8_t slot, bool enable)
{
	struct dev_slot *s;
	int rc;

	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0)
		__atomic_store_n(&s->counters_on, enable ? 1 : 0, __ATOMIC_RELAXED);
	dev_unlock();
	return rc;
}

bool
pcc_dev_counters_enabled(uint8_t port, uint8_t slot)
{
	struct dev_slot *s = dev_slot_get(port, slot);

	return s != NULL && s->bound && s->counters_on;
}

int
pcc_dev_counter_groups(uint8_t port, uint8_t slot)
{
	struct dev_slot *s;
	int rc;

	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc == 0)
		rc = s->n_groups;
	dev_unlock();
	return rc;
}

/* Read (and optionally reset) word w of group g over all thread sets. */
static uint32_t
combine(struct dev_slot *s, uint32_t g, uint32_t w, bool clear)
{
	uint32_t sets = (uint32_t)dev_g.n_threads + 1, t, off = dev_group_off(s, g) + w;
	uint8_t type = g == 0 ? s->ctr_type[w] : PCC_DEV_COUNTER_ACCUMULATE;
	uint32_t max = g == 0 ? s->ctr_max[w] : UINT32_MAX;
	uint32_t reset = g == 0 ? dev_ctr_reset_value(s, w) : 0;
	uint64_t acc = type == PCC_DEV_COUNTER_MIN ? UINT64_MAX : 0;

	for (t = 0; t < sets; t++) {
		uint32_t *p = &s->ctrs[t * s->stride + off];
		uint32_t v = clear ? __atomic_exchange_n(p, reset, __ATOMIC_RELAXED) :
				     dev_ctr_read(p);

		if (type == PCC_DEV_COUNTER_MIN)
			acc = RTE_MIN(acc, (uint64_t)v);
		else if (type == PCC_DEV_COUNTER_MAX)
			acc = RTE_MAX(acc, (uint64_t)v);
		else
			acc += v;
	}
	return acc > max ? max : (uint32_t)acc;
}

static int
group_get(uint8_t port, uint8_t slot, uint8_t group, uint32_t *values, uint32_t n, bool clear)
{
	struct dev_slot *s;
	uint32_t i, size;
	int rc;

	dev_lock();
	rc = dev_check_slot(port, slot, &s);
	if (rc < 0)
		goto out;
	if (values == NULL || group >= s->n_groups) {
		rc = -EINVAL;
		goto out;
	}
	if (clear && group > 0) {
		const struct dev_hist *h = dev_g.port[port].hist;
		uint32_t h0 = (group - 1u) * 2u;

		if ((h0 < PCC_DEV_MAX_HISTS && h[h0].enabled) ||
				(h0 + 1 < PCC_DEV_MAX_HISTS && h[h0 + 1].enabled)) {
			rc = -EBUSY;
			goto out;
		}
	}
	size = group == 0 ? s->n_counters : PCC_DEV_COUNTER_GROUP_SIZE;
	n = RTE_MIN(n, size);
	for (i = 0; i < n; i++)
		values[i] = combine(s, group, i, clear);
	rc = (int)n;
out:
	dev_unlock();
	return rc;
}

int
pcc_dev_counters_get(uint8_t port, uint8_t slot, uint32_t *values, uint32_t n)
{
	return group_get(port, slot, 0, values, n, false);
}

int
pcc_dev_counters_get_and_clear(uint8_t port, uint8_t slot, uint32_t *values, uint32_t n)
{
	return group_get(port, slot, 0, values, n, true);
}

int
pcc_dev_counters_group_get(uint8_t port, uint8_t slot, uint8_t group, uint32_t *values, uint32_t n)
{
	return group_get(port, slot, group, values, n, false);
}

int
pcc_dev_counters_group_get_and_clear(
		uint8_t port, uint8_t slot, uint8_t group, uint32_t *values, uint32_t n)
{
	return group_get(port, slot, group, values, n, true);
}
