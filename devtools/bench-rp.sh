#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-rp.sh [BUILDDIR] [bench_rp options...]
# RP event processing, events/s per lcore, DCQCN against the no-op
# algorithm, in one run.
#
# Builds tests/bench/bench_rp in BUILDDIR (default: build) and runs it on
# the last CPU: for each algorithm (default noop, then dcqcn) a dpdk-pcc
# engine with one RP port on a ring pair whose other side sends CNPs to
# its flows (one event each), all on one lcore (tests/bench/bench_rp.c).
# Prints one row per algorithm: M events/s per wall-clock second and per
# second on a CPU, ns/event, and the ratio to the first algorithm (noop).
# Options go to bench_rp (--flows N, --time, --warmup, --burst, --algo
# NAME...).  BENCH_HUGE=1 runs it on hugepages (reserved beforehand) instead
# of --no-huge.  Takes a few seconds; doc/perf.md has the figures measured
# here.

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
bench_build "$dir" bench_rp
cpu=$(($(nproc) - 1))
eal="--no-huge -m 2048 --no-pci --no-shconf --log-level=lib.eal:error"
# BENCH_HUGE=1: on hugepages (reserved beforehand, e.g. 1024 of 2 MiB)
[ "${BENCH_HUGE:-0}" = 1 ] && eal="-m 2048 --no-pci --no-shconf --log-level=lib.eal:error"
bench_header
echo "# $bin $eal -l $cpu -- $*"
# shellcheck disable=SC2086
"$bin" $eal --file-prefix "bench-rp-$$" -l "$cpu" -- "$@" 2>&1 |
	grep -v -e '^TELEMETRY' -e '^EAL'
