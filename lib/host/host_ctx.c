/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A context's settings (application, threads and affinity, probes, port,
 * NP) and its start, stop and wait.  A setting the engine fixes when it
 * is created is refused with -EBUSY once it exists; the others reach it
 * at once (doc/host.md, "Contexts").
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_lcore.h>

#include "host_internal.h"
#include "pcc_dev_plugin.h"
#include "pcc_host_ha.h"
#include "pcc_host_tp.h"

static const char *
role_name(int role)
{
	return role == PCC_HOST_ROLE_RP ? "RP" : "NP";
}

bool
host_is_plugin_path(const char *app)
{
	size_t n = strlen(app);

	return strchr(app, '/') != NULL || (n > 3 && strcmp(app + n - 3, ".so") == 0);
}

int
host_plugin_load(const char *path, char *name, size_t namelen, char *why, size_t whylen)
{
	struct pcc_dev_plugin_info info[PCC_DEV_PLUGIN_MAX];
	unsigned int i, n;
	int rc;

	n = pcc_dev_plugin_list(info, PCC_DEV_PLUGIN_MAX);
	for (i = 0; i < n && i < PCC_DEV_PLUGIN_MAX; i++)
		if (strcmp(info[i].path, path) == 0 || strcmp(info[i].name, path) == 0)
			goto found;
	if (!host_is_plugin_path(path)) {
		snprintf(why, whylen, "no loaded plug-in '%s' (give a .so path)", path);
		return -ENOENT;
	}
	rc = pcc_dev_plugin_check(path, why, whylen);
	if (rc < 0)
		return rc;
	rc = pcc_dev_plugin_load(path, why, whylen);
	if (rc < 0)
		return rc;
	n = pcc_dev_plugin_list(info, PCC_DEV_PLUGIN_MAX);
	for (i = 0; i < n && i < PCC_DEV_PLUGIN_MAX; i++)
		if (strcmp(info[i].path, path) == 0)
			goto found;
	snprintf(why, whylen, "not listed after loading");
	return -ENOENT;
found:
	snprintf(name, namelen, "%s", info[i].name);
	return 0;
}

int
pcc_host_plugin_load(const char *path, char *name, size_t namelen)
{
	char why[256];
	int rc;

	host_err_clear();
	if (path == NULL || name == NULL || namelen == 0)
		return host_err(-EINVAL, "plug-in load: NULL argument");
	rc = host_plugin_load(path, name, namelen, why, sizeof(why));
	if (rc < 0)
		return host_err(rc, "plug-in %s: %s", path, why);
	return 0;
}

/* ---- Application ------------------------------------------------------------- */

static int
np_set_app(struct pcc_host_ctx *ctx, const char *app)
{
	char why[512], name[PCC_DEV_NAME_MAX];
	pcc_np_handler_t h = NULL;
	int rc;

	rc = host_plugin_load(app, name, sizeof(name), why, sizeof(why));
	if (rc < 0)
		return host_err(rc, "set app: plug-in %s: %s", app, why);
	pcc_dev_plugin_np(name, &h, NULL);
	if (h == NULL)
		return host_err(-ENOTSUP,
				"set app: plug-in %s has no NP handler (an NP context's "
				"application answers probes)",
				name);
	snprintf(ctx->app, sizeof(ctx->app), "%s", app);
	snprintf(ctx->plugin_name, sizeof(ctx->plugin_name), "%s", name);
	ctx->plugin = true;
	return host_e != NULL ? host_engine_np_app_bind(ctx) : 0;
}

int
pcc_host_set_app(struct pcc_host_ctx *ctx, const char *app)
{
	char why[512], name[PCC_DEV_NAME_MAX];
	int rc;

	rc = host_ctx_configurable(ctx, "set app");
	if (rc < 0)
		return rc;
	if (app == NULL || app[0] == '\0')
		return host_err(-EINVAL, "set app: empty name");
	if (strlen(app) >= sizeof(ctx->app))
		return host_err(-ENAMETOOLONG, "set app: name too long");
	if (ctx->role == PCC_HOST_ROLE_NP)
		return np_set_app(ctx, app);
	if (!host_is_plugin_path(app)) {
		if (pcc_dev_algo_find(app) == NULL)
			return host_err(-ENOENT, "set app: no registered algorithm '%s'", app);
		if (host_e != NULL) {
			rc = host_engine_slot_app(ctx, 0, app, why, sizeof(why));
			if (rc < 0)
				return host_err(rc, "set app: %s", why);
		}
		snprintf(ctx->app, sizeof(ctx->app), "%s", app);
		snprintf(ctx->rp.slot_algo[0], sizeof(ctx->rp.slot_algo[0]), "%s", app);
		ctx->plugin = false;
		ctx->plugin_name[0] = '\0';
		return 0;
	}
	rc = host_plugin_load(app, name, sizeof(name), why, sizeof(why));
	if (rc < 0)
		return host_err(rc, "set app: plug-in %s refused: %s", app, why);
	if (host_e != NULL) {
		rc = pcc_dev_plugin_apply(name, why, sizeof(why));
		if (rc < 0)
			return host_err(rc, "set app: plug-in %s layout: %s", name, why);
	}
	snprintf(ctx->app, sizeof(ctx->app), "%s", app);
	snprintf(ctx->plugin_name, sizeof(ctx->plugin_name), "%s", name);
	ctx->plugin = true;
	return 0;
}

const char *
pcc_host_app(const struct pcc_host_ctx *ctx, bool *plugin)
{
	if (plugin != NULL)
		*plugin = ctx->plugin;
	return ctx->plugin ? ctx->plugin_name : ctx->app;
}

/* Before the engine: the parameters given for slot's previous algorithm
 * go with it (they name that algorithm's parameters). */
static void
drop_slot_params(struct pcc_host_ctx *ctx, uint8_t slot)
{
	uint32_t i, n = 0;

	if (ctx->rp.slot_algo[slot][0] == '\0')
		return;
	for (i = 0; i < ctx->rp.nb_params; i++)
		if (ctx->rp.params[i].slot != slot)
			ctx->rp.params[n++] = ctx->rp.params[i];
	ctx->rp.nb_params = n;
}

int
pcc_host_set_slot_app(struct pcc_host_ctx *ctx, uint8_t slot, const char *algo)
{
	char why[512];
	int rc;

	rc = host_ctx_configurable(ctx, "set slot app");
	if (rc < 0)
		return rc;
	if (ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-ENOTSUP, "set slot app: slots are an RP setting");
	if (slot >= PCC_ENGINE_SLOTS)
		return host_err(-ERANGE, "set slot app: slot %u: not 0..%u", slot,
				PCC_ENGINE_SLOTS - 1);
	if (algo != NULL && algo[0] != '\0') {
		if (strlen(algo) >= sizeof(ctx->rp.slot_algo[slot]))
			return host_err(-ENAMETOOLONG, "set slot app: name too long");
		if (pcc_dev_algo_find(algo) == NULL)
			return host_err(-ENOENT, "set slot app: no registered algorithm '%s'",
					algo);
		if (host_e != NULL) {
			rc = host_engine_slot_app(ctx, slot, algo, why, sizeof(why));
			if (rc < 0)
				return host_err(rc, "set slot app: %s", why);
		}
		if (host_e == NULL && strcmp(ctx->rp.slot_algo[slot], algo) != 0)
			drop_slot_params(ctx, slot);
		snprintf(ctx->rp.slot_algo[slot], sizeof(ctx->rp.slot_algo[slot]), "%s", algo);
		return 0;
	}
	if (host_e != NULL)
		return host_err(-EBUSY,
				"set slot app: unbinding slot %u of a running engine: use "
				"the console's 'set slot'",
				slot);
	drop_slot_params(ctx, slot);
	ctx->rp.slot_algo[slot][0] = '\0';
	return 0;
}

int
pcc_host_set_param(struct pcc_host_ctx *ctx, uint8_t slot, const char *name, const char *value)
{
	struct host_param *hp;
	uint8_t s = slot;

	host_err_clear();
	if (ctx == NULL || name == NULL || value == NULL)
		return host_err(-EINVAL, "set param: NULL argument");
	if (ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-ENOTSUP, "set param: parameters are an RP setting");
	if (slot >= PCC_ENGINE_SLOTS && slot != PCC_HOST_SLOT_ACTIVE)
		return host_err(-ERANGE, "set param: slot %u: not 0..%u", slot,
				PCC_ENGINE_SLOTS - 1);
	if (strlen(name) >= HOST_PARAM_LEN || strlen(value) >= HOST_PARAM_LEN)
		return host_err(-ENAMETOOLONG, "set param: %s=%s too long", name, value);
	if (host_e != NULL) {
		if (s == PCC_HOST_SLOT_ACTIVE)
			s = pcc_dev_slot_active(ctx->dev_port);
		return pcc_host_param_set(ctx->dev_port, s, name, value);
	}
	if (ctx->rp.nb_params == HOST_PARAMS_MAX)
		return host_err(-ENOSPC, "set param: more than %u parameters", HOST_PARAMS_MAX);
	hp = &ctx->rp.params[ctx->rp.nb_params++];
	hp->slot = slot;
	snprintf(hp->name, sizeof(hp->name), "%s", name);
	snprintf(hp->value, sizeof(hp->value), "%s", value);
	return 0;
}

/* ---- Threads ------------------------------------------------------------------ */

int
pcc_host_set_threads(struct pcc_host_ctx *ctx, uint32_t min, uint32_t max)
{
	int rc = host_before_engine(ctx, "set threads");

	if (rc < 0)
		return rc;
	if (min < 1 || min > max || max > PCC_HOST_MAX_LCORES)
		return host_err(-ERANGE, "set threads: need 1 <= min (%u) <= max (%u) <= %u", min,
				max, PCC_HOST_MAX_LCORES);
	if (ctx->n_lcores != 0 && (ctx->n_lcores < min || ctx->n_lcores > max))
		return host_err(-ERANGE,
				"set threads: the affinity already set has %u lcores, outside [%u, "
				"%u]",
				ctx->n_lcores, min, max);
	ctx->min_threads = min;
	ctx->max_threads = max;
	return 0;
}

void
pcc_host_threads(const struct pcc_host_ctx *ctx, uint32_t *min, uint32_t *max)
{
	if (min != NULL)
		*min = ctx->min_threads;
	if (max != NULL)
		*max = ctx->max_threads;
}

static uint64_t affinity_seq;

static int
check_lcore(uint32_t l, const char *what)
{
	if (l >= RTE_MAX_LCORE)
		return host_err(-EINVAL, "%s: lcore %u: not below RTE_MAX_LCORE (%u)", what, l,
				RTE_MAX_LCORE);
	if (rte_lcore_count() > 0 && !rte_lcore_is_enabled(l))
		return host_err(-EINVAL, "%s: lcore %u is not enabled in the EAL (-l)", what, l);
	return 0;
}

int
pcc_host_set_affinity(struct pcc_host_ctx *ctx, const uint32_t *lcores, uint32_t n)
{
	uint32_t i, j;
	int rc = host_before_engine(ctx, "set affinity");

	if (rc < 0)
		return rc;
	if (lcores == NULL && n != 0)
		return host_err(-EINVAL, "set affinity: NULL lcore list");
	if (n < ctx->min_threads || n > ctx->max_threads)
		return host_err(-ERANGE,
				"set affinity: %u lcores, outside [min %u, max %u] threads", n,
				ctx->min_threads, ctx->max_threads);
	for (i = 0; i < n; i++) {
		rc = check_lcore(lcores[i], "set affinity");
		if (rc < 0)
			return rc;
		for (j = 0; j < i; j++)
			if (lcores[j] == lcores[i])
				return host_err(-EINVAL, "set affinity: lcore %u listed twice",
						lcores[i]);
	}
	memcpy(ctx->lcores, lcores, n * sizeof(*lcores));
	ctx->n_lcores = n;
	ctx->nb_rxq_lcore = 0;
	ctx->affinity_seq = ++affinity_seq;
	return 0;
}

uint32_t
pcc_host_affinity(const struct pcc_host_ctx *ctx, uint32_t *lcores, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n && i < ctx->n_lcores; i++)
		lcores[i] = ctx->lcores[i];
	return ctx->n_lcores;
}

int
pcc_host_set_rxq_lcores(struct pcc_host_ctx *ctx, const uint32_t *lcore_of_queue, uint16_t nb)
{
	uint32_t distinct[PCC_HOST_MAX_LCORES];
	uint32_t i, j, nd = 0;
	int rc = host_before_engine(ctx, "set RX queue lcores");

	if (rc < 0)
		return rc;
	if (lcore_of_queue == NULL || nb == 0 || nb > PCC_HOST_MAX_LCORES)
		return host_err(-EINVAL, "set RX queue lcores: need 1..%u queues",
				PCC_HOST_MAX_LCORES);
	for (i = 0; i < nb; i++) {
		rc = check_lcore(lcore_of_queue[i], "set RX queue lcores");
		if (rc < 0)
			return rc;
		for (j = 0; j < nd && distinct[j] != lcore_of_queue[i]; j++)
			;
		if (j == nd)
			distinct[nd++] = lcore_of_queue[i];
	}
	if (nd < ctx->min_threads || nd > ctx->max_threads)
		return host_err(-ERANGE,
				"set RX queue lcores: %u lcores, outside [min %u, max %u] threads",
				nd, ctx->min_threads, ctx->max_threads);
	memcpy(ctx->rxq_lcore, lcore_of_queue, nb * sizeof(*lcore_of_queue));
	ctx->nb_rxq_lcore = nb;
	memcpy(ctx->lcores, distinct, nd * sizeof(*distinct));
	ctx->n_lcores = nd;
	ctx->affinity_seq = ++affinity_seq;
	return 0;
}

/* ---- Probes and port ------------------------------------------------------------ */

void
host_probe_to_engine(const struct pcc_host_probe_conf *h, struct pcc_engine_probe_conf *e)
{
	memset(e, 0, sizeof(*e));
	e->format = h->format;
	e->hw_np = h->hw_np;
	e->custom_len = h->custom_len;
	e->custom_offset = h->custom_offset;
	e->custom_pattern = h->custom_pattern;
	e->ifa1_marker = h->ifa1_marker;
	e->ifa_hop_limit = h->ifa_hop_limit;
	e->ifa2_gns = h->ifa2_gns;
	e->ifa2_proto = h->ifa2_proto;
}

int
pcc_host_set_probe(struct pcc_host_ctx *ctx, uint8_t slot, const struct pcc_host_probe_conf *p)
{
	struct pcc_engine_probe_conf pc;
	int rc;

	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "set probe: NULL context");
	if (ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-ENOTSUP, "set probe: probe formats are an RP setting");
	if (p == NULL)
		return host_err(-EINVAL, "set probe: NULL configuration");
	if (slot >= PCC_HOST_PROBE_SLOTS)
		return host_err(-ERANGE, "set probe: probe slot %u: not 0..%u", slot,
				PCC_HOST_PROBE_SLOTS - 1);
	if (p->format >= PCC_HOST_PROBE_FMT_MAX)
		return host_err(-ERANGE, "set probe: format %u: not ccmad (0), ifa1 (1), ifa2 (2)",
				p->format);
	if (p->custom_len > PCC_HOST_PROBE_CUSTOM_MAX ||
			(unsigned int)p->custom_offset + p->custom_len > PCC_HOST_PROBE_CUSTOM_MAX)
		return host_err(-ERANGE, "set probe: custom header %u bytes at %u: beyond %u bytes",
				p->custom_len, p->custom_offset, PCC_HOST_PROBE_CUSTOM_MAX);
	if (p->format == PCC_HOST_PROBE_IFA1 && p->ifa1_marker != 0 && !(p->ifa1_marker >> 63))
		return host_err(-ERANGE,
				"set probe: IFA1 marker needs its most significant bit set");
	if (p->ifa2_gns > 15)
		return host_err(-ERANGE, "set probe: IFA2 GNS %u: not 0..15", p->ifa2_gns);
	if (p->ifa2_proto == 17)
		return host_err(-ERANGE, "set probe: IFA2 protocol 17 is UDP");
	if (host_e != NULL && ctx->in_engine) {
		/* the engine's lcores take it between two poll rounds */
		host_probe_to_engine(p, &pc);
		rc = pcc_engine_port_probe_set(host_e, ctx->port_id, slot, &pc);
		if (rc == -EPROTO)
			return host_err(rc,
					"set probe: the engine's classifier recognises another "
					"IFA2 protocol or IFA1 marker (fixed at its creation)");
		if (rc < 0)
			return host_err(rc, "set probe: the engine refused probe slot %u", slot);
	}
	ctx->rp.probe[slot] = *p;
	if (ctx->rp.probe[slot].ifa_hop_limit == 0)
		ctx->rp.probe[slot].ifa_hop_limit = 0xFE;
	HOST_DBG("RP port %u: probe slot %u: %s\n", ctx->port_id, slot,
			pcc_engine_probe_fmt_name(p->format));
	return 0;
}

int
pcc_host_probe(const struct pcc_host_ctx *ctx, uint8_t slot, struct pcc_host_probe_conf *p)
{
	if (ctx == NULL || p == NULL || slot >= PCC_HOST_PROBE_SLOTS ||
			ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-EINVAL, "probe: bad argument");
	*p = ctx->rp.probe[slot];
	return 0;
}

static int
rp_before_engine(const struct pcc_host_ctx *ctx, const char *what)
{
	int rc = host_before_engine(ctx, what);

	if (rc < 0)
		return rc;
	if (ctx->role != PCC_HOST_ROLE_RP)
		return host_err(-ENOTSUP, "%s: an RP setting, context on port %u is NP", what,
				ctx->port_id);
	return 0;
}

int
pcc_host_set_line_rate(struct pcc_host_ctx *ctx, uint64_t bps)
{
	int rc = rp_before_engine(ctx, "set line rate");

	if (rc < 0)
		return rc;
	if (bps > UINT64_C(1600) * 1000000000u)
		return host_err(-ERANGE, "set line rate: %lu bit/s, at most 1600 Gbit/s",
				(unsigned long)bps);
	ctx->rp.line_rate_bps = bps;
	return 0;
}

int
pcc_host_set_peer_mac(struct pcc_host_ctx *ctx, const uint8_t mac[6])
{
	int rc = host_before_engine(ctx, "set peer MAC");

	if (rc < 0)
		return rc;
	if (mac == NULL)
		return host_err(-EINVAL, "set peer MAC: NULL");
	memcpy(ctx->peer_mac, mac, sizeof(ctx->peer_mac));
	ctx->peer_mac_valid = true;
	return 0;
}

int
pcc_host_rp_set_forward(struct pcc_host_ctx *ctx, uint16_t port_a)
{
	int rc = rp_before_engine(ctx, "set forward");

	if (rc < 0)
		return rc;
	if (port_a >= RTE_MAX_ETHPORTS || port_a == ctx->port_id)
		return host_err(-EINVAL, "set forward: host port %u: not another port below %u",
				port_a, RTE_MAX_ETHPORTS);
	ctx->rp.fwd_from = port_a;
	return 0;
}

int
pcc_host_rp_set_forward_rxq_lcores(
		struct pcc_host_ctx *ctx, const uint32_t *lcore_of_queue, uint16_t nb)
{
	uint32_t i;
	int rc = rp_before_engine(ctx, "set forward RX queue lcores");

	if (rc < 0)
		return rc;
	if (lcore_of_queue == NULL || nb == 0 || nb > PCC_HOST_MAX_LCORES)
		return host_err(-EINVAL, "set forward RX queue lcores: need 1..%u queues",
				PCC_HOST_MAX_LCORES);
	for (i = 0; i < nb; i++) {
		rc = check_lcore(lcore_of_queue[i], "set forward RX queue lcores");
		if (rc < 0)
			return rc;
	}
	memcpy(ctx->rp.fwd_rxq_lcore, lcore_of_queue, nb * sizeof(*lcore_of_queue));
	ctx->rp.nb_fwd_rxq_lcore = nb;
	return 0;
}

int
pcc_host_rp_set_dev_port(struct pcc_host_ctx *ctx, uint8_t dev_port)
{
	int rc = rp_before_engine(ctx, "set dev port");

	if (rc < 0)
		return rc;
	if (dev_port >= PCC_ENGINE_DEV_PORTS)
		return host_err(-ERANGE, "set dev port: %u: not 0..%u", dev_port,
				PCC_ENGINE_DEV_PORTS - 1);
	ctx->rp.dev_port_set = true;
	ctx->rp.dev_port = dev_port;
	ctx->dev_port = dev_port;
	return 0;
}

/* ---- NP -------------------------------------------------------------------------- */

int
pcc_host_np_caps(const struct pcc_host_ctx *ctx, struct pcc_host_np_caps *caps)
{
	struct pcc_engine_np_caps c;
	int rc;

	if (ctx == NULL || caps == NULL)
		return host_err(-EINVAL, "np caps: bad argument");
	rc = pcc_engine_np_caps_get(
			host_e != NULL && ctx->in_engine ? host_e : NULL, ctx->port_id, &c);
	if (rc < 0)
		return host_err(rc, "np caps: port %u", ctx->port_id);
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

/* An NP setting: while the context runs -EBUSY, on a stopped engine at once. */
static int
np_set(struct pcc_host_ctx *ctx, const char *what, const struct pcc_engine_np_conf *c)
{
	struct pcc_engine_np_conf saved;
	int rc = host_ctx_configurable(ctx, what);

	if (rc < 0)
		return rc;
	if (ctx->role != PCC_HOST_ROLE_NP)
		return host_err(-ENOTSUP, "%s: an NP setting, context on port %u is RP", what,
				ctx->port_id);
	saved = ctx->np.conf;
	ctx->np.conf = *c;
	if (host_e != NULL && ctx->in_engine) {
		rc = host_engine_np_apply(ctx);
		if (rc < 0) {
			ctx->np.conf = saved;
			return rc;
		}
	}
	return 0;
}

int
pcc_host_np_set_resp_ts(struct pcc_host_ctx *ctx, uint8_t size_bits, uint8_t res_shift)
{
	struct pcc_host_np_caps caps;
	struct pcc_engine_np_conf c;
	int rc;

	if (ctx == NULL)
		return host_err(-EINVAL, "set response timestamp: NULL context");
	rc = pcc_host_np_caps(ctx, &caps);
	if (rc < 0)
		return rc;
	if (size_bits > caps.resp_ts_size_max)
		return host_err(-ERANGE, "set response timestamp: %u bits, at most %u", size_bits,
				caps.resp_ts_size_max);
	if (res_shift > caps.resp_ts_res_max)
		return host_err(-ERANGE, "set response timestamp: resolution shift %u, at most %u",
				res_shift, caps.resp_ts_res_max);
	c = ctx->np.conf;
	c.resp_ts_size = size_bits;
	c.resp_ts_res = res_shift;
	return np_set(ctx, "set response timestamp", &c);
}

int
pcc_host_np_set_ts_src(struct pcc_host_ctx *ctx, enum pcc_host_ts_src src)
{
	struct pcc_host_np_caps caps;
	struct pcc_engine_np_conf c;
	int rc;

	if (ctx == NULL)
		return host_err(-EINVAL, "set timestamp source: NULL context");
	if ((unsigned int)src > 31)
		return host_err(-EINVAL, "set timestamp source: %d unknown", (int)src);
	rc = pcc_host_np_caps(ctx, &caps);
	if (rc < 0)
		return rc;
	if (!(caps.ts_sources & (1u << src)))
		return host_err(-ENOTSUP, "set timestamp source: %d not supported on port %u",
				(int)src, ctx->port_id);
	c = ctx->np.conf;
	c.ts_src = src == PCC_HOST_TS_REALTIME ? PCC_ENGINE_NP_TS_REALTIME : PCC_ENGINE_NP_TS_PORT;
	return np_set(ctx, "set timestamp source", &c);
}

int
pcc_host_np_set_ifa2_gns_ignore(struct pcc_host_ctx *ctx, uint8_t mask, uint8_t value)
{
	struct pcc_engine_np_conf c;

	if (ctx == NULL)
		return host_err(-EINVAL, "set IFA2 GNS ignore: NULL context");
	if (mask > 15 || value > 15)
		return host_err(-ERANGE, "set IFA2 GNS ignore: mask %u / value %u: GNS is 4 bits",
				mask, value);
	c = ctx->np.conf;
	c.ifa2_gns_ignore = true;
	c.ifa2_gns_ignore_mask = mask;
	c.ifa2_gns_ignore_value = value;
	return np_set(ctx, "set IFA2 GNS ignore", &c);
}

int
pcc_host_np_set_ifa2_gns_select(struct pcc_host_ctx *ctx, uint8_t mask, uint8_t value)
{
	struct pcc_engine_np_conf c;

	if (ctx == NULL)
		return host_err(-EINVAL, "set IFA2 GNS select: NULL context");
	if (mask > 15 || value > 15)
		return host_err(-ERANGE, "set IFA2 GNS select: mask %u / value %u: GNS is 4 bits",
				mask, value);
	c = ctx->np.conf;
	c.ifa2_gns_select_mask = mask;
	c.ifa2_gns_select_value = value;
	return np_set(ctx, "set IFA2 GNS select", &c);
}

int
pcc_host_np_set_sqpn_map(struct pcc_host_ctx *ctx, const struct pcc_engine_np_sqpn *map, uint32_t n)
{
	struct pcc_engine_np_sqpn *copy = NULL, *old;
	struct pcc_engine_np_conf c;
	uint32_t old_n;
	int rc;

	if (ctx == NULL || (map == NULL && n != 0))
		return host_err(-EINVAL, "set sender QPN map: bad argument");
	if (n > PCC_ENGINE_NP_SQPN_MAP_MAX)
		return host_err(-ERANGE, "set sender QPN map: %u entries, at most %u", n,
				PCC_ENGINE_NP_SQPN_MAP_MAX);
	if (n > 0) {
		copy = malloc(sizeof(*copy) * n);
		if (copy == NULL)
			return host_err(-ENOMEM, "set sender QPN map: out of memory");
		memcpy(copy, map, sizeof(*copy) * n);
	}
	old = ctx->np.map;
	old_n = ctx->np.nb_map;
	c = ctx->np.conf;
	c.sqpn_map = copy;
	c.nb_sqpn_map = n;
	ctx->np.map = copy;
	ctx->np.nb_map = n;
	rc = np_set(ctx, "set sender QPN map", &c);
	if (rc < 0) {
		ctx->np.map = old;
		ctx->np.nb_map = old_n;
		free(copy);
		return rc;
	}
	free(old);
	return 0;
}

int
pcc_host_np_conf_get(const struct pcc_host_ctx *ctx, struct pcc_engine_np_conf *c)
{
	if (ctx == NULL || c == NULL || ctx->role != PCC_HOST_ROLE_NP)
		return host_err(-EINVAL, "np conf: bad argument");
	*c = ctx->np.conf;
	return 0;
}

/* ---- Start, stop, wait ---------------------------------------------------------- */

static void
ctx_state_set(struct pcc_host_ctx *ctx, int st)
{
	pthread_mutex_lock(&host_lock);
	__atomic_store_n(&ctx->state, st, __ATOMIC_RELEASE);
	host_notify_locked();
	pthread_mutex_unlock(&host_lock);
	pcc_tp_host_state(ctx->port_id, st, (int32_t)pcc_host_process_state());
	HOST_LOG(DEBUG, "%s context on port %u: %s\n", role_name(ctx->role), ctx->port_id,
			pcc_host_ctx_state_name(st));
}

int
pcc_host_start(struct pcc_host_ctx *ctx)
{
	int rc;

	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "start: NULL context");
	if (ctx->state == PCC_HOST_CTX_RUNNING)
		return host_err(-EBUSY, "start: context on port %u is already running",
				ctx->port_id);
	if (ctx->state == PCC_HOST_CTX_ERROR)
		return host_err(-EBUSY, "start: context on port %u is in ERROR state; destroy it",
				ctx->port_id);
	if (ctx->n_lcores != 0 &&
			(ctx->n_lcores < ctx->min_threads || ctx->n_lcores > ctx->max_threads))
		return host_err(-ERANGE, "start: affinity has %u lcores, outside [%u, %u]",
				ctx->n_lcores, ctx->min_threads, ctx->max_threads);
	rc = host_svc_autostart();
	if (rc < 0)
		return rc;
	if (host_e == NULL) {
		rc = host_engine_create();
		if (rc < 0)
			return rc;
	}
	if (!ctx->in_engine)
		return host_err(-EBUSY,
				"start: the engine was created without the %s context of port %u "
				"(create every context before the first start)",
				role_name(ctx->role), ctx->port_id);
	rc = host_engine_ctx_start(ctx);
	if (rc < 0)
		return rc;
	ctx_state_set(ctx, PCC_HOST_CTX_RUNNING);
	if (pcc_host_ha_get() == NULL && pcc_host_process_state() != PCC_HOST_PS_ACTIVE &&
			pcc_host_process_state() != PCC_HOST_PS_ERROR)
		pcc_host_process_state_set(PCC_HOST_PS_ACTIVE);
	return 0;
}

int
pcc_host_prepare(void)
{
	host_err_clear();
	return host_e != NULL ? 0 : host_engine_create();
}

int
pcc_host_stop(struct pcc_host_ctx *ctx)
{
	int rc;

	host_err_clear();
	if (ctx == NULL)
		return host_err(-EINVAL, "stop: NULL context");
	if (ctx->state != PCC_HOST_CTX_RUNNING && ctx->state != PCC_HOST_CTX_ERROR)
		return host_err(-EBUSY, "stop: context on port %u is not running", ctx->port_id);
	if (ctx->state == PCC_HOST_CTX_RUNNING)
		ctx_state_set(ctx, PCC_HOST_CTX_STOPPED);
	rc = host_engine_ctx_stop(ctx);
	if (rc < 0)
		return host_err(rc, "stop: the engine failed to stop port %u", ctx->port_id);
	return 0;
}

/* pcc_host_wait() running the main lcore's share: leave at the deadline or
 * on a state change. */
struct wait_tick {
	uint64_t gen;
	struct timespec deadline;
	bool forever;
};

static int
wait_tick(void *arg)
{
	struct wait_tick *w = arg;
	struct timespec now;

	if (host_generation() != w->gen)
		return -1;
	if (w->forever)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > w->deadline.tv_sec ||
			(now.tv_sec == w->deadline.tv_sec && now.tv_nsec >= w->deadline.tv_nsec))
		return -1;
	return 0;
}

int
pcc_host_wait(struct pcc_host_ctx *ctx, int timeout_ms)
{
	struct wait_tick w;

	if (ctx == NULL)
		return host_err(-EINVAL, "wait: NULL context");
	w.gen = host_generation();
	if (host_e != NULL && rte_lcore_id() == rte_get_main_lcore() &&
			pcc_engine_lcore_stats_get(host_e, rte_get_main_lcore(),
					&(struct pcc_engine_lcore_stats){ 0 }) == 0 &&
			pcc_host_ctx_state(ctx) == PCC_HOST_CTX_RUNNING) {
		/* the main lcore polls: run its share meanwhile */
		w.forever = timeout_ms < 0;
		clock_gettime(CLOCK_MONOTONIC, &w.deadline);
		if (!w.forever) {
			w.deadline.tv_sec += timeout_ms / 1000;
			w.deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
			if (w.deadline.tv_nsec >= 1000000000L) {
				w.deadline.tv_sec++;
				w.deadline.tv_nsec -= 1000000000L;
			}
		}
		pcc_engine_main_loop(host_e, wait_tick, &w, 1000);
		return host_generation() != w.gen ? 0 : -ETIMEDOUT;
	}
	return host_wait_gen(w.gen, timeout_ms);
}
