#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-algos.sh [BUILDDIR] [bench_algos options...]
# Build the benchmark in BUILDDIR (default: build) and run the algorithm event-rate
# benchmark: ns/event and events/s per core of every reference algorithm
# on a synthetic event stream, against the noop algorithm in the same run,
# pinned to the last CPU.  Options go to bench_algos (--events, --flows,
# --passes, --runs, --prefetch, --algo; see tests/bench/bench_algos.c).
# Takes a few seconds; doc/perf.md has the figures measured here.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
bench_build "$dir" bench_algos
bench_cpu
bench_header
echo "# $pin $bin $*"
# shellcheck disable=SC2086
exec $pin "$bin" "$@"
