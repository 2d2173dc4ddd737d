/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Run-time control of a running engine (doc/engine.md "Run-time
 * control"): a request from a control thread (console, telemetry, host
 * API) goes to the lcore that owns the state as a message on that
 * lcore's control ring (multi-producer, single consumer); the lcore
 * applies it between two poll rounds, so the fast path keeps its
 * single-writer state and takes no lock.  The caller waits for the
 * answer with a timeout.  A message whose caller gave up is freed by the
 * lcore when it gets to it (or by pcc_engine_destroy()).  When the engine
 * is not running, the caller applies the request itself.
 */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include "engine_internal.h"

#define CTL_RING_SIZE 64
#define CTL_TIMEOUT_MS 1000u

enum ctl_state {
	CTL_PENDING = 0,
	CTL_DONE = 1,
	CTL_ABANDONED = 2,
};

enum ctl_op {
	CTL_FLOW_RATE,
	CTL_PROBE,
};

struct eng_ctl_msg {
	uint32_t state; /* enum ctl_state */
	int result;
	uint8_t op;    /* enum ctl_op */
	uint8_t slot;  /* CTL_PROBE */
	uint16_t pidx; /* CTL_PROBE: port index */
	struct pcc_engine_flow_key key;
	uint64_t rate_bps;
	struct pcc_engine_probe_conf probe;
};

/* ---- what the owner lcore does ------------------------------------------------ */

static int
ctl_flow_rate(struct eng_lcore *lc, const struct pcc_engine_flow_key *key, uint64_t rate_bps)
{
	struct eng_flow *f = eng_flow_lookup(&lc->ft, key, eng_flow_hash(key));
	struct eng_lport *lp;
	uint64_t bps;
	uint32_t r;

	if (f == NULL || !(f->flags & ENG_FLOW_F_IN_USE))
		return -ENOENT;
	if (rate_bps == 0) {
		/* back to the algorithm: its next result sets the rate */
		f->flags &= (uint8_t)~ENG_FLOW_F_PINNED;
		return 0;
	}
	lp = lc->lports[f->lp];
	/* a higher rate brings the flow's next departure closer */
	eng_lport_wake(lp);
	if (lp->line_bps == 0)
		return -ENOTSUP; /* no line rate: nothing paces this flow */
	bps = RTE_MIN(rate_bps, lp->line_bps);
	r = (uint32_t)RTE_MIN(((unsigned __int128)bps << PCC_DEV_RATE_SHIFT) / lp->line_bps,
			(unsigned __int128)PCC_DEV_MAX_RATE);
	if (r == 0)
		r = 1;
	bps = eng_rate_bps(r, lp->line_bps);
	__atomic_store_n(&f->rate, r, __ATOMIC_RELAXED);
	eng_pace_rescale(f, eng_pace_cost(bps, lp->line_bps), lp->now);
	if (lp->pacer != NULL)
		pcc_pacer_set_rate(lp->pacer, eng_flow_idx(&lc->ft, f), bps);
	f->flags |= ENG_FLOW_F_PINNED;
	eng_ctr_add(&lc->pctr[lp->pidx].rate_updates, 1);
	return 0;
}

static int
ctl_apply(struct eng_lcore *lc, const struct eng_ctl_msg *m)
{
	switch (m->op) {
	case CTL_FLOW_RATE:
		return ctl_flow_rate(lc, &m->key, m->rate_bps);
	case CTL_PROBE:
		if (lc->lport_of[m->pidx] == ENG_NO_LPORT)
			return -ENOENT;
		lc->lports[lc->lport_of[m->pidx]]->probe[m->slot] = m->probe;
		return 0;
	default:
		return -EINVAL;
	}
}

unsigned int
eng_ctl_poll(struct eng_lcore *lc)
{
	struct eng_ctl_msg *m;
	unsigned int n = 0;
	uint32_t expect;

	while (rte_ring_sc_dequeue(lc->ctl, (void **)&m) == 0) {
		expect = CTL_PENDING;
		if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) == CTL_PENDING)
			m->result = ctl_apply(lc, m);
		/* hand the message back, or free it if its caller is gone */
		if (!__atomic_compare_exchange_n(&m->state, &expect, CTL_DONE, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			free(m);
		n++;
	}
	return n;
}

/* ---- the caller's side --------------------------------------------------------- */

static bool
engine_running(const struct pcc_engine *e)
{
	return e->launched;
}

/*
 * Post m to lc and wait for its answer.  m was malloc'ed; it is freed
 * here, or by the lcore if the wait times out first.
 */
static int
ctl_post(struct pcc_engine *e, struct eng_lcore *lc, struct eng_ctl_msg *m)
{
	uint64_t deadline = rte_get_timer_cycles() + rte_get_timer_hz() * CTL_TIMEOUT_MS / 1000u;
	uint32_t expect = CTL_PENDING;
	int ret;

	if (rte_lcore_id() != LCORE_ID_ANY && lc == e->lcores[rte_lcore_id()]) {
		/* called from the owner itself (e.g. its poll hook) */
		ret = ctl_apply(lc, m);
		free(m);
		return ret;
	}
	if (rte_ring_mp_enqueue(lc->ctl, m) != 0) {
		free(m);
		return -EBUSY;
	}
	while (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) == CTL_PENDING) {
		if (rte_get_timer_cycles() >= deadline ||
				__atomic_load_n(&e->stop, __ATOMIC_ACQUIRE)) {
			if (__atomic_compare_exchange_n(&m->state, &expect, CTL_ABANDONED, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				return -ETIMEDOUT; /* the lcore frees it */
			break;                     /* answered meanwhile */
		}
		rte_pause();
		sched_yield();
	}
	ret = m->result;
	free(m);
	return ret;
}

static struct eng_ctl_msg *
ctl_msg(enum ctl_op op)
{
	struct eng_ctl_msg *m = calloc(1, sizeof(*m));

	if (m != NULL)
		m->op = (uint8_t)op;
	return m;
}

int
pcc_engine_flow_rate_set(
		struct pcc_engine *e, const struct pcc_engine_flow_key *key, uint64_t rate_bps)
{
	struct eng_ctl_msg *m;
	struct eng_lcore *lc;
	int pidx;

	if (e == NULL || key == NULL || key->port_id >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	pidx = e->pidx[key->port_id];
	if (pidx < 0 || e->ports[pidx].nb_owners == 0)
		return -ENOENT;
	lc = eng_owner_key(e, (uint16_t)pidx, key, eng_flow_hash(key));
	if (!engine_running(e))
		return ctl_flow_rate(lc, key, rate_bps);
	m = ctl_msg(CTL_FLOW_RATE);
	if (m == NULL)
		return -ENOMEM;
	m->key = *key;
	m->rate_bps = rate_bps;
	return ctl_post(e, lc, m);
}

int
pcc_engine_probe_get(const struct pcc_engine *e, uint8_t slot, struct pcc_engine_probe_conf *pc)
{
	if (e == NULL || pc == NULL || slot >= PCC_ENGINE_PROBE_SLOTS)
		return -EINVAL;
	*pc = e->conf.probe[slot];
	eng_probe_resolve(pc);
	return 0;
}

int
pcc_engine_port_probe_get(const struct pcc_engine *e, uint16_t port_id, uint8_t slot,
		struct pcc_engine_probe_conf *pc)
{
	if (e == NULL || pc == NULL || slot >= PCC_ENGINE_PROBE_SLOTS)
		return -EINVAL;
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0 ||
			!(e->ports[e->pidx[port_id]].roles & PCC_ENGINE_ROLE_RP))
		return -ENOENT;
	*pc = e->ports[e->pidx[port_id]].probe[slot];
	eng_probe_resolve(pc);
	return 0;
}

/* The checks of pcc_engine_create(), against what the parser recognises. */
static int
probe_check(const struct pcc_engine *e, const struct pcc_engine_probe_conf *conf)
{
	struct pcc_engine_probe_conf pc = *conf;

	eng_probe_resolve(&pc);
	if (pc.format >= PCC_ENGINE_PROBE_FMT_MAX ||
			(unsigned int)pc.custom_offset + pc.custom_len > PCC_PROBE_CUSTOM_MAX ||
			pc.ifa2_gns > 0xF || !(pc.ifa1_marker >> 63))
		return -EINVAL;
	/* responses must be recognised by this engine's classifier */
	if (pc.format == PCC_ENGINE_PROBE_IFA2 && pc.ifa2_proto != e->popts.ifa2_proto)
		return -EPROTO;
	if (pc.format == PCC_ENGINE_PROBE_IFA1 && pc.ifa1_marker != e->popts.ifa1_marker)
		return -EPROTO;
	return 0;
}

/* Set slot of the RP port at index pidx on every lcore that works on it. */
static int
port_probe_set(struct pcc_engine *e, uint16_t pidx, uint8_t slot,
		const struct pcc_engine_probe_conf *pc)
{
	struct eng_ctl_msg *m;
	uint16_t k;
	int ret, first = 0;

	for (k = 0; k < e->nb_lcores; k++) {
		struct eng_lcore *lc = e->by_rank[k];

		if (lc->lport_of[pidx] == ENG_NO_LPORT)
			continue;
		if (!engine_running(e)) {
			lc->lports[lc->lport_of[pidx]]->probe[slot] = *pc;
			continue;
		}
		m = ctl_msg(CTL_PROBE);
		if (m == NULL)
			return -ENOMEM;
		m->slot = slot;
		m->pidx = pidx;
		m->probe = *pc;
		ret = ctl_post(e, lc, m);
		if (ret < 0 && first == 0)
			first = ret;
	}
	if (first == 0)
		e->ports[pidx].probe[slot] = *pc;
	return first;
}

int
pcc_engine_port_probe_set(struct pcc_engine *e, uint16_t port_id, uint8_t slot,
		const struct pcc_engine_probe_conf *pc)
{
	int ret;

	if (e == NULL || pc == NULL || slot >= PCC_ENGINE_PROBE_SLOTS)
		return -EINVAL;
	if (port_id >= RTE_MAX_ETHPORTS || e->pidx[port_id] < 0 ||
			!(e->ports[e->pidx[port_id]].roles & PCC_ENGINE_ROLE_RP))
		return -ENOENT;
	ret = probe_check(e, pc);
	if (ret < 0)
		return ret;
	return port_probe_set(e, (uint16_t)e->pidx[port_id], slot, pc);
}

int
pcc_engine_probe_set(struct pcc_engine *e, uint8_t slot, const struct pcc_engine_probe_conf *pc)
{
	uint16_t k;
	int ret, first = 0;

	if (e == NULL || pc == NULL || slot >= PCC_ENGINE_PROBE_SLOTS)
		return -EINVAL;
	ret = probe_check(e, pc);
	if (ret < 0)
		return ret;
	for (k = 0; k < e->nb_ports; k++) {
		if (!(e->ports[k].roles & PCC_ENGINE_ROLE_RP))
			continue;
		ret = port_probe_set(e, k, slot, pc);
		if (ret < 0 && first == 0)
			first = ret;
	}
	if (first == 0)
		e->conf.probe[slot] = *pc;
	return first;
}

/* ---- setup ----------------------------------------------------------------------- */

int
eng_ctl_init(struct pcc_engine *e)
{
	char name[RTE_RING_NAMESIZE];
	uint16_t k, i;

	for (k = 0; k < e->nb_lcores; k++) {
		struct eng_lcore *lc = e->by_rank[k];

		for (i = 0; i < lc->nb_lports; i++) {
			struct eng_lport *lp = lc->lports[i];

			memcpy(lp->probe, e->ports[lp->pidx].probe, sizeof(lp->probe));
		}
		snprintf(name, sizeof(name), "pcc_ctl_%u_%u", e->id, lc->lcore_id);
		lc->ctl = rte_ring_create(name, CTL_RING_SIZE,
				(int)rte_lcore_to_socket_id(lc->lcore_id), RING_F_SC_DEQ);
		if (lc->ctl == NULL) {
			ENG_LOG(ERR, "lcore %u: cannot create the control ring: %s", lc->lcore_id,
					rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

void
eng_ctl_fini(struct eng_lcore *lc)
{
	struct eng_ctl_msg *m;

	if (lc->ctl == NULL)
		return;
	/* messages left behind were abandoned (their caller timed out) */
	while (rte_ring_sc_dequeue(lc->ctl, (void **)&m) == 0)
		free(m);
	rte_ring_free(lc->ctl);
	lc->ctl = NULL;
}
