/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef PCC_HOST_RES_H
#define PCC_HOST_RES_H

/**
 * @file
 * Resources file (as DOCA's SPRD file maps applications to execution
 * units): a YAML file mapping application names to a count of worker
 * lcores and the lcores they may use.  Example: config/resources-example.yaml.
 *
 *   applications:
 *     dpdk-pcc:
 *       count: 2
 *       lcores: [1, 2, 3]     # or a string "1-3,5"
 *
 * count (>= 1) <= number of lcores; count omitted = all listed.
 */

#include <stddef.h>
#include <stdint.h>

#include "pcc_host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PCC_HOST_RES_APPS_MAX 64

struct pcc_host_res;

/**
 * Load path.  NULL on error with "file:line:column: message" in errbuf
 * (and pcc_host_last_error()).
 */
struct pcc_host_res *pcc_host_res_load(const char *path, char *errbuf, size_t errlen);
/** The same from len bytes of text; name stands for the file in errors. */
struct pcc_host_res *pcc_host_res_parse(
		const char *text, size_t len, const char *name, char *errbuf, size_t errlen);
void pcc_host_res_free(struct pcc_host_res *r);
/** Applications in the file. */
uint32_t pcc_host_res_apps(const struct pcc_host_res *r);
/** Name of application i (NULL beyond). */
const char *pcc_host_res_app_name(const struct pcc_host_res *r, uint32_t i);
/** count of app, -ENOENT unknown. */
int pcc_host_res_count(const struct pcc_host_res *r, const char *app);
/** Fills up to n lcores of app; returns how many it has or -ENOENT. */
int pcc_host_res_lcores(
		const struct pcc_host_res *r, const char *app, uint32_t *lcores, uint32_t n);
/** Affinity of ctx from app: its first count lcores, threads [count, count]. */
int pcc_host_res_apply(const struct pcc_host_res *r, const char *app, struct pcc_host_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PCC_HOST_RES_H */
