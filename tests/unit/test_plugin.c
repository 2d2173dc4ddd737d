/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Plug-in loader (pcc_dev_plugin.h): every refusal with its errno and
 * message (a description pointing at unmapped memory included), all-or-nothing registration, ownership of constructor-
 * registered algorithms, simple algorithms, NP handlers, the default
 * layout, parameter range checks through a plug-in's algorithm, and
 * unloading.  The plug-ins are built from tests/unit/plugins/ and staged
 * into a temporary directory with the mode each case needs.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <pcc_dev.h>
#include <pcc_dev_plugin.h>
#include <pcc_dev_simple.h>
#include <pcc_np.h>

#include "plugin_stage.h"

static char err[512];

/* Stage PLUGIN_DIR/<name>.so as <as> with mode; returns the path. */
static const char *
stage(const char *name, const char *as, mode_t mode)
{
	static char path[PATH_MAX];
	char src[PATH_MAX];

	snprintf(src, sizeof(src), "%s/%s.so", PLUGIN_DIR, name);
	assert_int_equal(plugin_stage(src, as, mode, path, sizeof(path)), 0);
	return path;
}

static int
load(const char *name, mode_t mode)
{
	char as[64];

	snprintf(as, sizeof(as), "%s.so", name);
	return pcc_dev_plugin_load(stage(name, as, mode), err, sizeof(err));
}

static void
assert_err_has(const char *what)
{
	if (strstr(err, what) == NULL)
		fail_msg("\"%s\" not in error message \"%s\"", what, err);
}

static unsigned int
n_registered(void)
{
	return pcc_dev_algo_list(NULL, 0);
}

static int
group_teardown(void **state)
{
	(void)state;
	pcc_dev_fini();
	plugin_stage_cleanup();
	return 0;
}

/* ---- Refusals ------------------------------------------------------------------ */

static void
test_bad_arguments(void **state)
{
	(void)state;
	assert_int_equal(pcc_dev_plugin_load(NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(pcc_dev_plugin_load("", err, sizeof(err)), -EINVAL);
	assert_int_equal(pcc_dev_plugin_load("", NULL, 0), -EINVAL);
	assert_int_equal(pcc_dev_plugin_unload("nope", err, sizeof(err)), -ENOENT);
	assert_int_equal(pcc_dev_plugin_unload(NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(pcc_dev_plugin_apply("nope", err, sizeof(err)), -ENOENT);
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 0);
}

static void
test_missing_file(void **state)
{
	(void)state;
	assert_int_equal(
			pcc_dev_plugin_load("/nonexistent/dir/plug.so", err, sizeof(err)), -ENOENT);
	assert_err_has("no such file");
}

static void
test_not_regular_file(void **state)
{
	(void)state;
	stage("plug_good", "dummy.so", 0644); /* creates the directory */
	assert_int_equal(pcc_dev_plugin_load(stage_dir, err, sizeof(err)), -EISDIR);
	assert_err_has("not a regular file");
}

static void
test_world_writable(void **state)
{
	unsigned int n = n_registered();

	(void)state;
	assert_int_equal(pcc_dev_plugin_load(stage("plug_good", "ww.so", 0666), err, sizeof(err)),
			-EPERM);
	assert_err_has("writable by others");
	assert_int_equal(pcc_dev_plugin_load(stage("plug_good", "gw.so", 0664), err, sizeof(err)),
			-EPERM);
	assert_err_has("writable by group");
	/* even when not readable by others, writable is refused */
	assert_int_equal(pcc_dev_plugin_load(stage("plug_good", "ow.so", 0602), err, sizeof(err)),
			-EPERM);
	/* a good file in a directory others may write into: refused too */
	assert_int_equal(chmod(stage_dir, 01777), 0);
	assert_int_equal(pcc_dev_plugin_load(stage("plug_good", "wd.so", 0644), err, sizeof(err)),
			-EPERM);
	assert_err_has("its directory");
	assert_err_has("writable by others (mode 1777)");
	assert_int_equal(chmod(stage_dir, 0700), 0);
	assert_int_equal(n_registered(), n);
	assert_null(pcc_dev_algo_find("plug_good_algo"));
}

static void
test_foreign_owner(void **state)
{
	const char *path;

	(void)state;
	if (geteuid() != 0) {
		print_message("# not root: cannot give a file to another user\n");
		skip();
	}
	path = stage("plug_good", "foreign.so", 0644);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(pcc_dev_plugin_load(path, err, sizeof(err)), -EACCES);
	assert_err_has("owned by uid 65534");
}

static void
test_not_elf(void **state)
{
	char path[PATH_MAX + 16];
	FILE *f;

	(void)state;
	stage("plug_good", "dummy.so", 0644);
	snprintf(path, sizeof(path), "%s/text.so", stage_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("this is not a shared object\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(pcc_dev_plugin_load(path, err, sizeof(err)), -ELIBBAD);
	assert_err_has("not an ELF file");
}

static void
test_dlopen_failure(void **state)
{
	(void)state;
	assert_int_equal(load("plug_undef", 0644), -ELIBBAD);
	assert_err_has("dlopen failed");
	assert_err_has("pcc_test_no_such_function");
	assert_null(pcc_dev_algo_find("plug_undef_algo"));
}

static void
test_missing_abi_symbol(void **state)
{
	(void)state;
	assert_int_equal(load("plug_noabi", 0644), -ENOEXEC);
	assert_err_has("pcc_plugin_abi_version");
	assert_null(pcc_dev_algo_find("plug_noabi_algo"));
}

static void
test_wrong_abi(void **state)
{
	(void)state;
	assert_int_equal(load("plug_badabi", 0644), -ENOTSUP);
	assert_err_has("ABI 99");
	assert_err_has("rebuild");
	/* refused from the file: its constructor never ran */
	assert_null(pcc_dev_algo_find("plug_badabi_ctor"));
}

static void
test_no_algorithm(void **state)
{
	(void)state;
	assert_int_equal(load("plug_noalgo", 0644), -ENOSYS);
	assert_err_has("no algorithm");
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 0);
}

static void
test_missing_on_event(void **state)
{
	(void)state;
	assert_int_equal(load("plug_noevent", 0644), -ENOSYS);
	assert_err_has("on_event");
	assert_null(pcc_dev_algo_find("plug_noevent_algo"));
}

static void
test_bad_pointer(void **state)
{
	(void)state;
	assert_int_equal(load("plug_badptr", 0644), -EFAULT);
	assert_err_has("outside readable memory");
	assert_null(pcc_dev_algo_find("plug_badptr_algo"));
}

static void
test_trial_load(void **state)
{
	char as[] = "plug_crash.so";

	(void)state;
	/* a sound plug-in passes, and nothing is registered here */
	assert_int_equal(pcc_dev_plugin_check(
					 stage("plug_good", "check.so", 0644), err, sizeof(err)),
			0);
	assert_null(pcc_dev_algo_find("plug_good_algo"));
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 0);
	/* refusals are reported as the load would */
	assert_int_equal(pcc_dev_plugin_check(
					 stage("plug_noabi", "check2.so", 0644), err, sizeof(err)),
			-ENOEXEC);
	assert_err_has("pcc_plugin_abi_version");
	/* a crash only kills the child */
	assert_int_equal(pcc_dev_plugin_check(stage("plug_crash", as, 0644), err, sizeof(err)),
			-EFAULT);
	assert_err_has("crashed");
	assert_int_equal(pcc_dev_plugin_check(NULL, err, sizeof(err)), -EINVAL);
}

static void
noop_on_event(void *ctx, const struct pcc_dev_event *ev, const struct pcc_dev_attr *attr,
		struct pcc_dev_results *res)
{
	(void)ctx;
	(void)ev;
	(void)attr;
	(void)res;
}

static const struct pcc_dev_algo_ops host_dup_ops = {
	.name = "dup_algo",
	.on_event = noop_on_event,
};

static void
test_duplicate_name(void **state)
{
	unsigned int n;

	(void)state;
	assert_int_equal(pcc_dev_algo_register(&host_dup_ops), 0);
	n = n_registered();
	assert_int_equal(load("plug_dup", 0644), -EEXIST);
	assert_err_has("\"dup_algo\" is already registered");
	/* the first algorithm of the plug-in was rolled back */
	assert_null(pcc_dev_algo_find("plug_dup_first"));
	assert_int_equal(n_registered(), n);
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 0);
	assert_int_equal(pcc_dev_algo_unregister("dup_algo"), 0);
}

static void
test_init_failure(void **state)
{
	(void)state;
	assert_int_equal(load("plug_initfail", 0644), -EINVAL);
	assert_err_has("pcc_plugin_init failed");
	assert_err_has("configuration file missing");
	assert_null(pcc_dev_algo_find("plug_initfail_algo"));
}

/* ---- A good plug-in, end to end ------------------------------------------------- */

static void
test_good_plugin(void **state)
{
	struct pcc_dev_conf conf = { .n_ports = 2, .n_threads = 1, .default_algo = "none" };
	struct pcc_dev_plugin_info info[2];
	struct pcc_dev_results res;
	struct pcc_dev_event ev;
	uint8_t ctx[PCC_DEV_CTX_SIZE];
	uint32_t v, ctr;

	(void)state;
	assert_int_equal(load("plug_good", 0644), 0);
	assert_string_equal(err, "");
	assert_int_equal(pcc_dev_plugin_list(info, 2), 1);
	assert_string_equal(info[0].name, "plug_good");
	assert_int_equal(info[0].abi_version, PCC_PLUGIN_ABI_VERSION);
	assert_int_equal(info[0].n_algos, 1);
	assert_string_equal(info[0].algos[0], "plug_good_algo");
	assert_int_equal(info[0].n_layout, 1);
	assert_int_equal(info[0].np_handler, 0);
	assert_non_null(pcc_dev_algo_find("plug_good_algo"));

	/* the same file again; another file with the same plug-in name */
	assert_int_equal(pcc_dev_plugin_load(info[0].path, err, sizeof(err)), -EALREADY);
	assert_int_equal(pcc_dev_plugin_load(stage("plug_good", "copy.so", 0644), err, sizeof(err)),
			-EALREADY);
	assert_err_has("named plug_good");

	/* the layout needs the device */
	assert_int_equal(pcc_dev_plugin_apply("plug_good", err, sizeof(err)), -ENODEV);
	assert_int_equal(pcc_dev_init(&conf), 0);
	assert_int_equal(pcc_dev_plugin_apply("plug_good", err, sizeof(err)), 0);
	assert_string_equal(pcc_dev_slot_algo(0, 0, NULL)->name, "plug_good_algo");
	assert_string_equal(pcc_dev_slot_algo(1, 0, NULL)->name, "plug_good_algo");
	assert_int_equal(pcc_dev_slot_active(1), 0);

	memset(ctx, 0, sizeof(ctx));
	memset(&ev, 0, sizeof(ev));
	ev.type = PCC_DEV_EVENT_CNP;
	assert_int_equal(pcc_dev_dispatch(0, 0, ctx, &ev, &res), 0);
	assert_int_equal(res.rate, 10000);

	/* bad parameter values are refused by range */
	v = 101;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), -ERANGE);
	v = 0;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), -ERANGE);
	v = 50;
	assert_int_equal(pcc_dev_params_set(0, 0, 0, 1, &v), 0);
	assert_int_equal(pcc_dev_dispatch(0, 0, ctx, &ev, &res), 0);
	assert_int_equal(res.rate, 50000);
	assert_int_equal(pcc_dev_counters_get(0, 0, &ctr, 1), 1);
	assert_int_equal(ctr, 2);

	/* busy while loaded at an index; nothing changes */
	assert_int_equal(pcc_dev_plugin_unload("plug_good", err, sizeof(err)), -EBUSY);
	assert_err_has("still loaded");
	assert_non_null(pcc_dev_algo_find("plug_good_algo"));
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 1);
	for (uint8_t p = 0; p < 2; p++) {
		assert_int_equal(pcc_dev_slot_enable(p, 0, false), 0);
		assert_int_equal(pcc_dev_slot_unbind(p, 0), 0);
		assert_int_equal(pcc_dev_algo_unload(p, 0), 0);
	}
	assert_int_equal(pcc_dev_plugin_unload("plug_good", err, sizeof(err)), 0);
	assert_null(pcc_dev_algo_find("plug_good_algo"));
	assert_int_equal(pcc_dev_plugin_list(NULL, 0), 0);

	/* loaded again after the unload, and unloaded by path */
	assert_int_equal(load("plug_good", 0644), 0);
	assert_int_equal(pcc_dev_plugin_list(info, 2), 1);
	assert_int_equal(pcc_dev_plugin_unload(info[0].path, err, sizeof(err)), 0);
	assert_null(pcc_dev_algo_find("plug_good_algo"));
}

static void
test_constructor_registration(void **state)
{
	struct pcc_dev_plugin_info info;

	(void)state;
	assert_int_equal(load("plug_ctor", 0644), 0);
	assert_int_equal(pcc_dev_plugin_list(&info, 1), 1);
	assert_int_equal(info.n_algos, 1);
	assert_string_equal(info.algos[0], "plug_ctor_algo");
	assert_non_null(pcc_dev_algo_find("plug_ctor_algo"));
	assert_int_equal(pcc_dev_plugin_unload("plug_ctor", err, sizeof(err)), 0);
	assert_null(pcc_dev_algo_find("plug_ctor_algo"));
}

static void
test_simple_algorithm(void **state)
{
	(void)state;
	assert_int_equal(load("plug_simple", 0644), 0);
	assert_non_null(pcc_dev_simple_ops("plug_simple_algo"));
	assert_int_equal(pcc_dev_plugin_unload("plug_simple", err, sizeof(err)), 0);
	assert_null(pcc_dev_algo_find("plug_simple_algo"));
}

static void
test_np_handler(void **state)
{
	struct pcc_dev_plugin_info info;
	struct pcc_np_resp resp;
	struct pcc_np_pkt pkt;
	pcc_np_handler_t h2;
	pcc_dev_mailbox_fn mb2;
	uint8_t mbuf[8];

	(void)state;
	assert_null(pcc_np_handler_get());
	assert_int_equal(load("plug_np", 0644), 0);
	assert_int_equal(pcc_dev_plugin_list(&info, 1), 1);
	assert_string_equal(info.name, "plug_np"); /* from the file name */
	assert_int_equal(info.n_algos, 0);
	assert_int_equal(info.np_handler, 1);

	memset(&pkt, 0, sizeof(pkt));
	pkt.l3_ttl = 61;
	pkt.port = 1;
	assert_int_equal(pcc_np_handle(&pkt, &resp), 0);
	assert_int_equal(resp.len, 4);
	assert_int_equal(resp.data[0], 61);
	assert_int_equal(resp.data[1], 1);
	assert_int_equal(resp.data[2], 1);
	assert_int_equal(resp.dscp, 0x3f);
	assert_int_equal(info.np_mailbox, 1);

	/* a second NP application: recorded, bound to a port of its own;
	 * plug_np stays the process's handler */
	assert_int_equal(load("plug_np2", 0644), 0);
	assert_int_equal(pcc_dev_plugin_np("plug_np2", &h2, &mb2), 0);
	assert_non_null(h2);
	assert_non_null(mb2);
	assert_true(pcc_np_handler_get() != h2);
	assert_int_equal(pcc_np_port_handler_set(3, h2), 0);
	assert_int_equal(pcc_np_handle_port(3, &pkt, &resp), 0);
	assert_int_equal(resp.data[2], 2);
	assert_int_equal(pcc_np_handle_port(2, &pkt, &resp), 0);
	assert_int_equal(resp.data[2], 1); /* the process's */
	assert_int_equal(pcc_np_port_handler_set(PCC_NP_MAX_PORTS, h2), -EINVAL);
	/* its mailbox sets what the handler answers */
	assert_int_equal(mb2(&(uint8_t){ 9 }, 1, mbuf, sizeof(mbuf)), 2);
	assert_int_equal(mbuf[0], 2);
	assert_int_equal(pcc_np_handle_port(3, &pkt, &resp), 0);
	assert_int_equal(resp.data[3], 9);
	assert_int_equal(pcc_dev_plugin_np("nosuch", &h2, &mb2), -ENOENT);

	/* unloading unbinds it from the port */
	assert_int_equal(pcc_dev_plugin_unload("plug_np2", err, sizeof(err)), 0);
	assert_null(pcc_np_port_handler_bound(3));
	assert_int_equal(pcc_np_handle_port(3, &pkt, &resp), 0);
	assert_int_equal(resp.data[2], 1);

	assert_int_equal(pcc_dev_plugin_unload("plug_np", err, sizeof(err)), 0);
	assert_null(pcc_np_handler_get());
	assert_int_equal(pcc_np_handle(&pkt, &resp), -ENOENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_not_regular_file),
		cmocka_unit_test(test_world_writable),
		cmocka_unit_test(test_foreign_owner),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_dlopen_failure),
		cmocka_unit_test(test_missing_abi_symbol),
		cmocka_unit_test(test_wrong_abi),
		cmocka_unit_test(test_no_algorithm),
		cmocka_unit_test(test_missing_on_event),
		cmocka_unit_test(test_bad_pointer),
		cmocka_unit_test(test_trial_load),
		cmocka_unit_test(test_duplicate_name),
		cmocka_unit_test(test_init_failure),
		cmocka_unit_test(test_good_plugin),
		cmocka_unit_test(test_constructor_registration),
		cmocka_unit_test(test_simple_algorithm),
		cmocka_unit_test(test_np_handler),
	};

	return cmocka_run_group_tests(tests, NULL, group_teardown);
}
