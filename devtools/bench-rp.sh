#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-rp.sh [BUILDDIR] [bench_rp options...]
# RP event processing, events/s per lcore, against the algorithm alone
# (bench_algos noop) in the same run.
#
# Builds tests/bench/bench_rp and tests/bench/bench_algos in BUILDDIR
# (default: build) and runs, on the last CPU, BENCH_RUNS times (default
# 3), interleaved:
#  1. bench_algos --flows N --algo noop: the noop algorithm dispatched
#     without an engine (the peer);
#  2. bench_rp: a dpdk-pcc engine with one RP port on a ring pair, fed
#     CNPs prepared before the run (one mbuf per flow, handed over as
#     they are), per algorithm (default noop, then dcqcn), after a
#     harness-only phase (tests/bench/bench_rp.c).
# Every figure is per second on a CPU (CLOCK_THREAD_CPUTIME_ID).  Prints
# each run's rows, then per algorithm the range over the runs of ns/event
# and of "x algos-noop": bench_rp's ns/event over bench_algos noop's in
# the same run.  Options go to bench_rp (--flows N, --time, --warmup,
# --burst, --algo NAME..., --icrc-compare).  BENCH_HUGE=1 runs bench_rp
# on hugepages (reserved beforehand) instead of --no-huge.  doc/perf-rp.md
# has the figures measured here.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
bench_build "$dir" bench_rp
rp_bin=$bin
bench_build "$dir" bench_algos
algos_bin=$bin
bench_runs
flows=1024
prev=""
for a in "$@"; do
	case "$prev" in
	--flows) flows=$a ;;
	esac
	case "$a" in
	--flows=*) flows=${a#--flows=} ;;
	esac
	prev=$a
done
cpu=$(($(nproc) - 1))
# BENCH_HUGE=1: on hugepages (reserved beforehand, e.g. 1024 of 2 MiB)
bench_eal 2048
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c $cpu"
tmp=$(mktemp -d) || exit 1
rundirs=$(bench_rundirs "bench-rp-$$")
# shellcheck disable=SC2086 # two paths
trap 'rm -rf "$tmp" $rundirs' EXIT INT TERM

bench_header
echo "# $pin $algos_bin --flows $flows --algo noop"
echo "# $rp_bin $eal -l $cpu -- $*"
r=1
while [ "$r" -le "$runs" ]; do
	echo "# run $r of $runs"
	# shellcheck disable=SC2086
	$pin "$algos_bin" --flows "$flows" --algo noop >"$tmp/algos.$r" || exit 1
	grep '^noop' "$tmp/algos.$r" | sed 's/^/bench_algos /'
	# shellcheck disable=SC2086
	"$rp_bin" $eal --file-prefix "bench-rp-$$" -l "$cpu" -- "$@" >"$tmp/rp.$r" 2>&1 || {
		cat "$tmp/rp.$r" >&2
		exit 1
	}
	grep -v -e '^TELEMETRY' -e '^EAL' "$tmp/rp.$r"
	r=$((r + 1))
done

# per algorithm: ns/event range, and over bench_algos noop of the same run
r=1
while [ "$r" -le "$runs" ]; do
	awk -v run="$r" '
FNR == 1 { f++ }
f == 1 && $1 == "noop" { peer = $3 }
f == 2 && ($1 == "harness" || ($2 == "sw" || $2 == "hw")) && $5 ~ /^[0-9.]+$/ {
	name = $1 ($2 == "hw" ? "/hw" : "")
	printf "%s %s %s %s\n", run, name, $5, (peer > 0 ? $5 / peer : 0)
}' "$tmp/algos.$r" "$tmp/rp.$r"
	r=$((r + 1))
done >"$tmp/all"
echo "# $runs runs, $flows flows: range over the runs (on-CPU)"
awk '
{
	k = $2
	if (!(k in n)) { order[++m] = k; lo[k] = hi[k] = $3; rlo[k] = rhi[k] = $4 }
	n[k]++
	if ($3 < lo[k]) lo[k] = $3; if ($3 > hi[k]) hi[k] = $3
	if ($4 < rlo[k]) rlo[k] = $4; if ($4 > rhi[k]) rhi[k] = $4
}
END {
	printf "%-10s %17s %22s\n", "phase", "ns/event", "x bench_algos noop"
	for (i = 1; i <= m; i++) {
		k = order[i]
		printf "%-10s %8.1f - %6.1f %10.2f - %6.2f\n", k, lo[k], hi[k], rlo[k], rhi[k]
	}
}' "$tmp/all"
