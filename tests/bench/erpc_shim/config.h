/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Stand-in for eRPC's config.h, which eRPC's CMake generates from
 * src/config.h.in (absent from a checkout) to pick a transport.  No
 * ERPC_<TRANSPORT> macro is defined here, so eRPC's transport headers are
 * empty; CTransport is a class of our own that carries only what
 * cc/timing_wheel.h reads from it: the MTU of eRPC's DPDK transport, which
 * sizes the wheel's horizon.  Used only by tests/bench/bench_pacer_erpc.cc.
 */

#pragma once

#include <stddef.h>

namespace erpc
{
struct PccBenchTransport {
	static constexpr size_t kMTU = 1024; /* eRPC's DpdkTransport::kMTU */
};

#define CTransport PccBenchTransport
static constexpr size_t kHeadroom = 0;
static constexpr size_t kIsRoCE = 0;
static constexpr size_t kIsAzure = 0;
} // namespace erpc
