/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * A DOCA PCC host program, written from the DOCA PCC guide's "Host API"
 * text the way a DOCA developer writes one: pick a device by its ibdev
 * name among the DOCA devices, check it supports the role, create the
 * context, set its application, threads, probe format, print buffer,
 * trace formats, coredump file and mailbox, start it, send the device a
 * mailbox request, then watch the process state and wait until it is
 * deactivated or the program is told to stop.  It includes DOCA headers
 * only and builds against pkg-config pcc-doca-host.
 *
 * Usage: host_prog -d IBDEV [-r rp|np] [-a APP] [-t EU]... [-p ccmad|ifa1|ifa2]
 *        [-s] [-g GNS] [-l HOPLIMIT] [-i MASK:VALUE] [-m HEXWORD]
 *        [-w WAIT_S] [-c ITER] [-D IBDEV2 -A APP2]   (a second, NP context)
 *        [-R RESOURCES.yaml -K APPKEY]
 * APP: rtt_template, switch_telemetry, echo.
 */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_pcc.h>

#include "host_prog.h"

DOCA_LOG_REGISTER(PCC_HOST::PROG);

#define MAILBOX_SIZE 64
#define MAX_THREADS 64

static volatile sig_atomic_t stop_requested;

static const char *const state_names[] = { "ACTIVE", "STANDBY", "DEACTIVATED", "ERROR" };

static char *trace_formats[] = {
	"rtt_tmpl init: algo id %#lx, %lu params, %lu counters, slot %lu, %lu",
	"rtt_tmpl: rate %#lx flow %#lx rtt %lu ns, %lu, %lu",
	NULL,
};

struct role_cfg {
	const char *ibdev;
	bool np;
	struct doca_pcc_app *app;
	struct doca_dev *dev;
	struct doca_pcc *pcc;
};

struct cfg {
	struct role_cfg ctx[2];
	unsigned int nb_ctx;
	uint32_t threads[MAX_THREADS];
	uint32_t nb_threads;
	int probe; /* 0 ccmad, 1 ifa1, 2 ifa2 */
	bool remote_sw;
	int gns;
	int hop_limit;
	int ign_mask, ign_value;
	bool mailbox;
	uint32_t mailbox_word;
	int wait_s;
	int iterations;
	const char *res_file;
	const char *res_key;
};

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static struct doca_pcc_app *
app_by_name(const char *n)
{
	if (strcmp(n, "rtt_template") == 0)
		return pcc_rp_rtt_template_app;
	if (strcmp(n, "switch_telemetry") == 0)
		return NULL; /* the role decides: RP or NP flavour */
	if (strcmp(n, "echo") == 0)
		return pcc_np_echo_app;
	return NULL;
}

static struct doca_pcc_app *
app_for(const char *n, bool np)
{
	if (strcmp(n, "switch_telemetry") == 0)
		return np ? pcc_np_switch_telemetry_app : pcc_rp_switch_telemetry_app;
	return app_by_name(n);
}

/* The DOCA device with ibdev name ibdev that supports the role. */
static doca_error_t
open_device(const char *ibdev, bool np, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t n, i;
	doca_error_t r;

	*dev = NULL;
	r = doca_devinfo_create_list(&list, &n);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to list DOCA devices: %s", doca_error_get_descr(r));
		return r;
	}
	for (i = 0; i < n; i++) {
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) != DOCA_SUCCESS ||
				strcmp(name, ibdev) != 0)
			continue;
		r = np ? doca_pcc_np_cap_is_supported(list[i]) :
			 doca_devinfo_get_is_pcc_supported(list[i]);
		if (r != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Device %s does not support PCC %s: %s", ibdev,
					np ? "NP" : "RP", doca_error_get_name(r));
			break;
		}
		r = doca_dev_open(list[i], dev);
		break;
	}
	doca_devinfo_destroy_list(list);
	if (*dev == NULL) {
		DOCA_LOG_ERR("No usable DOCA device named %s", ibdev);
		return DOCA_ERROR_NOT_FOUND;
	}
	printf("device %s opened (%s)\n", ibdev, np ? "NP" : "RP");
	return DOCA_SUCCESS;
}

static doca_error_t
eus_from_resources(struct cfg *c)
{
	struct doca_pcc_resources *res;
	char buf[4096];
	size_t len;
	uint32_t n;
	FILE *f;
	doca_error_t r;

	f = fopen(c->res_file, "r");
	if (f == NULL) {
		DOCA_LOG_ERR("Cannot open %s", c->res_file);
		return DOCA_ERROR_IO_FAILED;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	r = doca_pcc_resources_create(c->res_key, buf, len, &res);
	if (r != DOCA_SUCCESS)
		return r;
	r = doca_pcc_resources_get_num_eus(res, &n);
	if (r == DOCA_SUCCESS && n > MAX_THREADS)
		n = MAX_THREADS;
	if (r == DOCA_SUCCESS)
		r = doca_pcc_resources_get_eus(res, n, c->threads);
	if (r == DOCA_SUCCESS)
		c->nb_threads = n;
	doca_pcc_resources_destroy(res);
	printf("resources %s: %u execution units\n", c->res_key, c->nb_threads);
	return r;
}

static doca_error_t
setup(struct cfg *c, struct role_cfg *rc)
{
	uint32_t min_t, max_t, nt;
	doca_error_t r;

	r = open_device(rc->ibdev, rc->np, &rc->dev);
	if (r != DOCA_SUCCESS)
		return r;
	r = rc->np ? doca_pcc_np_create(rc->dev, &rc->pcc) : doca_pcc_create(rc->dev, &rc->pcc);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the PCC context: %s", doca_error_get_descr(r));
		return r;
	}
	r = doca_pcc_get_min_num_threads(rc->pcc, &min_t);
	if (r == DOCA_SUCCESS)
		r = doca_pcc_get_max_num_threads(rc->pcc, &max_t);
	if (r != DOCA_SUCCESS)
		return r;
	printf("threads: min %u max %u\n", min_t, max_t);
	r = doca_pcc_set_app(rc->pcc, rc->app);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set the application: %s", doca_error_get_descr(r));
		return r;
	}
	nt = c->nb_threads;
	if (nt == 0) {
		c->threads[0] = 0;
		nt = 1;
	}
	if (nt > max_t)
		nt = max_t;
	r = doca_pcc_set_thread_affinity(rc->pcc, nt, c->threads);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set thread affinity: %s", doca_error_get_descr(r));
		return r;
	}
	switch (c->probe) {
	case 1:
		r = doca_pcc_set_ifa1_probe_packet_format(rc->pcc, 0);
		break;
	case 2:
		r = doca_pcc_set_ifa2_probe_packet_format(rc->pcc, 0);
		if (r == DOCA_SUCCESS && !rc->np && c->gns >= 0)
			r = doca_pcc_rp_set_ifa2_gns(rc->pcc, 0, (uint8_t)c->gns);
		if (r == DOCA_SUCCESS && !rc->np && c->hop_limit > 0)
			r = doca_pcc_rp_set_ifa2_hop_limit(rc->pcc, 0, (uint8_t)c->hop_limit);
		if (r == DOCA_SUCCESS && rc->np && c->ign_mask >= 0)
			r = doca_pcc_np_set_ifa2_gns_ignore(
					rc->pcc, 0, (uint8_t)c->ign_mask, (uint8_t)c->ign_value);
		break;
	default:
		r = doca_pcc_set_ccmad_probe_packet_format(rc->pcc, 0);
		if (r == DOCA_SUCCESS && !rc->np)
			r = doca_pcc_rp_set_ccmad_remote_sw_handler(rc->pcc, 0, c->remote_sw);
		break;
	}
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set the probe format: %s", doca_error_get_descr(r));
		return r;
	}
	r = doca_pcc_set_print_buffer_size(rc->pcc, 8192);
	if (r == DOCA_SUCCESS)
		r = doca_pcc_set_trace_message(rc->pcc, trace_formats);
	if (r == DOCA_SUCCESS)
		r = doca_pcc_set_dev_coredump_file(rc->pcc, "/tmp/host_prog_coredump.txt");
	if (r == DOCA_SUCCESS)
		r = doca_pcc_set_mailbox(rc->pcc, MAILBOX_SIZE, MAILBOX_SIZE);
	if (r != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to set up debugging and the mailbox: %s",
				doca_error_get_descr(r));
	return r;
}

/* The NP application's setting (e.g. the IFA2 hop limit) through its mailbox. */
static doca_error_t
mailbox_send(struct role_cfg *rc, uint32_t word)
{
	uint32_t *req, *resp, resp_size, cb_ret;
	doca_error_t r;

	r = doca_pcc_mailbox_get_request_buffer(rc->pcc, (void **)&req);
	if (r != DOCA_SUCCESS)
		return r;
	*req = word;
	r = doca_pcc_mailbox_send(rc->pcc, sizeof(*req), &resp_size, &cb_ret);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to send the mailbox request: %s", doca_error_get_descr(r));
		return r;
	}
	r = doca_pcc_mailbox_get_response_buffer(rc->pcc, (void **)&resp);
	if (r != DOCA_SUCCESS)
		return r;
	printf("mailbox %s: request 0x%08x, response %u bytes, first word 0x%08x, callback "
	       "%u\n",
			rc->ibdev, word, resp_size, resp_size >= 4 ? resp[0] : 0, cb_ret);
	return cb_ret == 0 ? DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED;
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: host_prog -d IBDEV [-r rp|np] [-a APP] [-t EU]... "
			"[-p ccmad|ifa1|ifa2] [-s] [-g GNS] [-l HOP] [-i MASK:VALUE] "
			"[-m HEXWORD] [-w WAIT_S] [-c ITER] [-D IBDEV2 -A APP2] "
			"[-R FILE -K KEY]\n");
}

static int
parse(int argc, char **argv, struct cfg *c)
{
	const char *app = "rtt_template", *app2 = "echo", *ibdev2 = NULL;
	int opt;

	memset(c, 0, sizeof(*c));
	c->gns = -1;
	c->ign_mask = -1;
	c->wait_s = 1;
	c->iterations = -1;
	c->ctx[0].ibdev = NULL;
	while ((opt = getopt(argc, argv, "d:r:a:t:p:sg:l:i:m:w:c:D:A:R:K:")) != -1) {
		switch (opt) {
		case 'd':
			c->ctx[0].ibdev = optarg;
			break;
		case 'r':
			if (strcmp(optarg, "rp") != 0 && strcmp(optarg, "np") != 0)
				return -1;
			c->ctx[0].np = strcmp(optarg, "np") == 0;
			break;
		case 'a':
			app = optarg;
			break;
		case 't':
			if (c->nb_threads < MAX_THREADS)
				c->threads[c->nb_threads++] = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'p':
			c->probe = strcmp(optarg, "ifa1") == 0      ? 1 :
					strcmp(optarg, "ifa2") == 0 ? 2 :
								      0;
			break;
		case 's':
			c->remote_sw = true;
			break;
		case 'g':
			c->gns = atoi(optarg);
			break;
		case 'l':
			c->hop_limit = atoi(optarg);
			break;
		case 'i':
			if (sscanf(optarg, "%i:%i", &c->ign_mask, &c->ign_value) != 2)
				return -1;
			break;
		case 'm':
			c->mailbox = true;
			c->mailbox_word = (uint32_t)strtoul(optarg, NULL, 16);
			break;
		case 'w':
			c->wait_s = atoi(optarg);
			break;
		case 'c':
			c->iterations = atoi(optarg);
			break;
		case 'D':
			ibdev2 = optarg;
			break;
		case 'A':
			app2 = optarg;
			break;
		case 'R':
			c->res_file = optarg;
			break;
		case 'K':
			c->res_key = optarg;
			break;
		default:
			return -1;
		}
	}
	if (c->ctx[0].ibdev == NULL || (c->res_file != NULL) != (c->res_key != NULL))
		return -1;
	c->ctx[0].app = app_for(app, c->ctx[0].np);
	c->nb_ctx = 1;
	if (ibdev2 != NULL) {
		c->ctx[1].ibdev = ibdev2;
		c->ctx[1].np = true;
		c->ctx[1].app = app_for(app2, true);
		c->nb_ctx = 2;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	doca_pcc_process_state_t state = DOCA_PCC_PS_STANDBY, last = (doca_pcc_process_state_t)-1;
	struct doca_log_backend *sdk_log;
	struct cfg c;
	unsigned int i;
	int exit_status = EXIT_FAILURE, it = 0;
	doca_error_t r = DOCA_SUCCESS;

	if (parse(argc, argv, &c) < 0) {
		usage();
		return EXIT_FAILURE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (doca_log_backend_create_standard() != DOCA_SUCCESS ||
			doca_log_backend_create_with_file_sdk(stderr, &sdk_log) != DOCA_SUCCESS ||
			doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) !=
					DOCA_SUCCESS)
		return EXIT_FAILURE;
	if (c.res_file != NULL && eus_from_resources(&c) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	for (i = 0; i < c.nb_ctx && r == DOCA_SUCCESS; i++)
		r = setup(&c, &c.ctx[i]);
	if (r != DOCA_SUCCESS)
		goto destroy;
	DOCA_LOG_INFO("Starting DOCA PCC");
	for (i = 0; i < c.nb_ctx && r == DOCA_SUCCESS; i++)
		r = doca_pcc_start(c.ctx[i].pcc);
	if (r != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start PCC: %s", doca_error_get_descr(r));
		goto destroy;
	}
	printf("started %u context(s)\n", c.nb_ctx);
	fflush(stdout);
	while (!stop_requested) {
		r = doca_pcc_get_process_state(c.ctx[0].pcc, &state);
		if (r != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to query PCC: %s", doca_error_get_descr(r));
			goto destroy;
		}
		if (state != last) {
			printf("process state %s\n", state_names[state]);
			fflush(stdout);
			last = state;
			/* the device's setting, once the contexts handle events */
			if (state == DOCA_PCC_PS_ACTIVE && c.mailbox) {
				unsigned int k = c.nb_ctx - 1;

				if (mailbox_send(&c.ctx[k], c.mailbox_word) != DOCA_SUCCESS)
					goto destroy;
				fflush(stdout);
			}
		}
		if (state == DOCA_PCC_PS_DEACTIVATED || state == DOCA_PCC_PS_ERROR)
			break;
		if (c.iterations >= 0 && it++ >= c.iterations)
			break;
		r = doca_pcc_wait(c.ctx[0].pcc, c.wait_s);
		if (r != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to wait on PCC: %s", doca_error_get_descr(r));
			goto destroy;
		}
	}
	printf("finished: process state %s\n", state_names[state]);
	exit_status = state == DOCA_PCC_PS_ERROR ? EXIT_FAILURE : EXIT_SUCCESS;
destroy:
	for (i = 0; i < c.nb_ctx; i++) {
		if (c.ctx[i].pcc != NULL && doca_pcc_destroy(c.ctx[i].pcc) != DOCA_SUCCESS)
			exit_status = EXIT_FAILURE;
		if (c.ctx[i].dev != NULL && doca_dev_close(c.ctx[i].dev) != DOCA_SUCCESS)
			exit_status = EXIT_FAILURE;
	}
	fflush(stdout);
	return exit_status;
}
