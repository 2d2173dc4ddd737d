/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * dpdk-pcc and lib/host (doc/host.md, doc/dpdk-pcc.md "Host integration").
 *
 * dpdk-pcc is a client of lib/host like any program: it creates a context
 * per port and role, hands every engine option to pcc_host_opt_set() and
 * starts the contexts; lib/host creates and runs the engine.  With --ha
 * the become_active callback (HA thread) only hands the start to the main
 * lcore, which waits in app_host_wait_active(), and the deactivate
 * callback asks the lcores to return (pcc_host_engine_stop_async, a flag),
 * so the main loop ends.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "host.h"
#include "pcc_host.h"
#include "pcc_host_ha.h"

static struct {
	struct pcc_host_ctx *ctx[PCC_HOST_MAX_CTX];
	uint32_t nb;
	struct pcc_host_ha *ha;
	const struct app_args *args;
	uint32_t want_active; /* HA: set by become_active, cleared by deactivate */
	uint32_t deactivated; /* HA: deactivate ran */
} host;

/* ---- Contexts ------------------------------------------------------ */

struct pcc_host_ctx *
app_host_ctx_new(uint16_t port, bool np, char *err, size_t errlen)
{
	struct pcc_host_ctx *ctx;

	if (host.nb == PCC_HOST_MAX_CTX) {
		snprintf(err, errlen, "more than %u contexts", PCC_HOST_MAX_CTX);
		return NULL;
	}
	ctx = np ? pcc_host_np_create(port) : pcc_host_rp_create(port);
	if (ctx == NULL) {
		snprintf(err, errlen, "cannot create the %s context of port %u: %s",
				np ? "NP" : "RP", port, pcc_host_last_error());
		return NULL;
	}
	host.ctx[host.nb++] = ctx;
	/* the console's 'mailbox send' (doc/console.md) */
	if (pcc_host_mailbox_set_size(ctx, APP_MAILBOX_SIZE, APP_MAILBOX_SIZE) < 0) {
		snprintf(err, errlen, "cannot set up the mailbox of port %u: %s", port,
				pcc_host_last_error());
		return NULL;
	}
	return ctx;
}

uint32_t
app_host_ctxs(struct pcc_host_ctx **out, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < host.nb && i < n; i++)
		out[i] = host.ctx[i];
	return host.nb;
}

int
app_host_opts_apply(const struct app_args *a, struct pcc_host_ctx *ctx, char *err, size_t errlen)
{
	uint8_t scope = PCC_HOST_OPT_PROCESS;
	uint32_t i;

	if (ctx != NULL)
		scope = pcc_host_ctx_role(ctx) == PCC_HOST_ROLE_RP ? PCC_HOST_OPT_RP :
								     PCC_HOST_OPT_NP;
	for (i = 0; i < a->nb_hopts; i++) {
		const struct app_hopt *h = &a->hopts[i];

		if (h->scope != scope)
			continue;
		if (pcc_host_opt_set(ctx, h->name, h->value) < 0) {
			snprintf(err, errlen, "%s", pcc_host_last_error());
			return -1;
		}
	}
	return 0;
}

/* Ring pair ports know each other's MAC: the generator's default dst. */
static int
ring_pair_peers(const struct app_env *env, char *err, size_t errlen)
{
	struct rte_ether_addr mac;
	struct pcc_host_ctx *ctx;
	unsigned int s, r;

	for (s = 0; s < 2; s++) {
		if (rte_eth_macaddr_get(env->ring_port[!s], &mac) != 0)
			continue;
		for (r = 0; r < 2; r++) {
			ctx = pcc_host_ctx_find(env->ring_port[s],
					r == 0 ? PCC_HOST_ROLE_RP : PCC_HOST_ROLE_NP);
			if (ctx != NULL && pcc_host_set_peer_mac(ctx, mac.addr_bytes) < 0) {
				snprintf(err, errlen, "%s", pcc_host_last_error());
				return -1;
			}
		}
	}
	return 0;
}

int
app_host_setup(const struct app_args *a, const struct app_env *env, const struct app_plan *plan,
		char *err, size_t errlen, bool *usage)
{
	struct pcc_host_ctx *ctx;
	uint16_t p;
	int k;

	host.args = a;
	*usage = true;
	/* process options first: plug-ins register their algorithms */
	if (app_host_opts_apply(a, NULL, err, errlen) < 0)
		return -1;
	*usage = false;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		for (k = 0; k < 2; k++) {
			bool np = k == 1;

			if (!(np ? plan->np[p] : plan->rp[p]))
				continue;
			ctx = app_host_ctx_new(p, np, err, errlen);
			if (ctx == NULL)
				return -1;
			*usage = true;
			if (app_host_opts_apply(a, ctx, err, errlen) < 0)
				return -1;
			*usage = false;
			if (plan->queue_map &&
					pcc_host_set_rxq_lcores(
							ctx, plan->lcore_of[p], plan->nb_rxq) < 0) {
				snprintf(err, errlen, "--config: %s", pcc_host_last_error());
				return -1;
			}
			if (!np && plan->fwd_from >= 0 && p == plan->fwd_to) {
				if (pcc_host_rp_set_forward(ctx, (uint16_t)plan->fwd_from) < 0 ||
						(plan->queue_map &&
								pcc_host_rp_set_forward_rxq_lcores(
										ctx,
										plan->lcore_of[plan->fwd_from],
										plan->nb_rxq) <
										0)) {
					snprintf(err, errlen, "--forward: %s",
							pcc_host_last_error());
					return -1;
				}
			}
		}
	}
	if (env->ring_pair && ring_pair_peers(env, err, errlen) < 0)
		return -1;
	/* a STANDBY is warm: its engine exists (the journal replays into
	 * it) and starts when it becomes ACTIVE */
	if (a->ha && pcc_host_prepare() < 0) {
		snprintf(err, errlen, "%s", pcc_host_last_error());
		return -1;
	}
	*usage = true;
	return app_host_services(a, err, errlen);
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
	pcc_host_engine_stop_async();
	printf("%s: HA %s: DEACTIVATED (another process took over): stopping the engine\n",
			APP_NAME, host.args->ha_name);
	fflush(stdout);
	return 0;
}

/*
 * The watchdog found an lcore hung (an algorithm or NP handler that does
 * not return): the report is written, the state is ERROR; the hung lcore
 * cannot be joined, so the process ends here with its own status (an HA
 * ACTIVE's lock goes with it: the STANDBY takes over).
 */
static void
watchdog_hang(unsigned int lcore_id, void *arg)
{
	const struct app_args *a = arg;
	const char *crash = app_hopt(a, "crash-file");

	fprintf(stderr, "%s: lcore %u hung: no poll round for %u ms (watchdog); report %s%s\n",
			APP_NAME, lcore_id, pcc_host_watchdog_ms(), crash != NULL ? "in " : "",
			crash != NULL ? crash : "on stderr");
	fflush(stdout);
	fflush(stderr);
	_exit(APP_EXIT_HANG);
}

int
app_host_services(const struct app_args *a, char *err, size_t errlen)
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

	host.args = a;
	pcc_host_watchdog_on_hang(watchdog_hang, (void *)(uintptr_t)a);
	if (app_hopt(a, "watchdog-ms") == NULL &&
			pcc_host_watchdog_set(APP_WATCHDOG_MS_DEFAULT) < 0) {
		snprintf(err, errlen, "%s", pcc_host_last_error());
		return -1;
	}
	/* harmless when the EAL runs without telemetry (--no-telemetry) */
	if (pcc_host_telemetry_register() < 0) {
		snprintf(err, errlen, "cannot register the /pcc/ telemetry commands: %s",
				pcc_host_last_error());
		return -1;
	}
	if (!a->ha)
		return 0;
	host.ha = pcc_host_ha_start(&hc);
	if (host.ha == NULL) {
		snprintf(err, errlen, "--ha %s: %s", a->ha_name, pcc_host_last_error());
		return -1;
	}
	printf("%s: HA %s: lock file %s\n", APP_NAME, a->ha_name, pcc_host_ha_path(host.ha));
	fflush(stdout);
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

/* ---- Lifecycle ----------------------------------------------------- */

int
app_host_start(void)
{
	uint32_t i;
	int ret;

	__atomic_store_n(&host.deactivated, 0, __ATOMIC_RELEASE);
	for (i = 0; i < host.nb; i++) {
		if (pcc_host_ctx_state(host.ctx[i]) == PCC_HOST_CTX_RUNNING)
			continue;
		ret = pcc_host_start(host.ctx[i]);
		if (ret < 0) {
			fprintf(stderr, "%s: cannot start the engine: %s\n", APP_NAME,
					pcc_host_last_error());
			return ret;
		}
	}
	return 0;
}

void
app_host_stop(void)
{
	uint32_t i;

	for (i = 0; i < host.nb; i++) {
		enum pcc_host_ctx_state st = pcc_host_ctx_state(host.ctx[i]);

		if (st == PCC_HOST_CTX_RUNNING || st == PCC_HOST_CTX_ERROR)
			pcc_host_stop(host.ctx[i]);
	}
}

bool
app_host_deactivated(void)
{
	return __atomic_load_n(&host.deactivated, __ATOMIC_ACQUIRE) != 0;
}

void
app_host_detach(void)
{
	uint32_t i;

	pcc_host_ha_stop(host.ha);
	host.ha = NULL;
	for (i = host.nb; i-- > 0;)
		pcc_host_destroy(host.ctx[i]);
	host.nb = 0;
}

int
app_host_exit_status(const struct app_args *a, int rc)
{
	const char *crash = app_hopt(a, "crash-file");

	if (pcc_host_process_state() != PCC_HOST_PS_ERROR)
		return rc;
	if (crash != NULL)
		fprintf(stderr, "%s: an algorithm faulted; crash report in %s\n", APP_NAME, crash);
	else
		fprintf(stderr, "%s: an algorithm faulted (no --crash-file given)\n", APP_NAME);
	return APP_EXIT_CRASH;
}
