#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-steer.sh [BUILDDIR] [bench_steer options...]
# RP events per lcore with 1 and 2 engine lcores, CC packets steered as
# RSS would (Toeplitz hash % queues) or by the engine's steering
# (pcc_engine_steer_rxq(): the owner's queue, where its rte_flow rules put
# them on a NIC), in one run.
#
# Builds tests/bench/bench_steer in BUILDDIR (default: build) and runs it
# with the main lcore (it sleeps between samples) beside engine lcore 1 on
# the first CPU and engine lcore 2 on the last.  Per phase the rings of
# side A are filled with CNPs while the port is paused, then the lcores
# run flat out: no generator runs while the engine works.  Prints per
# phase each lcore's on-CPU ns/event, the worse one over the 1-lcore
# phase's, M events/s, records handed over, lost (must be 0) and RX bursts
# deferred for room.  Options go to bench_steer (--flows N, --events N,
# --burst N, --algo NAME, --repeat N).  doc/perf-steer.md has the figures.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
bench_build "$dir" bench_steer
last=$(($(nproc) - 1))
bench_eal 2048
rundirs=$(bench_rundirs "bench-steer-$$")
# shellcheck disable=SC2086 # two paths
trap 'rm -rf $rundirs' EXIT INT TERM
bench_header
echo "# $bin $eal --lcores 0@0,1@0,2@$last -- $*"
# shellcheck disable=SC2086
"$bin" $eal --file-prefix "bench-steer-$$" --lcores "0@0,1@0,2@$last" -- "$@" 2>&1 |
	grep -v -e '^TELEMETRY' -e '^EAL'
