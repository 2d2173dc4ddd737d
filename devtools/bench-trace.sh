#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-trace.sh [bench_rp options...]
# What the engine's per-flow tracepoints (lib/engine/engine_tp.h) cost
# when tracing is off (no --trace): RP
# events through the engine (tests/bench/bench_rp, on-CPU ns/event) built
# as usual (build/) against a build without the engine's tracepoints
# (build-notrace/, meson -Dengine_trace=false, configured here once),
# BENCH_RUNS rounds (default 3), the two alternating in each round.
# Prints each round's ns/event of both and their ratio (traced /
# untraced), then the range.  doc/perf-rp.md, "Tracing off".

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_runs
[ $# -eq 0 ] && set -- --algo noop
if [ ! -f build-notrace/build.ninja ]; then
	meson setup build-notrace -Dengine_trace=false >/dev/null || exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
nsev() {
	d=$1
	shift
	BENCH_RUNS=1 devtools/bench-rp.sh "$d" "$@" >"$tmp/out" 2>&1 || {
		cat "$tmp/out" >&2
		exit 1
	}
	# the per-run table: algo icrc Mev/s Mev/s-cpu ns/ev ...
	awk '$2 == "sw" || $2 == "hw" { print $5; exit }' "$tmp/out"
}
echo "# RP events, on-CPU ns/event: build/ (tracepoints in, tracing off) vs build-notrace/"
echo "# bench_rp options: $*"
printf '%-6s %12s %12s %8s\n' round traced untraced ratio
r=1
ratios=""
while [ "$r" -le "$runs" ]; do
	a=$(nsev build "$@")
	b=$(nsev build-notrace "$@")
	ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
	ratios="$ratios $ratio"
	printf '%-6s %12s %12s %8s\n' "$r" "$a" "$b" "$ratio"
	r=$((r + 1))
done
echo "$ratios" | awk '{ lo = $1; hi = $1; for (i = 2; i <= NF; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
	printf "# traced / untraced over %d rounds: %.3f - %.3f\n", NF, lo, hi }'
