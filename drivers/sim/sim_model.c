/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The fabric model: topology, routes, the event queue (a binary heap
 * ordered by time, then insertion sequence, so ties are deterministic),
 * egress ports (FIFO queue, serialization at the link rate with an exact
 * carry of the fractional nanoseconds, propagation pipe), switches
 * (shared buffer, per-port cap, RED/step marking at dequeue, HPCC INT and
 * IFA2 stamping at dequeue, the IFA2 hop in each switch's profile, ECMP
 * on the 5-tuple).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "sim_internal.h"

/* ---- Packets ---------------------------------------------------------------- */

struct sim_pkt *
sim_pkt_alloc(struct pcc_sim *sim)
{
	void *o;

	if (rte_mempool_get(sim->pkt_pool, &o) != 0) {
		sim->st.pool_empty++;
		return NULL;
	}
	memset(o, 0, sizeof(struct sim_pkt));
	return o;
}

void
sim_pkt_free(struct pcc_sim *sim, struct sim_pkt *pkt)
{
	if (pkt->m != NULL)
		rte_pktmbuf_free(pkt->m);
	pkt->m = NULL;
	rte_mempool_put(sim->pkt_pool, pkt);
}

/* ---- Event heap ---------------------------------------------------------------- */

static inline bool
ev_less(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void
sim_ev_push(struct pcc_sim *sim, uint64_t t, uint32_t type, uint32_t obj, uint32_t gen)
{
	struct sim_ev *h = sim->heap;
	struct sim_ev e;
	uint32_t i;

	/* capacity covers every event source (sim_model_build): never full */
	RTE_VERIFY(sim->heap_n < sim->heap_cap);
	e.t = t;
	e.seq = sim->seq++;
	e.obj = obj;
	e.gen = gen;
	e.type = type;
	e.pad = 0;
	i = sim->heap_n++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;

		if (!ev_less(&e, &h[parent]))
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static void
ev_pop(struct pcc_sim *sim, struct sim_ev *out)
{
	struct sim_ev *h = sim->heap;
	struct sim_ev last;
	uint32_t i = 0, n;

	*out = h[0];
	n = --sim->heap_n;
	if (n == 0)
		return;
	last = h[n];
	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&h[c + 1], &h[c]))
			c++;
		if (!ev_less(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
}

bool
sim_ev_next_time(const struct pcc_sim *sim, uint64_t *t)
{
	if (sim->heap_n == 0)
		return false;
	*t = sim->heap[0].t;
	return true;
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

unsigned int
sim_hist_bucket(uint64_t v)
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

void
sim_hist_touch(struct pcc_sim *sim, struct sim_port *p)
{
	uint64_t now = sim_now(sim);

	if (p->hist == NULL)
		return;
	p->hist[sim_hist_bucket(p->q_bytes)] += now - p->hist_t;
	p->hist_t = now;
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

/* ---- Incremental ICRC --------------------------------------------------------------
 *
 * The ICRC is the standard CRC-32 (reflected polynomial 0xEDB88320, as
 * zlib) of the masked datagram.  For two messages of equal length,
 * crc(A) ^ crc(B) = raw(A ^ B), raw being the CRC with a zero initial
 * value and no final inversion; and raw(D || q zero bytes) = raw(D) *
 * x^(8q) mod P.  So changing n bytes that the ICRC covers (and does not
 * mask) at distance q before its end updates it with a table CRC of the n
 * changed bytes and one multiplication by x^(8q): about 60 ns for an INT
 * hop, against 400 ns to recompute the CRC of a 1 KB frame.  The
 * arithmetic modulo P follows zlib's crc32.c (multmodp, x2nmodp).
 */
#define CRC_POLY 0xEDB88320u

static uint32_t crc_table[256];
static uint32_t crc_x2n[32];

static uint32_t
crc_multmodp(uint32_t a, uint32_t b)
{
	uint32_t m = 1u << 31, p = 0;

	for (;;) {
		if (a & m) {
			p ^= b;
			if ((a & (m - 1)) == 0)
				break;
		}
		m >>= 1;
		b = b & 1 ? (b >> 1) ^ CRC_POLY : b >> 1;
	}
	return p;
}

void
sim_crc_init(void)
{
	uint32_t i, k, c, p;

	if (crc_table[1] != 0)
		return;
	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC_POLY : c >> 1;
		crc_table[i] = c;
	}
	p = 1u << 30; /* x^1 */
	crc_x2n[0] = p;
	for (i = 1; i < 32; i++)
		crc_x2n[i] = p = crc_multmodp(p, p);
}

/* x^(8 * bytes) mod P */
static uint32_t
crc_shift_op(uint64_t bytes)
{
	uint32_t p = 1u << 31; /* x^0 */
	unsigned int k = 3;

	while (bytes != 0) {
		if (bytes & 1)
			p = crc_multmodp(crc_x2n[k & 31], p);
		bytes >>= 1;
		k++;
	}
	return p;
}

void
sim_icrc_patch(uint8_t *frame, uint32_t icrc_off, uint32_t off, const uint8_t *old, uint32_t n)
{
	uint32_t raw = 0, i, crc;

	for (i = 0; i < n; i++)
		raw = (raw >> 8) ^ crc_table[(raw ^ old[i] ^ frame[off + i]) & 0xFF];
	raw = crc_multmodp(crc_shift_op(icrc_off - (off + n)), raw);
	crc = (uint32_t)frame[icrc_off] | (uint32_t)frame[icrc_off + 1] << 8 |
			(uint32_t)frame[icrc_off + 2] << 16 | (uint32_t)frame[icrc_off + 3] << 24;
	crc ^= raw;
	frame[icrc_off] = (uint8_t)crc;
	frame[icrc_off + 1] = (uint8_t)(crc >> 8);
	frame[icrc_off + 2] = (uint8_t)(crc >> 16);
	frame[icrc_off + 3] = (uint8_t)(crc >> 24);
}

static void
stamp_int(struct sim_port *p, struct sim_pkt *pkt, uint64_t now)
{
	uint8_t *frame = rte_pktmbuf_mtod(pkt->m, uint8_t *);
	uint8_t old[PCC_INT_HDR_LEN];

	if (p->int_code < 0)
		return;
	memcpy(old, frame + pkt->int_off, sizeof(old));
	if (pcc_int_push_hop(frame + pkt->int_off, PCC_INT_HDR_LEN, (uint8_t)p->int_code, now,
			    p->tx_bytes, p->q_bytes) != 0)
		return;
	p->int_hops++;
	/* the INT bytes are ICRC-covered (doc/wire.md section 10) */
	sim_icrc_patch(frame, pkt->icrc_off, pkt->int_off, old, PCC_INT_HDR_LEN);
}

/* doc/wire.md 8.3: queue bytes (32), reserved (16), cells (16), reserved (32) */
static void
hop_dpdk_pcc(const struct sim_ifa2_stamp *st, struct pcc_ifa2_hop *hop)
{
	uint32_t qb = (uint32_t)RTE_MIN(st->q_bytes, (uint64_t)UINT32_MAX);
	uint64_t cells = RTE_MIN((st->q_bytes + 255) / 256, (uint64_t)UINT16_MAX);

	memset(hop, 0, sizeof(*hop));
	hop->device_id = st->device_id & 0xFFFFF;
	hop->ttl = st->ttl;
	hop->port_speed = st->speed_code & 0xF;
	hop->congestion = st->congestion & 0x3;
	hop->rx_sec = (uint32_t)((st->rx_ns / SIM_NS_PER_S) & 0xFFFFF);
	hop->rx_ns = (uint32_t)(st->rx_ns % SIM_NS_PER_S);
	hop->egress_port = st->out_port;
	hop->ingress_port = st->in_port;
	hop->residence_ns = (uint32_t)RTE_MIN(st->tx_ns - st->rx_ns, (uint64_t)UINT32_MAX);
	hop->profile[0] = (uint8_t)(qb >> 24);
	hop->profile[1] = (uint8_t)(qb >> 16);
	hop->profile[2] = (uint8_t)(qb >> 8);
	hop->profile[3] = (uint8_t)qb;
	hop->profile[6] = (uint8_t)(cells >> 8);
	hop->profile[7] = (uint8_t)cells;
}

/* The marker of the vendor layout in the high half of bytes 8..11. */
#define DOCA_HOP_MARKER 0x8000u
/* Links faster than this have port type 1. */
#define DOCA_PT_FAST_BPS 25000000000ull

static void
put_be16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, v >> 16);
	put_be16(p + 2, v);
}

/* doc/wire.md 8.3.1: the 32 bytes, big endian */
static void
hop_doca_bytes(const struct sim_ifa2_stamp *st, uint8_t *b)
{
	uint64_t cells = RTE_MIN((st->q_bytes + 255) / 256, (uint64_t)UINT32_MAX);
	uint32_t pt = st->rate_bps > DOCA_PT_FAST_BPS ? 1 : 0;
	uint32_t rx_ns = (uint32_t)(st->rx_ns % SIM_NS_PER_S);

	memset(b, 0, PCC_IFA2_HOP_LEN);
	put_be32(b, ((st->device_id & 0x3FFFFFFFu) << 2) | pt);
	b[4] = st->congestion & 0x1F; /* tid (bits 7..5) 0 */
	b[5] = 0;                     /* TX bytes, high bits: unused */
	b[6] = st->ttl;
	b[7] = 0; /* queue id */
	put_be32(b + 8, (DOCA_HOP_MARKER << 16) | (uint32_t)(cells >> 16));
	put_be16(b + 12, (uint32_t)(st->rx_ns / SIM_NS_PER_S));
	put_be32(b + 14, rx_ns);
	put_be32(b + 18, (uint32_t)st->tx_ns);
	put_be16(b + 22, (uint32_t)cells);
	put_be16(b + 24, st->in_port);
	put_be16(b + 26, st->out_port);
	put_be32(b + 28, (uint32_t)st->tx_bytes);
}

void
sim_ifa2_hop(uint8_t profile, const struct sim_ifa2_stamp *st, struct pcc_ifa2_hop *hop)
{
	uint8_t b[PCC_IFA2_HOP_LEN];

	if (profile != SIM_IFA2_PROFILE_DOCA) {
		hop_dpdk_pcc(st, hop);
		return;
	}
	hop_doca_bytes(st, b);
	/* every bit of the 32 bytes is a field of the struct: a lossless trip */
	pcc_ifa2_hop_parse(b, sizeof(b), hop);
}

static void
stamp_ifa2(struct pcc_sim *sim, struct sim_port *p, struct sim_pkt *pkt, uint64_t now)
{
	struct rte_mbuf *m = pkt->m;
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	const uint8_t *ip = frame + pkt->l3_off;
	struct sim_ifa2_stamp st;
	struct pcc_ifa2_hop hop;
	uint32_t len = m->data_len;

	if (m->nb_segs != 1)
		return;
	st.device_id = p->node + 1;
	st.ttl = (ip[0] >> 4) == 4 ? ip[8] : ip[7];
	st.congestion = p->q_bytes > p->kmax ? 2 : p->q_bytes > p->kmin ? 1 : 0;
	st.speed_code = (uint8_t)p->ifa_speed;
	st.rate_bps = p->rate_bps;
	st.in_port = pkt->in_port;
	st.out_port = p->local;
	st.rx_ns = pkt->t_in;
	st.tx_ns = now;
	st.q_bytes = p->q_bytes;
	st.tx_bytes = p->tx_bytes;
	sim_ifa2_hop(sim->nodes[p->node].ifa2_profile, &st, &hop);
	if (pcc_ifa2_push_hop(frame, &len, m->data_len + rte_pktmbuf_tailroom(m),
			    sim->scn->sw.ifa2_proto, &hop) != 0)
		return;
	p->ifa_hops++;
	pkt->len += len - m->data_len;
	m->pkt_len += len - m->data_len;
	m->data_len = (uint16_t)len;
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
	sim_hist_touch(sim, p);
	p->q_bytes -= pkt->acct;
	if (p->sw) {
		sim->nodes[p->node].buf_used -= pkt->acct;
		if ((pkt->flags & SIM_PKT_F_ECT) &&
				sim_red_mark(p->ecn_mode, p->q_bytes, p->kmin, p->kmax, p->pmax,
						&p->rng) &&
				pcc_frame_ecn_set(rte_pktmbuf_mtod(pkt->m, void *),
						pkt->m->data_len, PCC_ECN_CE) == 0) {
			pkt->flags &= (uint8_t)~SIM_PKT_F_ECT;
			p->marks++;
			sim->st.marks++;
		}
		if ((pkt->flags & SIM_PKT_F_INT) && sim->scn->sw.int_enabled)
			stamp_int(p, pkt, now);
		if ((pkt->flags & SIM_PKT_F_IFA2) && sim->scn->sw.ifa2)
			stamp_ifa2(sim, p, pkt, now);
	}
	dt = sim_ser_ns(pkt->len, p->rate_bps, &p->rem);
	p->cur = pkt;
	p->busy_ns += dt;
	sim_ev_push(sim, now + dt, SIM_EV_TX_DONE, (uint32_t)(p - sim->ports), 0);
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
	sim_hist_touch(sim, p);
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
	if (p->cur == NULL)
		port_start(sim, p);
}

static void
ev_tx_done(struct pcc_sim *sim, uint32_t port)
{
	struct sim_port *p = &sim->ports[port];
	struct sim_pkt *pkt = p->cur;
	uint64_t now = sim_now(sim);

	p->cur = NULL;
	p->tx_pkts++;
	p->tx_bytes += pkt->len;
	pkt->t = now + p->delay_ns;
	if (p->pipe.head == NULL)
		sim_ev_push(sim, pkt->t, SIM_EV_ARRIVE, port, 0);
	sim_fifo_push(&p->pipe, pkt);
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
ev_arrive(struct pcc_sim *sim, uint32_t port)
{
	struct sim_port *p = &sim->ports[port];
	struct sim_pkt *pkt = sim_fifo_pop(&p->pipe);
	const struct sim_node *peer = &sim->nodes[p->peer_node];

	if (p->pipe.head != NULL)
		sim_ev_push(sim, p->pipe.head->t, SIM_EV_ARRIVE, port, 0);
	if (peer->sw)
		switch_rx(sim, p->peer_node, sim->ports[p->rev].local, pkt);
	else
		sim_host_rx(sim, peer->host, pkt);
}

void
sim_run_events(struct pcc_sim *sim, uint64_t until)
{
	struct sim_ev ev;

	while (sim->heap_n > 0 && sim->heap[0].t <= until && sim->heap[0].t <= sim->end) {
		ev_pop(sim, &ev);
		if (ev.t > sim_now(sim))
			sim_set_now(sim, ev.t);
		sim->st.events++;
		switch (ev.type) {
		case SIM_EV_TX_DONE:
			ev_tx_done(sim, ev.obj);
			break;
		case SIM_EV_ARRIVE:
			ev_arrive(sim, ev.obj);
			break;
		case SIM_EV_HOST_DELAYED:
			sim_host_delayed(sim, ev.obj);
			break;
		case SIM_EV_ACK_TIMER:
			sim_flow_ack_timer(sim, ev.obj);
			break;
		case SIM_EV_SRC:
			sim_flow_src(sim, ev.obj);
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
}

/* ---- Topology ------------------------------------------------------------------- */

struct link {
	uint32_t a;
	uint32_t b;
	struct sim_link_conf c;
};

static int
add_link(struct link *links, uint32_t *n, uint32_t cap, uint32_t a, uint32_t b,
		const struct sim_link_conf *c)
{
	if (*n >= cap)
		return -ENOSPC;
	links[*n].a = a;
	links[*n].b = b;
	links[*n].c = *c;
	(*n)++;
	return 0;
}

static void
set_mac(uint8_t *mac, uint8_t kind, uint32_t idx)
{
	mac[0] = 0x02; /* locally administered, unicast */
	mac[1] = 0x50; /* 'P' */
	mac[2] = kind;
	mac[3] = (uint8_t)(idx >> 16);
	mac[4] = (uint8_t)(idx >> 8);
	mac[5] = (uint8_t)idx;
}

/* Nodes: hosts 0..H-1, then switches.  Links from the topology. */
static int
build_nodes(struct pcc_sim *sim, struct link **out_links, uint32_t *out_n)
{
	const struct sim_topo_conf *t = &sim->scn->topo;
	uint32_t h, i, j, nsw, nl = 0, cap;
	struct link *links;
	int ret = 0;

	sim->nb_hosts = sim_topo_nb_hosts(t);
	nsw = sim_topo_nb_switches(t);
	sim->nb_nodes = sim->nb_hosts + nsw;
	sim->nodes = calloc(sim->nb_nodes, sizeof(*sim->nodes));
	sim->hosts = calloc(sim->nb_hosts, sizeof(*sim->hosts));
	cap = sim->nb_hosts + 1 + t->leaves * t->spines;
	links = calloc(cap, sizeof(*links));
	if (sim->nodes == NULL || sim->hosts == NULL || links == NULL) {
		free(links);
		return -ENOMEM;
	}
	for (i = 0; i < sim->nb_nodes; i++) {
		struct sim_node *n = &sim->nodes[i];

		n->host = SIM_NONE;
		if (i < sim->nb_hosts) {
			sim_topo_host_name(t, i, n->name, sizeof(n->name));
			n->host = i;
			continue;
		}
		n->sw = true;
		j = i - sim->nb_hosts;
		sim_topo_switch_name(t, j, n->name, sizeof(n->name));
		n->ifa2_profile = sim_switch_ifa2_profile(&sim->scn->sw, j);
		n->buf_size = sim->scn->sw.buffer;
		n->port_cap = sim->scn->sw.port_buffer;
		n->salt = (uint32_t)sim_splitmix64(&(uint64_t){ sim->seed ^ (0x51D0ull + j) });
	}
	for (h = 0; h < sim->nb_hosts && ret == 0; h++) {
		uint32_t sw;

		if (t->type == SIM_TOPO_DUMBBELL)
			sw = sim->nb_hosts + (h < t->senders ? 0 : 1);
		else if (t->type == SIM_TOPO_INCAST)
			sw = sim->nb_hosts;
		else
			sw = sim->nb_hosts + h / t->hosts_per_leaf;
		ret = add_link(links, &nl, cap, h, sw, &t->host_link);
	}
	if (ret == 0 && t->type == SIM_TOPO_DUMBBELL)
		ret = add_link(links, &nl, cap, sim->nb_hosts, sim->nb_hosts + 1, &t->bottleneck);
	if (t->type == SIM_TOPO_LEAF_SPINE)
		for (i = 0; i < t->leaves && ret == 0; i++)
			for (j = 0; j < t->spines && ret == 0; j++)
				ret = add_link(links, &nl, cap, sim->nb_hosts + i,
						sim->nb_hosts + t->leaves + j, &t->fabric);
	if (ret != 0) {
		free(links);
		return ret;
	}
	*out_links = links;
	*out_n = nl;
	return 0;
}

static int
build_ports(struct pcc_sim *sim, const struct link *links, uint32_t nl)
{
	const struct pcc_sim_scenario *s = sim->scn;
	uint32_t i, *cursor;

	cursor = calloc(sim->nb_nodes, sizeof(*cursor));
	sim->nb_ports = 2 * nl;
	sim->ports = calloc(sim->nb_ports, sizeof(*sim->ports));
	if (cursor == NULL || sim->ports == NULL) {
		free(cursor);
		return -ENOMEM;
	}
	for (i = 0; i < nl; i++) {
		sim->nodes[links[i].a].nports++;
		sim->nodes[links[i].b].nports++;
	}
	for (i = 1; i < sim->nb_nodes; i++)
		sim->nodes[i].port0 = sim->nodes[i - 1].port0 + sim->nodes[i - 1].nports;
	for (i = 0; i < nl; i++) {
		uint32_t ends[2] = { links[i].a, links[i].b }, idx[2], d;

		for (d = 0; d < 2; d++) {
			struct sim_node *n = &sim->nodes[ends[d]];

			idx[d] = n->port0 + cursor[ends[d]];
			sim->ports[idx[d]].local = (uint16_t)cursor[ends[d]];
			cursor[ends[d]]++;
		}
		for (d = 0; d < 2; d++) {
			struct sim_port *p = &sim->ports[idx[d]];
			struct sim_node *n = &sim->nodes[ends[d]];

			p->node = ends[d];
			p->peer_node = ends[!d];
			p->rev = idx[!d];
			p->sw = n->sw;
			p->qidx = -1;
			p->rate_bps = links[i].c.rate_bps;
			p->delay_ns = links[i].c.delay_ns;
			snprintf(p->name, sizeof(p->name), "%.30s->%.30s", n->name,
					sim->nodes[ends[!d]].name);
			p->int_code = (p->rate_bps % 1000000000ull) == 0 ?
					pcc_int_rate_code((uint32_t)(p->rate_bps / 1000000000ull)) :
					-1;
			p->ifa_speed = (p->rate_bps % 1000000000ull) == 0 ?
					pcc_ifa2_speed_code(
							(uint32_t)(p->rate_bps / 1000000000ull)) :
					-1;
			if (p->ifa_speed < 0)
				p->ifa_speed = 15;
			if (n->sw) {
				p->ecn_mode = s->sw.ecn.mode;
				p->pmax = s->sw.ecn.pmax;
				sim_ecn_thresholds(&s->sw.ecn, p->rate_bps, &p->kmin, &p->kmax);
				sim_rng_seed(&p->rng, sim->seed, 1 + idx[d]);
			} else {
				p->ecn_mode = SIM_ECN_OFF;
				sim->hosts[n->host].port = idx[d];
			}
		}
	}
	free(cursor);
	sim->queues = calloc(sim->nb_ports, sizeof(*sim->queues));
	if (sim->queues == NULL)
		return -ENOMEM;
	for (i = 0; i < sim->nb_ports; i++) {
		struct sim_port *p = &sim->ports[i];

		if (!p->sw)
			continue;
		p->qidx = (int32_t)sim->nb_queues;
		sim->queues[sim->nb_queues++] = i;
		p->hist = calloc(SIM_HIST_N, sizeof(*p->hist));
		if (p->hist == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* Shortest-path routes from every switch to every host; hosts never transit. */
static int
build_routes(struct pcc_sim *sim)
{
	uint32_t nsw = sim->nb_nodes - sim->nb_hosts, h, i, k;
	uint32_t *dist, *fifo, *list, used = 0, cap;
	int ret = 0;

	sim->routes = calloc((size_t)nsw * sim->nb_hosts, sizeof(*sim->routes));
	dist = malloc(sizeof(*dist) * sim->nb_nodes);
	fifo = malloc(sizeof(*fifo) * sim->nb_nodes);
	cap = sim->nb_ports + 16;
	list = malloc(sizeof(*list) * cap);
	if (sim->routes == NULL || dist == NULL || fifo == NULL || list == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	for (h = 0; h < sim->nb_hosts; h++) {
		uint32_t head = 0, tail = 0;

		for (i = 0; i < sim->nb_nodes; i++)
			dist[i] = UINT32_MAX;
		dist[h] = 0;
		fifo[tail++] = h;
		while (head < tail) {
			uint32_t u = fifo[head++];
			const struct sim_node *n = &sim->nodes[u];

			if (!n->sw && u != h)
				continue;
			for (k = 0; k < n->nports; k++) {
				uint32_t v = sim->ports[n->port0 + k].peer_node;

				if (dist[v] == UINT32_MAX) {
					dist[v] = dist[u] + 1;
					fifo[tail++] = v;
				}
			}
		}
		for (i = 0; i < nsw; i++) {
			uint32_t u = sim->nb_hosts + i, nc = 0;
			const struct sim_node *n = &sim->nodes[u];
			struct sim_route *r = &sim->routes[(size_t)i * sim->nb_hosts + h];
			uint32_t tmp[256];

			if (dist[u] == UINT32_MAX)
				continue;
			for (k = 0; k < n->nports && nc < RTE_DIM(tmp); k++) {
				uint32_t v = sim->ports[n->port0 + k].peer_node;

				if (dist[v] != UINT32_MAX && dist[v] + 1 == dist[u] &&
						(sim->nodes[v].sw || v == h))
					tmp[nc++] = n->port0 + k;
			}
			/* the same list as this switch's previous host: share it */
			if (h > 0) {
				const struct sim_route *pr =
						&sim->routes[(size_t)i * sim->nb_hosts + h - 1];

				if (pr->n == nc && nc > 0 &&
						memcmp(&list[pr->off], tmp, nc * sizeof(*tmp)) ==
								0) {
					*r = *pr;
					continue;
				}
			}
			if (used + nc > cap) {
				uint32_t *nl;

				cap = 2 * (used + nc);
				nl = realloc(list, sizeof(*list) * cap);
				if (nl == NULL) {
					ret = -ENOMEM;
					goto out;
				}
				list = nl;
			}
			memcpy(&list[used], tmp, nc * sizeof(*tmp));
			r->off = used;
			r->n = nc;
			used += nc;
		}
	}
	sim->route_ports = list;
	list = NULL;
out:
	free(list);
	free(dist);
	free(fifo);
	return ret;
}

int
sim_model_build(struct pcc_sim *sim)
{
	struct link *links = NULL;
	uint32_t nl = 0, h;
	int ret;

	ret = build_nodes(sim, &links, &nl);
	if (ret != 0)
		return ret;
	ret = build_ports(sim, links, nl);
	free(links);
	if (ret != 0)
		return ret;
	ret = build_routes(sim);
	if (ret != 0)
		return ret;
	for (h = 0; h < sim->nb_hosts; h++) {
		struct sim_host *ho = &sim->hosts[h];
		const struct sim_port *p = &sim->ports[ho->port];

		snprintf(ho->name, sizeof(ho->name), "%s", sim->nodes[h].name);
		ho->node = h;
		ho->eth_port = -1;
		set_mac(ho->mac, 0x00, h + 1);
		/* the gateway: the switch port facing the host */
		set_mac(ho->gw_mac, 0x01,
				((p->peer_node - sim->nb_hosts) << 8) | sim->ports[p->rev].local);
		ho->ip = (10u << 24) | (1u << 16) | (h + 1);
	}
	/* events: per port TX and pipe, per host delayed TX, per flow ACK
	 * timer and model source, sample, window */
	sim->heap_cap = 2 * sim->nb_ports + sim->nb_hosts + 2 * sim->scn->nb_flows + 16;
	sim->heap = calloc(sim->heap_cap, sizeof(*sim->heap));
	if (sim->heap == NULL)
		return -ENOMEM;
	return 0;
}

void
sim_model_free(struct pcc_sim *sim)
{
	uint32_t i;

	if (sim->ports != NULL)
		for (i = 0; i < sim->nb_ports; i++)
			free(sim->ports[i].hist);
	free(sim->ports);
	free(sim->nodes);
	free(sim->hosts);
	free(sim->queues);
	free(sim->routes);
	free(sim->route_ports);
	free(sim->heap);
	sim->ports = NULL;
	sim->nodes = NULL;
	sim->hosts = NULL;
	sim->queues = NULL;
	sim->routes = NULL;
	sim->route_ports = NULL;
	sim->heap = NULL;
}
