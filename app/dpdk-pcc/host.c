/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dpdk-pcc and lib/host (doc/host.md, doc/dpdk-pcc.md "Host integration").
 *
 * The engine is lib/host's provider.  The process has one context (RP on
 * the first RP port, else NP on the first port); its start launches the
 * engine's lcores and its stop stops them and waits.  Both run on the
 * main lcore: with --ha the become_active callback (HA thread) only hands
 * the start to the main lcore, which is waiting in app_host_wait_active(),
 * and the deactivate callback asks the lcores to return
 * (pcc_engine_stop(), a flag), so the main loop ends.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "host.h"
#include "pcc_dev_plugin.h"
#include "pcc_host.h"
#include "pcc_host_ha.h"

static struct {
	struct pcc_engine *e;
	struct pcc_host_ctx *ctx;
	struct pcc_host_ha *ha;
	const struct app_args *args;
	bool running;
	uint32_t want_active; /* HA: set by become_active, cleared by deactivate */
	uint32_t deactivated; /* HA: deactivate ran */
} host;

/* ---- Provider ---------------------------------------------------- */

static int
op_start(void *arg, struct pcc_host_ctx *ctx)
{
	struct pcc_engine *e = arg;
	int ret;

	RTE_SET_USED(ctx);
	if (host.running)
		return 0;
	ret = pcc_engine_start(e);
	if (ret < 0)
		return ret;
	host.running = true;
	return 0;
}

static int
op_stop(void *arg, struct pcc_host_ctx *ctx)
{
	struct pcc_engine *e = arg;

	RTE_SET_USED(ctx);
	pcc_engine_stop(e);
	pcc_engine_wait(e);
	host.running = false;
	return 0;
}

static void
op_stop_async(void *arg)
{
	pcc_engine_stop(arg);
}

static int
op_port_dev(void *arg, uint16_t port_id, uint8_t *dev_port)
{
	uint8_t slot;

	return pcc_engine_port_dev(arg, port_id, dev_port, &slot);
}

static uint32_t
op_flows_count(void *arg)
{
	return pcc_engine_flow_count(arg);
}

static void
flow_conv(const struct pcc_engine_flow_info *in, struct pcc_host_flow *out)
{
	memset(out, 0, sizeof(*out));
	out->key.port_id = in->key.port_id;
	out->key.type = in->key.type;
	out->key.proto = in->key.proto;
	out->key.qpn = in->key.qpn;
	out->key.sport = in->key.sport;
	out->key.dport = in->key.dport;
	memcpy(out->key.src, in->key.src, sizeof(out->key.src));
	memcpy(out->key.dst, in->key.dst, sizeof(out->key.dst));
	out->lcore_id = in->lcore_id;
	out->dev_port = in->dev_port;
	out->slot = in->slot;
	out->rate = in->rate;
	out->rate_bps = in->rate_bps;
	out->window = in->window;
	out->tx_pkts = in->tx_pkts;
	out->tx_bytes = in->tx_bytes;
	out->cnp_rx = in->cnp_rx;
	out->ack_rx = in->ack_rx;
	out->nack_rx = in->nack_rx;
	out->probe_tx = in->probe_tx;
	out->rtt_ns = in->rtt_ns;
	out->idle_ns = in->idle_ns;
}

static int
op_flow_get(void *arg, const struct pcc_host_flow_key *key, struct pcc_host_flow *f)
{
	struct pcc_engine_flow_info info;
	struct pcc_engine_flow_key k;
	int ret;

	memset(&k, 0, sizeof(k));
	k.port_id = key->port_id;
	k.type = key->type;
	k.proto = key->proto;
	k.qpn = key->qpn;
	k.sport = key->sport;
	k.dport = key->dport;
	memcpy(k.src, key->src, sizeof(k.src));
	memcpy(k.dst, key->dst, sizeof(k.dst));
	ret = pcc_engine_flow_get(arg, &k, &info);
	if (ret < 0)
		return ret;
	flow_conv(&info, f);
	return 0;
}

#define TOP_MAX 64

static uint32_t
op_flows_top(void *arg, struct pcc_host_flow *out, uint32_t n)
{
	struct pcc_engine_flow_info info[TOP_MAX];
	uint32_t i, got;

	got = pcc_engine_flows_top(arg, info, RTE_MIN(n, (uint32_t)TOP_MAX));
	for (i = 0; i < got; i++)
		flow_conv(&info[i], &out[i]);
	return got;
}

static void
stats_add(struct pcc_engine_port_stats *sum, const struct pcc_engine_port_stats *st)
{
	const uint64_t *s = (const uint64_t *)st;
	uint64_t *d = (uint64_t *)sum;
	size_t i;

	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		d[i] += s[i];
}

static int
op_stats_get(void *arg, int port_id, struct pcc_host_stat *out, uint32_t n)
{
	struct pcc_engine_port_stats sum, st;
	uint32_t k = 0;
	uint16_t p;
	int ret;

	memset(&sum, 0, sizeof(sum));
	if (port_id >= 0) {
		if (port_id >= RTE_MAX_ETHPORTS)
			return -ENOENT;
		ret = pcc_engine_port_stats_get(arg, (uint16_t)port_id, &sum);
		if (ret < 0)
			return ret;
	} else {
		for (p = 0; p < RTE_MAX_ETHPORTS; p++)
			if (pcc_engine_port_roles(arg, p) != 0 &&
					pcc_engine_port_stats_get(arg, p, &st) == 0)
				stats_add(&sum, &st);
	}
#define STAT(field)                                                               \
	do {                                                                      \
		if (k < n) {                                                      \
			snprintf(out[k].name, sizeof(out[k].name), "%s", #field); \
			out[k].value = sum.field;                                 \
		}                                                                 \
		k++;                                                              \
	} while (0)
	STAT(rx_pkts);
	STAT(rx_bytes);
	STAT(tx_pkts);
	STAT(tx_bytes);
	STAT(tx_drop);
	STAT(gen_pkts);
	STAT(gen_bytes);
	STAT(gen_ce);
	STAT(ce_rx);
	STAT(cnp_tx);
	STAT(nombuf);
	STAT(ev_masked);
	STAT(ev_err);
	STAT(rp_no_flow);
	STAT(probe_tx);
	STAT(rate_updates);
	STAT(xring_drop);
	STAT(pacer_drop);
#undef STAT
	if (k < n) {
		snprintf(out[k].name, sizeof(out[k].name), "ev_cnp");
		out[k].value = sum.ev[PCC_DEV_EVENT_CNP];
	}
	k++;
	if (k < n) {
		snprintf(out[k].name, sizeof(out[k].name), "ev_rtt");
		out[k].value = sum.ev[PCC_DEV_EVENT_RTT];
	}
	k++;
	return (int)RTE_MIN(k, n);
}

static int
op_np_caps(void *arg, uint16_t port_id, struct pcc_host_np_caps *caps)
{
	struct pcc_engine_np_caps c;
	int ret;

	ret = pcc_engine_np_caps_get(arg, port_id, &c);
	if (ret < 0)
		return ret;
	memset(caps, 0, sizeof(*caps));
	caps->resp_ts_size_max = c.resp_ts_size_max;
	caps->resp_ts_res_max = c.resp_ts_res_max;
	caps->ts_sources = 1u << PCC_HOST_TS_PORT;
	if (c.ts_realtime)
		caps->ts_sources |= 1u << PCC_HOST_TS_REALTIME;
	caps->resp_user_max = c.resp_user_max;
	caps->probe_slots = c.probe_slots;
	caps->probe_custom_max = c.probe_custom_max;
	caps->probe_formats = c.probe_formats;
	return 0;
}

static const struct pcc_host_engine_ops engine_ops = {
	.start = op_start,
	.stop = op_stop,
	.stop_async = op_stop_async,
	.port_dev = op_port_dev,
	.flows_count = op_flows_count,
	.flow_get = op_flow_get,
	.flows_top = op_flows_top,
	.stats_get = op_stats_get,
	.np_caps = op_np_caps,
};

/* ---- Worker hooks ------------------------------------------------ */

/* Each polling lcore's loop under lib/host's fault guard. */
static int
hook_run(void *arg, unsigned int lcore_id, int (*loop)(void *), void *loop_arg)
{
	struct pcc_engine *e = arg;
	int ret;

	if (pcc_host_worker_init() < 0) {
		fprintf(stderr, "%s: lcore %u: no crash guard: %s\n", APP_NAME, lcore_id,
				pcc_host_last_error());
		return loop(loop_arg);
	}
	if (PCC_HOST_WORKER_GUARD() != 0) {
		pcc_engine_stop(e);
		return pcc_host_worker_fault_resume();
	}
	ret = loop(loop_arg);
	pcc_host_worker_fini();
	return ret;
}

static unsigned int
hook_round(void *arg)
{
	RTE_SET_USED(arg);
	return pcc_host_mailbox_poll();
}

/* ---- Plug-ins ---------------------------------------------------- */

int
app_host_plugins_load(const struct app_args *a, char *err, size_t errlen)
{
	char why[512];
	uint32_t i;
	int ret;

	for (i = 0; i < a->nb_plugins; i++) {
		ret = pcc_dev_plugin_check(a->plugins[i], why, sizeof(why));
		if (ret == 0)
			ret = pcc_dev_plugin_load(a->plugins[i], why, sizeof(why));
		if (ret < 0) {
			snprintf(err, errlen, "invalid value '%s' for --plugin (%s)", a->plugins[i],
					why[0] != '\0' ? why : strerror(-ret));
			return -1;
		}
	}
	return 0;
}

static int
plugins_apply(const struct app_args *a, char *err, size_t errlen)
{
	static struct pcc_dev_plugin_info info[PCC_DEV_PLUGIN_MAX];
	char why[512];
	unsigned int i, n;
	int ret;

	if (a->nb_plugins == 0)
		return 0;
	n = pcc_dev_plugin_list(info, RTE_DIM(info));
	for (i = 0; i < n; i++) {
		if (info[i].n_layout == 0)
			continue;
		ret = pcc_dev_plugin_apply(info[i].name, why, sizeof(why));
		if (ret < 0) {
			snprintf(err, errlen, "plug-in %s (%s): cannot apply its slot layout: %s",
					info[i].name, info[i].path, why);
			return -1;
		}
	}
	return 0;
}

/* ---- HA ------------------------------------------------------------ */

static int
ha_become_active(void *arg)
{
	RTE_SET_USED(arg);
	__atomic_store_n(&host.want_active, 1, __ATOMIC_RELEASE);
	printf("%s: HA %s: ACTIVE (generation %lu, pid %d): starting the engine\n", APP_NAME,
			host.args->ha_name,
			(unsigned long)pcc_host_ha_generation(pcc_host_ha_get()), (int)getpid());
	fflush(stdout);
	return 0;
}

static int
ha_deactivate(void *arg)
{
	RTE_SET_USED(arg);
	__atomic_store_n(&host.want_active, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&host.deactivated, 1, __ATOMIC_RELEASE);
	pcc_engine_stop(host.e);
	printf("%s: HA %s: DEACTIVATED (another process took over): stopping the engine\n",
			APP_NAME, host.args->ha_name);
	fflush(stdout);
	return 0;
}

static int
ha_start(const struct app_args *a, char *err, size_t errlen)
{
	struct pcc_host_ha_conf hc = {
		.dir = a->ha_dir,
		.name = a->ha_name,
		.heartbeat_ms = a->ha_heartbeat_ms,
		.stale_ms = a->ha_stale_ms,
		.become_active = ha_become_active,
		.deactivate = ha_deactivate,
		/* parameter changes made at run time reach the standbys */
		.journal = true,
	};

	host.ha = pcc_host_ha_start(&hc);
	if (host.ha == NULL) {
		snprintf(err, errlen, "--ha %s: %s", a->ha_name, pcc_host_last_error());
		return -1;
	}
	printf("%s: HA %s: lock file %s\n", APP_NAME, a->ha_name, pcc_host_ha_path(host.ha));
	fflush(stdout);
	return 0;
}

/* ---- Lifecycle ----------------------------------------------------- */

static int
ctx_create(struct pcc_engine *e)
{
	uint16_t p, first = RTE_MAX_ETHPORTS;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		uint8_t roles = pcc_engine_port_roles(e, p);

		if (roles & PCC_ENGINE_ROLE_RP) {
			host.ctx = pcc_host_rp_create(p);
			return host.ctx != NULL ? 0 : -1;
		}
		if (roles != 0 && first == RTE_MAX_ETHPORTS)
			first = p;
	}
	if (first == RTE_MAX_ETHPORTS)
		first = 0;
	host.ctx = pcc_host_np_create(first);
	return host.ctx != NULL ? 0 : -1;
}

struct pcc_host_ctx *
app_host_ctx(void)
{
	return host.ctx;
}

int
app_host_attach(struct pcc_engine *e, const struct app_args *a, char *err, size_t errlen)
{
	struct pcc_engine_hooks hooks = { .run = hook_run, .round = hook_round, .arg = e };
	int ret;

	host.e = e;
	host.args = a;
	host.running = false;
	ret = pcc_engine_set_hooks(e, &hooks);
	if (ret < 0) {
		snprintf(err, errlen, "cannot install the worker hooks: %s", strerror(-ret));
		return -1;
	}
	if (plugins_apply(a, err, errlen) < 0)
		return -1;
	pcc_host_engine_register(&engine_ops, e);
	/* harmless when the EAL runs without telemetry (--no-telemetry) */
	ret = pcc_host_telemetry_register();
	if (ret < 0) {
		snprintf(err, errlen, "cannot register the /pcc/ telemetry commands: %s",
				pcc_host_last_error());
		return -1;
	}
	if (a->crash_file != NULL) {
		ret = pcc_host_crash_set_file(a->crash_file);
		if (ret < 0) {
			snprintf(err, errlen, "invalid value '%s' for --crash-file (%s)",
					a->crash_file, pcc_host_last_error());
			return -1;
		}
	}
	if (ctx_create(e) < 0) {
		snprintf(err, errlen, "cannot create the host context: %s", pcc_host_last_error());
		return -1;
	}
	/* the console's 'mailbox send' (doc/console.md); worker rank 0 */
	ret = pcc_host_mailbox_set_size(host.ctx, APP_MAILBOX_SIZE, APP_MAILBOX_SIZE);
	if (ret < 0) {
		snprintf(err, errlen, "cannot set up the mailbox: %s", pcc_host_last_error());
		return -1;
	}
	if (a->ha && ha_start(a, err, errlen) < 0)
		return -1;
	return 0;
}

int
app_host_wait_active(volatile sig_atomic_t *quit, uint64_t deadline)
{
	enum pcc_host_process_state st;
	uint32_t period;
	bool told = false;

	if (host.ha == NULL)
		return 1;
	period = host.args->ha_heartbeat_ms != 0 ? host.args->ha_heartbeat_ms : 50;
	for (;;) {
		if (__atomic_load_n(&host.want_active, __ATOMIC_ACQUIRE) != 0)
			return 1;
		st = pcc_host_process_state();
		if (*quit != 0 || st == PCC_HOST_PS_ERROR ||
				(deadline != 0 && rte_get_tsc_cycles() >= deadline))
			return 0;
		if (pcc_host_ha_wait(host.ha, st, (int)(2 * period)) == -ETIMEDOUT && !told &&
				st != PCC_HOST_PS_ACTIVE &&
				__atomic_load_n(&host.want_active, __ATOMIC_ACQUIRE) == 0) {
			printf("%s: HA %s: %s: waiting to become ACTIVE\n", APP_NAME,
					host.args->ha_name,
					st == PCC_HOST_PS_STANDBY ? "STANDBY" : "DEACTIVATED");
			fflush(stdout);
			told = true;
		}
	}
}

int
app_host_start(void)
{
	int ret;

	__atomic_store_n(&host.deactivated, 0, __ATOMIC_RELEASE);
	ret = pcc_host_start(host.ctx);
	if (ret < 0)
		fprintf(stderr, "%s: cannot start the engine: %s\n", APP_NAME,
				pcc_host_last_error());
	return ret;
}

void
app_host_stop(void)
{
	enum pcc_host_ctx_state st = pcc_host_ctx_state(host.ctx);

	if (st == PCC_HOST_CTX_RUNNING || st == PCC_HOST_CTX_ERROR)
		pcc_host_stop(host.ctx);
	else
		op_stop(host.e, host.ctx);
}

bool
app_host_deactivated(void)
{
	return __atomic_load_n(&host.deactivated, __ATOMIC_ACQUIRE) != 0;
}

void
app_host_detach(void)
{
	pcc_host_ha_stop(host.ha);
	host.ha = NULL;
	pcc_host_destroy(host.ctx);
	host.ctx = NULL;
	pcc_host_engine_register(NULL, NULL);
	host.e = NULL;
}

int
app_host_exit_status(int rc)
{
	if (pcc_host_process_state() != PCC_HOST_PS_ERROR)
		return rc;
	if (host.args != NULL && host.args->crash_file != NULL)
		fprintf(stderr, "%s: an algorithm faulted; crash report in %s\n", APP_NAME,
				host.args->crash_file);
	else
		fprintf(stderr, "%s: an algorithm faulted (no --crash-file given)\n", APP_NAME);
	return APP_EXIT_CRASH;
}
