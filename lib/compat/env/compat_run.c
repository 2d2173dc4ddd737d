/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The program's contexts and their runs (compat_env_internal.h): live
 * contexts start at once; a simulator run starts when every context the
 * program holds has been started and ends with its scenario.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>

#include "compat_env_priv.h"

/* A simulator run waits in slices this long, ms (the end is polled). */
#define RUN_SLICE_MS 10

static struct compat_ctx *
held(const struct pcc_host_ctx *ctx)
{
	uint32_t i;

	for (i = 0; i < compat.nb_ctx; i++)
		if (compat.ctx[i].ctx == ctx)
			return &compat.ctx[i];
	return NULL;
}

static const char *
role_name(enum pcc_host_role role)
{
	return role == PCC_HOST_ROLE_RP ? "RP" : "NP";
}

/* A ring pair's port knows the other's MAC (the generator's destination). */
static int
ring_peer(struct pcc_host_ctx *ctx, uint16_t port)
{
	struct rte_ether_addr mac;
	unsigned int s;

	if (compat.rp == NULL)
		return 0;
	for (s = 0; s < 2; s++) {
		if (compat.ring_port[s] != port)
			continue;
		if (rte_eth_macaddr_get(compat.ring_port[!s], &mac) != 0)
			return 0;
		if (pcc_host_set_peer_mac(ctx, mac.addr_bytes) < 0)
			return compat_env_fail(-EINVAL, "ring pair: %s", pcc_host_last_error());
	}
	return 0;
}

/* A context of the environment's own, with the settings' engine options. */
static struct pcc_host_ctx *
ctx_new(uint16_t port, enum pcc_host_role role)
{
	struct pcc_host_ctx *ctx;

	ctx = role == PCC_HOST_ROLE_RP ? pcc_host_rp_create(port) : pcc_host_np_create(port);
	if (ctx == NULL) {
		compat_env_fail(-EINVAL, "cannot create the %s context of port %u: %s",
				role_name(role), port, pcc_host_last_error());
		return NULL;
	}
	if (compat_opts_apply(ctx, role == PCC_HOST_ROLE_RP ? PCC_HOST_OPT_RP : PCC_HOST_OPT_NP) <
					0 ||
			ring_peer(ctx, port) < 0) {
		pcc_host_destroy(ctx);
		return NULL;
	}
	return ctx;
}

struct pcc_host_ctx *
compat_ctx_get(uint16_t port, enum pcc_host_role role)
{
	struct pcc_host_ctx *ctx;
	bool ours = false;

	if (!compat_env_ready()) {
		compat_env_fail(-ENODEV, "the environment did not start: %s", compat.init_err);
		return NULL;
	}
	if (compat.set.sim[0] != '\0' && compat.run == NULL) {
		compat_env_fail(-ENODEV, "the simulator run (PCC_SIM) is over");
		return NULL;
	}
	ctx = pcc_host_ctx_find(port, role);
	if (ctx != NULL && held(ctx) != NULL) {
		compat_env_fail(-EEXIST, "port %u has an %s context already", port,
				role_name(role));
		return NULL;
	}
	if (compat.run != NULL) {
		/* the simulator run made every context of its hosts */
		if (ctx == NULL) {
			compat_env_fail(-ENOTSUP,
					"port %u has no %s role in the scenario (RP: a sender of "
					"engine flows; NP: a receiver with hosts.np: engine)",
					port, role_name(role));
			return NULL;
		}
		if (compat.run_started) {
			compat_env_fail(-EBUSY, "the simulator run has started");
			return NULL;
		}
	} else if (ctx == NULL) {
		ctx = ctx_new(port, role);
		if (ctx == NULL)
			return NULL;
		ours = true;
	} else {
		compat_env_fail(-EEXIST, "port %u has an %s context already", port,
				role_name(role));
		return NULL;
	}
	if (compat.nb_ctx == RTE_DIM(compat.ctx)) {
		if (ours)
			pcc_host_destroy(ctx);
		compat_env_fail(-ENOSPC, "more than %u contexts",
				(unsigned int)RTE_DIM(compat.ctx));
		return NULL;
	}
	compat.ctx[compat.nb_ctx++] = (struct compat_ctx){ .ctx = ctx, .ours = ours };
	return ctx;
}

bool
compat_ctx_started(const struct pcc_host_ctx *ctx)
{
	const struct compat_ctx *c = held(ctx);

	return c != NULL && c->start_asked;
}

/* ---- Simulator runs --------------------------------------------------------- */

/* Every context of the run, in port order, RP before NP. */
static uint32_t
run_ctxs(struct pcc_host_ctx **out, uint32_t n)
{
	uint32_t k = 0;
	uint16_t i;
	int r;

	for (i = 0; i < pcc_simrun_port_count(compat.run); i++) {
		struct pcc_sim_port_info p;

		pcc_simrun_port_info(compat.run, i, &p);
		for (r = 0; r < 2; r++) {
			struct pcc_host_ctx *c = pcc_host_ctx_find(
					p.port_id, r == 0 ? PCC_HOST_ROLE_RP : PCC_HOST_ROLE_NP);

			if (c != NULL && k < n)
				out[k++] = c;
		}
	}
	return k;
}

static int
run_start(void)
{
	struct pcc_host_ctx *c[PCC_HOST_MAX_CTX];
	uint32_t n, i;
	char err[512];
	int rc;

	n = run_ctxs(c, RTE_DIM(c));
	for (i = 0; i < n; i++) {
		rc = pcc_host_start(c[i]);
		if (rc < 0)
			return compat_env_fail(rc, "simulator run: port %u: %s",
					pcc_host_ctx_port(c[i]), pcc_host_last_error());
	}
	compat.run_started = true;
	if (pcc_simrun_started(compat.run, err, sizeof(err)) < 0)
		return compat_env_fail(-EIO, "simulator run: %s", err);
	COMPAT_LOG(INFO, "simulator run %s started: %u contexts", compat.set.sim, n);
	return 0;
}

/* The scenario ended (or the program stops it): stop, write the outputs. */
static void
run_end(void)
{
	struct pcc_host_ctx *c[PCC_HOST_MAX_CTX];
	uint32_t n, i;

	if (compat.run == NULL || !compat.run_started || compat.run_ended)
		return;
	n = run_ctxs(c, RTE_DIM(c));
	for (i = 0; i < n; i++)
		if (pcc_host_ctx_state(c[i]) == PCC_HOST_CTX_RUNNING)
			pcc_host_stop(c[i]);
	pcc_simrun_stop(compat.run);
	if (pcc_simrun_finish(compat.run, stdout) != 0)
		COMPAT_LOG(WARNING, "simulator run: writing the outputs failed");
	fflush(stdout);
	compat.run_ended = true;
	pcc_host_process_state_set(PCC_HOST_PS_DEACTIVATED);
	COMPAT_LOG(INFO, "simulator run %s ended", compat.set.sim);
}

/* The program let go of everything: the run goes. */
static void
run_free(void)
{
	struct pcc_host_ctx *c[PCC_HOST_MAX_CTX];
	uint32_t n, i;

	run_end();
	pcc_simrun_release(compat.run);
	n = run_ctxs(c, RTE_DIM(c));
	for (i = 0; i < n; i++)
		pcc_host_destroy(c[i]);
	pcc_simrun_destroy(compat.run);
	compat.run = NULL;
	pcc_sim_scenario_free(compat.scn);
	compat.scn = NULL;
}

void
compat_poll(void)
{
	compat_ha_poll();
	if (compat.run != NULL && compat.run_started && !compat.run_ended &&
			pcc_simrun_done(compat.run))
		run_end();
}

/* ---- Start, stop, wait, put -------------------------------------------------- */

/* Live on a ring pair: the other port of an RP context answers as an NP. */
static int
ring_np(struct pcc_host_ctx *ctx)
{
	uint16_t port = pcc_host_ctx_port(ctx), other;
	struct pcc_host_ctx *np;
	unsigned int s;

	if (compat.rp == NULL || pcc_host_ctx_role(ctx) != PCC_HOST_ROLE_RP ||
			pcc_host_engine() != NULL)
		return 0;
	for (s = 0; s < 2; s++) {
		if (compat.ring_port[s] != port)
			continue;
		other = compat.ring_port[!s];
		if (pcc_host_ctx_find(other, PCC_HOST_ROLE_NP) != NULL)
			return 0;
		np = ctx_new(other, PCC_HOST_ROLE_NP);
		if (np == NULL)
			return -EINVAL;
		COMPAT_LOG(INFO, "ring pair: port %u answers as the NP of port %u", other, port);
	}
	return 0;
}

int
compat_ctx_start(struct pcc_host_ctx *ctx)
{
	struct compat_ctx *c = held(ctx);
	struct pcc_host_ctx *np;
	uint32_t i;
	int rc;

	if (c == NULL)
		return compat_env_fail(-EINVAL, "not a context of this program");
	if (compat.run != NULL) {
		if (compat.run_started)
			return compat_env_fail(-EBUSY, "the simulator run has started");
		c->start_asked = true;
		for (i = 0; i < compat.nb_ctx; i++)
			if (!compat.ctx[i].start_asked)
				return 0; /* the run starts with the last one */
		return run_start();
	}
	rc = ring_np(ctx);
	if (rc < 0)
		return rc;
	if (compat.set.ha[0] != '\0' && !compat.ha_started) {
		/* active/standby: the context starts when this process is ACTIVE */
		c->start_asked = true;
		rc = compat_ha_start();
		if (rc < 0) {
			c->start_asked = false;
			return rc;
		}
		compat_ha_poll();
		return 0;
	}
	rc = pcc_host_start(ctx);
	if (rc < 0)
		return compat_env_fail(rc, "start: %s", pcc_host_last_error());
	c->start_asked = true;
	/* the ring pair's answering port, if the environment made it */
	for (i = 0; i < 2 && compat.rp != NULL; i++) {
		np = pcc_host_ctx_find(compat.ring_port[i], PCC_HOST_ROLE_NP);
		if (np != NULL && held(np) == NULL &&
				pcc_host_ctx_state(np) != PCC_HOST_CTX_RUNNING &&
				pcc_host_start(np) < 0)
			return compat_env_fail(-EIO, "ring pair NP: %s", pcc_host_last_error());
	}
	return 0;
}

int
compat_ctx_stop(struct pcc_host_ctx *ctx)
{
	struct compat_ctx *c = held(ctx);
	int rc;

	if (c == NULL)
		return compat_env_fail(-EINVAL, "not a context of this program");
	if (compat.run != NULL) {
		if (!compat.run_started)
			return compat_env_fail(-EBUSY, "the simulator run has not started");
		run_end();
		return 0;
	}
	rc = pcc_host_stop(ctx);
	if (rc < 0)
		return compat_env_fail(rc, "stop: %s", pcc_host_last_error());
	c->start_asked = false;
	return 0;
}

int
compat_wait(struct pcc_host_ctx *ctx, int timeout_ms)
{
	int left = timeout_ms, slice, rc;

	if (compat.run == NULL) {
		compat_ha_poll();
		rc = pcc_host_wait(ctx, timeout_ms);
		compat_ha_poll();
		return rc;
	}
	for (;;) {
		compat_poll();
		if (compat.run_ended)
			return 0;
		slice = timeout_ms < 0 ? RUN_SLICE_MS : RTE_MIN(left, RUN_SLICE_MS);
		rc = pcc_host_wait(ctx, slice);
		if (rc == 0)
			return 0;
		if (timeout_ms >= 0) {
			left -= slice;
			if (left <= 0)
				return -ETIMEDOUT;
		}
	}
}

void
compat_ctx_put(struct pcc_host_ctx *ctx)
{
	struct compat_ctx *c = held(ctx);
	uint32_t i;

	if (c == NULL)
		return;
	if (c->ours)
		pcc_host_destroy(ctx);
	*c = compat.ctx[--compat.nb_ctx];
	if (compat.nb_ctx > 0)
		return;
	/* the last one: what the environment made for the program goes too */
	if (compat.run != NULL) {
		run_free();
		return;
	}
	for (i = 0; i < 2 && compat.rp != NULL; i++)
		pcc_host_destroy(pcc_host_ctx_find(compat.ring_port[i], PCC_HOST_ROLE_NP));
	if (compat.ha != NULL) {
		pcc_host_ha_stop(compat.ha);
		compat.ha = NULL;
		compat.ha_started = false;
		__atomic_store_n(&compat.ha_go, 0, __ATOMIC_RELEASE);
	}
}
