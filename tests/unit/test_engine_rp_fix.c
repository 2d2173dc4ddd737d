/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The RP owner path's test fixture (test_engine_rp_fix.h): a scripted
 * algorithm, an engine of one port with one lcore's flow table of 64
 * flows, and the real wheel pacer.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "engine_internal.h"
#include "pcc_dev.h"
#include "pcc_pacer_drivers.h"
#include "test_engine_rp_fix.h"

/* A scripted algorithm: returns `script`, remembers the last event. */
struct pcc_dev_results script;
struct pcc_dev_event last_ev;
unsigned int calls;

static int
script_init(uint8_t port, uint8_t slot, uint32_t *mask)
{
	(void)port;
	(void)slot;
	*mask = PCC_DEV_EVENT_BIT(PCC_DEV_EVENT_TIMER);
	return 0;
}

/* what the algorithm saw, in order, while log_on; an ACK's decoded INT
 * header (valid only during the call) copied beside it */
struct pcc_dev_event ev_log[256];
struct pcc_int_hdr int_log[256];
unsigned int nb_log;
bool log_on;
/* results' rate from the event's PSN instead of script.rate */
bool rate_of_sn;

static void
script_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)attr;
	((uint32_t *)ctx)[0]++;
	last_ev = *ev;
	*res = script;
	if (rate_of_sn)
		res->rate = 1 + (ev->sn * 7919u) % PCC_DEV_MAX_RATE;
	calls++;
	if (log_on && nb_log < RTE_DIM(ev_log)) {
		memset(&int_log[nb_log], 0, sizeof(int_log[nb_log]));
		if (ev->type == PCC_DEV_EVENT_ACK && ev->ack.int_hdr != NULL)
			memcpy(&int_log[nb_log], ev->ack.int_hdr, sizeof(int_log[nb_log]));
		ev_log[nb_log++] = *ev;
	}
}

/* flows the engine ended, with the event count their context held */
uint32_t ended[64];
unsigned int nb_ended;

static void
script_on_flow_end(void *ctx, const struct pcc_dev_attr *attr)
{
	(void)attr;
	if (nb_ended < RTE_DIM(ended))
		ended[nb_ended++] = ((uint32_t *)ctx)[0];
}

static const struct pcc_dev_algo_ops script_ops = {
	.name = "engine_script",
	.on_event = script_on_event,
	.init = script_init,
	.on_flow_end = script_on_flow_end,
};

struct pcc_engine eng;
struct eng_lcore *lc;
struct eng_lport lport;
struct pcc_engine_port_stats pstats;

/* The owner's flow table: 64 flows, one port; timer FIFOs if timers. */
int
owner_table(bool timers)
{
	struct eng_ftable_conf fc;

	memset(&fc, 0, sizeof(fc));
	fc.name = timers ? "rp_test_timer" : "rp_test";
	fc.cap = 64;
	fc.ctx_size = 48;
	fc.nb_lists = 1;
	fc.list_mask = 1;
	fc.timer_fifo = timers;
	fc.socket = SOCKET_ID_ANY;
	return eng_ftable_init(&lc->ft, &fc);
}

int
owner_setup(void **state)
{
	struct pcc_dev_conf dc = { .n_ports = 1, .n_threads = 1, .default_algo = "engine_script" };
	struct pcc_pacer_conf pc;

	(void)state;
	if (pcc_dev_algo_register(&script_ops) != 0 || pcc_dev_init(&dc) != 0 ||
			pcc_dev_algo_load(0, 0, "engine_script") != 0 ||
			pcc_dev_slot_bind(0, 0, 0) != 0 || pcc_dev_slot_enable(0, 0, true) != 0)
		return -1;
	/* what a failed case may have left */
	eng_rp_bulk_min_flows = ENG_RP_BULK_MIN_FLOWS;
	log_on = false;
	rate_of_sn = false;
	nb_log = 0;
	memset(&eng, 0, sizeof(eng));
	eng.rp.txc_bytes = 65536;
	eng.rp.txc_ns = 20000;
	eng.pidx[0] = 0;
	eng.nb_ports = 1;
	lc = rte_zmalloc(NULL, sizeof(*lc), RTE_CACHE_LINE_SIZE);
	if (lc == NULL)
		return -1;
	lc->e = &eng;
	lc->pctr = &pstats;
	if (owner_table(false) != 0)
		return -1;
	memset(&lport, 0, sizeof(lport));
	lport.dev_port = 0;
	lport.line_bps = 100000000000ull;
	memset(&pc, 0, sizeof(pc));
	pc.backend = "wheel";
	pc.port_id = UINT16_MAX - 1;
	pc.socket_id = SOCKET_ID_ANY;
	pc.max_flows = 64;
	pc.line_rate_bps = lport.line_bps;
	lport.pacer = pcc_pacer_create(&pc);
	if (lport.pacer == NULL)
		return -1;
	memset(lc->lport_of, ENG_NO_LPORT, sizeof(lc->lport_of));
	lc->lport_of[0] = 0;
	lc->lports[0] = &lport;
	lc->nb_lports = 1;
	return 0;
}

int
owner_teardown(void **state)
{
	(void)state;
	pcc_pacer_free(lport.pacer);
	eng_ftable_fini(&lc->ft);
	rte_free(lc);
	pcc_dev_fini();
	pcc_dev_algo_unregister("engine_script");
	return 0;
}

struct eng_flow *
new_flow(uint32_t qpn)
{
	struct pcc_engine_flow_key k;

	pcc_engine_flow_key_qp(&k, 0, qpn);
	return eng_rp_flow_get(lc, &lport, &k, eng_flow_hash(&k), NULL, NULL, 0);
}
