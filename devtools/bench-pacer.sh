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
# --burst, --size, --rate, --packets, --runs, --prefetch, --bulk: one
# pcc_pacer_enqueue_bulk() call a burst; see tests/bench/bench_pacer.c).
# Takes a few seconds; doc/perf-pacer.md has the figures measured here.
#
# ERPC_DIR, a checkout of eRPC (github.com/erpc-io/eRPC; fetched by you,
# never part of this tree), adds eRPC's timing wheel (its
# src/cc/timing_wheel.h, included from ERPC_DIR at build time with the
# stand-ins of tests/bench/erpc_shim) as a second peer, run after the ring
# in each run: columns eRPC ns and x eRPC (eRPC ns / ours) and a line of
# its checks.  The script sets BUILDDIR's meson option erpc_dir to
# ERPC_DIR's absolute path (to '' without ERPC_DIR), which needs a C++
# compiler; an ERPC_DIR without src/cc/timing_wheel.h, or whose path
# starts with this tree's (meson refuses it), is an error.
# doc/perf-pacer.md ("Pacer", "eRPC's wheel as a peer") has the method.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
erpc=""
if [ -n "${ERPC_DIR:-}" ]; then
	if [ ! -f "$ERPC_DIR/src/cc/timing_wheel.h" ]; then
		echo "bench-pacer.sh: ERPC_DIR=$ERPC_DIR holds no src/cc/timing_wheel.h:" \
			"it must be a checkout of eRPC (github.com/erpc-io/eRPC)" >&2
		exit 1
	fi
	erpc=$(cd "$ERPC_DIR" && pwd -P) || exit 1
	# meson refuses an include directory whose path starts with the
	# source tree's (even /x/tree-erpc beside /x/tree)
	case "$erpc" in
	"$(pwd -P)"*)
		echo "bench-pacer.sh: ERPC_DIR=$ERPC_DIR ($erpc) starts with this tree's" \
			"path $(pwd -P): meson refuses it; keep eRPC elsewhere (e.g. /tmp/erpc)" >&2
		exit 1
		;;
	esac
fi
bench_option "$dir" erpc_dir "$erpc"
bench_build "$dir" bench_pacer
bench_cpu
bench_header
[ -n "$erpc" ] && echo "# eRPC peer: $erpc at $(git -C "$erpc" rev-parse --short HEAD 2>/dev/null ||
	echo 'an unknown commit (not a git work tree)')"
echo "# $pin $bin $*"
# shellcheck disable=SC2086
exec $pin "$bin" "$@"
