/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Plug-in loader (pcc_dev_plugin.h).
 *
 * Load: open the file once and keep the descriptor; check type, mode and
 * owner on that descriptor; read the ABI symbol's value out of the ELF
 * file (no plug-in code has run yet); dlopen() the very file that was
 * checked through /proc/self/fd/N (no window for a swap between check and
 * load), falling back to the path when /proc is missing; check the ABI
 * symbol again through dlsym(); run pcc_plugin_init(); compare the
 * registry with its state before dlopen() to find algorithms the plug-in
 * registered behind the loader's back.  Every failure undoes everything.
 *
 * The descriptor stays open while the plug-in is loaded: glibc finds
 * already loaded objects by name first, so the name /proc/self/fd/N must
 * not be reused while an object loaded under it is mapped.  For the same
 * reason it is kept (leaked) when dlclose() could not unmap the object.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_log.h>

#include "pcc_dev.h"
#include "pcc_file.h"
#include "pcc_dev_hist.h"
#include "pcc_dev_plugin.h"
#include "pcc_dev_simple.h"
#include "pcc_dev_svc.h"
#include "pcc_np.h"

RTE_LOG_REGISTER(dev_plugin_logtype, pcc.plugin, INFO);

#define PLUG_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, dev_plugin_logtype, "pcc.plugin: " fmt "\n", ##__VA_ARGS__)

#define PLUG_MAGIC 0x706c7567u /* "plug" */
#define PLUG_ERR_MAX 512
#define PLUG_ABI_SYM "pcc_plugin_abi_version"
#define PLUG_NAME_SYM "pcc_plugin_name"
#define PLUG_INIT_SYM "pcc_plugin_init"
#define PLUG_FINI_SYM "pcc_plugin_fini"

struct plug_algo {
	const struct pcc_dev_algo_ops *ops;   /* as registered */
	const struct pcc_dev_simple_algo *sa; /* added with pcc_plugin_add_simple */
	char name[PCC_DEV_NAME_MAX];
	bool adopted; /* registered by the plug-in itself */
	bool wrapper; /* adopted simple algorithm: cannot be registered again */
	bool unreg;   /* unload in progress: currently unregistered */
};

struct plug_layout {
	uint8_t port;
	uint8_t slot;
	uint8_t idx;
	uint8_t enable;
	char algo[PCC_DEV_NAME_MAX];
};

struct pcc_plugin {
	uint32_t magic;
	bool in_init;
	int fd;
	dev_t dev;
	ino_t ino;
	void *handle;
	uint32_t abi;
	char name[PCC_DEV_NAME_MAX];
	char path[PCC_DEV_PLUGIN_PATH_MAX];
	char dl_path[64]; /* name the object was dlopen()ed under */
	struct plug_algo algos[PCC_DEV_PLUGIN_MAX_ALGOS];
	unsigned int n_algos;
	pcc_np_handler_t np;
	pcc_dev_mailbox_fn np_mailbox;
	struct plug_layout layout[PCC_DEV_PLUGIN_MAX_LAYOUT];
	unsigned int n_layout;
	pcc_plugin_apply_t apply;
	void *apply_arg;
	int err;
	char errmsg[PLUG_ERR_MAX];
	int probe[2]; /* pipe for plug_readable(), during the load */
};

static pthread_mutex_t plug_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct pcc_plugin *plugins[PCC_DEV_PLUGIN_MAX];
static unsigned int n_plugins;
static bool plug_loading;

/* ---- Errors -------------------------------------------------------------- */

static int __attribute__((format(printf, 4, 5)))
plug_fail(char *errbuf, size_t errlen, int rc, const char *fmt, ...)
{
	char msg[PLUG_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "%s", msg);
	PLUG_LOG(ERR, "%s", msg);
	return rc;
}

/* Record the first error of a plug-in's registration calls. */
static int __attribute__((format(printf, 3, 4)))
plug_err(struct pcc_plugin *pl, int rc, const char *fmt, ...)
{
	va_list ap;

	if (pl->err == 0) {
		pl->err = rc;
		va_start(ap, fmt);
		vsnprintf(pl->errmsg, sizeof(pl->errmsg), fmt, ap);
		va_end(ap);
	}
	return rc;
}

static bool
plug_in_init(const struct pcc_plugin *pl)
{
	return pl != NULL && pl->magic == PLUG_MAGIC && pl->in_init;
}

/* [a-z0-9_], 1..PCC_DEV_NAME_MAX-1 characters. */
static bool
plug_name_ok(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (i + 1 >= PCC_DEV_NAME_MAX)
			return false;
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	}
	return i > 0;
}

/* Which loaded plug-in registered algorithm name (NULL: none). */
static const struct pcc_plugin *
plug_owner(const char *name)
{
	unsigned int i, j;

	for (i = 0; i < n_plugins; i++)
		for (j = 0; j < plugins[i]->n_algos; j++)
			if (strcmp(plugins[i]->algos[j].name, name) == 0)
				return plugins[i];
	return NULL;
}

/* ---- Probing the plug-in's descriptions ------------------------------------ */

/*
 * A plug-in hands the loader pointers (ops, names, tables).  Before lib/dev
 * dereferences them, check that they point at readable memory: write()
 * from an unreadable address fails with EFAULT instead of faulting.  The
 * bytes go into a pipe and are drained at once.
 */
static bool
plug_readable(struct pcc_plugin *pl, const void *p, size_t n)
{
	const char *c = p;
	char sink[512];
	ssize_t w;

	if (pl->probe[1] < 0)
		return true; /* no pipe: cannot check */
	if (p == NULL)
		return n == 0;
	while (n > 0) {
		w = write(pl->probe[1], c, RTE_MIN(n, sizeof(sink)));
		if (w <= 0)
			return false;
		if (read(pl->probe[0], sink, (size_t)w) != w)
			return false;
		c += w;
		n -= (size_t)w;
	}
	return true;
}

static void
plug_probe_close(struct pcc_plugin *pl)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (pl->probe[i] >= 0)
			close(pl->probe[i]);
		pl->probe[i] = -1;
	}
}

/*
 * A NUL-terminated string of at most max bytes (NULL allowed if null_ok).
 * Readability is per page: probe one byte of each page, then scan that
 * page without reading past the terminator.
 */
static bool
plug_string_ok(struct pcc_plugin *pl, const char *s, size_t max, bool null_ok)
{
	const size_t page = 4096;
	size_t done = 0, chunk;

	if (s == NULL)
		return null_ok;
	while (done < max) {
		chunk = page - ((uintptr_t)(s + done) % page);
		chunk = RTE_MIN(chunk, max - done);
		if (!plug_readable(pl, s + done, 1))
			return false;
		if (strnlen(s + done, chunk) < chunk)
			return true;
		done += chunk;
	}
	return true; /* longer than max: refused by the name checks */
}

/* Everything of ops lib/dev will read at registration. */
static bool
plug_ops_readable(struct pcc_plugin *pl, const struct pcc_dev_algo_ops *ops)
{
	uint32_t i;

	if (!plug_readable(pl, ops, sizeof(*ops)) ||
			!plug_string_ok(pl, ops->name, PCC_DEV_NAME_MAX + 1, false) ||
			!plug_string_ok(pl, ops->desc, PCC_DEV_DESC_MAX * 8, true))
		return false;
	if (ops->n_params <= PCC_DEV_MAX_PARAMS && ops->params != NULL) {
		if (!plug_readable(pl, ops->params, ops->n_params * sizeof(ops->params[0])))
			return false;
		for (i = 0; i < ops->n_params; i++)
			if (!plug_string_ok(pl, ops->params[i].name, PCC_DEV_NAME_MAX + 1, true) ||
					!plug_string_ok(pl, ops->params[i].desc,
							PCC_DEV_DESC_MAX * 8, true))
				return false;
	}
	if (ops->n_counters <= PCC_DEV_MAX_COUNTERS && ops->counters != NULL) {
		if (!plug_readable(pl, ops->counters, ops->n_counters * sizeof(ops->counters[0])))
			return false;
		for (i = 0; i < ops->n_counters; i++)
			if (!plug_string_ok(pl, ops->counters[i].name, PCC_DEV_NAME_MAX + 1,
					    true) ||
					!plug_string_ok(pl, ops->counters[i].desc,
							PCC_DEV_DESC_MAX * 8, true))
				return false;
	}
	if (ops->n_hist_ids <= PCC_DEV_MAX_HISTS && ops->hist_ids != NULL &&
			!plug_readable(pl, ops->hist_ids, ops->n_hist_ids))
		return false;
	return true;
}

static bool
plug_simple_readable(struct pcc_plugin *pl, const struct pcc_dev_simple_algo *sa)
{
	uint32_t i;

	if (!plug_readable(pl, sa, sizeof(*sa)) ||
			!plug_string_ok(pl, sa->name, PCC_DEV_NAME_MAX + 1, false) ||
			!plug_string_ok(pl, sa->desc, PCC_DEV_DESC_MAX * 8, true))
		return false;
	if (sa->n_params <= PCC_DEV_MAX_PARAMS && sa->params != NULL) {
		if (!plug_readable(pl, sa->params, sa->n_params * sizeof(sa->params[0])))
			return false;
		for (i = 0; i < sa->n_params; i++)
			if (!plug_string_ok(pl, sa->params[i].name, PCC_DEV_NAME_MAX + 1, true) ||
					!plug_string_ok(pl, sa->params[i].desc,
							PCC_DEV_DESC_MAX * 8, true))
				return false;
	}
	if (sa->n_metrics <= PCC_DEV_MAX_COUNTERS && sa->metrics != NULL) {
		if (!plug_readable(pl, sa->metrics, sa->n_metrics * sizeof(sa->metrics[0])))
			return false;
		for (i = 0; i < sa->n_metrics; i++)
			if (!plug_string_ok(pl, sa->metrics[i].name, PCC_DEV_NAME_MAX + 1, true) ||
					!plug_string_ok(pl, sa->metrics[i].desc,
							PCC_DEV_DESC_MAX * 8, true))
				return false;
	}
	if (sa->n_hist_ids <= PCC_DEV_MAX_HISTS && sa->hist_ids != NULL &&
			!plug_readable(pl, sa->hist_ids, sa->n_hist_ids))
		return false;
	return true;
}

/* ---- Plug-in side ---------------------------------------------------------- */

const char *
pcc_plugin_get_name(const struct pcc_plugin *pl)
{
	if (pl == NULL || pl->magic != PLUG_MAGIC)
		return NULL;
	return pl->name;
}

const char *
pcc_plugin_get_path(const struct pcc_plugin *pl)
{
	if (pl == NULL || pl->magic != PLUG_MAGIC)
		return NULL;
	return pl->path;
}

void
pcc_plugin_set_error(struct pcc_plugin *pl, const char *fmt, ...)
{
	va_list ap;

	if (pl == NULL || pl->magic != PLUG_MAGIC || fmt == NULL || pl->errmsg[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(pl->errmsg, sizeof(pl->errmsg), fmt, ap);
	va_end(ap);
}

static int
plug_check_new_name(struct pcc_plugin *pl, const char *name)
{
	const struct pcc_plugin *owner;

	if (pl->n_algos == PCC_DEV_PLUGIN_MAX_ALGOS)
		return plug_err(pl, -ENOSPC, "more than %u algorithms", PCC_DEV_PLUGIN_MAX_ALGOS);
	if (strnlen(name, PCC_DEV_NAME_MAX) >= PCC_DEV_NAME_MAX)
		return plug_err(pl, -EINVAL, "algorithm name \"%.40s...\" too long", name);
	if (pcc_dev_algo_find(name) != NULL) {
		owner = plug_owner(name);
		return plug_err(pl, -EEXIST, "algorithm \"%s\" is already registered (%s%s)", name,
				owner != NULL ? "by plug-in " : "built in or by the host",
				owner != NULL ? owner->name : "");
	}
	return 0;
}

int
pcc_plugin_add_algo(struct pcc_plugin *pl, const struct pcc_dev_algo_ops *ops)
{
	struct plug_algo *a;
	int rc;

	if (!plug_in_init(pl))
		return -EINVAL;
	if (ops == NULL || !plug_readable(pl, ops, sizeof(*ops)) || ops->name == NULL)
		return plug_err(pl, -EINVAL, "pcc_plugin_add_algo: NULL algorithm or name");
	if (!plug_ops_readable(pl, ops))
		return plug_err(pl, -EFAULT,
				"algorithm description at %p points outside readable memory",
				(const void *)ops);
	if (ops->on_event == NULL)
		return plug_err(pl, -ENOSYS, "algorithm \"%.31s\" has no on_event callback",
				ops->name);
	rc = plug_check_new_name(pl, ops->name);
	if (rc < 0)
		return rc;
	rc = pcc_dev_algo_register(ops);
	if (rc < 0)
		return plug_err(pl, rc,
				"algorithm \"%s\" refused by lib/dev: %s (details in the pcc.dev "
				"log)",
				ops->name, strerror(-rc));
	a = &pl->algos[pl->n_algos++];
	memset(a, 0, sizeof(*a));
	a->ops = ops;
	snprintf(a->name, sizeof(a->name), "%s", ops->name);
	return 0;
}

int
pcc_plugin_add_algos(
		struct pcc_plugin *pl, const struct pcc_dev_algo_ops *const *ops, unsigned int n)
{
	unsigned int i;
	int rc;

	if (!plug_in_init(pl))
		return -EINVAL;
	if (n > 0 && (ops == NULL || !plug_readable(pl, ops, n * sizeof(*ops))))
		return plug_err(pl, -EINVAL, "pcc_plugin_add_algos: NULL or unreadable table");
	for (i = 0; i < n; i++) {
		rc = pcc_plugin_add_algo(pl, ops[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int
pcc_plugin_add_simple(struct pcc_plugin *pl, const struct pcc_dev_simple_algo *sa)
{
	const struct pcc_dev_algo_ops *ops;
	struct plug_algo *a;
	int rc;

	if (!plug_in_init(pl))
		return -EINVAL;
	if (sa == NULL || !plug_readable(pl, sa, sizeof(*sa)) || sa->name == NULL)
		return plug_err(pl, -EINVAL, "pcc_plugin_add_simple: NULL algorithm or name");
	if (!plug_simple_readable(pl, sa))
		return plug_err(pl, -EFAULT,
				"simple algorithm description at %p points outside readable memory",
				(const void *)sa);
	if (sa->step == NULL)
		return plug_err(pl, -ENOSYS, "simple algorithm \"%.31s\" has no step callback",
				sa->name);
	rc = plug_check_new_name(pl, sa->name);
	if (rc < 0)
		return rc;
	rc = pcc_dev_simple_register(sa);
	if (rc < 0)
		return plug_err(pl, rc,
				"simple algorithm \"%s\" refused by lib/dev: %s (details in the "
				"pcc.dev log)",
				sa->name, strerror(-rc));
	ops = pcc_dev_simple_ops(sa->name);
	if (ops == NULL) {
		pcc_dev_algo_unregister(sa->name);
		return plug_err(pl, -EIO, "simple algorithm \"%s\" vanished after registration",
				sa->name);
	}
	a = &pl->algos[pl->n_algos++];
	memset(a, 0, sizeof(*a));
	a->ops = ops;
	a->sa = sa;
	snprintf(a->name, sizeof(a->name), "%s", sa->name);
	return 0;
}

static struct pcc_plugin *plug_find(const char *name);

int
pcc_plugin_set_np_handler(struct pcc_plugin *pl, pcc_np_handler_t fn)
{
	unsigned int i;
	int rc;

	if (!plug_in_init(pl))
		return -EINVAL;
	if (fn == NULL)
		return plug_err(pl, -EINVAL, "pcc_plugin_set_np_handler: NULL handler");
	if (pl->np != NULL)
		return plug_err(pl, -EALREADY, "NP handler set twice");
	/* the process's handler if there is none yet; an NP context binds
	 * it to its port in any case (pcc_np_port_handler_set) */
	rc = pcc_np_handler_register(fn);
	if (rc == -EBUSY) {
		const char *owner = NULL;

		for (i = 0; i < n_plugins; i++)
			if (plugins[i]->np != NULL && plugins[i]->np == pcc_np_handler_get())
				owner = plugins[i]->name;
		PLUG_LOG(INFO, "%s: NP handler recorded for NP contexts (the process's is %s%s's)",
				pl->name, owner != NULL ? "plug-in " : "the host",
				owner != NULL ? owner : "");
	} else if (rc < 0) {
		return plug_err(pl, rc, "NP handler: %s", strerror(-rc));
	}
	pl->np = fn;
	return 0;
}

int
pcc_plugin_set_np_mailbox(struct pcc_plugin *pl, pcc_dev_mailbox_fn fn)
{
	if (!plug_in_init(pl))
		return -EINVAL;
	if (fn == NULL)
		return plug_err(pl, -EINVAL, "pcc_plugin_set_np_mailbox: NULL handler");
	if (pl->np_mailbox != NULL)
		return plug_err(pl, -EALREADY, "NP mailbox handler set twice");
	pl->np_mailbox = fn;
	return 0;
}

int
pcc_dev_plugin_np(const char *name, pcc_np_handler_t *handler, pcc_dev_mailbox_fn *mailbox)
{
	const struct pcc_plugin *pl;
	int rc = 0;

	pthread_mutex_lock(&plug_mutex);
	pl = plug_find(name);
	if (pl == NULL) {
		rc = -ENOENT;
	} else {
		if (handler != NULL)
			*handler = pl->np;
		if (mailbox != NULL)
			*mailbox = pl->np_mailbox;
	}
	pthread_mutex_unlock(&plug_mutex);
	return rc;
}

static const struct plug_algo *
plug_find_algo(const struct pcc_plugin *pl, const char *name)
{
	unsigned int i;

	for (i = 0; i < pl->n_algos; i++)
		if (strcmp(pl->algos[i].name, name) == 0)
			return &pl->algos[i];
	return NULL;
}

int
pcc_plugin_add_slot(struct pcc_plugin *pl, uint8_t port, uint8_t slot, uint8_t idx,
		const char *algo, bool enable)
{
	struct plug_layout *e;

	if (!plug_in_init(pl))
		return -EINVAL;
	if (!plug_string_ok(pl, algo, PCC_DEV_NAME_MAX + 1, false))
		return plug_err(pl, -EINVAL,
				"pcc_plugin_add_slot: NULL or unreadable algorithm name");
	if (port >= PCC_DEV_MAX_PORTS && port != PCC_PLUGIN_ALL_PORTS)
		return plug_err(pl, -EINVAL, "layout: port %u out of range", port);
	if (idx == PCC_DEV_INTERNAL_SLOT) {
		if (slot != PCC_DEV_INTERNAL_SLOT)
			return plug_err(pl, -EINVAL,
					"layout: index 0xF is bound to slot 0xF only, not slot %u",
					slot);
	} else if (idx >= PCC_DEV_MAX_ALGOS || slot >= PCC_DEV_MAX_SLOTS) {
		return plug_err(pl, -EINVAL, "layout: slot %u / index %u out of range", slot, idx);
	}
	if (plug_find_algo(pl, algo) == NULL)
		return plug_err(pl, -ENOENT,
				"layout: \"%.31s\" is not an algorithm of this plug-in", algo);
	if (pl->n_layout == PCC_DEV_PLUGIN_MAX_LAYOUT)
		return plug_err(pl, -ENOSPC, "more than %u layout entries",
				PCC_DEV_PLUGIN_MAX_LAYOUT);
	e = &pl->layout[pl->n_layout++];
	e->port = port;
	e->slot = slot;
	e->idx = idx;
	e->enable = enable;
	snprintf(e->algo, sizeof(e->algo), "%s", algo);
	return 0;
}

int
pcc_plugin_set_apply(struct pcc_plugin *pl, pcc_plugin_apply_t fn, void *arg)
{
	if (!plug_in_init(pl))
		return -EINVAL;
	pl->apply = fn;
	pl->apply_arg = arg;
	return 0;
}

/* ---- ELF pre-flight: read pcc_plugin_abi_version from the file ------------ */

#if UINTPTR_MAX == UINT64_MAX
#define PLUG_ELFCLASS ELFCLASS64
typedef Elf64_Ehdr plug_ehdr;
typedef Elf64_Shdr plug_shdr;
typedef Elf64_Sym plug_sym;
#define PLUG_ST_TYPE(i) ELF64_ST_TYPE(i)
#else
#define PLUG_ELFCLASS ELFCLASS32
typedef Elf32_Ehdr plug_ehdr;
typedef Elf32_Shdr plug_shdr;
typedef Elf32_Sym plug_sym;
#define PLUG_ST_TYPE(i) ELF32_ST_TYPE(i)
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PLUG_ELFDATA ELFDATA2LSB
#else
#define PLUG_ELFDATA ELFDATA2MSB
#endif

#if defined(__x86_64__)
#define PLUG_EM EM_X86_64
#elif defined(__aarch64__)
#define PLUG_EM EM_AARCH64
#elif defined(__powerpc64__)
#define PLUG_EM EM_PPC64
#elif defined(__riscv)
#define PLUG_EM EM_RISCV
#elif defined(__i386__)
#define PLUG_EM EM_386
#elif defined(__arm__)
#define PLUG_EM EM_ARM
#else
#define PLUG_EM EM_NONE /* not checked */
#endif

#define PLUG_ELF_MAX_SECTIONS 65280u
#define PLUG_ELF_MAX_STRTAB (64u << 20)
#define PLUG_ELF_SYM_CHUNK 256u

enum {
	ELF_FOUND = 0,
	ELF_NO_SECTIONS = 1, /* no section table: check after dlopen */
};

static bool
plug_pread(int fd, void *buf, size_t len, uint64_t off, uint64_t fsize)
{
	ssize_t n;

	if (off > fsize || len > fsize - off)
		return false;
	n = pread(fd, buf, len, (off_t)off);
	return n >= 0 && (size_t)n == len;
}

/*
 * ELF_FOUND with *abi, ELF_NO_SECTIONS, -ELIBBAD (not an ELF shared object
 * for this machine), -ENOEXEC (no usable ABI symbol); why explains.
 */
static int
plug_elf_abi(int fd, uint64_t fsize, uint32_t *abi, char *why, size_t whylen)
{
	static const char sym_name[] = PLUG_ABI_SYM;
	plug_shdr *sh = NULL, *symsec, *strsec, *dsec;
	plug_sym syms[PLUG_ELF_SYM_CHUNK];
	char *strtab = NULL;
	uint64_t nsyms, i, off;
	plug_ehdr eh;
	unsigned int k, n;
	int rc;

	if (!plug_pread(fd, &eh, sizeof(eh), 0, fsize) ||
			memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
		snprintf(why, whylen, "not an ELF file");
		return -ELIBBAD;
	}
	if (eh.e_ident[EI_CLASS] != PLUG_ELFCLASS || eh.e_ident[EI_DATA] != PLUG_ELFDATA ||
			eh.e_ident[EI_VERSION] != EV_CURRENT) {
		snprintf(why, whylen, "ELF class/byte order of another machine");
		return -ELIBBAD;
	}
	if (eh.e_type != ET_DYN) {
		snprintf(why, whylen, "ELF type %u is not a shared object", eh.e_type);
		return -ELIBBAD;
	}
	if (PLUG_EM != EM_NONE && eh.e_machine != PLUG_EM) {
		snprintf(why, whylen, "built for ELF machine %u, this is machine %u", eh.e_machine,
				PLUG_EM);
		return -ELIBBAD;
	}
	if (eh.e_shoff == 0 || eh.e_shnum == 0)
		return ELF_NO_SECTIONS;
	if (eh.e_shentsize != sizeof(plug_shdr) || eh.e_shnum > PLUG_ELF_MAX_SECTIONS) {
		snprintf(why, whylen, "malformed ELF section table");
		return -ELIBBAD;
	}
	sh = malloc((size_t)eh.e_shnum * sizeof(*sh));
	if (sh == NULL) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	if (!plug_pread(fd, sh, (size_t)eh.e_shnum * sizeof(*sh), eh.e_shoff, fsize)) {
		snprintf(why, whylen, "truncated ELF section table");
		rc = -ELIBBAD;
		goto out;
	}
	symsec = NULL;
	for (k = 0; k < eh.e_shnum; k++) {
		if (sh[k].sh_type == SHT_DYNSYM) {
			symsec = &sh[k];
			break;
		}
	}
	rc = -ENOEXEC;
	if (symsec == NULL) {
		snprintf(why, whylen, "no dynamic symbol table");
		goto out;
	}
	if (symsec->sh_entsize != sizeof(plug_sym) || symsec->sh_link == 0 ||
			symsec->sh_link >= eh.e_shnum ||
			sh[symsec->sh_link].sh_type != SHT_STRTAB) {
		snprintf(why, whylen, "malformed dynamic symbol table");
		rc = -ELIBBAD;
		goto out;
	}
	strsec = &sh[symsec->sh_link];
	if (strsec->sh_size == 0 || strsec->sh_size > PLUG_ELF_MAX_STRTAB) {
		snprintf(why, whylen, "malformed dynamic string table");
		rc = -ELIBBAD;
		goto out;
	}
	strtab = malloc(strsec->sh_size);
	if (strtab == NULL) {
		snprintf(why, whylen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	if (!plug_pread(fd, strtab, strsec->sh_size, strsec->sh_offset, fsize)) {
		snprintf(why, whylen, "truncated dynamic string table");
		rc = -ELIBBAD;
		goto out;
	}
	nsyms = symsec->sh_size / sizeof(plug_sym);
	snprintf(why, whylen, "no %s symbol: not a dpdk-pcc plug-in (PCC_PLUGIN_DECLARE missing)",
			sym_name);
	for (i = 0; i < nsyms; i += n) {
		n = (unsigned int)RTE_MIN((uint64_t)PLUG_ELF_SYM_CHUNK, nsyms - i);
		if (!plug_pread(fd, syms, n * sizeof(plug_sym),
				    symsec->sh_offset + i * sizeof(plug_sym), fsize)) {
			snprintf(why, whylen, "truncated dynamic symbol table");
			rc = -ELIBBAD;
			goto out;
		}
		for (k = 0; k < n; k++) {
			const plug_sym *s = &syms[k];

			if (s->st_name >= strsec->sh_size ||
					strsec->sh_size - s->st_name < sizeof(sym_name) ||
					memcmp(strtab + s->st_name, sym_name, sizeof(sym_name)) !=
							0)
				continue;
			if (s->st_shndx == SHN_UNDEF || s->st_shndx >= eh.e_shnum ||
					PLUG_ST_TYPE(s->st_info) != STT_OBJECT ||
					s->st_size < sizeof(uint32_t)) {
				/* >= 4, not == 4: AddressSanitizer pads globals
				 * and their symbol sizes (to 32 bytes) */
				snprintf(why, whylen, "%s is not a defined 4-byte object",
						sym_name);
				goto out;
			}
			dsec = &sh[s->st_shndx];
			if (dsec->sh_type != SHT_PROGBITS || s->st_value < dsec->sh_addr ||
					s->st_value - dsec->sh_addr > dsec->sh_size ||
					dsec->sh_size - (s->st_value - dsec->sh_addr) <
							sizeof(uint32_t)) {
				snprintf(why, whylen, "%s is not an initialised constant",
						sym_name);
				goto out;
			}
			off = dsec->sh_offset + (s->st_value - dsec->sh_addr);
			if (!plug_pread(fd, abi, sizeof(*abi), off, fsize)) {
				snprintf(why, whylen, "%s lies outside the file", sym_name);
				rc = -ELIBBAD;
				goto out;
			}
			rc = ELF_FOUND;
			goto out;
		}
	}
out:
	free(strtab);
	free(sh);
	return rc;
}

/* ---- Loading ----------------------------------------------------------------- */

/* Name from the file: basename without "lib" and ".so...", as [a-z0-9_]. */
static void
plug_name_from_path(const char *path, char *name, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t i, n = 0;

	b = b != NULL ? b + 1 : path;
	if (strncmp(b, "lib", 3) == 0 && b[3] != '\0' && b[3] != '.')
		b += 3;
	for (i = 0; b[i] != '\0' && n + 1 < len; i++) {
		char c = b[i];

		if (strncmp(&b[i], ".so", 3) == 0 && (b[i + 3] == '\0' || b[i + 3] == '.'))
			break;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		name[n++] = c;
	}
	name[n] = '\0';
	if (n == 0)
		snprintf(name, len, "plugin");
}

/* st_size of the symbol at sym, 0 when unknown. */
static size_t
plug_sym_size(const void *sym)
{
	const ElfW(Sym) *se = NULL;
	Dl_info info;

	if (dladdr1(sym, &info, (void **)&se, RTLD_DL_SYMENT) == 0 || se == NULL)
		return 0;
	return (size_t)se->st_size;
}

/* Is sym defined by the object of handle (not by one of its dependencies)? */
static bool
plug_sym_own(void *handle, const void *sym)
{
	Dl_info a, b;
	void *any;

	any = dlsym(handle, PLUG_ABI_SYM);
	if (sym == NULL || any == NULL)
		return false;
	if (dladdr(sym, &a) == 0 || dladdr(any, &b) == 0)
		return false;
	return a.dli_fbase == b.dli_fbase;
}

/* Close the object; keep the descriptor when the object stays mapped. */
static void
plug_close(struct pcc_plugin *pl)
{
	void *again;

	if (pl->handle != NULL) {
		dlclose(pl->handle);
		pl->handle = NULL;
		again = dlopen(pl->dl_path, RTLD_NOW | RTLD_NOLOAD);
		if (again != NULL) {
			dlclose(again);
			PLUG_LOG(NOTICE, "%s stays mapped after dlclose (descriptor %d kept)",
					pl->path, pl->fd);
			pl->fd = -1;
		}
	}
	if (pl->fd >= 0)
		close(pl->fd);
	pl->fd = -1;
}

/* Unregister everything of pl, in reverse order. */
static void
plug_rollback(struct pcc_plugin *pl)
{
	unsigned int i;
	int rc;

	for (i = pl->n_algos; i-- > 0;) {
		rc = pcc_dev_algo_unregister(pl->algos[i].name);
		if (rc < 0 && rc != -ENOENT)
			PLUG_LOG(ERR, "%s: cannot unregister %s: %s", pl->name, pl->algos[i].name,
					strerror(-rc));
	}
	pl->n_algos = 0;
	if (pl->np != NULL)
		pcc_np_handler_unregister(pl->np);
	pl->np = NULL;
	pl->np_mailbox = NULL;
}

static bool
plug_in_snapshot(const struct pcc_dev_algo_ops *const *v, unsigned int n,
		const struct pcc_dev_algo_ops *ops)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (v[i] == ops)
			return true;
	return false;
}

/* Take as the plug-in's every algorithm registered since the snapshot. */
static int
plug_adopt(struct pcc_plugin *pl, const struct pcc_dev_algo_ops *const *before,
		unsigned int n_before)
{
	const struct pcc_dev_algo_ops *now[PCC_DEV_MAX_REGISTERED];
	unsigned int n, i, j;
	struct plug_algo *a;
	bool known;

	n = RTE_MIN(pcc_dev_algo_list(now, PCC_DEV_MAX_REGISTERED),
			(unsigned int)PCC_DEV_MAX_REGISTERED);
	for (i = 0; i < n; i++) {
		if (plug_in_snapshot(before, n_before, now[i]))
			continue;
		known = false;
		for (j = 0; j < pl->n_algos; j++)
			known |= pl->algos[j].ops == now[i];
		if (known)
			continue;
		if (pl->n_algos == PCC_DEV_PLUGIN_MAX_ALGOS) {
			pcc_dev_algo_unregister(now[i]->name);
			return plug_err(pl, -ENOSPC, "more than %u algorithms",
					PCC_DEV_PLUGIN_MAX_ALGOS);
		}
		a = &pl->algos[pl->n_algos++];
		memset(a, 0, sizeof(*a));
		a->ops = now[i];
		a->adopted = true;
		a->wrapper = pcc_dev_simple_ops(now[i]->name) == now[i];
		snprintf(a->name, sizeof(a->name), "%s", now[i]->name);
		PLUG_LOG(DEBUG, "%s registered %s by itself", pl->name, a->name);
	}
	return 0;
}

static struct pcc_plugin *
plug_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < n_plugins; i++)
		if (strcmp(plugins[i]->name, name) == 0 || strcmp(plugins[i]->path, name) == 0)
			return plugins[i];
	return NULL;
}

/*
 * The directory a plug-in is loaded from must be as trusted as the file
 * (doc/host.md, "Files and the local threat model"): owned by root or
 * the effective user, writable by no one else.  A file in /tmp, or in a
 * directory another user may write into, could be replaced by theirs
 * between two loads.
 */
static int
plug_check_dir(const char *path, char *errbuf, size_t errlen)
{
	char real[PATH_MAX], dir[PATH_MAX];
	const char *base;
	struct stat st;

	if (realpath(path, real) == NULL)
		return plug_fail(errbuf, errlen, -errno, "%s: %s", path, strerror(errno));
	if (pcc_file_split(real, dir, sizeof(dir), &base) < 0 || stat(dir, &st) != 0)
		return plug_fail(errbuf, errlen, -EINVAL, "%s: no directory", path);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return plug_fail(errbuf, errlen, -EACCES,
				"%s: refused: its directory %s is owned by uid %u, neither root "
				"nor the effective user %u",
				path, dir, (unsigned int)st.st_uid, (unsigned int)geteuid());
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return plug_fail(errbuf, errlen, -EPERM,
				"%s: refused: its directory %s is writable by %s (mode %04o)", path,
				dir, (st.st_mode & S_IWOTH) != 0 ? "others" : "group",
				(unsigned int)(st.st_mode & 07777));
	return 0;
}

/* Open and check the file; fills pl->fd, dev, ino, abi. */
static int
plug_check_file(struct pcc_plugin *pl, const char *path, bool *abi_checked, char *errbuf,
		size_t errlen)
{
	char why[256];
	struct stat st;
	unsigned int i;
	int rc;

	pl->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (pl->fd < 0) {
		rc = -errno;
		if (rc == -ENOENT)
			return plug_fail(errbuf, errlen, rc, "%s: no such file", path);
		return plug_fail(errbuf, errlen, rc, "%s: cannot open: %s", path, strerror(-rc));
	}
	if (fstat(pl->fd, &st) < 0) {
		rc = -errno;
		return plug_fail(errbuf, errlen, rc, "%s: cannot stat: %s", path, strerror(-rc));
	}
	if (!S_ISREG(st.st_mode))
		return plug_fail(errbuf, errlen, -EISDIR, "%s: not a regular file", path);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return plug_fail(errbuf, errlen, -EPERM,
				"%s: refused: writable by %s (mode %04o); chmod go-w it", path,
				(st.st_mode & S_IWOTH) != 0 ? "others" : "group",
				(unsigned int)(st.st_mode & 07777));
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return plug_fail(errbuf, errlen, -EACCES,
				"%s: refused: owned by uid %u, neither root nor the effective user "
				"%u",
				path, (unsigned int)st.st_uid, (unsigned int)geteuid());
	rc = plug_check_dir(path, errbuf, errlen);
	if (rc < 0)
		return rc;
	pl->dev = st.st_dev;
	pl->ino = st.st_ino;
	for (i = 0; i < n_plugins; i++)
		if (plugins[i]->dev == pl->dev && plugins[i]->ino == pl->ino)
			return plug_fail(errbuf, errlen, -EALREADY,
					"%s: already loaded as plug-in %s", path, plugins[i]->name);
	why[0] = '\0';
	rc = plug_elf_abi(pl->fd, (uint64_t)st.st_size, &pl->abi, why, sizeof(why));
	if (rc == ELF_NO_SECTIONS) {
		PLUG_LOG(NOTICE, "%s: no ELF section table, ABI checked after loading", path);
		*abi_checked = false;
		return 0;
	}
	if (rc == -ELIBBAD)
		return plug_fail(errbuf, errlen, rc, "%s: not a shared object for this machine: %s",
				path, why);
	if (rc < 0)
		return plug_fail(errbuf, errlen, rc, "%s: %s", path, why);
	if (pl->abi != PCC_PLUGIN_ABI_VERSION)
		return plug_fail(errbuf, errlen, -ENOTSUP,
				"%s: built for plug-in ABI %u (layout 0x%04x), this engine has ABI "
				"%u (layout 0x%04x): rebuild it against this dpdk-pcc",
				path, pl->abi >> 16, pl->abi & 0xffffu, PCC_PLUGIN_ABI_MAJOR,
				(unsigned int)PCC_PLUGIN_ABI_LAYOUT);
	*abi_checked = true;
	return 0;
}

/* dlopen the checked file; fills pl->handle and pl->dl_path. */
static int
plug_dlopen(struct pcc_plugin *pl, const char *path, char *errbuf, size_t errlen)
{
	struct stat st;
	const char *err;

	snprintf(pl->dl_path, sizeof(pl->dl_path), "/proc/self/fd/%d", pl->fd);
	if (stat(pl->dl_path, &st) != 0 || st.st_dev != pl->dev || st.st_ino != pl->ino)
		snprintf(pl->dl_path, sizeof(pl->dl_path), "%s", "");
	dlerror();
	pl->handle = dlopen(pl->dl_path[0] != '\0' ? pl->dl_path : path, RTLD_NOW | RTLD_LOCAL);
	if (pl->handle == NULL) {
		err = dlerror();
		return plug_fail(errbuf, errlen, -ELIBBAD, "%s: dlopen failed: %s", path,
				err != NULL ? err : "unknown error");
	}
	if (pl->dl_path[0] == '\0') {
		/* no /proc: make sure the file loaded is the file checked */
		if (stat(path, &st) != 0 || st.st_dev != pl->dev || st.st_ino != pl->ino)
			return plug_fail(errbuf, errlen, -ELIBBAD,
					"%s: the file changed while it was loaded", path);
		snprintf(pl->dl_path, sizeof(pl->dl_path), "%.63s", path);
	}
	return 0;
}

static int
plug_check_loaded(struct pcc_plugin *pl, const char *path, bool abi_checked, char *errbuf,
		size_t errlen)
{
	const uint32_t *abi;
	const char *name;
	unsigned int i;

	abi = dlsym(pl->handle, PLUG_ABI_SYM);
	if (abi == NULL || !plug_sym_own(pl->handle, abi))
		return plug_fail(errbuf, errlen, -ENOEXEC,
				"%s: no %s symbol: not a dpdk-pcc plug-in (PCC_PLUGIN_DECLARE "
				"missing)",
				path, PLUG_ABI_SYM);
	if (*abi != PCC_PLUGIN_ABI_VERSION || (abi_checked && *abi != pl->abi))
		return plug_fail(errbuf, errlen, -ENOTSUP,
				"%s: built for plug-in ABI %u (layout 0x%04x), this engine has ABI "
				"%u (layout 0x%04x): rebuild it against this dpdk-pcc",
				path, *abi >> 16, *abi & 0xffffu, PCC_PLUGIN_ABI_MAJOR,
				(unsigned int)PCC_PLUGIN_ABI_LAYOUT);
	pl->abi = *abi;
	name = dlsym(pl->handle, PLUG_NAME_SYM);
	if (name != NULL && plug_sym_own(pl->handle, name)) {
		size_t max = RTE_MIN(plug_sym_size(name), (size_t)PCC_DEV_NAME_MAX);

		if (max == 0 || strnlen(name, max) == max || !plug_name_ok(name))
			return plug_fail(errbuf, errlen, -EINVAL,
					"%s: plug-in name must be 1..%u characters of [a-z0-9_]",
					path, PCC_DEV_NAME_MAX - 1);
		snprintf(pl->name, sizeof(pl->name), "%s", name);
	} else {
		plug_name_from_path(path, pl->name, sizeof(pl->name));
	}
	for (i = 0; i < n_plugins; i++)
		if (strcmp(plugins[i]->name, pl->name) == 0)
			return plug_fail(errbuf, errlen, -EALREADY,
					"%s: a plug-in named %s is already loaded (from %s)", path,
					pl->name, plugins[i]->path);
	return 0;
}

static int
plug_run_init(struct pcc_plugin *pl, const struct pcc_dev_algo_ops *const *before,
		unsigned int n_before, char *errbuf, size_t errlen)
{
	pcc_plugin_init_t init;
	void *sym;
	int rc = 0;

	sym = dlsym(pl->handle, PLUG_INIT_SYM);
	if (sym != NULL && !plug_sym_own(pl->handle, sym))
		sym = NULL;
	/* algorithms registered by constructors during dlopen() */
	plug_adopt(pl, before, n_before);
	if (sym != NULL) {
		memcpy(&init, &sym, sizeof(init));
		pl->in_init = true;
		rc = init(pl);
		pl->in_init = false;
		plug_adopt(pl, before, n_before);
		if (rc > 0)
			rc = -EIO;
		if (rc < 0)
			return plug_fail(errbuf, errlen, rc, "%s: pcc_plugin_init failed: %s%s%s",
					pl->path, strerror(-rc), pl->errmsg[0] != '\0' ? ": " : "",
					pl->errmsg);
	}
	if (pl->err < 0)
		return plug_fail(errbuf, errlen, pl->err, "%s: %s", pl->path, pl->errmsg);
	if (pl->n_algos == 0 && pl->np == NULL)
		return plug_fail(errbuf, errlen, -ENOSYS,
				"%s: registers no algorithm and no NP handler%s", pl->path,
				sym == NULL ? " (no pcc_plugin_init entry point)" : "");
	return 0;
}

int
pcc_dev_plugin_load(const char *path, char *errbuf, size_t errlen)
{
	const struct pcc_dev_algo_ops *before[PCC_DEV_MAX_REGISTERED];
	struct pcc_plugin *pl;
	unsigned int n_before = 0;
	bool abi_checked = false;
	int rc;

	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if (path == NULL || path[0] == '\0')
		return plug_fail(errbuf, errlen, -EINVAL, "plug-in path is empty");
	if (strlen(path) >= PCC_DEV_PLUGIN_PATH_MAX)
		return plug_fail(errbuf, errlen, -EINVAL, "plug-in path longer than %u bytes",
				PCC_DEV_PLUGIN_PATH_MAX - 1);
	pl = calloc(1, sizeof(*pl));
	if (pl == NULL)
		return plug_fail(errbuf, errlen, -ENOMEM, "%s: out of memory", path);
	pl->magic = PLUG_MAGIC;
	pl->fd = -1;
	if (pipe2(pl->probe, O_CLOEXEC | O_NONBLOCK) != 0) {
		PLUG_LOG(WARNING, "no pipe: the plug-in's pointers are not probed");
		pl->probe[0] = -1;
		pl->probe[1] = -1;
	}
	snprintf(pl->path, sizeof(pl->path), "%s", path);

	pthread_mutex_lock(&plug_mutex);
	if (plug_loading) {
		rc = plug_fail(errbuf, errlen, -EDEADLK,
				"%s: a plug-in cannot load plug-ins from its entry point", path);
		goto out_unlock;
	}
	if (n_plugins == PCC_DEV_PLUGIN_MAX) {
		rc = plug_fail(errbuf, errlen, -ENOSPC, "%s: %u plug-ins loaded already", path,
				PCC_DEV_PLUGIN_MAX);
		goto out_unlock;
	}
	plug_loading = true;
	rc = plug_check_file(pl, path, &abi_checked, errbuf, errlen);
	if (rc < 0)
		goto fail;
	n_before = RTE_MIN(pcc_dev_algo_list(before, PCC_DEV_MAX_REGISTERED),
			(unsigned int)PCC_DEV_MAX_REGISTERED);
	rc = plug_dlopen(pl, path, errbuf, errlen);
	if (rc < 0)
		goto fail;
	rc = plug_check_loaded(pl, path, abi_checked, errbuf, errlen);
	if (rc < 0)
		goto fail;
	rc = plug_run_init(pl, before, n_before, errbuf, errlen);
	if (rc < 0)
		goto fail;
	plug_probe_close(pl);
	plugins[n_plugins++] = pl;
	plug_loading = false;
	pthread_mutex_unlock(&plug_mutex);
	PLUG_LOG(INFO, "loaded plug-in %s from %s: %u algorithm%s%s", pl->name, path, pl->n_algos,
			pl->n_algos == 1 ? "" : "s", pl->np != NULL ? ", NP handler" : "");
	return 0;

fail:
	/* constructors may have registered algorithms before a check failed */
	if (pl->handle != NULL)
		plug_adopt(pl, before, n_before);
	plug_rollback(pl);
	plug_close(pl);
	plug_loading = false;
out_unlock:
	pthread_mutex_unlock(&plug_mutex);
	plug_probe_close(pl);
	pl->magic = 0;
	free(pl);
	return rc;
}

/* ---- Trial load in a child process ------------------------------------------------ */

#define PLUG_CHECK_TIMEOUT_MS 10000

struct plug_check_msg {
	int rc;
	char err[PLUG_ERR_MAX];
};

int
pcc_dev_plugin_check(const char *path, char *errbuf, size_t errlen)
{
	struct plug_check_msg msg;
	struct pollfd pfd;
	size_t got = 0;
	int fds[2], status = 0, rc;
	ssize_t n;
	pid_t pid;

	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if (path == NULL || path[0] == '\0')
		return plug_fail(errbuf, errlen, -EINVAL, "plug-in path is empty");
	if (pipe2(fds, O_CLOEXEC) != 0) {
		rc = -errno;
		return plug_fail(errbuf, errlen, rc, "%s: trial load: pipe: %s", path,
				strerror(-rc));
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return plug_fail(errbuf, errlen, rc, "%s: trial load: fork: %s", path,
				strerror(-rc));
	}
	if (pid == 0) {
		/* child: load, report, exit without running the parent's atexit handlers */
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS,
			SIGTRAP };
		unsigned int i;

		/* the host's crash handlers must not run the host's code here */
		for (i = 0; i < RTE_DIM(fatal); i++)
			signal(fatal[i], SIG_DFL);
		close(fds[0]);
		rte_log_set_level(dev_plugin_logtype, RTE_LOG_EMERG);
		memset(&msg, 0, sizeof(msg));
		msg.rc = pcc_dev_plugin_load(path, msg.err, sizeof(msg.err));
		if (msg.rc == 0) {
			/* the whole cycle: entry point, exit point, destructors */
			struct pcc_dev_plugin_info *info = calloc(1, sizeof(*info));

			if (info != NULL && pcc_dev_plugin_list(info, 1) >= 1)
				msg.rc = pcc_dev_plugin_unload(
						info->name, msg.err, sizeof(msg.err));
			free(info);
		}
		if (write(fds[1], &msg, sizeof(msg)) != (ssize_t)sizeof(msg))
			_exit(2);
		_exit(0);
	}
	close(fds[1]);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	while (got < sizeof(msg)) {
		if (poll(&pfd, 1, PLUG_CHECK_TIMEOUT_MS) <= 0)
			break;
		n = read(fds[0], (char *)&msg + got, sizeof(msg) - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	if (got < sizeof(msg))
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status) && got < sizeof(msg) && WTERMSIG(status) != SIGKILL)
		return plug_fail(errbuf, errlen, -EFAULT,
				"%s: the plug-in crashed a trial load (signal %d, %s): do not load "
				"it",
				path, WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (got < sizeof(msg))
		return plug_fail(errbuf, errlen, -ETIMEDOUT,
				"%s: trial load did not finish within %u ms", path,
				PLUG_CHECK_TIMEOUT_MS);
	msg.err[sizeof(msg.err) - 1] = '\0';
	if (msg.rc < 0)
		return plug_fail(errbuf, errlen, msg.rc, "%s", msg.err);
	return 0;
}

/* ---- Unloading, listing, applying ------------------------------------------------- */

/* Register again what plug_unregister_all removed (after an -EBUSY). */
static void
plug_reregister(struct pcc_plugin *pl)
{
	struct plug_algo *a;
	unsigned int i;
	int rc;

	for (i = 0; i < pl->n_algos; i++) {
		a = &pl->algos[i];
		if (!a->unreg)
			continue;
		if (a->sa != NULL) {
			rc = pcc_dev_simple_register(a->sa);
			if (rc == 0)
				a->ops = pcc_dev_simple_ops(a->sa->name);
		} else {
			rc = pcc_dev_algo_register(a->ops);
		}
		if (rc < 0)
			PLUG_LOG(ERR, "%s: cannot register %s again: %s", pl->name, a->name,
					strerror(-rc));
		else
			a->unreg = false;
	}
}

static int
plug_unregister_all(struct pcc_plugin *pl, char *errbuf, size_t errlen)
{
	unsigned int pass, i;
	struct plug_algo *a;
	int rc;

	/* wrappers last: they cannot be registered again after an -EBUSY */
	for (pass = 0; pass < 2; pass++) {
		for (i = pl->n_algos; i-- > 0;) {
			a = &pl->algos[i];
			if (a->wrapper != (pass == 1) || a->unreg)
				continue;
			rc = pcc_dev_algo_unregister(a->name);
			if (rc == -ENOENT) {
				a->unreg = true;
				continue;
			}
			if (rc < 0) {
				plug_reregister(pl);
				return plug_fail(errbuf, errlen, rc,
						"plug-in %s: algorithm %s is still loaded on a "
						"port (pcc_dev_algo_unload it first): %s",
						pl->name, a->name, strerror(-rc));
			}
			a->unreg = true;
		}
	}
	return 0;
}

int
pcc_dev_plugin_unload(const char *name, char *errbuf, size_t errlen)
{
	struct pcc_plugin *pl;
	pcc_plugin_fini_t fini;
	unsigned int i;
	void *sym;
	int rc;

	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if (name == NULL)
		return plug_fail(errbuf, errlen, -EINVAL, "no plug-in name");
	pthread_mutex_lock(&plug_mutex);
	if (plug_loading) {
		pthread_mutex_unlock(&plug_mutex);
		return plug_fail(errbuf, errlen, -EDEADLK,
				"%s: a plug-in cannot unload plug-ins from its entry point", name);
	}
	pl = plug_find(name);
	if (pl == NULL) {
		pthread_mutex_unlock(&plug_mutex);
		return plug_fail(errbuf, errlen, -ENOENT, "no plug-in %s is loaded", name);
	}
	rc = plug_unregister_all(pl, errbuf, errlen);
	if (rc < 0) {
		pthread_mutex_unlock(&plug_mutex);
		return rc;
	}
	pl->n_algos = 0;
	if (pl->np != NULL)
		pcc_np_handler_unregister(pl->np);
	pl->np = NULL;
	pl->np_mailbox = NULL;
	sym = dlsym(pl->handle, PLUG_FINI_SYM);
	if (sym != NULL && plug_sym_own(pl->handle, sym)) {
		memcpy(&fini, &sym, sizeof(fini));
		fini();
	}
	for (i = 0; i < n_plugins; i++) {
		if (plugins[i] == pl) {
			memmove(&plugins[i], &plugins[i + 1],
					(n_plugins - i - 1) * sizeof(plugins[0]));
			n_plugins--;
			break;
		}
	}
	plug_close(pl);
	pthread_mutex_unlock(&plug_mutex);
	PLUG_LOG(INFO, "unloaded plug-in %s", pl->name);
	pl->magic = 0;
	free(pl);
	return 0;
}

unsigned int
pcc_dev_plugin_list(struct pcc_dev_plugin_info *info, unsigned int n)
{
	const struct pcc_plugin *pl;
	unsigned int i, j, total;

	pthread_mutex_lock(&plug_mutex);
	total = n_plugins;
	for (i = 0; info != NULL && i < n && i < total; i++) {
		pl = plugins[i];
		memset(&info[i], 0, sizeof(info[i]));
		snprintf(info[i].name, sizeof(info[i].name), "%s", pl->name);
		snprintf(info[i].path, sizeof(info[i].path), "%s", pl->path);
		info[i].abi_version = pl->abi;
		info[i].n_algos = pl->n_algos;
		for (j = 0; j < pl->n_algos; j++)
			snprintf(info[i].algos[j], sizeof(info[i].algos[j]), "%s",
					pl->algos[j].name);
		info[i].n_layout = pl->n_layout;
		info[i].np_handler = pl->np != NULL;
		info[i].np_mailbox = pl->np_mailbox != NULL;
	}
	pthread_mutex_unlock(&plug_mutex);
	return total;
}

/* Is ops bound to any user slot of port? */
static bool
plug_bound_on_port(uint8_t port, const struct pcc_dev_algo_ops *ops)
{
	uint8_t s;

	for (s = 0; s < PCC_DEV_MAX_SLOTS; s++)
		if (pcc_dev_slot_algo(port, s, NULL) == ops)
			return true;
	return false;
}

static int
plug_apply_one(struct pcc_plugin *pl, const struct plug_layout *e, uint8_t port, char *errbuf,
		size_t errlen)
{
	const struct plug_algo *a = plug_find_algo(pl, e->algo);
	const struct pcc_dev_algo_ops *cur;
	int rc;

	if (a == NULL)
		return plug_fail(errbuf, errlen, -ENOENT, "plug-in %s: no algorithm %s", pl->name,
				e->algo);
	if (e->idx == PCC_DEV_INTERNAL_SLOT) {
		rc = pcc_dev_algo_load(port, e->idx, a->name);
		if (rc < 0)
			return plug_fail(errbuf, errlen, rc,
					"plug-in %s: loading %s as port %u's default algorithm: %s",
					pl->name, a->name, port, strerror(-rc));
		return 0;
	}
	cur = pcc_dev_slot_algo(port, e->slot, NULL);
	if (cur != a->ops) {
		if (cur != NULL) {
			pcc_dev_slot_enable(port, e->slot, false);
			rc = pcc_dev_slot_unbind(port, e->slot);
			if (rc < 0)
				return plug_fail(errbuf, errlen, rc,
						"plug-in %s: cannot unbind port %u slot %u from "
						"%s: %s",
						pl->name, port, e->slot, cur->name, strerror(-rc));
		}
		rc = pcc_dev_algo_load(port, e->idx, a->name);
		if (rc == -EBUSY && plug_bound_on_port(port, a->ops))
			rc = 0; /* another slot uses it at that index already */
		if (rc < 0)
			return plug_fail(errbuf, errlen, rc,
					"plug-in %s: loading %s at port %u index %u: %s", pl->name,
					a->name, port, e->idx, strerror(-rc));
		rc = pcc_dev_slot_bind(port, e->slot, e->idx);
		if (rc < 0)
			return plug_fail(errbuf, errlen, rc,
					"plug-in %s: binding port %u slot %u to index %u: %s",
					pl->name, port, e->slot, e->idx, strerror(-rc));
	}
	rc = pcc_dev_slot_enable(port, e->slot, e->enable != 0);
	if (rc < 0)
		return plug_fail(errbuf, errlen, rc, "plug-in %s: %s port %u slot %u: %s", pl->name,
				e->enable ? "enabling" : "disabling", port, e->slot, strerror(-rc));
	return 0;
}

int
pcc_dev_plugin_apply(const char *name, char *errbuf, size_t errlen)
{
	struct pcc_plugin *pl;
	uint32_t ports;
	unsigned int i;
	uint8_t p;
	int rc = 0;

	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if (name == NULL)
		return plug_fail(errbuf, errlen, -EINVAL, "no plug-in name");
	pthread_mutex_lock(&plug_mutex);
	pl = plug_find(name);
	if (pl == NULL) {
		rc = plug_fail(errbuf, errlen, -ENOENT, "no plug-in %s is loaded", name);
		goto out;
	}
	ports = pcc_dev_logical_ports();
	if (ports == 0) {
		rc = plug_fail(errbuf, errlen, -ENODEV,
				"plug-in %s: no device state (pcc_dev_init first)", name);
		goto out;
	}
	for (i = 0; i < pl->n_layout && rc == 0; i++) {
		const struct plug_layout *e = &pl->layout[i];

		for (p = 0; p < PCC_DEV_MAX_PORTS && rc == 0; p++) {
			if ((ports & (1u << p)) == 0)
				continue;
			if (e->port != PCC_PLUGIN_ALL_PORTS && e->port != p)
				continue;
			rc = plug_apply_one(pl, e, p, errbuf, errlen);
		}
	}
	if (rc == 0 && pl->apply != NULL) {
		rc = pl->apply(pl->apply_arg);
		if (rc > 0)
			rc = -EIO;
		if (rc < 0)
			plug_fail(errbuf, errlen, rc, "plug-in %s: apply callback failed: %s", name,
					strerror(-rc));
	}
out:
	pthread_mutex_unlock(&plug_mutex);
	return rc;
}
