/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Stand-in for eRPC's sslot.h: cc/timing_wheel.h only keeps SSlot
 * pointers (48 bits of a wheel entry).  bench_pacer_erpc.cc stores its
 * own pointers there and never dereferences them as SSlots.
 */

#pragma once

namespace erpc
{
class SSlot;
} // namespace erpc
