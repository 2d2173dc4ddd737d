/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

#ifndef DOCA_COMPAT_H_
#define DOCA_COMPAT_H_

/**
 * @file
 * dpdk-pcc's DOCA compatibility: the API annotations DOCA's host headers
 * use (doc/compat-doca-host.md).  Written from DOCA's public
 * documentation; not NVIDIA's header.
 */

#ifndef DOCA_STABLE
#define DOCA_STABLE
#endif
#ifndef DOCA_EXPERIMENTAL
#define DOCA_EXPERIMENTAL
#endif
#ifndef DOCA_DEPRECATED
#define DOCA_DEPRECATED __attribute__((deprecated))
#endif
#ifndef DOCA_DEPRECATED_ENUM
#define DOCA_DEPRECATED_ENUM
#endif

#endif /* DOCA_COMPAT_H_ */
