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
dir=build
case "$1" in
-* | "") ;;
*)
	dir=$1
	shift
	;;
esac
bin="$dir/tests/bench/bench_algos"
if [ ! -f "$dir/build.ninja" ]; then
	meson setup "$dir" >"$dir.log" 2>&1 || {
		cat "$dir.log" >&2
		exit 1
	}
	rm -f "$dir.log"
fi
# only the benchmark and what it links
ninja -C "$dir" tests/bench/bench_algos >/dev/null || {
	ninja -C "$dir" tests/bench/bench_algos >&2
	exit 1
}
if [ ! -x "$bin" ]; then
	echo "bench-algos.sh: $bin was not built" >&2
	exit 1
fi
pin=""
if command -v taskset >/dev/null 2>&1; then
	pin="taskset -c $(($(nproc) - 1))"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs: $cpu"
echo "# $pin $bin $*"
# shellcheck disable=SC2086
exec $pin "$bin" "$@"
