#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-pacer.sh [BUILDDIR] [bench_pacer options...]
# Build the benchmark in BUILDDIR (default: build) and run the pacer
# benchmark: ns per packet (enqueue + dequeue) of the wheel at 1 Ki, 64 Ki
# and 1 Mi active flows against an rte_ring moving the same packets in the
# same run, memory per flow, and the achieved-rate error of 8 backlogged
# flows, pinned to the last CPU.  Options go to bench_pacer (--flows,
# --burst, --size, --rate, --packets, --runs, --prefetch; see
# tests/bench/bench_pacer.c).  Takes a few seconds; doc/perf.md has the
# figures measured here.
#
# ERPC_DIR (a checkout of eRPC, never part of this tree) is meant to add
# eRPC's timing wheel (src/cc/timing_wheel.h) as a second peer; that peer
# is not built yet: doc/perf.md ("Pacer", "eRPC's wheel as a peer") says
# what building the header outside eRPC needs.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
bench_build "$dir" bench_pacer
pin=""
if command -v taskset >/dev/null 2>&1; then
	pin="taskset -c $(($(nproc) - 1))"
fi
bench_header
if [ -n "${ERPC_DIR:-}" ]; then
	echo "# ERPC_DIR=$ERPC_DIR: the eRPC timing-wheel peer is not built (doc/perf.md," \
		"\"eRPC's wheel as a peer\", lists what it needs); the rte_ring peer only"
fi
echo "# $pin $bin $*"
# shellcheck disable=SC2086
exec $pin "$bin" "$@"
