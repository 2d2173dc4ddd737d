/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The compatibility environment: settings, the EAL, a ring pair or a
 * simulator run, plug-ins and engine options (compat_env_internal.h,
 * doc/compat.md).
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "compat_env_priv.h"
#include "pcc_engine.h"
#include "pcc_simrun.h"

RTE_LOG_REGISTER(compat_logtype, pcc.compat, INFO);

struct compat_state compat;

static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread char env_err[512];

const char *
compat_env_error(void)
{
	return env_err;
}

int
compat_env_fail(int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(env_err, sizeof(env_err), fmt, ap);
	va_end(ap);
	COMPAT_LOG(ERR, "%s", env_err);
	return rc;
}

/* ---- Settings ------------------------------------------------------------ */

struct setting {
	const char *key; /* PCC_<key> in the environment, <key> in the file */
	size_t off;
	size_t len;
};

#define S(k, f)                                                                                  \
	{                                                                                        \
		k, offsetof(struct compat_settings, f), sizeof(((struct compat_settings *)0)->f) \
	}
static const struct setting settings[] = {
	S("EAL_ARGS", eal_args),
	S("DEVICES", devices),
	S("SIM", sim),
	S("SIM_OUT", sim_out),
	S("SIM_SEED", sim_seed),
	S("SIM_MODE", sim_mode),
	S("RING_PAIR", ring_pair),
	S("ENGINE_OPTS", engine_opts),
	S("PLUGINS", plugins),
	S("HA", ha),
};
#undef S

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static const struct setting *
setting_find(const char *key)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(settings); i++)
		if (strcmp(settings[i].key, key) == 0)
			return &settings[i];
	return NULL;
}

static int
setting_put(struct compat_settings *st, const struct setting *s, const char *v, const char *where)
{
	char *dst = (char *)st + s->off;

	if (strlen(v) >= s->len)
		return compat_env_fail(-ENAMETOOLONG, "%s: %s: value longer than %zu bytes", where,
				s->key, s->len - 1);
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* KEY = value lines; '#' comments; an unknown key is an error. */
static int
settings_file(struct compat_settings *st, const char *path)
{
	char line[4096], where[PATH_MAX + 32];
	unsigned int n = 0;
	FILE *f;
	int rc = 0;

	f = fopen(path, "r");
	if (f == NULL)
		return compat_env_fail(-errno, "PCC_COMPAT_CONF: %s: %s", path, strerror(errno));
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *p = line, *eq, *key;
		const struct setting *s;

		n++;
		snprintf(where, sizeof(where), "%s:%u", path, n);
		if (strchr(line, '\n') == NULL && !feof(f)) {
			rc = compat_env_fail(-EINVAL, "%s: line longer than %zu bytes", where,
					sizeof(line) - 2);
			break;
		}
		p = trim(p);
		if (*p == '\0' || *p == '#')
			continue;
		eq = strchr(p, '=');
		if (eq == NULL) {
			rc = compat_env_fail(-EINVAL, "%s: '%s' is not KEY = value", where, p);
			break;
		}
		*eq = '\0';
		key = trim(p);
		if (strncmp(key, "PCC_", 4) == 0)
			key += 4;
		s = setting_find(key);
		if (s == NULL) {
			rc = compat_env_fail(-EINVAL,
					"%s: unknown key '%s' (known: EAL_ARGS, DEVICES, SIM, "
					"SIM_OUT, "
					"SIM_SEED, SIM_MODE, RING_PAIR, ENGINE_OPTS, PLUGINS, HA)",
					where, key);
			break;
		}
		rc = setting_put(st, s, trim(eq + 1), where);
	}
	fclose(f);
	return rc;
}

static int
settings_read(struct compat_settings *st)
{
	const char *conf = getenv("PCC_COMPAT_CONF");
	char name[32];
	unsigned int i;
	int rc;

	memset(st, 0, sizeof(*st));
	if (conf != NULL && conf[0] != '\0') {
		rc = settings_file(st, conf);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < RTE_DIM(settings); i++) {
		const char *v;

		snprintf(name, sizeof(name), "PCC_%s", settings[i].key);
		v = getenv(name);
		if (v != NULL && setting_put(st, &settings[i], v, "environment") < 0)
			return -ENAMETOOLONG;
	}
	return 0;
}

static bool
flag_on(const char *v)
{
	return strcmp(v, "1") == 0 || strcasecmp(v, "on") == 0 || strcasecmp(v, "yes") == 0 ||
			strcasecmp(v, "true") == 0;
}

/*
 * Split s into words: blanks separate, '...' and "..." quote, a backslash
 * escapes the next character.  Words go into buf; -E2BIG when they do not
 * fit, -EINVAL for an open quote.
 */
int
compat_split(const char *s, char *buf, size_t len, char **argv, int max)
{
	size_t o = 0;
	int n = 0;

	while (*s != '\0') {
		char q = 0;

		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		if (n == max)
			return -E2BIG;
		argv[n++] = buf + o;
		while (*s != '\0' && (q != 0 || !isspace((unsigned char)*s))) {
			char c = *s++;

			if (q == 0 && (c == '\'' || c == '"')) {
				q = c;
				continue;
			}
			if (q != 0 && c == q) {
				q = 0;
				continue;
			}
			if (c == '\\' && q != '\'' && *s != '\0')
				c = *s++;
			if (o + 1 >= len)
				return -E2BIG;
			buf[o++] = c;
		}
		if (q != 0)
			return -EINVAL;
		buf[o++] = '\0';
	}
	return n;
}

/* ---- The EAL ------------------------------------------------------------ */

/* Is a PCI device bound to a driver DPDK can use? */
static bool
pci_devices_bound(void)
{
	static const char *const drivers[] = { "vfio-pci", "uio_pci_generic", "igb_uio",
		"mlx5_core" };
	char path[128];
	unsigned int i;

	for (i = 0; i < RTE_DIM(drivers); i++) {
		struct dirent *e;
		DIR *d;

		snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s", drivers[i]);
		d = opendir(path);
		if (d == NULL)
			continue;
		while ((e = readdir(d)) != NULL)
			if (strncmp(e->d_name, "0000:", 5) == 0 ||
					isdigit((unsigned char)e->d_name[0]))
				break;
		closedir(d);
		if (e != NULL)
			return true;
	}
	return false;
}

/* Free hugepages of the default size? */
static bool
hugepages_free(void)
{
	char line[128];
	long n = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	fclose(f);
	return n > 0;
}

/* Defaults: two CPUs of the affinity, a private file prefix, no
 * hugepages when none are free, no PCI scan when nothing is bound. */
static void
eal_defaults(const char *api, char *out, size_t len)
{
	cpu_set_t set;
	int cpus[2], n = 0, c;
	size_t o;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (c = 0; c < CPU_SETSIZE && n < 2; c++)
			if (CPU_ISSET(c, &set))
				cpus[n++] = c;
	if (n == 0)
		cpus[n++] = 0;
	o = (size_t)snprintf(out, len, "-l %d", cpus[0]);
	if (n > 1)
		o += (size_t)snprintf(out + o, len - RTE_MIN(o, len), ",%d", cpus[1]);
	o += (size_t)snprintf(out + o, len - RTE_MIN(o, len), " --file-prefix pcc-%s-%d", api,
			(int)getpid());
	if (!hugepages_free())
		o += (size_t)snprintf(out + o, len - RTE_MIN(o, len), " --no-huge -m 1024");
	if (!pci_devices_bound())
		snprintf(out + o, len - RTE_MIN(o, len), " --no-pci");
}

/*
 * At exit, the EAL runtime directory (/var/run/dpdk/<prefix>) of an EAL
 * the environment started, which the EAL leaves behind: removed when
 * empty (with --no-shconf; the telemetry socket is unlinked by the
 * telemetry library's own exit handler, which runs first since this one
 * is registered before rte_eal_init()).  A multi-process directory keeps
 * its files and stays.
 */
static void
eal_runtime_dir_remove(void)
{
	const char *dir, *base;

	if (!compat.eal_ours)
		return;
	dir = rte_eal_get_runtime_dir();
	if (dir == NULL || dir[0] == '\0')
		return;
	/* the EAL's default prefix is every DPDK process's: another may be
	 * starting in it right now (PCC_EAL_ARGS without --file-prefix) */
	base = strrchr(dir, '/');
	if (strcmp(base != NULL ? base + 1 : dir, "rte") == 0)
		return;
	rmdir(dir);
}

static int
eal_start(const char *api)
{
	static bool exit_hook;

	char args[sizeof(compat.set.eal_args) + 64], buf[sizeof(args) + 64];
	char *argv[128];
	char prog[64];
	int argc, n, ret;

	if (rte_lcore_count() > 0) {
		/* the program (or another layer) started it */
		compat.eal_ours = false;
		return 0;
	}
	if (compat.set.eal_args[0] != '\0')
		snprintf(args, sizeof(args), "%s", compat.set.eal_args);
	else
		eal_defaults(api, args, sizeof(args));
	snprintf(prog, sizeof(prog), "pcc-%s", api);
	argv[0] = prog;
	n = compat_split(args, buf, sizeof(buf), argv + 1, (int)RTE_DIM(argv) - 2);
	if (n < 0)
		return compat_env_fail(-EINVAL, "%s: PCC_EAL_ARGS '%s': %s", api, args,
				n == -EINVAL ? "an open quote" : "too long");
	argc = n + 1;
	argv[argc] = NULL;
	COMPAT_LOG(INFO, "%s: starting the EAL: %s", api, args);
	if (!exit_hook && atexit(eal_runtime_dir_remove) == 0)
		exit_hook = true;
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return compat_env_fail(-rte_errno, "%s: the EAL did not start with '%s': %s", api,
				args, rte_strerror(rte_errno));
	compat.eal_ours = true;
	return 0;
}

/* ---- Engine options ------------------------------------------------------ */

/* PCC_ENGINE_OPTS of scope on ctx (NULL: process options). */
int
compat_opts_apply(struct pcc_host_ctx *ctx, enum pcc_host_opt_scope scope)
{
	char buf[sizeof(compat.set.engine_opts) + 64];
	char *argv[256];
	int n, i;

	n = compat_split(compat.set.engine_opts, buf, sizeof(buf), argv, (int)RTE_DIM(argv));
	if (n < 0)
		return compat_env_fail(-EINVAL, "PCC_ENGINE_OPTS: %s",
				n == -EINVAL ? "an open quote" : "too long");
	for (i = 0; i < n; i++) {
		const struct pcc_host_opt_info *o;
		char *eq = strchr(argv[i], '='), *name = argv[i];
		const char *value = "on";

		if (strncmp(name, "--", 2) == 0)
			name += 2;
		if (eq != NULL) {
			*eq = '\0';
			value = eq + 1;
		}
		o = pcc_host_opt_find(name);
		if (o == NULL)
			return compat_env_fail(-ENOENT,
					"PCC_ENGINE_OPTS: unknown option '%s' (dpdk-pcc's option "
					"names, doc/dpdk-pcc.md)",
					name);
		if (o->scope != scope)
			continue;
		if (pcc_host_opt_set(scope == PCC_HOST_OPT_PROCESS ? NULL : ctx, name, value) < 0)
			return compat_env_fail(
					-EINVAL, "PCC_ENGINE_OPTS: %s", pcc_host_last_error());
	}
	return 0;
}

/* Check every PCC_ENGINE_OPTS value before anything starts. */
static int
opts_check(void)
{
	char buf[sizeof(compat.set.engine_opts) + 64];
	const char *names[256], *values[256];
	char *argv[256], why[512];
	int n, i;

	n = compat_split(compat.set.engine_opts, buf, sizeof(buf), argv, (int)RTE_DIM(argv));
	if (n < 0)
		return compat_env_fail(-EINVAL, "PCC_ENGINE_OPTS: %s",
				n == -EINVAL ? "an open quote" : "too long");
	for (i = 0; i < n; i++) {
		char *eq = strchr(argv[i], '=');

		names[i] = strncmp(argv[i], "--", 2) == 0 ? argv[i] + 2 : argv[i];
		values[i] = "on";
		if (eq != NULL) {
			*eq = '\0';
			values[i] = eq + 1;
		}
	}
	if (n > 0 && pcc_host_opts_check(names, values, (unsigned int)n, why, sizeof(why)) < 0)
		return compat_env_fail(-EINVAL, "PCC_ENGINE_OPTS: %s", why);
	return 0;
}

static int
plugins_load(void)
{
	char buf[sizeof(compat.set.plugins)], name[64];
	char *save = NULL, *p;

	snprintf(buf, sizeof(buf), "%s", compat.set.plugins);
	for (p = strtok_r(buf, ":", &save); p != NULL; p = strtok_r(NULL, ":", &save)) {
		p = trim(p);
		if (*p == '\0')
			continue;
		if (pcc_host_plugin_load(p, name, sizeof(name)) < 0)
			return compat_env_fail(
					-EINVAL, "PCC_PLUGINS: %s: %s", p, pcc_host_last_error());
	}
	return 0;
}

/* ---- Ring pair and simulator --------------------------------------------- */

/*
 * A queue per worker lcore on each side (at most the ring PMD's 16), so
 * that a program giving its context several threads (an affinity) gets
 * as many RX queues; the engine may configure fewer.
 */
static int
ring_pair_start(void)
{
	uint16_t nq = (uint16_t)RTE_MIN(
			compat_env_lcores(NULL, 0), (uint32_t)RTE_PMD_RING_MAX_RX_RINGS);

	nq = (uint16_t)RTE_MIN(nq, (uint16_t)RTE_PMD_RING_MAX_TX_RINGS);
	compat.rp = pcc_ring_pair_create(
			"pcc_compat", nq, RTE_MAX(nq, 4), 1024, (int)rte_socket_id());
	if (compat.rp == NULL)
		return compat_env_fail(-rte_errno, "PCC_RING_PAIR: cannot create the ring pair: %s",
				rte_strerror(rte_errno));
	compat.ring_port[0] = pcc_ring_pair_port(compat.rp, 0);
	compat.ring_port[1] = pcc_ring_pair_port(compat.rp, 1);
	return 0;
}

static int
sim_opts_cb(void *arg, struct pcc_host_ctx *ctx, char *err, size_t errlen)
{
	int rc;

	RTE_SET_USED(arg);
	if (ctx == NULL)
		rc = compat_opts_apply(NULL, PCC_HOST_OPT_PROCESS);
	else
		rc = compat_opts_apply(ctx,
				pcc_host_ctx_role(ctx) == PCC_HOST_ROLE_RP ? PCC_HOST_OPT_RP :
									     PCC_HOST_OPT_NP);
	if (rc < 0)
		snprintf(err, errlen, "%s", compat_env_error());
	return rc;
}

static int
sim_start(void)
{
	struct pcc_simrun_conf conf;
	char err[512];
	uint32_t i;

	compat.scn = pcc_sim_scenario_load(compat.set.sim, err, sizeof(err));
	if (compat.scn == NULL)
		return compat_env_fail(-EINVAL, "PCC_SIM: %s", err);
	if ((compat.set.sim_out[0] != '\0' &&
			    pcc_sim_scenario_set(compat.scn, "output.dir", compat.set.sim_out, err,
					    sizeof(err)) < 0) ||
			(compat.set.sim_seed[0] != '\0' &&
					pcc_sim_scenario_set(compat.scn, "seed",
							compat.set.sim_seed, err, sizeof(err)) < 0))
		return compat_env_fail(-EINVAL, "PCC_SIM: %s", err);
	/* the scenario's plug-ins, as dpdk-pcc --sim loads them */
	for (i = 0; i < pcc_sim_scenario_plugin_count(compat.scn); i++) {
		char name[64];

		if (pcc_host_plugin_load(
				    pcc_sim_scenario_plugin(compat.scn, i), name, sizeof(name)) < 0)
			return compat_env_fail(-EINVAL, "PCC_SIM: plug-in %s: %s",
					pcc_sim_scenario_plugin(compat.scn, i),
					pcc_host_last_error());
	}
	pcc_simrun_conf_default(&conf);
	conf.scn = compat.scn;
	if (compat.set.sim_mode[0] != '\0') {
		if (strcmp(compat.set.sim_mode, "service") == 0)
			conf.mode = PCC_SIMRUN_SERVICE;
		else if (strcmp(compat.set.sim_mode, "deterministic") != 0)
			return compat_env_fail(-EINVAL,
					"PCC_SIM_MODE: '%s' is not deterministic or service",
					compat.set.sim_mode);
	}
	conf.opts = sim_opts_cb;
	compat.run = pcc_simrun_create(&conf, err, sizeof(err), NULL);
	if (compat.run == NULL)
		return compat_env_fail(-EINVAL, "PCC_SIM: %s: %s", compat.set.sim, err);
	if (pcc_simrun_model_only(compat.run))
		return compat_env_fail(-EINVAL,
				"PCC_SIM: %s: no host for the engine (every flow has source: model "
				"and the receivers use the hardware NP)",
				compat.set.sim);
	return 0;
}

/* ---- Init ----------------------------------------------------------------- */

static int
env_init(const char *api)
{
	int rc;

	rc = settings_read(&compat.set);
	if (rc < 0)
		return rc;
	if (compat.set.sim[0] != '\0' && flag_on(compat.set.ring_pair))
		return compat_env_fail(
				-EINVAL, "%s: PCC_SIM and PCC_RING_PAIR exclude each other", api);
	if (compat.set.sim[0] != '\0' && compat.set.ha[0] != '\0')
		return compat_env_fail(-EINVAL,
				"%s: PCC_SIM and PCC_HA exclude each other (a simulator run is one "
				"process)",
				api);
	/* plug-ins first: options and scenarios may name their algorithms */
	rc = plugins_load();
	if (rc == 0)
		rc = opts_check();
	if (rc == 0)
		rc = eal_start(api);
	if (rc < 0)
		return rc;
	if (pcc_host_telemetry_register() < 0)
		COMPAT_LOG(WARNING, "/pcc/ telemetry commands: %s", pcc_host_last_error());
	rc = compat_opts_apply(NULL, PCC_HOST_OPT_PROCESS);
	if (rc == 0 && flag_on(compat.set.ring_pair))
		rc = ring_pair_start();
	if (rc == 0 && compat.set.sim[0] != '\0')
		rc = sim_start();
	if (rc == 0)
		rc = compat_dev_table();
	return rc;
}

int
compat_env_init(const char *api)
{
	int rc;

	pthread_mutex_lock(&env_lock);
	if (!compat.init_done) {
		compat.init_rc = env_init(api != NULL ? api : "pcc");
		if (compat.init_rc < 0)
			snprintf(compat.init_err, sizeof(compat.init_err), "%s", env_err);
		compat.init_done = true;
	}
	rc = compat.init_rc;
	if (rc < 0)
		snprintf(env_err, sizeof(env_err), "%s", compat.init_err);
	pthread_mutex_unlock(&env_lock);
	return rc;
}

bool
compat_env_ready(void)
{
	return compat.init_done && compat.init_rc == 0;
}

bool
compat_env_sim(void)
{
	return compat.run != NULL;
}

uint32_t
compat_env_lcores(uint32_t *out, uint32_t n)
{
	unsigned int l;
	uint32_t k = 0;

	RTE_LCORE_FOREACH_WORKER(l)
	{
		if (rte_eal_lcore_role(l) != ROLE_RTE)
			continue;
		if (k < n)
			out[k] = l;
		k++;
	}
	if (k == 0) {
		if (n > 0)
			out[0] = rte_get_main_lcore();
		k = 1;
	}
	return k;
}
