/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Stand-in for eRPC's sm_types.h (sessions), whose includes pull in the
 * transports, asio and msgbufs.  cc/timing_wheel.h needs from it only the
 * session credits (the wheel's horizon is sized from them) and, through
 * eRPC's transport.h, erpc::ceil() of util/math_utils.h.
 */

#pragma once

#include "common.h"
#include "util/math_utils.h"

namespace erpc
{
static constexpr size_t kSessionCredits = 32; /* eRPC's value */
} // namespace erpc
