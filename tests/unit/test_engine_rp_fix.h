/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef TEST_ENGINE_RP_FIX_H
#define TEST_ENGINE_RP_FIX_H

/*
 * The RP owner path's fixture, shared by test_engine_rp_owner.c and
 * test_engine_rp_txc.c (test_engine_rp_fix.c): a scripted algorithm
 * ("engine_script") bound to port 0, the engine `eng` with one port, the
 * lcore `lc` with a flow table of 64 flows (one list, no timer FIFO:
 * owner_table() makes another), the lport `lport` with a wheel pacer.
 */

#include <stdbool.h>
#include <stdint.h>

#include "engine_internal.h"
#include "pcc_dev.h"

/* What the algorithm returns; the last event it saw; its calls. */
extern struct pcc_dev_results script;
extern struct pcc_dev_event last_ev;
extern unsigned int calls;
/* What it saw, in order, while log_on; an ACK's decoded INT header
 * (valid only during the call) copied beside it. */
extern struct pcc_dev_event ev_log[256];
extern struct pcc_int_hdr int_log[256];
extern unsigned int nb_log;
extern bool log_on;
/* Results' rate from the event's PSN instead of script.rate. */
extern bool rate_of_sn;
/* Flows the engine ended, with the event count their context held. */
extern uint32_t ended[64];
extern unsigned int nb_ended;

extern struct pcc_engine eng;
extern struct eng_lcore *lc;
extern struct eng_lport lport;
extern struct pcc_engine_port_stats pstats;

/* The owner's flow table again: 64 flows, one port; timer FIFOs if
 * timers. */
int owner_table(bool timers);
/* cmocka setup and teardown of each case. */
int owner_setup(void **state);
int owner_teardown(void **state);
/* A new flow of QP qpn on port 0 at time 0. */
struct eng_flow *new_flow(uint32_t qpn);

#endif /* TEST_ENGINE_RP_FIX_H */
