/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * DOCA PCC source compatibility: tests/doca/rp_algo.c and np_handler.c,
 * written against the DOCA device headers only, are built unchanged into
 * the plug-in doca_test.so (with pcc_doca_compat).  This test loads it,
 * applies the layout its doca_pcc_dev_user_init() declared, feeds event
 * sequences through pcc_dev_dispatch() and checks rates, probe requests,
 * counters, the histogram, parameters and their validation, trace and
 * printf, mailbox, port info and NIC counters, the default algorithm
 * fallback and the NP handler; and the inline DOCA accessors and fixed
 * point helpers directly.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <pcc_algos.h>
#include <pcc_dev.h>
#include <pcc_dev_hist.h>
#include <pcc_dev_plugin.h>
#include <pcc_dev_svc.h>
#include <pcc_np.h>

/* Only the inline helpers are used here: no glue in this executable. */
#define PCC_DOCA_NO_LINK_ANCHOR
#include <doca_pcc_dev.h>
#include <doca_pcc_np_dev.h>

#include "plugin_stage.h"

#define ALGO "doca_test_0"
#define FXP_ONE 65536u
#define UF 6553u
#define AI 52428u
#define MIN_RATE 64u

static char plugin_path[PATH_MAX];

/* ---- Fake NIC ----------------------------------------------------------------- */

static int
nic_counter(void *arg, uint8_t port, uint8_t type, uint64_t *value)
{
	(void)arg;
	*value = 0x100000000ull + 0x12345600u + port * 16u + type;
	return 0;
}

static uint32_t
nic_speed(void *arg, uint8_t port)
{
	(void)arg;
	return port == 0 ? 100 : 200;
}

/* ---- Helpers -------------------------------------------------------------------- */

static uint32_t
fxp(uint32_t rate, uint32_t factor)
{
	return (uint32_t)(((uint64_t)rate * factor) >> 16);
}

static int
dispatch(uint8_t slot, void *ctx, struct pcc_dev_event *ev, struct pcc_dev_results *res)
{
	return pcc_dev_dispatch(ev->port, slot, ctx, ev, res);
}

static struct pcc_dev_event
ev_make(uint8_t type, uint32_t ts)
{
	struct pcc_dev_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.port = 0;
	ev.flow_tag = 42;
	ev.ts = ts;
	return ev;
}

static struct pcc_dev_event
ev_rtt(uint32_t t1, uint32_t t2, uint32_t t3, uint32_t t4, uint32_t hint)
{
	struct pcc_dev_event ev = ev_make(PCC_DEV_EVENT_RTT, t4);

	ev.rtt.req_send_ts = t1;
	ev.rtt.req_recv_ts = t2;
	ev.rtt.resp_send_ts = t3;
	ev.rtt.resp_recv_ts = t4;
	ev.rtt.user[3] = (uint8_t)hint;
	return ev;
}

static uint32_t
counter(uint32_t id)
{
	uint32_t v[PCC_DEV_MAX_COUNTERS];
	int n = pcc_dev_counters_get(0, 0, v, id + 1);

	return n > (int)id ? v[id] : UINT32_MAX;
}

static int
mailbox(uint32_t op, uint32_t *out, uint32_t cap)
{
	const struct pcc_dev_algo_ops *ops = pcc_dev_slot_algo(0, 0, NULL);

	if (ops == NULL || ops->mailbox == NULL)
		return -ENOSYS;
	return ops->mailbox(&op, sizeof(op), out, cap);
}

/* ---- Setup ---------------------------------------------------------------------- */

static int
group_setup(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 2, .n_threads = 1 };
	struct pcc_dev_nic_provider nic = {
		.counter = nic_counter,
		.speed_gbps = nic_speed,
	};

	(void)state;
	if (plugin_stage(DOCA_PLUGIN, "doca_test.so", 0644, plugin_path, sizeof(plugin_path)) != 0)
		return -1;
	if (pcc_algos_register_builtin() != 0)
		return -1;
	pcc_dev_set_nic_provider(&nic);
	return pcc_dev_init(&conf) == 0 ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	if (pcc_dev_plugin_list(NULL, 0) > 0)
		pcc_dev_plugin_unload("doca_test", NULL, 0);
	pcc_dev_fini();
	pcc_dev_set_nic_provider(NULL);
	plugin_stage_cleanup();
	return 0;
}

/* ---- Tests ---------------------------------------------------------------------- */

static void
test_load_and_apply(void **state)
{
	struct pcc_dev_plugin_info info;
	char err[256];
	uint32_t mask;

	(void)state;
	assert_int_equal(pcc_dev_plugin_load(plugin_path, err, sizeof(err)), 0);
	assert_int_equal(pcc_dev_plugin_list(&info, 1), 1);
	assert_string_equal(info.name, "doca_test");
	assert_int_equal(info.n_algos, 1);
	assert_string_equal(info.algos[0], ALGO);
	assert_int_equal(info.np_handler, 1);
	/* user_init mapped slot 0 of all 8 DOCA ports */
	assert_int_equal(info.n_layout, PCC_DEV_MAX_PORTS);

	assert_int_equal(pcc_dev_plugin_apply("doca_test", err, sizeof(err)), 0);
	assert_non_null(pcc_dev_slot_algo(0, 0, NULL));
	assert_string_equal(pcc_dev_slot_algo(0, 0, NULL)->name, ALGO);
	assert_string_equal(pcc_dev_slot_algo(1, 0, NULL)->name, ALGO);
	assert_int_equal(pcc_dev_slot_active(0), 0);
	assert_int_equal(pcc_dev_slot_algo(0, 0, NULL)->id, 0xD0CA);
	assert_int_equal(pcc_dev_slot_algo(0, 0, NULL)->major, 1);
	assert_int_equal(pcc_dev_slot_algo(0, 0, NULL)->minor, 2);
	assert_string_equal(pcc_dev_slot_algo(0, 0, NULL)->desc, "DOCA-style test algorithm v1.2");

	mask = pcc_dev_slot_event_mask(0, 0);
	assert_true(mask & PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_ACK));
	assert_true(mask & PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TX_FOR_ACK_NACK));
	assert_true(mask & PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TIMER));
	assert_false(mask & PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_CNP));

	/* applying twice changes nothing */
	assert_int_equal(pcc_dev_plugin_apply("doca_test", err, sizeof(err)), 0);
	assert_string_equal(pcc_dev_slot_algo(0, 0, NULL)->name, ALGO);
}

static void
test_params_described(void **state)
{
	uint32_t v[5];

	(void)state;
	assert_int_equal(pcc_dev_param_id(0, 0, "UPDATE_FACTOR"), 0);
	assert_int_equal(pcc_dev_param_id(0, 0, "AI"), 1);
	assert_int_equal(pcc_dev_param_id(0, 0, "BASE_RTT"), 2);
	assert_int_equal(pcc_dev_param_id(0, 0, "NEW_FLOW_RATE"), 3);
	assert_int_equal(pcc_dev_param_id(0, 0, "MIN_RATE"), 4);
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 5, v), 0);
	assert_int_equal(v[0], UF);
	assert_int_equal(v[1], AI);
	assert_int_equal(v[2], 13000);
	assert_int_equal(v[3], PCC_DEV_MAX_RATE);
	assert_int_equal(v[4], MIN_RATE);
	assert_int_equal(pcc_dev_slot_algo(0, 0, NULL)->n_counters, 6);
	assert_string_equal(pcc_dev_slot_algo(0, 0, NULL)->counters[5].name, "MAX_RTT");
	assert_int_equal(pcc_dev_slot_algo(0, 0, NULL)->counters[5].type, PCC_DEV_COUNTER_MAX);
}

static void
test_event_sequence(void **state)
{
	struct pcc_dev_ctx ctx;
	struct pcc_dev_results res;
	struct pcc_dev_event ev;
	uint32_t rate, bins[8];

	(void)state;
	memset(&ctx, 0, sizeof(ctx));

	/* new flow: NEW_FLOW_RATE, a probe, and its own probe custom header
	 * (doca_pcc_dev_custom_header_set: the QPN and a word) */
	ev = ev_make(PCC_DEV_EVENT_TX, 1000);
	ev.flow_qpn = 0x000ABC;
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	rate = PCC_DEV_MAX_RATE;
	assert_int_equal(res.rate, rate);
	assert_int_equal(res.rtt_req, 1);
	assert_int_equal(res.flags, PCC_DEV_RES_F_PROBE_CUSTOM);
	assert_int_equal(res.custom_len, 8);
	{
		uint32_t want[2] = { 0x000ABC, 0xC0FFEE00u };

		assert_memory_equal(res.custom_hdr, want, sizeof(want));
	}

	/* TX: counted, rate kept, no probe */
	ev = ev_make(PCC_DEV_EVENT_TX, 2000);
	ev.tx.sent_32b = 100;
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	assert_int_equal(res.rate, rate);
	assert_int_equal(res.rtt_req, 0);
	assert_int_equal(res.flags, 0); /* asked once, not carried over */

	/* CNP: x (1 - 2 UF) */
	ev = ev_make(PCC_DEV_EVENT_CNP, 3000);
	ev.sn = 77;
	ev.ack.first_sn = 70;
	ev.ack.coalesced = 3;
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	rate = fxp(rate, FXP_ONE - 2 * UF);
	assert_int_equal(res.rate, rate);
	assert_int_equal(rate, 838880);
	/* doca_pcc_dev_probe_prio_set(1, 46): the flow's probes' DSCP */
	assert_int_equal(res.flags, PCC_DEV_RES_F_PROBE_DSCP);
	assert_int_equal(res.probe_dscp, 46);

	/* RTT 10500 ns, first sample: min = rtt, + AI */
	ev = ev_rtt(1000, 5000, 5500, 12000, 0);
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	rate += AI;
	assert_int_equal(res.rate, rate);
	assert_int_equal(res.rtt_req, 1);

	/* RTT 40000 ns: 29500 above the minimum > BASE_RTT: x (1 - UF) */
	ev = ev_rtt(20000, 50000, 50000, 60000, 0);
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	rate = fxp(rate, FXP_ONE - UF);
	assert_int_equal(res.rate, rate);

	/* RTT with the NP's congestion bit: x (1 - 4 UF) */
	ev = ev_rtt(70000, 70000, 70100, 81100, 1);
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	rate = fxp(rate, FXP_ONE - 4 * UF);
	assert_int_equal(res.rate, rate);

	/* NACK out of sequence: x (1 - 5 UF) */
	ev = ev_make(PCC_DEV_EVENT_NACK, 90000);
	ev.subtype = PCC_DEV_NACK_OOS;
	ev.sn = 5;
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	rate = fxp(rate, FXP_ONE - 5 * UF);
	assert_int_equal(res.rate, rate);
	/* doca_pcc_dev_probe_prio_set(0, ...): back to the flow's DSCP */
	assert_int_equal(res.flags, PCC_DEV_RES_F_PROBE_DSCP_OFF);

	/* masked by user_init (ACK) and by the glue (timer) */
	ev = ev_make(PCC_DEV_EVENT_ACK, 91000);
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 1);
	ev = ev_make(PCC_DEV_EVENT_TIMER, 92000);
	assert_int_equal(dispatch(0, &ctx, &ev, &res), 1);

	/* clamp at MIN_RATE */
	for (int i = 0; i < 200; i++) {
		ev = ev_make(PCC_DEV_EVENT_CNP, 100000 + (uint32_t)i);
		assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	}
	assert_int_equal(res.rate, MIN_RATE);

	/* clamp at line rate */
	for (int i = 0; i < 40; i++) {
		ev = ev_rtt(200000, 200000, 200000, 210500, 0);
		assert_int_equal(dispatch(0, &ctx, &ev, &res), 0);
	}
	assert_int_equal(res.rate, PCC_DEV_MAX_RATE);

	/* counters the algorithm kept through doca_pcc_dev_get_counters() */
	assert_int_equal(counter(0), 1);       /* TX (the first event is the new flow) */
	assert_int_equal(counter(1), 3 + 40);  /* RTT */
	assert_int_equal(counter(2), 1 + 200); /* CNP */
	assert_int_equal(counter(3), 1);       /* NACK */
	assert_int_equal(counter(4), 1);       /* NP hint */
	assert_int_equal(counter(5), 40000);   /* MAX_RTT */

	/* histogram declared in user_init, applied with the layout */
	assert_int_equal(pcc_dev_hist_bins(0, 0, bins, 8), 8);
	assert_int_equal(bins[2], 2 + 40); /* 10500 (41 times), 11000 */
	assert_int_equal(bins[7], 1);      /* 40000: last bin */
	assert_int_equal(bins[0], 0);
}

static void
test_set_params(void **state)
{
	uint32_t v, two[2] = { 1000, 2000 };
	int id;

	(void)state;
	id = pcc_dev_param_id(0, 0, "UPDATE_FACTOR");
	assert_int_equal(id, 0);
	/* within the table's range but refused by user_set_algo_params */
	v = 14000;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), -EINVAL);
	/* outside the range given to doca_pcc_dev_algo_init_param */
	v = 20000;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), -ERANGE);
	v = 0;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), -ERANGE);
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 1, &v), 0);
	assert_int_equal(v, UF);
	/* accepted */
	v = 3000;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), 0);
	assert_int_equal(pcc_dev_params_get(0, 0, 0, 1, &v), 0);
	assert_int_equal(v, 3000);
	/* two at once (AI, BASE_RTT) */
	assert_int_equal(pcc_dev_params_set(0, 0, 1, 2, two), 0);
	assert_int_equal(pcc_dev_params_get(0, 0, 1, 2, two), 0);
	assert_int_equal(two[0], 1000);
	assert_int_equal(two[1], 2000);
	/* restore */
	v = UF;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), 0);
}

static int trace_cnp_seen;
static int printf_nack_seen;

static void
trace_cb(const struct pcc_dev_trace_rec *rec, void *arg)
{
	(void)arg;
	if (rec->fmt_id == 7 && rec->arg[0] == 42 && rec->arg[2] == 70 && rec->arg[3] == 3)
		trace_cnp_seen++;
}

static void
printf_cb(uint16_t thread, uint64_t ts, const char *msg, uint32_t len, void *arg)
{
	(void)thread;
	(void)ts;
	(void)len;
	(void)arg;
	if (strcmp(msg, "nack flow 42 sn 5 subtype 2\n") == 0)
		printf_nack_seen++;
}

static void
test_trace_printf(void **state)
{
	(void)state;
	assert_true(pcc_dev_trace_drain(trace_cb, NULL) >= 1);
	assert_int_equal(trace_cnp_seen, 1);
	assert_true(pcc_dev_printf_drain(printf_cb, NULL) >= 1);
	assert_int_equal(printf_nack_seen, 1);
}

static void
test_mailbox_port_info_nic(void **state)
{
	uint32_t out[4];

	(void)state;
	assert_int_equal(mailbox(1, out, sizeof(out)), 12);
	assert_int_equal(out[0], 0xD0CA);
	assert_int_equal(out[1], 0);
	/* one DOCA callback per port change, whatever lib/dev's fan-out */
	assert_int_equal(pcc_dev_port_info_changed(0), 0);
	assert_int_equal(mailbox(1, out, sizeof(out)), 12);
	assert_int_equal(out[1], 1);
	assert_int_equal(out[2], 100);
	/* counters configured in port_info_changed, sampled on another call */
	assert_int_equal(mailbox(2, out, sizeof(out)), 4);
	assert_int_equal(out[0], 0x12345600u + 0 * 16u + PCC_DEV_NIC_RX_BYTES);
	/* unknown request, too small a response */
	assert_int_equal(mailbox(9, out, sizeof(out)), -EIO);
	assert_int_equal(mailbox(1, out, 4), -EIO);
}

static void
test_default_internal_algo(void **state)
{
	struct pcc_dev_ctx c1, c2;
	struct pcc_dev_results r1, r2;
	struct pcc_dev_event ev = ev_make(PCC_DEV_EVENT_TX, 5000);

	(void)state;
	/* slot 1 with the DOCA algorithm: user_algo's default branch */
	assert_int_equal(pcc_dev_slot_bind(0, 1, 0), 0);
	memset(&c1, 0, sizeof(c1));
	memset(&c2, 0, sizeof(c2));
	assert_int_equal(dispatch(1, &c1, &ev, &r1), 0);
	assert_int_equal(dispatch(PCC_DEV_INTERNAL_SLOT, &c2, &ev, &r2), 0);
	assert_int_not_equal(r1.rate, 0);
	assert_int_equal(r1.rate, r2.rate);
	assert_int_equal(r1.rtt_req, r2.rtt_req);
	assert_memory_equal(&c1, &c2, sizeof(c1));
	assert_int_equal(pcc_dev_slot_unbind(0, 1), 0);
}

static void
test_np_handler(void **state)
{
	uint8_t frame[128], payload_off = 14 + 20 + 8 + 12 + 24;
	struct pcc_np_resp resp;
	struct pcc_np_pkt pkt;

	(void)state;
	memset(frame, 0, sizeof(frame));
	frame[payload_off] = 0xAA;
	frame[payload_off + 1] = 0xBB;
	frame[payload_off + 2] = 0xCC;
	frame[payload_off + 3] = 0xDD;
	memset(&pkt, 0, sizeof(pkt));
	pkt.frame = frame;
	pkt.frame_len = sizeof(frame);
	pkt.l4 = frame + 34;
	pkt.l4_len = sizeof(frame) - 34;
	pkt.payload = frame + payload_off;
	pkt.payload_len = sizeof(frame) - payload_off;
	pkt.port = 1;
	pkt.probe_slot = 2;
	pkt.l3_ttl = 50;
	pkt.vlan_present = 1;
	pkt.vlan_tci = 0x0123;
	pkt.t2_ns = 0xC0000005u;

	assert_non_null(pcc_np_handler_get());
	assert_int_equal(pcc_np_handle(&pkt, &resp), 0);
	assert_int_equal(resp.len, 12);
	assert_int_equal(resp.dscp_set, 1);
	assert_int_equal(resp.dscp, 26);
	/* flags: congested (TTL 50 < 60), port 1, slot 2, VLAN */
	assert_int_equal(resp.data[0], 0x01);
	assert_int_equal(resp.data[1], 0x02);
	assert_int_equal(resp.data[2], 0x01);
	assert_int_equal(resp.data[3], 0x01);
	/* t2, 30 bits */
	assert_int_equal(resp.data[4], 0x00);
	assert_int_equal(resp.data[7], 0x05);
	/* payload echo */
	assert_int_equal(resp.data[8], 0xAA);
	assert_int_equal(resp.data[11], 0xDD);

	/* not congested */
	pkt.l3_ttl = 64;
	assert_int_equal(pcc_np_handle(&pkt, &resp), 0);
	assert_int_equal(resp.data[3], 0x00);

	/* too short a payload: the handler says FAIL, no response */
	pkt.payload_len = 2;
	assert_int_equal(pcc_np_handle(&pkt, &resp), -EIO);

	/* the application's mailbox serves its NP context too */
	{
		pcc_np_handler_t h = NULL;
		pcc_dev_mailbox_fn mb = NULL;
		uint32_t op = 1, out[4];

		assert_int_equal(pcc_dev_plugin_np("doca_test", &h, &mb), 0);
		assert_non_null(h);
		assert_non_null(mb);
		assert_int_equal(mb(&op, sizeof(op), out, sizeof(out)), 12);
		assert_int_equal(out[0], 0xD0CA);
	}
}

/* The inline accessors and helpers, outside any plug-in. */
static void
test_inline_accessors(void **state)
{
	struct pcc_dev_event ev = ev_rtt(1, 2, 3, 4, 0);
	struct doca_pcc_np_dev_request_packet req;
	uint8_t present = 9;
	uint16_t tci = 9;

	(void)state;
	ev.port = 3;
	ev.sn = 99;
	assert_int_equal(doca_pcc_dev_get_ev_attr(&ev).ev_type, DOCA_PCC_DEV_EVNT_RTT);
	assert_int_equal(doca_pcc_dev_get_ev_attr(&ev).port_num, 3);
	assert_int_equal(doca_pcc_dev_get_sn(&ev), 99);
	assert_int_equal(doca_pcc_dev_get_rtt_req_send_timestamp(&ev), 1);
	assert_int_equal(doca_pcc_dev_get_rtt_req_recv_timestamp(&ev), 2);
	assert_int_equal(doca_pcc_dev_get_rtt_resp_send_timestamp(&ev), 3);
	assert_int_equal(doca_pcc_dev_get_timestamp(&ev), 4);
	assert_ptr_equal(doca_pcc_dev_get_rtt_raw_data(&ev), ev.rtt.user);
	assert_int_equal(doca_pcc_dev_get_rtt_raw_data_size(&ev), 12);

	ev = ev_make(PCC_DEV_EVENT_TX, 10);
	ev.flags = DOCA_PCC_DEV_TX_FLAG_ACK_EXPECTED | DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT;
	ev.tx.first_ts = 7;
	ev.tx.sent_32b = 0xFFFF;
	ev.tx.sent_pkts = 3;
	ev.flow_qpn = 0x123456;
	assert_int_equal(doca_pcc_dev_get_ev_attr(&ev).flags, 5);
	assert_int_equal(doca_pcc_dev_get_roce_first_timestamp(&ev), 7);
	assert_int_equal(doca_pcc_dev_get_roce_tx_cntrs(&ev).sent_32bytes, 0xFFFF);
	assert_int_equal(doca_pcc_dev_get_roce_tx_cntrs(&ev).sent_pkts, 3);
	assert_int_equal(doca_pcc_dev_get_flow_qpn(&ev), 0x123456);

	ev = ev_make(PCC_DEV_EVENT_NACK, 10);
	ev.subtype = PCC_DEV_NACK_RNR;
	ev.ack.first_ts = 8;
	ev.ack.first_sn = 11;
	ev.ack.coalesced = 70000;
	assert_int_equal(doca_pcc_dev_get_ev_attr(&ev).ev_subtype, DOCA_PCC_DEV_NACK_EVNT_RNR);
	assert_int_equal(doca_pcc_dev_get_roce_first_timestamp(&ev), 8);
	assert_int_equal(doca_pcc_dev_get_roce_ack_first_sn(&ev), 11);
	assert_int_equal(doca_pcc_dev_get_ack_nack_cnp_extra(&ev).num_coalesced, 0xFFFF);
	assert_int_equal(doca_pcc_dev_get_flow_qpn(&ev), 0);
	ev.flow_qpn = 0xABCDEF; /* every event type carries its flow's QPN */
	ev.ttl = 61;
	assert_int_equal(doca_pcc_dev_get_flow_qpn(&ev), 0xABCDEF);
	assert_int_equal(doca_pcc_dev_get_ttl_hoplimit(&ev), 61);

	/* fixed point */
	assert_int_equal(doca_pcc_dev_mult(0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFE00000001ull);
	assert_int_equal(doca_pcc_dev_fxp_mult(1u << 20, 32768), 1u << 19);
	assert_int_equal(doca_pcc_dev_fxp_mult(1ull << 40, 65536), 0);
	assert_int_equal(doca_pcc_dev_fxp_recip(2 * 65536), 32768);
	assert_int_equal(doca_pcc_dev_fxp_power2(65536), 2 * 65536);
	assert_int_equal(doca_pcc_dev_fxp_log2(4 * 65536), 2 * 65536);
	assert_int_equal(doca_pcc_dev_fls(0x80000000u), 32);
	assert_int_equal(doca_pcc_dev_fls(1), 1);
	assert_int_equal(DOCA_PCC_DEV_MAX_RATE, 1u << 20);
	assert_int_equal(DOCA_PCC_DEV_DEFAULT_RATE, (1u << 20) >> 8);

	/* NP request view */
	memset(&req, 0, sizeof(req));
	req.pkt.vlan_present = 1;
	req.pkt.vlan_tci = 0x0123;
	req.pkt.t2_ns = 0xFFFFFFFFu;
	doca_pcc_np_dev_get_vlan_tci(&req, &present, &tci);
	assert_int_equal(present, 1);
	assert_memory_equal(&tci, "\x01\x23", 2); /* big-endian in memory */
	assert_int_equal(doca_pcc_np_dev_get_t2_ns(&req), 0x3FFFFFFF);
}

static void
test_unload(void **state)
{
	char err[256];

	(void)state;
	/* still loaded at index 0 of both ports */
	assert_int_equal(pcc_dev_plugin_unload("doca_test", err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, ALGO));
	assert_non_null(pcc_dev_algo_find(ALGO));
	for (uint8_t p = 0; p < 2; p++) {
		assert_int_equal(pcc_dev_slot_enable(p, 0, false), 0);
		assert_int_equal(pcc_dev_slot_unbind(p, 0), 0);
		assert_int_equal(pcc_dev_algo_unload(p, 0), 0);
	}
	assert_int_equal(pcc_dev_plugin_unload("doca_test", err, sizeof(err)), 0);
	assert_null(pcc_dev_algo_find(ALGO));
	assert_null(pcc_np_handler_get());
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_and_apply),
		cmocka_unit_test(test_params_described),
		cmocka_unit_test(test_event_sequence),
		cmocka_unit_test(test_set_params),
		cmocka_unit_test(test_trace_printf),
		cmocka_unit_test(test_mailbox_port_info_nic),
		cmocka_unit_test(test_default_internal_algo),
		cmocka_unit_test(test_np_handler),
		cmocka_unit_test(test_inline_accessors),
		cmocka_unit_test(test_unload),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
