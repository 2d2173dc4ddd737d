/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Pacer front end: validates the conf, picks the backend by name, probes
 * the port and falls back to wheel (one log line) when the port cannot
 * use it, keeps each flow's rate as set, owns the pass-through FIFO
 * (PCC_PACER_NO_FLOW and whatever a backend hands straight out) and the
 * counters, and clamps time so that backends only ever see it advance.
 */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "pacer_internal.h"

RTE_LOG_REGISTER(pcc_pacer_logtype, pcc.pacer, INFO);

static_assert(offsetof(struct pcc_pacer, priv) == 0, "pcc_pacer_priv() reads the first member");

static const struct pcc_pacer_ops *backends[PACER_BACKENDS_MAX];
static unsigned int n_backends;

int
pcc_pacer_backend_register(const struct pcc_pacer_ops *ops)
{
	if (ops == NULL || ops->name == NULL || ops->name[0] == '\0' || ops->init == NULL ||
			ops->fini == NULL || ops->set_rate == NULL || ops->enqueue == NULL ||
			ops->dequeue == NULL || ops->flow_reset == NULL ||
			ops->mem_per_flow == NULL)
		return -EINVAL;
	if (pcc_pacer_backend_find(ops->name) != NULL)
		return -EEXIST;
	if (n_backends == PACER_BACKENDS_MAX)
		return -ENOSPC;
	backends[n_backends++] = ops;
	return 0;
}

const struct pcc_pacer_ops *
pcc_pacer_backend_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < n_backends; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

/* Fill in the defaults and check the ranges; -EINVAL if out of range. */
static int
conf_normalise(const struct pcc_pacer_conf *in, struct pcc_pacer_conf *out)
{
	uint64_t horizon, nslots;

	*out = *in;
	if (in->max_flows == 0 || in->max_flows > PCC_PACER_MAX_FLOWS)
		return -EINVAL;
	if (in->max_queued > PACER_MAX_QUEUED_MAX)
		return -EINVAL;
	if (out->max_queued == 0)
		out->max_queued = PACER_MAX_QUEUED_DEFAULT;
	if (out->slot_ns == 0)
		out->slot_ns = PACER_SLOT_NS_DEFAULT;
	horizon = in->horizon_ns != 0 ?
			in->horizon_ns :
			(uint64_t)PACER_HORIZON_SLOTS_DEFAULT * PACER_SLOT_NS_DEFAULT;
	/* the horizon is a whole number of slots, at least 2, at most 2^20 */
	nslots = (horizon + out->slot_ns - 1) / out->slot_ns;
	if (nslots < 2 || nslots > (1u << 20) || nslots * out->slot_ns > UINT32_MAX)
		return -EINVAL;
	out->horizon_ns = (uint32_t)(nslots * out->slot_ns);
	if (out->line_rate_bps == 0) {
		struct rte_eth_link link;

		out->line_rate_bps = PACER_LINE_RATE_DEFAULT;
		memset(&link, 0, sizeof(link));
		if (rte_eth_dev_is_valid_port(in->port_id) &&
				rte_eth_link_get_nowait(in->port_id, &link) == 0 &&
				link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
				link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			out->line_rate_bps = (uint64_t)link.link_speed * 1000000;
		else
			PACER_LOG(DEBUG, "port %u: link speed unknown, line rate %" PRIu64 " b/s",
					in->port_id, out->line_rate_bps);
	}
	if (out->socket_id < 0)
		out->socket_id = SOCKET_ID_ANY;
	if (in->depart_off < 0 || (in->depart_off > 0 && in->depart_flag == 0))
		return -EINVAL;
	return 0;
}

static void
pacer_release(struct pcc_pacer *p)
{
	rte_free(p->pass);
	rte_free(p->rates);
	rte_free(p);
}

struct pcc_pacer *
pcc_pacer_create(const struct pcc_pacer_conf *conf)
{
	const struct pcc_pacer_ops *ops, *wheel;
	struct pcc_pacer_conf nc;
	struct pcc_pacer *p;
	uint64_t pass_n;
	const char *name;
	int ret;

	if (conf == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = conf_normalise(conf, &nc);
	if (ret < 0) {
		PACER_LOG(ERR, "invalid conf: %u flows, %u queued, slot %u ns, horizon %u ns",
				conf->max_flows, conf->max_queued, conf->slot_ns, conf->horizon_ns);
		rte_errno = -ret;
		return NULL;
	}
	name = conf->backend != NULL ? conf->backend : "wheel";
	ops = pcc_pacer_backend_find(name);
	wheel = pcc_pacer_backend_find("wheel");
	if (ops == NULL) {
		PACER_LOG(ERR, "no backend \"%s\" (pcc_pacer_drivers_register() not called?)",
				name);
		rte_errno = ENOENT;
		return NULL;
	}

	p = rte_zmalloc_socket("pcc_pacer", sizeof(*p), RTE_CACHE_LINE_SIZE, nc.socket_id);
	if (p == NULL)
		goto nomem;
	p->rates = rte_zmalloc_socket("pcc_pacer_rates", sizeof(uint64_t) * nc.max_flows,
			RTE_CACHE_LINE_SIZE, nc.socket_id);
	pass_n = (uint64_t)nc.max_flows * nc.max_queued;
	pass_n = RTE_MIN(RTE_MAX(pass_n, PACER_PASS_MIN), PACER_PASS_MAX);
	pass_n = rte_align64pow2(pass_n);
	p->pass = rte_zmalloc_socket("pcc_pacer_pass", sizeof(p->pass[0]) * pass_n,
			RTE_CACHE_LINE_SIZE, nc.socket_id);
	if (p->rates == NULL || p->pass == NULL)
		goto nomem;
	p->pass_mask = (uint32_t)pass_n - 1;

	ret = ops->probe != NULL ? ops->probe(nc.port_id) : 0;
	if (ret == 0) {
		p->ops = ops;
		p->conf = nc;
		p->conf.backend = ops->name;
		ret = ops->init(p, &p->conf);
		if (ret < 0 && ret != -ENOTSUP) {
			PACER_LOG(ERR, "port %u: backend %s: init failed: %s", nc.port_id,
					ops->name, rte_strerror(-ret));
			goto fail;
		}
	}
	if (ret < 0) {
		/* the port cannot use this backend */
		if (conf->no_fallback || ops == wheel || wheel == NULL) {
			PACER_LOG(ERR, "port %u: backend %s not supported: %s", nc.port_id,
					ops->name, rte_strerror(-ret));
			goto fail;
		}
		PACER_LOG(WARNING, "port %u: backend %s not supported (%s): falling back to wheel",
				nc.port_id, ops->name, rte_strerror(-ret));
		ops = wheel;
		p->ops = ops;
		memset(&p->stats, 0, sizeof(p->stats));
		p->priv = NULL;
		p->conf = nc;
		p->conf.backend = ops->name;
		ret = ops->init(p, &p->conf);
		if (ret < 0) {
			PACER_LOG(ERR, "port %u: backend wheel: init failed: %s", nc.port_id,
					rte_strerror(-ret));
			goto fail;
		}
	}
	p->max_flows = p->conf.max_flows;
	return p;

nomem:
	ret = -ENOMEM;
	PACER_LOG(ERR, "out of memory for %u flows", nc.max_flows);
fail:
	if (p != NULL)
		pacer_release(p);
	rte_errno = -ret;
	return NULL;
}

void
pcc_pacer_free(struct pcc_pacer *p)
{
	if (p == NULL)
		return;
	p->ops->fini(p);
	while (p->pass_head != p->pass_tail)
		rte_pktmbuf_free(p->pass[p->pass_head++ & p->pass_mask]);
	pacer_release(p);
}

const char *
pcc_pacer_backend(const struct pcc_pacer *p)
{
	return p != NULL ? p->ops->name : NULL;
}

int
pcc_pacer_set_rate(struct pcc_pacer *p, uint32_t flow, uint64_t rate_bps)
{
	int ret;

	if (p == NULL || flow >= p->conf.max_flows)
		return -EINVAL;
	ret = p->ops->set_rate(p, flow, rate_bps);
	if (ret == 0)
		p->rates[flow] = rate_bps;
	return ret;
}

uint64_t
pcc_pacer_get_rate(const struct pcc_pacer *p, uint32_t flow)
{
	if (p == NULL || flow >= p->conf.max_flows)
		return 0;
	return p->rates[flow];
}

uint16_t
pcc_pacer_pass(struct pcc_pacer *p, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t room = p->pass_mask + 1 - (p->pass_tail - p->pass_head);
	uint32_t i;

	if (n > room)
		n = (uint16_t)room;
	for (i = 0; i < n; i++)
		p->pass[(p->pass_tail + i) & p->pass_mask] = pkts[i];
	p->pass_tail += n;
	return n;
}

void
pcc_pacer_pass_fifo(struct pcc_pacer *p, struct pcc_pacer_pass_fifo *f)
{
	f->ring = p->pass;
	f->mask = p->pass_mask;
	f->head = &p->pass_head;
	f->tail = &p->pass_tail;
}

uint16_t
pcc_pacer_enqueue(struct pcc_pacer *p, uint32_t flow, struct rte_mbuf **pkts, uint16_t n,
		uint64_t now)
{
	uint16_t taken;

	if (unlikely(p == NULL || n == 0))
		return 0;
	if (likely(now > p->last_now))
		p->last_now = now;
	if (flow == PCC_PACER_NO_FLOW)
		taken = pcc_pacer_pass(p, pkts, n);
	else if (unlikely(flow >= p->max_flows))
		taken = 0;
	else
		taken = p->ops->enqueue(p, flow, pkts, n, p->last_now);
	p->stats.enqueued += taken;
	p->stats.dropped += n - taken;
	return taken;
}

uint32_t
pcc_pacer_enqueue_bulk(struct pcc_pacer *p, const uint32_t *flows, struct rte_mbuf **pkts,
		uint16_t *counts, uint16_t nb, uint64_t now)
{
	uint32_t off = 0, offered = 0, taken = 0;
	uint16_t j;

	if (unlikely(p == NULL || nb == 0))
		return 0;
	for (j = 0; j < nb; j++) {
		offered += counts[j];
		if (flows[j] >= p->conf.max_flows)
			break; /* PCC_PACER_NO_FLOW or invalid: one at a time */
	}
	if (j < nb || p->ops->enqueue_bulk == NULL) {
		for (j = 0; j < nb; j++) {
			uint16_t c = counts[j];

			counts[j] = pcc_pacer_enqueue(p, flows[j], pkts + off, c, now);
			off += c;
			taken += counts[j];
		}
		return taken;
	}
	if (likely(now > p->last_now))
		p->last_now = now;
	taken = p->ops->enqueue_bulk(p, flows, pkts, counts, nb, p->last_now);
	p->stats.enqueued += taken;
	p->stats.dropped += offered - taken;
	return taken;
}

void
pcc_pacer_prefetch(const struct pcc_pacer *p, uint32_t flow)
{
	if (unlikely(p == NULL || flow >= p->max_flows))
		return;
	/* pcc_pacer_set_rate() writes it */
	rte_prefetch0(&p->rates[flow]);
	if (p->ops->prefetch != NULL)
		p->ops->prefetch(p, flow);
}

uint16_t
pcc_pacer_dequeue(struct pcc_pacer *p, uint64_t now, struct rte_mbuf **out, uint16_t max)
{
	uint32_t n, i;

	if (unlikely(p == NULL || max == 0))
		return 0;
	if (likely(now > p->last_now))
		p->last_now = now;
	n = RTE_MIN((uint32_t)max, p->pass_tail - p->pass_head);
	for (i = 0; i < n; i++)
		out[i] = p->pass[(p->pass_head + i) & p->pass_mask];
	p->pass_head += n;
	if (n < max)
		n += p->ops->dequeue(p, p->last_now, out + n, (uint16_t)(max - n));
	/* the counters' line is not written by the many polls that find nothing */
	if (n > 0)
		p->stats.dequeued += n;
	return (uint16_t)n;
}

void
pcc_pacer_advance(struct pcc_pacer *p, uint64_t now)
{
	if (likely(p != NULL && now > p->last_now))
		p->last_now = now;
}

uint64_t
pcc_pacer_flow_next(const struct pcc_pacer *p, uint32_t flow, uint64_t now)
{
	if (unlikely(p == NULL || flow >= p->max_flows) || p->ops->flow_next == NULL)
		return UINT64_MAX;
	return p->ops->flow_next(p, flow, now);
}

uint64_t
pcc_pacer_next_due(const struct pcc_pacer *p)
{
	if (p == NULL)
		return UINT64_MAX;
	if (p->pass_tail != p->pass_head)
		return p->last_now;
	return p->ops->next_due != NULL ? p->ops->next_due(p) : UINT64_MAX;
}

uint32_t
pcc_pacer_flow_reset(struct pcc_pacer *p, uint32_t flow)
{
	uint64_t before;

	if (p == NULL || flow >= p->conf.max_flows)
		return 0;
	/* the backend counts what it frees in stats.flushed */
	before = p->stats.flushed;
	p->ops->flow_reset(p, flow);
	p->rates[flow] = 0;
	return (uint32_t)(p->stats.flushed - before);
}

void
pcc_pacer_stats_get(const struct pcc_pacer *p, struct pcc_pacer_stats *st)
{
	if (st == NULL)
		return;
	if (p == NULL) {
		memset(st, 0, sizeof(*st));
		return;
	}
	*st = p->stats;
}

size_t
pcc_pacer_mem_per_flow(const struct pcc_pacer *p)
{
	if (p == NULL)
		return 0;
	return sizeof(p->rates[0]) + p->ops->mem_per_flow(p);
}

size_t
pcc_pacer_mem_total(const struct pcc_pacer *p)
{
	size_t be;

	if (p == NULL)
		return 0;
	be = p->ops->mem_total != NULL ? p->ops->mem_total(p) :
					 p->ops->mem_per_flow(p) * p->conf.max_flows;
	return sizeof(*p) + sizeof(p->rates[0]) * p->conf.max_flows +
			sizeof(p->pass[0]) * (p->pass_mask + 1) + be;
}

void
pcc_pacer_set_priv(struct pcc_pacer *p, void *priv)
{
	p->priv = priv;
}

struct pcc_pacer_stats *
pcc_pacer_stats_ptr(struct pcc_pacer *p)
{
	return &p->stats;
}

uint64_t
pcc_pacer_last_now(const struct pcc_pacer *p)
{
	return p->last_now;
}
