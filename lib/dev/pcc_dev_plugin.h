/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_DEV_PLUGIN_H
#define PCC_DEV_PLUGIN_H

/**
 * @file
 * Plug-ins: algorithm packages built out of tree as shared objects and
 * loaded by the engine at start or at run time.  Guide:
 * doc/algorithms.md, section "Plug-ins".
 *
 * A plug-in (the .so) contains:
 *
 *   PCC_PLUGIN_DECLARE(my_pkg);          ABI version + plug-in name
 *   PCC_PLUGIN_ALGOS(&my_ops);           entry point registering my_ops
 *
 * or, instead of PCC_PLUGIN_ALGOS, its own entry point
 *
 *   int pcc_plugin_init(struct pcc_plugin *pl)
 *   {
 *           return pcc_plugin_add_algo(pl, &my_ops);
 *   }
 *
 * which may also add simple algorithms (pcc_plugin_add_simple), an NP
 * handler (pcc_plugin_set_np_handler) and its mailbox handler
 * (pcc_plugin_set_np_mailbox), and a default slot layout
 * (pcc_plugin_add_slot).  An optional `void pcc_plugin_fini(void)` runs
 * before the object is closed.
 *
 * Why an explicit entry point rather than constructors
 * (PCC_DEV_ALGO_REGISTER): constructors run inside dlopen(), before the
 * loader can look at anything, and their errors are lost.  The entry point
 * runs after every check passed, every registration it makes returns (and
 * records) its error, and the loader can undo all of it.  The ABI version
 * is even checked before dlopen(), by reading the symbol's value from the
 * file, so no code of a plug-in built for another ABI ever runs.
 * Algorithms a plug-in registers by other means (a PCC_DEV_ALGO_REGISTER
 * constructor, pcc_dev_algo_register() called from its entry point) are
 * still found (the registry is compared before and after) and owned by the
 * plug-in: removed on failure and on unload.  Their errors (a duplicate
 * name, ...) are only logged by lib/dev, so prefer the entry point.
 *
 * Loading (pcc_dev_plugin_load) checks, in order, each failure with a
 * message in errbuf, a log line (rte_log type pcc.plugin) and its own
 * negative errno:
 *
 *   -EINVAL    NULL or empty path, path too long, invalid plug-in name,
 *              invalid algorithm description (lib/dev logs the detail)
 *   -ENOENT    the file does not exist (other open() errors as they are)
 *   -EISDIR    not a regular file (directory, device, FIFO, socket)
 *   -EPERM     writable by group or others
 *   -EACCES    owned by neither root nor the effective user
 *   -EALREADY  this file, or a plug-in of the same name, is loaded
 *   -ELIBBAD   not an ELF shared object for this machine, or dlopen()
 *              failed (dlerror() text in the message)
 *   -ENOEXEC   no pcc_plugin_abi_version symbol (not a dpdk-pcc plug-in)
 *   -ENOTSUP   pcc_plugin_abi_version is not PCC_PLUGIN_ABI_VERSION
 *   -ENOSYS    no algorithm and no NP handler registered, or an
 *              algorithm without on_event
 *   -EFAULT    an algorithm description points at unreadable memory
 *   -EEXIST    an algorithm name is already registered
 *   -ENOSPC    too many plug-ins, algorithms or layout entries
 *   other      the value pcc_plugin_init() returned
 *
 * On any failure nothing of the plug-in stays registered and the object
 * is closed.  A plug-in whose object or code is broken can still crash
 * the process inside dlopen() or in its own code: pcc_dev_plugin_check()
 * runs the whole load in a child process first.  The loader takes its own
 * lock; registration goes through lib/dev's.  Another thread registering algorithms while a plug-in loads
 * would have them counted as the plug-in's: load plug-ins from the control
 * thread.
 *
 * The host process must export the pcc_dev symbols to the plug-in: link
 * the shared libpcc_dev (as the dpdk-pcc application does), or
 * -Wl,--export-dynamic for a static one.  A plug-in should not link
 * libpcc_dev itself (see the template's meson.build), so that it always
 * binds to the host's copy.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcc_dev.h"
#include "pcc_dev_simple.h"
#include "pcc_np.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ABI --------------------------------------------------------------- */

/** Bumped on any incompatible change of the plug-in interface. */
#define PCC_PLUGIN_ABI_MAJOR 1u

/**
 * A 16-bit fold of the sizes of the structures a plug-in shares with the
 * engine, so that a plug-in built against headers whose layout differs is
 * refused even when the major number was not bumped.
 */
#define PCC_PLUGIN_ABI_LAYOUT                                                                  \
	((uint32_t)((sizeof(struct pcc_dev_algo_ops) + 3u * sizeof(struct pcc_dev_event) +     \
				    5u * sizeof(struct pcc_dev_results) +                      \
				    7u * sizeof(struct pcc_dev_attr) +                         \
				    11u * sizeof(struct pcc_dev_param_desc) +                  \
				    13u * sizeof(struct pcc_dev_counter_desc) +                \
				    17u * sizeof(struct pcc_dev_mem_decl) +                    \
				    19u * sizeof(struct pcc_dev_simple_algo) +                 \
				    23u * sizeof(struct pcc_dev_simple_in) +                   \
				    29u * sizeof(struct pcc_dev_named_param) +                 \
				    31u * sizeof(struct pcc_np_pkt) +                          \
				    37u * sizeof(struct pcc_np_resp) + 41u * PCC_DEV_CTX_MAX + \
				    43u * PCC_DEV_MAX_PARAMS + 47u * PCC_DEV_MAX_COUNTERS) &   \
			0xffffu))

/** Value of a plug-in's pcc_plugin_abi_version this engine accepts. */
#define PCC_PLUGIN_ABI_VERSION ((PCC_PLUGIN_ABI_MAJOR << 16) | PCC_PLUGIN_ABI_LAYOUT)

#ifdef __cplusplus
#define PCC_PLUGIN_EXTERN_C extern "C"
#else
#define PCC_PLUGIN_EXTERN_C
#endif

#define PCC_PLUGIN_EXPORT __attribute__((visibility("default"), used))

/**
 * Declare a plug-in, once, at file scope of one of its sources: exports
 * `const uint32_t pcc_plugin_abi_version` and `const char
 * pcc_plugin_name[]` (name: [a-z0-9_], shorter than PCC_DEV_NAME_MAX;
 * without it the loader names the plug-in after its file).
 */
#define PCC_PLUGIN_DECLARE(name)                                                      \
	PCC_PLUGIN_EXTERN_C PCC_PLUGIN_EXPORT const uint32_t pcc_plugin_abi_version = \
			PCC_PLUGIN_ABI_VERSION;                                       \
	PCC_PLUGIN_EXTERN_C PCC_PLUGIN_EXPORT const char pcc_plugin_name[] = #name

/** Only the ABI symbol (the plug-in is named after its file). */
#define PCC_PLUGIN_DECLARE_ABI()                                                      \
	PCC_PLUGIN_EXTERN_C PCC_PLUGIN_EXPORT const uint32_t pcc_plugin_abi_version = \
			PCC_PLUGIN_ABI_VERSION

/* ---- Plug-in side: the entry point and what it may call ----------------- */

/** Registration context handed to pcc_plugin_init(); valid during the call. */
struct pcc_plugin;

/** Entry point a plug-in exports (see PCC_PLUGIN_ALGOS). */
typedef int (*pcc_plugin_init_t)(struct pcc_plugin *pl);
/** Optional exit point `void pcc_plugin_fini(void)`. */
typedef void (*pcc_plugin_fini_t)(void);

/**
 * Define pcc_plugin_init() registering the given algorithms (pointers to
 * struct pcc_dev_algo_ops with static storage).
 */
#define PCC_PLUGIN_ALGOS(...)                                                                      \
	PCC_PLUGIN_EXTERN_C PCC_PLUGIN_EXPORT int pcc_plugin_init(struct pcc_plugin *pl)           \
	{                                                                                          \
		static const struct pcc_dev_algo_ops *const pcc_plugin_algos_[] = { __VA_ARGS__ }; \
		return pcc_plugin_add_algos(pl, pcc_plugin_algos_,                                 \
				(unsigned int)(sizeof(pcc_plugin_algos_) /                         \
						sizeof(pcc_plugin_algos_[0])));                    \
	}

/** Name the loader gave the plug-in (pcc_plugin_name, else from its file). */
const char *pcc_plugin_get_name(const struct pcc_plugin *pl);
/** Path the plug-in was loaded from. */
const char *pcc_plugin_get_path(const struct pcc_plugin *pl);

/**
 * Register an algorithm (ops must outlive the plug-in: static storage of
 * the .so).  0, or -ENOSYS (no on_event), -EEXIST, -EINVAL, -ENOSPC.  Any
 * error also fails the whole load, even if pcc_plugin_init() ignores it.
 */
int pcc_plugin_add_algo(struct pcc_plugin *pl, const struct pcc_dev_algo_ops *ops);
/** pcc_plugin_add_algo for each of n ops; stops at the first error. */
int pcc_plugin_add_algos(
		struct pcc_plugin *pl, const struct pcc_dev_algo_ops *const *ops, unsigned int n);
/** Register a simple algorithm (pcc_dev_simple.h); errors as above, -ENOMEM. */
int pcc_plugin_add_simple(struct pcc_plugin *pl, const struct pcc_dev_simple_algo *sa);
/**
 * Record the plug-in's NP handler (pcc_np.h): an NP context whose
 * application is this plug-in runs it on its port; it is also installed
 * as the process's handler when there is none yet.  0, -EINVAL,
 * -EALREADY (twice).
 */
int pcc_plugin_set_np_handler(struct pcc_plugin *pl, pcc_np_handler_t fn);

/**
 * Record the plug-in's NP mailbox handler: requests sent to the mailbox of
 * an NP context whose application is this plug-in run it on a worker
 * polling that port (DOCA: doca_pcc_dev_user_mailbox_handle() of an NP
 * application).  Returns the response bytes written (<= resp_cap) or a
 * negative errno.  0, -EINVAL, -EALREADY (twice).
 */
int pcc_plugin_set_np_mailbox(struct pcc_plugin *pl, pcc_dev_mailbox_fn fn);

/** Port value of pcc_plugin_add_slot meaning "every logical port". */
#define PCC_PLUGIN_ALL_PORTS 0xffu

/**
 * Record one entry of the plug-in's default layout, applied later by
 * pcc_dev_plugin_apply(): load algorithm `algo` (registered by this
 * plug-in) at index idx (0..7 or 0xF) of port, bind slot (0..7) to it, and
 * enable the slot if enable.  0, -EINVAL, -ENOENT (not this plug-in's
 * algorithm), -ENOSPC.
 */
int pcc_plugin_add_slot(struct pcc_plugin *pl, uint8_t port, uint8_t slot, uint8_t idx,
		const char *algo, bool enable);

/** Callback run by pcc_dev_plugin_apply() after the layout (0 or -errno). */
typedef int (*pcc_plugin_apply_t)(void *arg);
/** Set it (one per plug-in; NULL clears).  0 or -EINVAL. */
int pcc_plugin_set_apply(struct pcc_plugin *pl, pcc_plugin_apply_t fn, void *arg);

/**
 * Explain a failure: the loader puts this text in its errbuf (the first
 * call wins).  Use it before returning an error from pcc_plugin_init().
 */
void pcc_plugin_set_error(struct pcc_plugin *pl, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

/* ---- Host side ------------------------------------------------------------ */

#define PCC_DEV_PLUGIN_MAX 16         /**< plug-ins loaded at once */
#define PCC_DEV_PLUGIN_MAX_ALGOS 16   /**< algorithms per plug-in */
#define PCC_DEV_PLUGIN_MAX_LAYOUT 128 /**< layout entries per plug-in */
#define PCC_DEV_PLUGIN_PATH_MAX 1024

/**
 * Load the plug-in at path (checks and errors: see the top of this file).
 * errbuf (errlen bytes, may be NULL/0) receives a one-line explanation on
 * failure and is set to "" on success.  0 or a negative errno.  Does not
 * need pcc_dev_init().
 */
int pcc_dev_plugin_load(const char *path, char *errbuf, size_t errlen);

/**
 * Trial load: fork a child process that loads the plug-in (pcc_dev_plugin_load)
 * and unloads it again, and reports; nothing changes in the calling process.  Use it before
 * pcc_dev_plugin_load() for a plug-in not known to be sound: a plug-in that
 * crashes while loading (a broken object, constructor or entry point)
 * crashes only the child.  Returns what the load returned in the child, or
 * -EFAULT (the child died of a signal), -ETIMEDOUT (no answer in 10 s), or
 * the errno of pipe()/fork().  Forks the whole process: call it from the
 * control thread, before workers start or while they hold no lib/dev lock.
 */
int pcc_dev_plugin_check(const char *path, char *errbuf, size_t errlen);

/**
 * Unload a plug-in by name (or by the path it was loaded from): its
 * algorithms are unregistered, its NP handler removed, pcc_plugin_fini()
 * called and the object closed.  -ENOENT unknown, -EBUSY when one of its
 * algorithms is still loaded at an algorithm index (pcc_dev_algo_unload
 * it first; nothing is changed then).
 */
int pcc_dev_plugin_unload(const char *name, char *errbuf, size_t errlen);

/**
 * Apply a plug-in's default layout (pcc_plugin_add_slot entries; for a
 * DOCA plug-in, its doca_pcc_dev_init_algo_slot() calls) to the device
 * state: needs pcc_dev_init().  Entries for ports that do not exist are
 * skipped.  A slot already bound to another algorithm is disabled and
 * unbound first; one already bound to the same algorithm is only
 * (re-)enabled.  Then the plug-in's apply callback runs.  0 or a negative
 * errno (-ENOENT unknown plug-in, -ENODEV no device state, or what
 * lib/dev returned; entries before the failing one stay applied).
 */
int pcc_dev_plugin_apply(const char *name, char *errbuf, size_t errlen);

/**
 * The NP handler and NP mailbox handler plug-in name (or path) recorded
 * (NULL when it has none).  0 or -ENOENT.
 */
int pcc_dev_plugin_np(const char *name, pcc_np_handler_t *handler, pcc_dev_mailbox_fn *mailbox);

/** One loaded plug-in as listed. */
struct pcc_dev_plugin_info {
	char name[PCC_DEV_NAME_MAX];
	char path[PCC_DEV_PLUGIN_PATH_MAX];
	uint32_t abi_version;
	uint32_t n_algos;
	char algos[PCC_DEV_PLUGIN_MAX_ALGOS][PCC_DEV_NAME_MAX];
	uint32_t n_layout;  /**< default layout entries */
	uint8_t np_handler; /**< 1: has an NP handler */
	uint8_t np_mailbox; /**< 1: has an NP mailbox handler */
};

/** Fill up to n entries in load order; returns the number loaded. */
unsigned int pcc_dev_plugin_list(struct pcc_dev_plugin_info *info, unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* PCC_DEV_PLUGIN_H */
