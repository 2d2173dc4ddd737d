/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * The command line: usage text, the pre-EAL scan and the option parser.
 * dpdk-pcc's own options are app_opts[] (args_opts.c), one entry each;
 * every other option is an engine option of lib/host (pcc_host_opt_at()),
 * whose table is the only place it is stated: the command line, the usage
 * text and the checks come from it, and the values go to
 * pcc_host_opt_set() once the contexts exist (host.c).
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_version.h>

#include "args_internal.h"
#include "pcc_file.h"
#include "pcc_host.h"
#include "pcc_simrun.h"

#define ID_APP 256   /* getopt value of app_opts[i]: ID_APP + i */
#define ID_HOST 1024 /* of the engine option i: ID_HOST + i */

/* ---- Usage ------------------------------------------------------- */

void
app_version(FILE *f)
{
	fprintf(f, "%s %s (%s)\n", APP_NAME, PCC_VERSION, rte_version());
}

/* One option's usage: "  -h, --help  text" with the text at column 28. */
static void
usage_opt(FILE *f, char sh, const char *name, const char *arg, const char *help)
{
	char head[160];
	const char *line = help;
	int n;

	n = snprintf(head, sizeof(head), "  %c%c%s--%s%s%s", sh != 0 ? '-' : ' ',
			sh != 0 ? sh : ' ', sh != 0 ? ", " : "  ", name, arg != NULL ? " " : "",
			arg != NULL ? arg : "");
	if (n > 25) {
		fprintf(f, "%s\n", head);
		head[0] = '\0';
	}
	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		int len = nl != NULL ? (int)(nl - line) : (int)strlen(line);

		fprintf(f, "%-26s%.*s\n", head, len, line);
		head[0] = '\0';
		line = nl != NULL ? nl + 1 : NULL;
	}
}

void
app_usage(FILE *f)
{
	const struct pcc_host_opt_info *h;
	unsigned int g, i;

	fprintf(f,
			"Usage: " APP_NAME " [EAL options] -- [options]\n\n"
			"Programmable congestion control engine for RoCEv2 on DPDK ports.\n"
			"EAL options go before '--' (list: '" APP_NAME
			" --help-eal'); these go after it.\n");
	for (g = 0; g < app_nb_opt_groups; g++) {
		fprintf(f, "\n%s:\n", app_opt_groups[g]);
		for (i = 0; i < app_nb_opts; i++)
			if (strcmp(app_opts[i].group, app_opt_groups[g]) == 0)
				usage_opt(f, app_opts[i].short_name, app_opts[i].name,
						app_opts[i].arg, app_opts[i].help);
		for (i = 0; (h = pcc_host_opt_at(i)) != NULL; i++)
			if (strcmp(h->group, app_opt_groups[g]) == 0)
				usage_opt(f, 0, h->name, h->arg, h->help);
	}
	fprintf(f,
			"\nThe /pcc/ telemetry commands are always registered (dpdk-telemetry.py\n"
			"-f PREFIX); they need the EAL's telemetry socket (not --no-shconf).\n\n"
			"Exit status: 0 done, 1 run-time failure (ports, memory), 2 bad "
			"arguments,\n"
			"3 an algorithm faulted (crash report), 4 an lcore hung (watchdog "
			"report).\n"
			"Guide: doc/dpdk-pcc.md.\n");
}

/* ---- Pre-EAL scan ------------------------------------------------ */

int
app_args_split(int argc, char *const argv[])
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}

enum app_early
app_args_early(int argc, char *const argv[])
{
	int dd = app_args_split(argc, argv);
	int i;

	for (i = 1; i < argc; i++) {
		const char *s = argv[i];
		bool app = i > dd;

		if (i == dd)
			continue;
		if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)
			return app ? APP_EARLY_HELP : APP_EARLY_HELP_TOP;
		if (strcmp(s, "--help-eal") == 0)
			return APP_EARLY_HELP_EAL;
		if (strcmp(s, "--version") == 0 || (app && strcmp(s, "-v") == 0))
			return APP_EARLY_VERSION;
	}
	return APP_EARLY_NONE;
}

/* ---- Option parsing ---------------------------------------------- */

void
app_args_default(struct app_args *a)
{
	memset(a, 0, sizeof(*a));
	a->stats_period = 1;
}

void
app_args_free(struct app_args *a)
{
	pcc_sim_scenario_free(a->sim_scn);
	a->sim_scn = NULL;
}

const char *
app_hopt(const struct app_args *a, const char *name)
{
	uint32_t i;

	for (i = a->nb_hopts; i-- > 0;)
		if (strcmp(a->hopts[i].name, name) == 0)
			return a->hopts[i].value;
	return NULL;
}

uint64_t
app_hopt_u64(const struct app_args *a, const char *name, uint64_t def)
{
	const char *v = app_hopt(a, name);

	return v != NULL ? strtoull(v, NULL, 0) : def;
}

/* Name of an option as the user wrote it (argv entry, up to '='). */
static void
user_opt(const char *arg, char *buf, size_t len)
{
	size_t n = strcspn(arg, "=");

	if (n >= len)
		n = len - 1;
	memcpy(buf, arg, n);
	buf[n] = '\0';
}

/* Options seen, for the combination checks. */
struct seen {
	bool app[APP_OPTS_MAX];
};

static bool
given(const struct app_args *a, const struct seen *s, const char *name)
{
	int i = app_opt_index(name);

	return i >= 0 ? s->app[i] : app_hopt(a, name) != NULL;
}

/* Options the scenario replaces: refused with --sim. */
static const char *const sim_refused[] = {
	"ring-pair",
	"rp-ports",
	"np-ports",
	"config",
	"rxq",
	"txq",
	"forward",
	"gen-file",
	"gen-flows",
	NULL, /* here, lib/host's generator settings (pcc_host_opt_is_gen()) */
	"algo",
	"algo-param",
	"line-rate",
	"np-cnp",
	"np-cnp-dscp",
	"np-cnp-gap-us",
	"np-sqpn",
	"np-sqpn-offset",
	"interactive",
	"cmdline-file",
	"cmdline-strict",
	"ha",
	"crash-file",
};

/* What replaces a refused option, for the message. */
static const char *
sim_replacement(const char *name)
{
	if (strcmp(name, "ring-pair") == 0 || strstr(name, "-ports") != NULL ||
			strcmp(name, "forward") == 0)
		return "the scenario's hosts are the ports and give their roles";
	if (strcmp(name, "config") == 0 || strcmp(name, "rxq") == 0 || strcmp(name, "txq") == 0)
		return "the simulator's ports have one RX queue, polled by one lcore";
	if (strncmp(name, "algo", 4) == 0)
		return "the scenario's algorithms: section sets them per slot";
	if (strcmp(name, "line-rate") == 0)
		return "each port's line rate is its host link's";
	if (strncmp(name, "np-", 3) == 0)
		return "the scenario's hosts: section sets the NP";
	if (strcmp(name, "interactive") == 0 || strncmp(name, "cmdline", 7) == 0)
		return "the lcore that runs the console polls the simulator; a run ends with its "
		       "scenario";
	if (strcmp(name, "ha") == 0 || strcmp(name, "crash-file") == 0)
		return "not supported";
	return "the scenario's flows: section lists the flows";
}

/* The first generator setting given (lib/host's table order), or NULL. */
static const char *
sim_gen_given(const struct app_args *a, const struct seen *s)
{
	unsigned int i;

	for (i = 0; i < pcc_host_opt_count(); i++) {
		const char *name = pcc_host_opt_at(i)->name;

		if (pcc_host_opt_is_gen(name) && given(a, s, name))
			return name;
	}
	return NULL;
}

/* --sim: refused options, overrides, algorithm names and parameters. */
static int
check_sim(struct app_args *a, const struct seen *s, char *err, size_t errlen)
{
	static const char *const sim_only[] = { "seed", "sim-out", "sim-quantum", "sim-mode" };
	struct pcc_sim_algo algo;
	char why[1024], buf[32];
	unsigned int i;
	uint32_t k;

	if (a->sim_scn == NULL) {
		for (i = 0; i < RTE_DIM(sim_only); i++) {
			if (given(a, s, sim_only[i])) {
				app_set_err(err, errlen, "invalid combination: --%s needs --sim",
						sim_only[i]);
				return APP_ARGS_ERR;
			}
		}
		return APP_ARGS_OK;
	}
	for (i = 0; i < RTE_DIM(sim_refused); i++) {
		const char *name = sim_refused[i] != NULL ? sim_refused[i] : sim_gen_given(a, s);

		if (name != NULL && given(a, s, name)) {
			app_set_err(err, errlen, "invalid combination: --%s with --sim (%s)", name,
					sim_replacement(name));
			return APP_ARGS_ERR;
		}
	}
	if (a->sim_seed_set) {
		snprintf(buf, sizeof(buf), "%" PRIu64, a->sim_seed);
		if (pcc_sim_scenario_set(a->sim_scn, "seed", buf, why, sizeof(why)) < 0)
			goto bad;
	}
	if (a->sim_quantum_ns != 0) {
		snprintf(buf, sizeof(buf), "%" PRIu64 "ns", a->sim_quantum_ns);
		if (pcc_sim_scenario_set(a->sim_scn, "quantum", buf, why, sizeof(why)) < 0)
			goto bad;
	}
	if (a->sim_out != NULL &&
			pcc_sim_scenario_set(
					a->sim_scn, "output.dir", a->sim_out, why, sizeof(why)) < 0)
		goto bad;
	/* the run directory can be made, now rather than after the start */
	if (pcc_sim_scenario_check(a->sim_scn, why, sizeof(why)) < 0)
		goto bad;
	/* plug-ins first (--plugin, the scenario's plugins:): the algorithms
	 * may be theirs */
	for (i = 0; i < a->nb_hopts; i++)
		if (strcmp(a->hopts[i].name, "plugin") == 0 &&
				pcc_host_plugin_load(a->hopts[i].value, buf, sizeof(buf)) < 0) {
			app_set_err(err, errlen, "invalid value '%s' for --plugin (%s)",
					app_quote(a->hopts[i].value), pcc_host_last_error());
			return APP_ARGS_ERR;
		}
	for (k = 0; k < pcc_sim_scenario_plugin_count(a->sim_scn); k++)
		if (pcc_host_plugin_load(pcc_sim_scenario_plugin(a->sim_scn, k), buf, sizeof(buf)) <
				0) {
			snprintf(why, sizeof(why), "plugins: %s", pcc_host_last_error());
			goto bad;
		}
	if (pcc_simrun_profiles_check(a->sim_scn, why, sizeof(why)) < 0)
		goto bad;
	for (k = 0; pcc_sim_scenario_algo_get(a->sim_scn, k, &algo) == 0; k++) {
		if (pcc_host_algo_check(algo.name, NULL, NULL, why, sizeof(why)) < 0) {
			app_set_err(err, errlen, "invalid --sim: %s: slot %u: %s", a->sim_file,
					algo.slot, why);
			return APP_ARGS_ERR;
		}
		for (i = 0; i < algo.nb_params; i++) {
			if (pcc_host_algo_check(algo.name, algo.params[i].name,
					    algo.params[i].value, why, sizeof(why)) < 0) {
				app_set_err(err, errlen, "invalid --sim: %s: slot %u: %s",
						a->sim_file, algo.slot, why);
				return APP_ARGS_ERR;
			}
		}
	}
	return APP_ARGS_OK;
bad:
	app_set_err(err, errlen, "invalid --sim: %s: %s", a->sim_file, why);
	return APP_ARGS_ERR;
}

/* Files and directories named on the command line, before the EAL: the
 * command file is a readable regular file, the HA directory is private
 * (doc/host.md, "Files and the local threat model"). */
static int
check_files(const struct app_args *a, char *err, size_t errlen)
{
	char why[PCC_FILE_WHY_LEN];
	int fd;

	if (a->cmdline_file != NULL) {
		fd = pcc_file_open_input(a->cmdline_file, PCC_FILE_INPUT_MAX, why, sizeof(why));
		if (fd < 0) {
			app_set_err(err, errlen, "invalid value '%s' for --cmdline-file (%s)",
					app_quote(a->cmdline_file), why);
			return APP_ARGS_ERR;
		}
		close(fd);
	}
	if (a->stats_file != NULL) {
		const char *base;

		fd = pcc_file_target(a->stats_file, &base, why, sizeof(why));
		if (fd < 0) {
			app_set_err(err, errlen, "invalid value '%s' for --stats-file (%s)",
					app_quote(a->stats_file), why);
			return APP_ARGS_ERR;
		}
		close(fd);
	}
	if (a->ha && a->ha_dir != NULL) {
		fd = pcc_file_dir_open(a->ha_dir, why, sizeof(why));
		if (fd < 0) {
			app_set_err(err, errlen, "invalid value '%s:%s' for --ha (%s)", a->ha_name,
					app_quote(a->ha_dir), why);
			return APP_ARGS_ERR;
		}
		close(fd);
	}
	return APP_ARGS_OK;
}

static int
check_combinations(struct app_args *a, const struct seen *s, char *err, size_t errlen)
{
	const char *names[APP_HOPTS_MAX], *values[APP_HOPTS_MAX];
	uint32_t hb, stale, i;
	int ret;

	a->stats_set = given(a, s, "stats-period");
	ret = check_sim(a, s, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	ret = check_files(a, err, errlen);
	if (ret != APP_ARGS_OK)
		return ret;
	if ((given(a, s, "ha-heartbeat-ms") || given(a, s, "ha-stale-ms")) && !a->ha) {
		app_set_err(err, errlen, "invalid combination: --%s needs --ha",
				given(a, s, "ha-heartbeat-ms") ? "ha-heartbeat-ms" : "ha-stale-ms");
		return APP_ARGS_ERR;
	}
	hb = a->ha_heartbeat_ms != 0 ? a->ha_heartbeat_ms : 50;
	stale = a->ha_stale_ms != 0 ? a->ha_stale_ms : 5 * hb;
	if (a->ha && stale <= hb) {
		app_set_err(err, errlen,
				"invalid combination: --ha-stale-ms %u must exceed the heartbeat "
				"(%u ms)",
				stale, hb);
		return APP_ARGS_ERR;
	}
	if (a->fwd && (a->rp_list != NULL || a->np_list != NULL)) {
		app_set_err(err, errlen,
				"invalid combination: --forward sets the port roles; drop --%s",
				a->rp_list != NULL ? "rp-ports" : "np-ports");
		return APP_ARGS_ERR;
	}
	if (a->ring_pair &&
			(app_hopt_u64(a, "rxq", 1) > RTE_PMD_RING_MAX_RX_RINGS ||
					app_hopt_u64(a, "txq", 0) > RTE_PMD_RING_MAX_TX_RINGS)) {
		app_set_err(err, errlen,
				"invalid combination: --ring-pair ports have at most %u RX and %u "
				"TX queues (--rxq %" PRIu64 ", --txq %" PRIu64 ")",
				RTE_PMD_RING_MAX_RX_RINGS, RTE_PMD_RING_MAX_TX_RINGS,
				app_hopt_u64(a, "rxq", 1), app_hopt_u64(a, "txq", 0));
		return APP_ARGS_ERR;
	}
	/* the engine options together (lib/host's own rules) */
	for (i = 0; i < a->nb_hopts; i++) {
		names[i] = a->hopts[i].name;
		values[i] = a->hopts[i].value;
	}
	if (pcc_host_opts_check(names, values, a->nb_hopts, err, errlen) < 0)
		return APP_ARGS_ERR;
	return APP_ARGS_OK;
}

/* Engine option i of lib/host's table: checked, kept for the contexts. */
static int
one_host_opt(unsigned int i, const char *val, struct app_args *a, char *err, size_t errlen)
{
	const struct pcc_host_opt_info *h = pcc_host_opt_at(i);

	if (h == NULL || pcc_host_opt_check(h->name, val, err, errlen) < 0)
		return APP_ARGS_ERR;
	if (a->nb_hopts == APP_HOPTS_MAX) {
		app_set_err(err, errlen, "more than %u engine options", APP_HOPTS_MAX);
		return APP_ARGS_ERR;
	}
	a->hopts[a->nb_hopts].name = h->name;
	a->hopts[a->nb_hopts].value = val;
	a->hopts[a->nb_hopts].scope = h->scope;
	a->nb_hopts++;
	return APP_ARGS_OK;
}

/* dpdk-pcc's own option i. */
static int
one_app_opt(unsigned int i, const char *val, struct app_args *a, struct seen *s, char *err,
		size_t errlen)
{
	const struct app_opt *o;
	char why[1024];

	if (i >= app_nb_opts)
		return APP_ARGS_ERR;
	o = &app_opts[i];
	why[0] = '\0';
	if (o->set(o, val, a, why, sizeof(why)) < 0) {
		if (why[0] == '\001')
			app_set_err(err, errlen, "%s", why + 1);
		else if (why[0] != '\0')
			app_set_err(err, errlen, "invalid value '%s' for --%s (%s; expected %s)",
					app_quote(val), o->name, why, o->expect);
		else
			app_set_err(err, errlen, "invalid value '%s' for --%s (expected %s)",
					app_quote(val), o->name, o->expect);
		return APP_ARGS_ERR;
	}
	s->app[i] = true;
	return APP_ARGS_OK;
}

/* One option by getopt value. */
static int
one_opt(int id, const char *val, struct app_args *a, struct seen *s, char *err, size_t errlen)
{
	if (val == NULL)
		val = "";
	if (id >= ID_HOST)
		return one_host_opt((unsigned int)(id - ID_HOST), val, a, err, errlen);
	return one_app_opt((unsigned int)(id - ID_APP), val, a, s, err, errlen);
}

/* getopt's table: the app's options, then the engine's. */
static struct option long_opts[APP_OPTS_MAX + 256 + 1];

static const char *
id_name(int id)
{
	if (id >= ID_HOST && pcc_host_opt_at((unsigned int)(id - ID_HOST)) != NULL)
		return pcc_host_opt_at((unsigned int)(id - ID_HOST))->name;
	if (id >= ID_APP && id < ID_APP + (int)app_nb_opts)
		return app_opts[id - ID_APP].name;
	return "?";
}

static const char *
id_expect(int id)
{
	if (id >= ID_HOST && pcc_host_opt_at((unsigned int)(id - ID_HOST)) != NULL)
		return pcc_host_opt_at((unsigned int)(id - ID_HOST))->expect;
	if (id >= ID_APP && id < ID_APP + (int)app_nb_opts)
		return app_opts[id - ID_APP].expect;
	return "?";
}

static void
long_opts_build(void)
{
	const struct pcc_host_opt_info *h;
	unsigned int i, n = 0;

	for (i = 0; i < app_nb_opts; i++) {
		long_opts[n].name = app_opts[i].name;
		long_opts[n].has_arg = app_opts[i].arg != NULL ? required_argument : no_argument;
		long_opts[n].flag = NULL;
		long_opts[n].val = ID_APP + (int)i;
		n++;
	}
	for (i = 0; (h = pcc_host_opt_at(i)) != NULL && n < RTE_DIM(long_opts) - 1; i++) {
		long_opts[n].name = h->name;
		long_opts[n].has_arg = h->arg != NULL ? required_argument : no_argument;
		long_opts[n].flag = NULL;
		long_opts[n].val = ID_HOST + (int)i;
		n++;
	}
	memset(&long_opts[n], 0, sizeof(long_opts[n]));
}

/* Number of long options "--prefix" abbreviates. */
static unsigned int
opt_matches(const char *arg)
{
	const struct option *o;
	unsigned int count = 0;
	size_t n;

	if (strncmp(arg, "--", 2) != 0)
		return 0;
	arg += 2;
	n = strcspn(arg, "=");
	for (o = long_opts; o->name != NULL; o++)
		if (strncmp(o->name, arg, n) == 0)
			count++;
	return count;
}

static int
parse_opts(int argc, char **argv, struct app_args *a, struct seen *s, char *err, size_t errlen)
{
	const char *bad;
	char name[64];
	int opt, ret;

	for (;;) {
		opt = getopt_long(argc, argv, "+:hvi", long_opts, NULL);
		if (opt == -1)
			break;
		if (opt == 'h' || opt == ID_APP + app_opt_index("help")) {
			app_usage(stdout);
			return APP_ARGS_EXIT;
		}
		if (opt == 'v' || opt == ID_APP + app_opt_index("version")) {
			app_version(stdout);
			return APP_ARGS_EXIT;
		}
		if (opt == ID_APP + app_opt_index("help-eal")) {
			app_set_err(err, errlen, "--help-eal must be used alone");
			return APP_ARGS_ERR;
		}
		if (opt == 'i')
			opt = ID_APP + app_opt_index("interactive");
		if (opt == ':') {
			if (optopt >= ID_APP)
				app_set_err(err, errlen, "option '--%s' requires an argument (%s)",
						id_name(optopt), id_expect(optopt));
			else
				app_set_err(err, errlen, "option requires an argument -- '%c'",
						optopt);
			return APP_ARGS_ERR;
		}
		if (opt == '?') {
			/* optopt: 0 for an unknown long option, the option's
			 * value for a flag given an argument (--ring-pair=x),
			 * else the unknown short option */
			bad = argv[optind - 1];
			if (optopt != 0 && (optopt < ID_APP && strncmp(bad, "--", 2) != 0)) {
				app_set_err(err, errlen, "invalid option -- '%c'", optopt);
				return APP_ARGS_ERR;
			}
			user_opt(bad, name, sizeof(name));
			if (optopt != 0)
				app_set_err(err, errlen, "option '%s' takes no argument", name);
			else if (opt_matches(bad) > 1)
				app_set_err(err, errlen, "option '%s' is ambiguous", name);
			else
				app_set_err(err, errlen, "unrecognized option '%s'", name);
			return APP_ARGS_ERR;
		}
		ret = one_opt(opt, optarg, a, s, err, errlen);
		if (ret != APP_ARGS_OK)
			return ret;
	}
	if (optind < argc) {
		app_set_err(err, errlen, "unexpected argument '%s'", argv[optind]);
		return APP_ARGS_ERR;
	}
	return APP_ARGS_OK;
}

int
app_args_parse(int argc, char **argv, struct app_args *a, char *err, size_t errlen)
{
	int saved_opterr = opterr;
	struct seen s;
	int ret;

	memset(&s, 0, sizeof(s));
	long_opts_build();
	optind = 0; /* full re-initialisation (glibc) */
	opterr = 0; /* the messages are ours */
	ret = parse_opts(argc, argv, a, &s, err, errlen);
	opterr = saved_opterr;
	optind = 0; /* leave getopt fresh for the EAL */
	if (ret != APP_ARGS_OK)
		return ret;
	return check_combinations(a, &s, err, errlen);
}
