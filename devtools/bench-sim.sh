#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-sim.sh [BUILDDIR] [bench_sim options...]
# Build the benchmark in BUILDDIR (default: build) and measure the
# simulator's speed: simulated packets (frames into the fabric) per
# wall-clock second of a 16:1 incast at 100G through the engine
# (config/scenarios/incast-16to1.yaml, deterministic mode, one lcore),
# and in the same run the model alone (the same incast from open-loop
# sources inside the model, pcc_sim_run) as the peer figure, with their
# ratio.  Options go to bench_sim (--runs N, --size BYTES per sender,
# --scenario FILE; see tests/bench/bench_sim.c).  A benchmark, not a
# test; takes about 10 s; doc/perf.md ("Simulator") has the figures.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
dir=build
case "$1" in
-* | "") ;;
*)
	dir=$1
	shift
	;;
esac
bench_build "$dir" bench_sim
pin=""
if command -v taskset >/dev/null 2>&1; then
	pin="taskset -c $(($(nproc) - 1))"
fi
bench_header
echo "# $pin $bin $*"
# shellcheck disable=SC2086
exec $pin "$bin" "$@"
