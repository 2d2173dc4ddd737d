/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The fabric model: packets, egress ports (FIFO queue, serialization at
 * the link rate with an exact carry of the fractional nanoseconds,
 * propagation pipe), switches (shared buffer, per-port cap, RED/step
 * marking at dequeue, HPCC INT and IFA2 stamping at dequeue: sim_stamp.c;
 * ECMP on the 5-tuple), and the loop that runs the events (the queue:
 * sim_event.c).  The topology is built by sim_topo.c.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>

#include "sim_event.h"

/* ---- Packets ---------------------------------------------------------------- */

/*
 * Packets freed go to a list of the simulator's own (one lcore steps it at
 * a time) and come back from it first: the pool is drawn on only while
 * the list is empty, so the packets there are, as before, the pool's
 * size, and running out counts alike.
 */
struct sim_pkt *
sim_pkt_alloc(struct pcc_sim *sim)
{
	struct sim_pkt *p = sim->pkt_free;
	void *o;

	if (p != NULL) {
		sim->pkt_free = p->next;
	} else {
		if (rte_mempool_get(sim->pkt_pool, &o) != 0) {
			sim->st.pool_empty++;
			return NULL;
		}
		p = o;
	}
	memset(p, 0, sizeof(*p));
	return p;
}

void
sim_pkt_free(struct pcc_sim *sim, struct sim_pkt *pkt)
{
	struct rte_mbuf *m = pkt->m, **slot;

	if (m != NULL && (pkt->flags & SIM_PKT_F_OWN)) {
		rte_prefetch0(m);
		slot = &sim->mlate[sim->mlate_i++ % SIM_MLATE];
		if (*slot != NULL)
			rte_pktmbuf_free(*slot);
		*slot = m;
	} else if (m != NULL) {
		rte_pktmbuf_free(m);
	}
	pkt->m = NULL;
	pkt->next = sim->pkt_free;
	sim->pkt_free = pkt;
}

unsigned int
sim_mbuf_late_flush(struct pcc_sim *sim)
{
	unsigned int i, n = 0;

	for (i = 0; i < SIM_MLATE; i++)
		if (sim->mlate[i] != NULL) {
			rte_pktmbuf_free(sim->mlate[i]);
			sim->mlate[i] = NULL;
			n++;
		}
	return n;
}

/* ---- Small pure helpers (unit tested) ---------------------------------------- */

uint64_t
sim_ser_ns(uint64_t bytes, uint64_t rate_bps, uint64_t *rem)
{
	uint64_t num = bytes * 8 * SIM_NS_PER_S + *rem;

	*rem = num % rate_bps;
	return num / rate_bps;
}

bool
sim_red_mark(uint8_t mode, uint64_t q, uint64_t kmin, uint64_t kmax, double pmax,
		struct sim_rng *rng)
{
	switch (mode) {
	case SIM_ECN_STEP:
		return q > kmin;
	case SIM_ECN_RED:
		if (q > kmax)
			return true;
		if (q <= kmin)
			return false;
		return sim_rng_double(rng) < pmax * (double)(q - kmin) / (double)(kmax - kmin);
	default:
		return false;
	}
}

static inline uint32_t
fmix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static inline uint32_t
hash_word(uint32_t h, uint32_t w)
{
	w *= 0xcc9e2d51u;
	w = (w << 15) | (w >> 17);
	w *= 0x1b873593u;
	h ^= w;
	h = (h << 13) | (h >> 19);
	return h * 5 + 0xe6546b64u;
}

uint32_t
sim_tuple_hash(const struct pcc_pkt_info *info, uint16_t sport, uint16_t dport)
{
	uint32_t h = 0x5149u, w;
	unsigned int i;

	if (info->flags & PCC_PKT_F_IPV6) {
		for (i = 0; i < 16; i += 4) {
			memcpy(&w, info->src.v6 + i, 4);
			h = hash_word(h, w);
			memcpy(&w, info->dst.v6 + i, 4);
			h = hash_word(h, w);
		}
	} else {
		h = hash_word(h, info->src.v4);
		h = hash_word(h, info->dst.v4);
	}
	h = hash_word(h, 17);
	h = hash_word(h, ((uint32_t)sport << 16) | dport);
	return fmix32(h);
}

uint32_t
sim_ecmp_pick(uint32_t hash, uint32_t salt, uint32_t n)
{
	return (uint32_t)(((uint64_t)fmix32(hash ^ salt) * n) >> 32);
}

static inline unsigned int
hist_bucket(uint64_t v)
{
	unsigned int e, b;

	if (v == 0)
		return 0;
	if (v < 1024)
		return 1 + (unsigned int)(v / 64);
	e = 63 - (unsigned int)__builtin_clzll(v);
	b = 17 + (e - 10) * 16 + (unsigned int)((v >> (e - 4)) & 15);
	return b < SIM_HIST_N ? b : SIM_HIST_N - 1;
}

unsigned int
sim_hist_bucket(uint64_t v)
{
	return hist_bucket(v);
}

uint64_t
sim_hist_upper(unsigned int b)
{
	unsigned int k, e, sub;

	if (b == 0)
		return 0;
	if (b <= 16)
		return (uint64_t)b * 64 - 1;
	k = b - 17;
	e = 10 + k / 16;
	sub = k % 16;
	return ((uint64_t)(17 + sub) << (e - 4)) - 1;
}

uint64_t
sim_hist_percentile(const uint64_t *hist, double q)
{
	uint64_t total = 0, acc = 0;
	double target;
	unsigned int b;

	for (b = 0; b < SIM_HIST_N; b++)
		total += hist[b];
	if (total == 0)
		return 0;
	target = q * (double)total;
	for (b = 0; b < SIM_HIST_N; b++) {
		acc += hist[b];
		if (acc > 0 && (double)acc >= target)
			return sim_hist_upper(b);
	}
	return sim_hist_upper(SIM_HIST_N - 1);
}

/* inline on the ports' paths: every enqueue and dequeue, hosts' too */
static inline void
hist_touch(struct pcc_sim *sim, struct sim_port *p)
{
	uint64_t now;

	if (p->hist == NULL)
		return;
	now = sim_now(sim);
	p->hist[hist_bucket(p->q_bytes)] += now - p->hist_t;
	p->hist_t = now;
}

void
sim_hist_touch(struct pcc_sim *sim, struct sim_port *p)
{
	hist_touch(sim, p);
}

/* ---- Ports ---------------------------------------------------------------------- */

static void
drop(struct pcc_sim *sim, struct sim_port *p, struct sim_node *n, struct sim_pkt *pkt)
{
	p->drops++;
	p->drop_bytes += pkt->len;
	n->drops++;
	sim->st.drops++;
	if (pkt->flow != SIM_NONE)
		sim->flows[pkt->flow].st.drops++;
	sim_pkt_free(sim, pkt);
}

/* Start sending the head of p's queue (dequeue: marking and stamping). */
static void
port_start(struct pcc_sim *sim, struct sim_port *p)
{
	uint64_t now = sim_now(sim), dt;
	struct sim_pkt *pkt;

	pkt = sim_fifo_pop(&p->q);
	if (pkt == NULL) {
		p->rem = 0;
		return;
	}
	/* the next to start, by then in cache (frames wait in queues and
	 * pipes for microseconds: at scale, out of the caches) */
	if (p->q.head != NULL)
		rte_prefetch0(p->q.head);
	sim_port_settle(p); /* the line is free: the frame before has ended */
	hist_touch(sim, p);
	p->q_bytes -= pkt->acct;
	if (p->sw) {
		sim->nodes[p->node].buf_used -= pkt->acct;
		if ((pkt->flags & SIM_PKT_F_ECT) &&
				sim_red_mark(p->ecn_mode, p->q_bytes, p->kmin, p->kmax, p->pmax,
						&p->rng) &&
				pcc_frame_ecn_set(rte_pktmbuf_mtod(pkt->m, void *),
						pkt->m->data_len, PCC_ECN_CE) == 0) {
			pkt->flags &= (uint8_t)~SIM_PKT_F_ECT;
			pkt->data.ecn = PCC_ECN_CE;
			p->marks++;
			sim->st.marks++;
		}
		if ((pkt->flags & SIM_PKT_F_INT) && sim->scn->sw.int_enabled)
			sim_stamp_int(p, pkt, now);
		if ((pkt->flags & SIM_PKT_F_IFA2) && sim->scn->sw.ifa2)
			sim_stamp_ifa2(sim, p, pkt, now);
	}
	dt = sim_ser_ns(pkt->len, p->rate_bps, &p->rem);
	p->busy_ns += dt;
	p->free_t = now + dt;
	if (p->q.head == NULL) {
		/*
		 * Nothing behind it: no end-of-transmission event.  A frame
		 * queued before free_t asks for one (sim_port_send).
		 */
		p->lazy_len = pkt->len;
		sim_ev_reserve(sim, &p->done_place);
		pkt->t = p->free_t + p->delay_ns;
		if (p->pipe.head == NULL)
			sim_ev_push(sim, pkt->t, SIM_EV_ARRIVE, (uint32_t)(p - sim->ports));
		sim_fifo_push(&p->pipe, pkt);
		return;
	}
	p->cur = pkt;
	p->tx_ev = true;
	sim_ev_push(sim, p->free_t, SIM_EV_TX_DONE, (uint32_t)(p - sim->ports));
}

void
sim_ports_settle(struct pcc_sim *sim)
{
	uint32_t i;

	for (i = 0; i < sim->nb_ports; i++)
		if (sim_port_lazy_ended(sim, &sim->ports[i]))
			sim_port_settle(&sim->ports[i]);
}

void
sim_port_send(struct pcc_sim *sim, uint32_t port, struct sim_pkt *pkt)
{
	struct sim_port *p = &sim->ports[port];
	struct sim_node *n = &sim->nodes[p->node];

	if (p->sw) {
		if (n->buf_used + pkt->len > n->buf_size ||
				(n->port_cap != 0 && p->q_bytes + pkt->len > n->port_cap)) {
			drop(sim, p, n, pkt);
			return;
		}
		n->buf_used += pkt->len;
		if (n->buf_used > n->buf_max)
			n->buf_max = n->buf_used;
	}
	hist_touch(sim, p);
	pkt->acct = pkt->len;
	p->q_bytes += pkt->len;
	if (p->q_bytes > p->q_max)
		p->q_max = p->q_bytes;
	if (p->q_bytes > p->smp_qmax)
		p->smp_qmax = p->q_bytes;
	p->enq_pkts++;
	p->enq_bytes += pkt->len;
	sim_fifo_push(&p->q, pkt);
	if (!p->sw && n->host != SIM_NONE && p->q_bytes > sim->hosts[n->host].backlog_max)
		sim->hosts[n->host].backlog_max = p->q_bytes;
	if (p->tx_ev)
		return;
	if (p->lazy_len != 0 && !sim_ev_place_passed(sim, p->free_t, &p->done_place)) {
		/*
		 * Behind a frame that left with no end event: its end event
		 * now, where it would have been.
		 */
		p->tx_ev = true;
		sim_ev_push_at(sim, p->free_t, SIM_EV_TX_DONE, port, &p->done_place);
		return;
	}
	p->rem = 0; /* the line was idle */
	port_start(sim, p);
}

static void
port_tx_done(struct pcc_sim *sim, uint32_t port)
{
	struct sim_port *p = &sim->ports[port];
	struct sim_pkt *pkt = p->cur;
	uint64_t now = sim_now(sim);

	p->tx_ev = false;
	if (pkt != NULL) {
		p->cur = NULL;
		p->tx_pkts++;
		p->tx_bytes += pkt->len;
		pkt->t = now + p->delay_ns;
		if (p->pipe.head == NULL)
			sim_ev_push(sim, pkt->t, SIM_EV_ARRIVE, port);
		sim_fifo_push(&p->pipe, pkt);
	}
	port_start(sim, p);
}

static void
switch_rx(struct pcc_sim *sim, uint32_t node, uint16_t in_port, struct sim_pkt *pkt)
{
	const struct sim_node *n = &sim->nodes[node];
	const struct sim_route *r;
	uint32_t sidx = node - sim->nb_hosts, out;

	r = &sim->routes[(size_t)sidx * sim->nb_hosts + pkt->dst];
	if (r->n == 0) {
		sim->st.unroutable++;
		sim_pkt_free(sim, pkt);
		return;
	}
	out = sim->route_ports[r->off + (r->n == 1 ? 0 : sim_ecmp_pick(pkt->hash, n->salt, r->n))];
	pkt->t_in = sim_now(sim);
	pkt->in_port = in_port;
	sim_port_send(sim, out, pkt);
}

static void
port_arrive(struct pcc_sim *sim, uint32_t port)
{
	struct sim_port *p = &sim->ports[port];
	struct sim_pkt *pkt = sim_fifo_pop(&p->pipe);
	const struct sim_node *peer = &sim->nodes[p->peer_node];

	if (p->pipe.head != NULL) {
		/* the head after it, read by the next arrival (the pipe's
		 * frames are out of the caches at scale) */
		if (p->pipe.head->next != NULL)
			rte_prefetch0(p->pipe.head->next);
		sim_ev_push(sim, p->pipe.head->t, SIM_EV_ARRIVE, port);
	}
	if (peer->sw)
		switch_rx(sim, p->peer_node, sim->ports[p->rev].local, pkt);
	else
		sim_host_rx(sim, peer->host, pkt);
}

/* ---- The event loop ------------------------------------------------------------ */

void
sim_run_events(struct pcc_sim *sim, uint64_t until)
{
	uint32_t type, obj;
	uint64_t t;

	/* sim->end may move in: the last flow's completion ends the run */
	while (sim_ev_take_until(sim, RTE_MIN(until, sim->end), &t, &type, &obj)) {
		if (t > sim_now(sim))
			sim_set_now(sim, t);
		sim->st.events++;
		switch (type) {
		case SIM_EV_TX_DONE:
			port_tx_done(sim, obj);
			break;
		case SIM_EV_ARRIVE:
			port_arrive(sim, obj);
			break;
		case SIM_EV_HOST_DELAYED:
			sim_host_delayed(sim, obj);
			break;
		case SIM_EV_ACK_TIMER:
			sim_flow_ack_timer(sim, obj);
			break;
		case SIM_EV_SRC:
			sim_flow_src(sim, obj);
			break;
		case SIM_EV_SAMPLE:
			sim_out_sample(sim);
			break;
		case SIM_EV_WINDOW:
			sim_out_window(sim);
			break;
		default:
			break;
		}
	}
	sim->run_seq = UINT64_MAX;
}
