/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * IFA RTT probes on the engine and the simulator wired as dpdk-pcc --sim
 * wires them (test_sim_wire.h): with the rtt algorithm every probe is
 * answered, by the engine's NP, by the hardware-NP model, and by the
 * model when the request asks for it; each answer (seen by an RX callback
 * on the RP's port) becomes an RTT event, and IFA2 answers carry the
 * switches' hops both ways, newest first, in each switch's profile.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "host.h"
#include "pcc_engine.h"
#include "pcc_host.h"
#include "pcc_proto.h"
#include "pcc_proto_tlm.h"
#include "pcc_sim.h"
#include "pcc_simrun.h"
#include "test_sim_wire.h"

static int
hook(void *arg, uint64_t idle_until_ns)
{
	return wire_step(arg, idle_until_ns);
}

/* ---- IFA RTT probes ---------------------------------------------------------------- */

/*
 * rtt probes its flow on every answer.  Hosts s0, r0 are nodes 0 and 1,
 * sw0 and sw1 nodes 2 and 3: device ids 3 and 4.
 */
#define IFA_SCN(np, sw)                                         \
	"duration: 200us\n"                                     \
	"topology: {type: dumbbell, senders: 1}\n"              \
	"switch: {buffer: 2MB, ifa2: true" sw "}\n"             \
	"hosts: {np: " np "}\n"                                 \
	"sim: {mbufs: 8191, packets: 32767, ring_size: 1024}\n" \
	"output: {progress: false, plots: false}\n"             \
	"algorithms:\n  - {slot: 0, name: rtt}\n"               \
	"flows:\n  - {src: s0, dst: r0, size: infinite}\n"
#define DEV_SW0 3
#define DEV_SW1 4
#define TAP_HOPS 4

/* What the RP port received: IFA probe answers and their hop stacks. */
struct tap {
	uint64_t answers;     /* well-formed IFA probe responses */
	uint64_t bad;         /* IFA frames that are no well-formed answer */
	uint64_t hw_np;       /* answers flagged by the hardware NP */
	uint64_t hops_differ; /* answers whose hop count is not the first's */
	uint32_t hops;        /* hops of the first answer */
	uint8_t stack[TAP_HOPS][PCC_IFA2_HOP_LEN];
};

/* Hop stack offset, hop count and MAD offset of an IFA1/IFA2 answer; 0 or -1. */
static int
tap_layout(const uint8_t *f, uint32_t len, const struct pcc_pkt_info *info, uint32_t *stack,
		uint32_t *n_hops, uint32_t *mad)
{
	struct pcc_ifa2_info ii;
	struct pcc_ifa1_hdr h;
	uint32_t off;

	if (info->kind == PCC_PKT_IFA2) {
		if (pcc_ifa2_parse(f, len, info->ip_proto, &ii) != 0 ||
				!(f[ii.ifa_off + 2] & PCC_IFA2_F_TA))
			return -1;
		*stack = ii.stack_off;
		*n_hops = ii.n_hops;
		*mad = ii.payload_off;
		return 0;
	}
	off = (uint32_t)info->l4_off + PCC_UDP_HDR_LEN;
	if (pcc_ifa1_parse(f + off, len - off, PCC_IFA1_MARKER_DEFAULT, &h) != 0)
		return -1;
	*stack = off + PCC_IFA1_HDR_LEN;
	*n_hops = (h.cur_len - PCC_IFA1_HDR_LEN) / PCC_IFA2_HOP_LEN;
	*mad = off + h.cur_len;
	return 0;
}

static void
tap_one(struct tap *t, const struct rte_mbuf *m)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t stack, n_hops, mad;
	struct pcc_parse_opts o;
	struct pcc_pkt_info info;
	struct pcc_probe p;

	pcc_parse_opts_default(&o);
	if (pcc_parse_mbuf(m, &o, &info) != 0 ||
			(info.kind != PCC_PKT_IFA1 && info.kind != PCC_PKT_IFA2))
		return;
	if (m->nb_segs != 1 || tap_layout(f, m->data_len, &info, &stack, &n_hops, &mad) != 0 ||
			pcc_probe_mad_parse(f + mad, m->data_len - mad, &p, NULL) !=
					PCC_PKT_PROBE_RESP) {
		t->bad++;
		return;
	}
	if (t->answers++ == 0) {
		t->hops = n_hops;
		memcpy(t->stack, f + stack, RTE_MIN(n_hops, (uint32_t)TAP_HOPS) * PCC_IFA2_HOP_LEN);
	} else if (n_hops != t->hops) {
		t->hops_differ++;
	}
	if (p.flags & PCC_PROBE_F_HW_NP)
		t->hw_np++;
}

/* RX callback on the RP's port: sees what the engine receives. */
static uint16_t
rx_tap(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t n, uint16_t max, void *arg)
{
	uint16_t i;

	RTE_SET_USED(port);
	RTE_SET_USED(queue);
	RTE_SET_USED(max);
	for (i = 0; i < n; i++)
		tap_one(arg, pkts[i]);
	return n;
}

struct probe_out {
	struct tap tap;
	struct pcc_engine_port_stats rp; /* the RP port's */
	struct pcc_sim_stats st;
	uint16_t nb_ports;
};

/* The scenario run with slot 0's probes in format fmt (hw_np: asking
 * for the hardware-NP model). */
static void
probe_run(const char *text, uint8_t fmt, bool hw_np, struct probe_out *o)
{
	static struct wired w;
	const struct rte_eth_rxtx_callback *cb;
	struct pcc_host_probe_conf pc;
	struct pcc_host_ctx *rp;
	struct pcc_engine *e;
	uint16_t port;

	memset(o, 0, sizeof(*o));
	wire(&w, text, "none");
	o->nb_ports = w.nb_ports;
	port = (uint16_t)w.flows[0].src_port_id;
	rp = pcc_host_ctx_find(port, PCC_HOST_ROLE_RP);
	assert_non_null(rp);
	memset(&pc, 0, sizeof(pc));
	pc.format = fmt;
	pc.hw_np = hw_np;
	assert_int_equal(pcc_host_set_probe(rp, 0, &pc), 0);
	assert_int_equal(pcc_host_set_poll_hook(hook, w.sim), 0);
	assert_int_equal(app_host_start(), 0);
	e = pcc_host_engine();
	assert_non_null(e);
	cb = rte_eth_add_rx_callback(port, 0, rx_tap, &o->tap);
	assert_non_null(cb);
	assert_int_equal(pcc_host_main_loop(NULL, NULL, 1000), 0);
	app_host_stop();
	assert_int_equal(pcc_engine_port_stats_get(e, port, &o->rp), 0);
	assert_int_equal(rte_eth_remove_rx_callback(port, 0, cb), 0);
	rte_free((void *)(uintptr_t)cb); /* nothing polls the port any more */
	assert_true(pcc_sim_done(w.sim));
	pcc_sim_stats_get(w.sim, &o->st);
	unwire(&w);
}

/* Probes went out, every answer came back to the RP as an RTT event. */
static void
check_rtt(const struct probe_out *o)
{
	print_message("# %" PRIu64 " probes, %" PRIu64 " answers, %" PRIu64
		      " RTT events, %u hops\n",
			o->rp.probe_tx, o->tap.answers, o->rp.ev[PCC_DEV_EVENT_RTT], o->tap.hops);
	assert_true(o->rp.probe_tx > 0);
	assert_true(o->tap.answers > 0);
	assert_int_equal(o->tap.bad, 0);
	assert_int_equal(o->tap.hops_differ, 0);
	assert_int_equal(o->rp.ev[PCC_DEV_EVENT_RTT], o->tap.answers);
	assert_int_equal(o->rp.probe_bad, 0);
	/* the sim counts IFA probes as probes, and dropped none */
	assert_true(o->st.probe_req >= o->tap.answers);
	assert_true(o->st.probe_resp >= o->tap.answers);
	assert_int_equal(o->st.ifa_dropped, 0);
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Newest hop first: sw0, sw1 on the way back, sw1, sw0 on the way there. */
static const uint32_t path_devs[TAP_HOPS] = { DEV_SW0, DEV_SW1, DEV_SW1, DEV_SW0 };

/* A hop in the doca layout (doc/wire.md 8.3.1) from device dev at 100G. */
static void
check_doca_hop(const uint8_t *b, uint32_t dev)
{
	assert_int_equal(be32(b) >> 2, dev);
	assert_int_equal(be32(b) & 3, 1); /* faster than 25G */
	assert_int_equal(be32(b + 8) >> 16, 0x8000);
	assert_int_equal(b[6], 64); /* TTL */
}

/* IFA2 probes with the engine's NP, sw0 on the doca profile and sw1 on
 * dpdk-pcc's: the answer carries both ways' hops, each in its layout. */
static void
test_ifa2_engine_np(void **state)
{
	struct pcc_ifa2_hop hop;
	struct probe_out o;
	unsigned int i;

	(void)state;
	probe_run(IFA_SCN("engine", ", ifa2_profiles: {sw0: doca}"), PCC_HOST_PROBE_IFA2, false,
			&o);
	assert_int_equal(o.nb_ports, 2);
	check_rtt(&o);
	assert_int_equal(o.tap.hw_np, 0);
	assert_int_equal(o.tap.hops, TAP_HOPS);
	for (i = 0; i < TAP_HOPS; i++) {
		if (path_devs[i] == DEV_SW0) {
			check_doca_hop(o.tap.stack[i], DEV_SW0);
			continue;
		}
		assert_int_equal(pcc_ifa2_hop_parse(o.tap.stack[i], PCC_IFA2_HOP_LEN, &hop), 0);
		assert_int_equal(hop.device_id, DEV_SW1);
		assert_int_equal(hop.port_speed, 4); /* 100G */
		assert_int_equal(hop.ttl, 64);
	}
}

/* IFA2 probes answered by the hardware-NP model, every switch on the doca
 * profile. */
static void
test_ifa2_hw_np_doca(void **state)
{
	struct probe_out o;
	unsigned int i;

	(void)state;
	probe_run(IFA_SCN("hw", ", ifa2_profile: doca"), PCC_HOST_PROBE_IFA2, false, &o);
	assert_int_equal(o.nb_ports, 1);
	check_rtt(&o);
	assert_int_equal(o.tap.hw_np, o.tap.answers);
	assert_int_equal(o.tap.hops, TAP_HOPS);
	for (i = 0; i < TAP_HOPS; i++)
		check_doca_hop(o.tap.stack[i], path_devs[i]);
}

/* IFA1 probes come back too (the model does not stamp IFA1); with the
 * hardware-NP flag the model answers them although r0 has the engine's NP. */
static void
test_ifa1(void **state)
{
	struct probe_out o;

	(void)state;
	probe_run(IFA_SCN("engine", ""), PCC_HOST_PROBE_IFA1, false, &o);
	check_rtt(&o);
	assert_int_equal(o.tap.hw_np, 0);
	assert_int_equal(o.tap.hops, 0);
	probe_run(IFA_SCN("engine", ""), PCC_HOST_PROBE_IFA1, true, &o);
	check_rtt(&o);
	assert_int_equal(o.tap.hw_np, o.tap.answers);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifa2_engine_np),
		cmocka_unit_test(test_ifa2_hw_np_doca),
		cmocka_unit_test(test_ifa1),
	};

	return cmocka_run_group_tests(tests, wire_eal_setup, wire_eal_teardown);
}
