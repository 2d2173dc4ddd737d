/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The engine lib/host runs: built from every context and the process
 * options at the first pcc_host_start() (host_engine_create), its worker
 * hooks (fault guard, mailbox polling), a context's port resumed or paused
 * as the context starts and stops, the lcores launched with the first
 * running context and stopped with the last (doc/host.md, "The engine").
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "host_internal.h"
#include "pcc_algos.h"
#include "pcc_dev_plugin.h"

struct pcc_engine *host_e;

struct host_engine_state host_eng;

/* ---- Worker hooks ---------------------------------------------------------- */

/* Each polling lcore's loop under the fault guard. */
static int
hook_run(void *arg, unsigned int lcore_id, int (*loop)(void *), void *loop_arg)
{
	struct pcc_engine *e = arg;
	int ret;

	/* the watchdog signals this thread to report it if it hangs */
	host_watchdog_thread_set(lcore_id, true);
	if (pcc_host_worker_init() < 0) {
		HOST_LOG(WARNING, "lcore %u: no crash guard: %s\n", lcore_id,
				pcc_host_last_error());
		ret = loop(loop_arg);
		host_watchdog_thread_set(lcore_id, false);
		return ret;
	}
	if (PCC_HOST_WORKER_GUARD() != 0) {
		HOST_LOG(ERR, "lcore %u: algorithm fault, engine stopping\n", lcore_id);
		pcc_engine_stop(e);
		host_watchdog_thread_set(lcore_id, false);
		return pcc_host_worker_fault_resume();
	}
	ret = loop(loop_arg);
	pcc_host_worker_fini();
	host_watchdog_thread_set(lcore_id, false);
	return ret;
}

static unsigned int
hook_round(void *arg)
{
	RTE_SET_USED(arg);
	return pcc_host_mailbox_poll();
}

/* ---- Building the configuration ------------------------------------------------ */

/* What the engine configuration points into while it is created. */
struct build {
	struct pcc_engine_conf conf;
	struct pcc_engine_rxq_conf rxq[RTE_MAX_ETHPORTS * PCC_HOST_MAX_LCORES];
	struct pcc_engine_probe_conf probe[RTE_MAX_ETHPORTS][PCC_ENGINE_PROBE_SLOTS];
	struct pcc_engine_np_conf np[RTE_MAX_ETHPORTS];
	struct pcc_host_ctx *rp[RTE_MAX_ETHPORTS]; /* contexts by port */
	struct pcc_host_ctx *npc[RTE_MAX_ETHPORTS];
	uint32_t lcores[RTE_MAX_LCORE]; /* polling lcores by default */
	uint32_t nb_lcores;
};

/* The contexts, by port and role (host_lock). */
static unsigned int
collect(struct build *b)
{
	unsigned int i, n = 0;

	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		struct pcc_host_ctx *c = host_ctx_at(i);

		if (c == NULL)
			continue;
		if (c->role == PCC_HOST_ROLE_RP)
			b->rp[c->port_id] = c;
		else
			b->npc[c->port_id] = c;
		n++;
	}
	pthread_mutex_unlock(&host_lock);
	return n;
}

/* Default polling lcores: the workers, or the main lcore alone. */
static void
default_lcores(struct build *b)
{
	unsigned int l;

	b->nb_lcores = 0;
	RTE_LCORE_FOREACH_WORKER(l)
	b->lcores[b->nb_lcores++] = l;
	if (b->nb_lcores == 0)
		b->lcores[b->nb_lcores++] = rte_get_main_lcore();
}

/* The context of port p whose affinity was set last, or its RP one. */
static const struct pcc_host_ctx *
port_ctx(const struct build *b, uint16_t p)
{
	const struct pcc_host_ctx *r = b->rp[p], *n = b->npc[p];

	if (r == NULL)
		return n;
	if (n == NULL)
		return r;
	return n->affinity_seq > r->affinity_seq ? n : r;
}

static int
build_process(struct build *b)
{
	struct pcc_engine_conf *c = &b->conf;
	const struct host_proc *p = &host_proc;
	char why[512];
	struct host_stage st = { .proc = &host_proc, .seen = &host_proc_seen };
	unsigned int i;

	if (host_stage_check(&st, why, sizeof(why)) < 0)
		return host_err(-EINVAL, "start: %s", why);
	pcc_engine_conf_default(c);
	c->nb_txq = p->txq;
	c->nb_rxd = p->rxd;
	c->nb_txd = p->txd;
	c->nb_mbufs = p->nb_mbufs;
	c->nb_mbufs_extra = p->nb_mbufs_extra;
	c->burst = p->burst;
	c->idle_sleep_us = p->idle_sleep_us;
	c->gen = p->gen;
	if (c->gen.ipv6) {
		static const uint8_t src6[16] = { 0xfd, [15] = 1 };
		static const uint8_t dst6[16] = { 0xfd, [15] = 2 };

		if (!p->src_ip_set)
			memcpy(c->gen.src_ip.v6, src6, sizeof(src6));
		if (!p->dst_ip_set)
			memcpy(c->gen.dst_ip.v6, dst6, sizeof(dst6));
	}
	c->gen.groups = p->groups;
	c->gen.nb_groups = p->nb_groups;
	c->gen.abs_start = host_eng.abs_start;
	c->flow = p->flow;
	c->rp.tx_coalesce_bytes = p->txc_bytes;
	c->rp.tx_coalesce_us = p->txc_us;
	c->rp.timer_us = p->timer_us;
	c->rp.pace_ahead_ns = p->pace_ahead_ns;
	c->rp.pacer = p->pacer;
	c->rp.pacer_queue = p->pacer_queue;
	c->rp.tx_stamp = p->tx_stamp;
	c->rp.probe_unbound = p->probe_unbound;
	c->np.qp_table = p->np_qp_table;
	c->np.ifa2_proto = p->ifa2_proto;
	c->np.ifa1_marker = p->ifa1_marker;
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		c->port[i].icrc_hw = p->icrc_hw;
	return 0;
}

/* The largest per-flow context the contexts' algorithms need. */
static void
build_ctx_size(struct build *b)
{
	uint32_t max = b->conf.flow.ctx_size;
	uint16_t p;
	uint8_t s;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct pcc_host_ctx *r = b->rp[p];

		for (s = 0; r != NULL && s < PCC_ENGINE_SLOTS; s++) {
			const struct pcc_dev_algo_ops *ops = pcc_dev_algo_find(r->rp.slot_algo[s]);

			if (ops != NULL)
				max = RTE_MAX(max, ops->ctx_size);
		}
	}
	b->conf.flow.ctx_size = (uint16_t)RTE_MIN(max, (uint32_t)PCC_DEV_CTX_MAX);
}

static int
build_ports(struct build *b)
{
	struct pcc_engine_conf *c = &b->conf;
	uint16_t p, a;
	uint8_t s;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct pcc_host_ctx *r = b->rp[p], *n = b->npc[p];
		struct pcc_engine_port_conf *pc = &c->port[p];

		if (r == NULL && n == NULL)
			continue;
		if (!rte_eth_dev_is_valid_port(p))
			return host_err(-ENODEV,
					"start: port %u of the %s context is no ethdev "
					"port",
					p, r != NULL ? "RP" : "NP");
		if (r != NULL) {
			pc->roles |= PCC_ENGINE_ROLE_RP;
			pc->line_rate_bps = r->rp.line_rate_bps;
			pc->dev_port_set = r->rp.dev_port_set;
			pc->dev_port = r->rp.dev_port;
			for (s = 0; s < PCC_ENGINE_PROBE_SLOTS; s++)
				host_probe_to_engine(&r->rp.probe[s], &b->probe[p][s]);
			pc->probe = b->probe[p];
			if (r->peer_mac_valid) {
				pc->peer_mac_valid = true;
				memcpy(pc->peer_mac, r->peer_mac, sizeof(pc->peer_mac));
			}
			if (r->rp.fwd_from >= 0) {
				a = (uint16_t)r->rp.fwd_from;
				if (b->rp[a] != NULL || b->npc[a] != NULL)
					return host_err(-EINVAL,
							"start: port %u forwards from port %u, "
							"which "
							"has a context of its own",
							p, a);
				if (!rte_eth_dev_is_valid_port(a))
					return host_err(-ENODEV,
							"start: port %u forwards from port %u: no "
							"such port",
							p, a);
				c->port[a].roles = PCC_ENGINE_ROLE_FWD;
				c->fwd.enabled = true;
				c->fwd.port_a = a;
				c->fwd.port_b = p;
			}
		}
		if (n != NULL) {
			pc->roles |= PCC_ENGINE_ROLE_NP;
			b->np[p] = n->np.conf;
			pc->np = &b->np[p];
			if (n->peer_mac_valid && !pc->peer_mac_valid) {
				pc->peer_mac_valid = true;
				memcpy(pc->peer_mac, n->peer_mac, sizeof(pc->peer_mac));
			}
		}
	}
	return 0;
}

/* Which lcore polls which RX queue. */
static int
build_queues(struct build *b)
{
	struct pcc_engine_conf *c = &b->conf;
	uint32_t n = 0, k = 0;
	uint16_t p, q, nb_rxq = host_proc.rxq;
	bool fixed = nb_rxq != 0;

	if (!fixed) {
		nb_rxq = 1;
		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			const struct pcc_host_ctx *x = port_ctx(b, p);

			if (x == NULL)
				continue;
			if (x->nb_rxq_lcore != 0)
				nb_rxq = RTE_MAX(nb_rxq, x->nb_rxq_lcore);
			else
				nb_rxq = (uint16_t)RTE_MAX(nb_rxq, x->n_lcores);
		}
	}
	c->nb_rxq = nb_rxq;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct pcc_host_ctx *x = port_ctx(b, p);

		if (c->port[p].roles == 0)
			continue;
		if (x == NULL && c->fwd.enabled && p == c->fwd.port_a) {
			x = port_ctx(b, c->fwd.port_b);
			if (x != NULL && x->rp.nb_fwd_rxq_lcore != 0) {
				/* the host side's own queue map */
				if (x->rp.nb_fwd_rxq_lcore != nb_rxq)
					return host_err(-EINVAL,
							"start: port %u: %u RX queues mapped to "
							"lcores, the ports have %u (rxq)",
							p, x->rp.nb_fwd_rxq_lcore, nb_rxq);
				for (q = 0; q < nb_rxq; q++) {
					b->rxq[n].port_id = p;
					b->rxq[n].queue_id = q;
					b->rxq[n++].lcore_id = x->rp.fwd_rxq_lcore[q];
				}
				continue;
			}
		}
		if (x != NULL && x->nb_rxq_lcore != 0 && x->nb_rxq_lcore != nb_rxq)
			return host_err(-EINVAL,
					"start: port %u: %u RX queues mapped to lcores, the ports "
					"have %u (rxq)",
					p, x->nb_rxq_lcore, nb_rxq);
		if (x != NULL && x->nb_rxq_lcore == 0 && x->n_lcores > nb_rxq)
			return host_err(-EINVAL,
					"start: port %u: an affinity of %u lcores needs as many RX "
					"queues, the ports have %u (rxq)",
					p, x->n_lcores, nb_rxq);
		for (q = 0; q < nb_rxq; q++) {
			struct pcc_engine_rxq_conf *r = &b->rxq[n++];

			r->port_id = p;
			r->queue_id = q;
			if (x != NULL && x->nb_rxq_lcore != 0)
				r->lcore_id = x->rxq_lcore[q];
			else if (x != NULL && x->n_lcores != 0)
				r->lcore_id = x->lcores[q % x->n_lcores];
			else
				r->lcore_id = b->lcores[k++ % b->nb_lcores];
		}
	}
	c->rxq = b->rxq;
	c->nb_rxq_conf = n;
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		unsigned int need;

		if (c->port[p].roles == 0)
			continue;
		need = pcc_engine_txq_needed(c, p);
		if (c->nb_txq != 0 && c->nb_txq < need)
			return host_err(-EINVAL,
					"invalid value '%u' for --txq (port %u is polled by %u "
					"lcores and each sends on a TX queue of its own: at least "
					"%u)",
					c->nb_txq, p, need, need);
	}
	return 0;
}

static int
build_check(struct build *b)
{
	const struct pcc_engine_conf *c = &b->conf;
	uint32_t k;
	uint16_t p;
	bool rp = false;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		rp |= (c->port[p].roles & PCC_ENGINE_ROLE_RP) != 0;
	if ((c->gen.nb_flows > 0 || c->gen.nb_groups > 0) && !rp)
		return host_err(-EINVAL,
				"invalid combination: --%s needs an RP port (see "
				"--rp-ports)",
				host_proc.gen_file[0] != '\0' || c->gen.nb_groups > 0 ?
						"gen-file" :
						"gen-flows");
	for (k = 0; k < c->gen.nb_groups; k++) {
		int32_t gp = c->gen.groups[k].port_id;

		if (gp >= 0 &&
				(gp >= RTE_MAX_ETHPORTS ||
						!(c->port[gp].roles & PCC_ENGINE_ROLE_RP)))
			return host_err(-EINVAL, "invalid %s: group %u: port %d is not an RP port",
					host_proc.gen_file[0] != '\0' ? "--gen-file" : "generator",
					k + 1, gp);
	}
	return 0;
}

/* ---- After create: algorithms, parameters, plug-ins, NP applications -------- */

int
host_engine_slot_app(
		struct pcc_host_ctx *ctx, uint8_t slot, const char *algo, char *why, size_t whylen)
{
	const struct pcc_dev_algo_ops *cur;
	uint8_t d = ctx->dev_port;
	bool enabled;
	int ret;

	cur = pcc_dev_slot_algo(d, slot, &enabled);
	if (cur != NULL && strcmp(cur->name, algo) == 0) {
		ret = enabled ? 0 : pcc_dev_slot_enable(d, slot, true);
		goto out;
	}
	if (cur != NULL) {
		ret = pcc_dev_slot_enable(d, slot, false);
		if (ret == 0)
			ret = pcc_dev_slot_unbind(d, slot);
		if (ret < 0)
			goto out;
	}
	pcc_dev_algo_unload(d, slot); /* the index may hold another one */
	ret = pcc_dev_algo_load(d, slot, algo);
	if (ret == 0)
		ret = pcc_dev_slot_bind(d, slot, slot);
	if (ret == 0)
		ret = pcc_dev_slot_enable(d, slot, true);
out:
	if (ret < 0)
		snprintf(why, whylen, "port %u: cannot load %s into slot %u: %s", ctx->port_id,
				algo, slot, strerror(-ret));
	else if (pcc_engine_flow_ctx_size(host_e) <
			(pcc_dev_algo_find(algo) != NULL ? pcc_dev_algo_find(algo)->ctx_size : 0))
		HOST_LOG(WARNING,
				"port %u: %s needs a per-flow context larger than the engine's %u "
				"bytes (name it before the first start)\n",
				ctx->port_id, algo, pcc_engine_flow_ctx_size(host_e));
	return ret;
}

/* Slots, plug-in layouts, parameters of every RP context (dev ports
 * shared by several contexts take the first one's). */
static int
apply_rp(struct build *b)
{
	static struct pcc_dev_plugin_info info[PCC_DEV_PLUGIN_MAX];
	bool done[PCC_ENGINE_DEV_PORTS] = { false };
	char why[512];
	unsigned int k, n;
	uint32_t i;
	uint16_t p;
	uint8_t s;
	int ret;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct pcc_host_ctx *r = b->rp[p];

		if (r == NULL || done[r->dev_port])
			continue;
		for (s = 0; s < PCC_ENGINE_SLOTS; s++) {
			if (r->rp.slot_algo[s][0] == '\0')
				continue;
			ret = host_engine_slot_app(r, s, r->rp.slot_algo[s], why, sizeof(why));
			if (ret < 0)
				return host_err(ret, "start: %s", why);
		}
	}
	/* plug-in layouts: the process's --plugin list, then contexts' */
	n = RTE_MIN(pcc_dev_plugin_list(info, PCC_DEV_PLUGIN_MAX),
			(unsigned int)PCC_DEV_PLUGIN_MAX);
	for (i = 0; i < host_nb_plugins; i++) {
		for (k = 0; k < n; k++) {
			if (strcmp(info[k].path, host_plugins[i]) != 0 || info[k].n_layout == 0)
				continue;
			ret = pcc_dev_plugin_apply(info[k].name, why, sizeof(why));
			if (ret < 0)
				return host_err(ret,
						"plug-in %s (%s): cannot apply its slot layout: %s",
						info[k].name, info[k].path, why);
		}
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct pcc_host_ctx *r = b->rp[p];

		if (r == NULL || !r->plugin)
			continue;
		ret = pcc_dev_plugin_apply(r->plugin_name, why, sizeof(why));
		if (ret < 0)
			return host_err(ret, "start: plug-in %s layout: %s", r->plugin_name, why);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct pcc_host_ctx *r = b->rp[p];

		if (r == NULL || done[r->dev_port])
			continue;
		done[r->dev_port] = true;
		/* --algo-profile: the whole set first, the --algo-params over it */
		if (r->rp.profile[0] != '\0') {
			const struct pcc_algo_profile *pr = host_algo_profile(
					r->rp.slot_algo[0], r->rp.profile, why, sizeof(why));
			uint8_t slot = pcc_dev_slot_active(r->dev_port);
			char v[16];

			if (pr == NULL)
				return host_err(-EINVAL, "start: port %u: %s", p, why);
			for (i = 0; i < pr->n_params; i++) {
				snprintf(v, sizeof(v), "%u", pr->params[i].value);
				ret = pcc_dev_param_set_str(
						r->dev_port, slot, pr->params[i].name, v);
				if (ret < 0)
					return host_err(-EINVAL,
							"start: port %u slot %u: profile %s: "
							"%s=%s: "
							"%s",
							p, slot, pr->name, pr->params[i].name, v,
							strerror(-ret));
			}
		}
		for (i = 0; i < r->rp.nb_params; i++) {
			const struct host_param *hp = &r->rp.params[i];
			uint8_t slot = hp->slot == PCC_HOST_SLOT_ACTIVE ?
					pcc_dev_slot_active(r->dev_port) :
					hp->slot;

			ret = pcc_dev_param_set_str(r->dev_port, slot, hp->name, hp->value);
			if (ret < 0)
				return host_err(-EINVAL,
						"start: port %u slot %u: parameter %s=%s: %s", p,
						slot, hp->name, hp->value, strerror(-ret));
		}
	}
	return 0;
}

int
host_engine_np_app_bind(struct pcc_host_ctx *ctx)
{
	pcc_np_handler_t h = NULL;
	int ret;

	if (!ctx->plugin)
		return 0;
	ret = pcc_dev_plugin_np(ctx->plugin_name, &h, NULL);
	if (ret < 0 || h == NULL)
		return host_err(-ENOENT, "NP port %u: plug-in %s has no NP handler", ctx->port_id,
				ctx->plugin_name);
	ret = pcc_np_port_handler_set(ctx->port_id, h);
	if (ret < 0)
		return host_err(ret, "NP port %u: cannot bind the NP handler of %s", ctx->port_id,
				ctx->plugin_name);
	HOST_DBG("NP port %u: application %s bound\n", ctx->port_id, ctx->plugin_name);
	return 0;
}

int
host_engine_np_apply(struct pcc_host_ctx *ctx)
{
	int ret;

	if (host_e == NULL || !ctx->in_engine)
		return 0;
	ret = pcc_engine_port_np_conf_set(host_e, ctx->port_id, &ctx->np.conf);
	if (ret == -EBUSY)
		return host_err(ret,
				"NP port %u: settings change while the engine's lcores run: "
				"stop every context first",
				ctx->port_id);
	if (ret < 0)
		return host_err(ret, "NP port %u: the engine refused the NP settings",
				ctx->port_id);
	return 0;
}

int
host_engine_port_rank(uint16_t port_id)
{
	unsigned int l;
	int r;

	if (host_e == NULL)
		return -1;
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		r = pcc_engine_lcore_rank(host_e, l);
		if (r >= 0 && pcc_engine_lcore_polls_port(host_e, l, port_id) == 1)
			return r;
	}
	return -1;
}

/* ---- Create, destroy ------------------------------------------------------------ */

int
host_engine_create(void)
{
	struct pcc_engine_hooks hooks = { .run = hook_run, .round = hook_round };
	struct build *b;
	struct pcc_engine *e;
	unsigned int i, n;
	uint16_t p;
	int ret;

	if (rte_lcore_count() == 0)
		return host_err(-ENODEV, "start: the EAL is not initialised (rte_eal_init)");
	host_proc_ensure();
	ret = pcc_host_algos_register();
	if (ret < 0)
		return ret;
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return host_err(-ENOMEM, "start: out of memory");
	n = collect(b);
	if (n == 0) {
		free(b);
		return host_err(-ENOENT, "start: no context");
	}
	default_lcores(b);
	ret = build_process(b);
	if (ret == 0)
		ret = build_ports(b);
	if (ret == 0)
		ret = build_queues(b);
	if (ret == 0)
		ret = build_check(b);
	if (ret < 0) {
		free(b);
		return ret;
	}
	build_ctx_size(b);
	HOST_DBG("creating the engine: %u contexts, %u RX queues per port\n", n, b->conf.nb_rxq);
	e = pcc_engine_create(&b->conf);
	if (e == NULL) {
		uint32_t flows = b->conf.flow.capacity != 0 ? b->conf.flow.capacity :
							      PCC_ENGINE_FLOWS_DEFAULT;

		ret = -rte_errno;
		free(b);
		if (ret == -ENOMEM)
			return host_err(ret,
					"start: out of memory setting up the engine: each worker "
					"lcore's flow table holds %u flows (--flows): lower it or "
					"give the EAL more memory (-m); details in the log",
					flows);
		return host_err(ret, "start: port or engine setup failed: %s (details in the log)",
				rte_strerror(-ret));
	}
	host_e = e;
	host_watchdog_attach(e);
	hooks.arg = e;
	ret = pcc_engine_set_hooks(e, &hooks);
	if (ret == 0 && host_eng.hook != NULL)
		ret = pcc_engine_set_poll_hook(e, host_eng.hook, host_eng.hook_arg);
	if (ret == 0 && host_eng.hold)
		ret = pcc_engine_hold(e, true);
	if (ret < 0) {
		host_err(ret, "start: cannot hook into the engine's lcores");
		goto fail;
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct pcc_host_ctx *x[2] = { b->rp[p], b->npc[p] };
		uint8_t dev, slot;

		for (i = 0; i < 2; i++) {
			if (x[i] == NULL)
				continue;
			x[i]->in_engine = true;
			if (i == 0 && pcc_engine_port_dev(e, p, &dev, &slot) == 0)
				x[i]->dev_port = dev;
		}
		if (pcc_engine_port_roles(e, p) != 0)
			pcc_engine_port_pause(e, p, true);
	}
	ret = apply_rp(b);
	for (p = 0; ret == 0 && p < RTE_MAX_ETHPORTS; p++)
		if (b->npc[p] != NULL)
			ret = host_engine_np_app_bind(b->npc[p]);
	if (ret < 0)
		goto fail;
	free(b);
	HOST_LOG(DEBUG, "engine created: %u contexts\n", n);
	return 0;
fail:
	free(b);
	host_engine_destroy();
	return ret;
}

void
host_engine_destroy(void)
{
	unsigned int i;

	if (host_e == NULL)
		return;
	if (host_eng.launched) {
		pcc_engine_stop(host_e);
		pcc_engine_wait(host_e);
		host_eng.launched = false;
	}
	for (i = 0; i < PCC_NP_MAX_PORTS && i < RTE_MAX_ETHPORTS; i++)
		if (pcc_engine_port_roles(host_e, (uint16_t)i) & PCC_ENGINE_ROLE_NP)
			pcc_np_port_handler_set((uint16_t)i, NULL);
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		struct pcc_host_ctx *c = host_ctx_at(i);

		if (c != NULL)
			c->in_engine = false;
	}
	pthread_mutex_unlock(&host_lock);
	host_watchdog_attach(NULL);
	pcc_engine_destroy(host_e);
	host_e = NULL;
	HOST_LOG(DEBUG, "engine destroyed\n");
}

struct pcc_engine *
pcc_host_engine(void)
{
	return host_e;
}

/* ---- Contexts start and stop ---------------------------------------------------- */

/* Is another context of the port (or of the same engine) running? */
static bool
other_running(const struct pcc_host_ctx *ctx, bool same_port)
{
	unsigned int i;
	bool r = false;

	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX && !r; i++) {
		const struct pcc_host_ctx *c = host_ctx_at(i);

		if (c == NULL || c == ctx || c->state != PCC_HOST_CTX_RUNNING)
			continue;
		r = !same_port || c->port_id == ctx->port_id;
	}
	pthread_mutex_unlock(&host_lock);
	return r;
}

/* ctx's port and, in forward mode, its host side. */
static void
port_pause(const struct pcc_host_ctx *ctx, bool pause)
{
	pcc_engine_port_pause(host_e, ctx->port_id, pause);
	if (ctx->role == PCC_HOST_ROLE_RP && ctx->rp.fwd_from >= 0)
		pcc_engine_port_pause(host_e, (uint16_t)ctx->rp.fwd_from, pause);
}

/*
 * Generator groups that name a slot (a --gen-file's `slot`) with no
 * algorithm enabled there when the engine starts: their events would only
 * count as errors (ev_err).  A warning, not a refusal: the console may
 * still load one into the slot.
 */
static void
warn_empty_gen_slots(void)
{
	const struct pcc_engine_conf *c = pcc_engine_conf_get(host_e);
	uint32_t k;
	uint16_t p;

	for (k = 0; k < c->gen.nb_groups; k++) {
		const struct pcc_engine_gen_group *g = &c->gen.groups[k];

		if (!g->slot_set)
			continue;
		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			bool enabled = false;
			uint8_t dev;

			if (!(c->port[p].roles & PCC_ENGINE_ROLE_RP) ||
					(g->port_id >= 0 && g->port_id != p) ||
					pcc_engine_port_dev(host_e, p, &dev, NULL) != 0)
				continue;
			if (pcc_dev_slot_algo(dev, g->slot, &enabled) != NULL && enabled)
				continue;
			HOST_LOG(WARNING,
					"generator group %u (QPN 0x%x..): slot %u of port %u has "
					"no "
					"algorithm enabled: its flows' events count as errors "
					"(ev_err) until one is\n",
					k + 1, g->qpn_base, g->slot, p);
		}
	}
}

int
host_engine_ctx_start(struct pcc_host_ctx *ctx)
{
	int ret, rank;

	if (ctx->mbox != NULL && !ctx->mbox_worker_set) {
		rank = host_engine_port_rank(ctx->port_id);
		ctx->mbox_worker = rank >= 0 ? (uint16_t)rank : 0;
	}
	port_pause(ctx, false);
	if (!host_eng.launched) {
		ret = pcc_engine_start(host_e);
		if (ret < 0) {
			port_pause(ctx, true);
			return host_err(ret, "start: cannot launch the engine's lcores");
		}
		host_eng.launched = true;
		warn_empty_gen_slots();
	}
	return 0;
}

int
host_engine_ctx_stop(struct pcc_host_ctx *ctx)
{
	unsigned int i;

	if (host_e == NULL || !ctx->in_engine)
		return 0;
	if (!other_running(ctx, true))
		port_pause(ctx, true);
	if (other_running(ctx, false) || !host_eng.launched)
		return 0;
	pcc_engine_stop(host_e);
	pcc_engine_wait(host_e);
	host_eng.launched = false;
	/* a context in ERROR stays so; the others stopped with the engine */
	pthread_mutex_lock(&host_lock);
	for (i = 0; i < PCC_HOST_MAX_CTX; i++) {
		struct pcc_host_ctx *c = host_ctx_at(i);

		if (c != NULL && c->state == PCC_HOST_CTX_RUNNING)
			__atomic_store_n(&c->state, PCC_HOST_CTX_STOPPED, __ATOMIC_RELEASE);
	}
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	return 0;
}
