#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-sim.sh [BUILDDIR] [bench_sim options...]
# Build the benchmark in BUILDDIR (default: build) and measure the
# simulator's speed: bottleneck data packets (frames the busiest switch
# queue sent, what ns-3's incast figure counts) and model events per
# wall-clock second and per CPU second, of a 16:1 incast at 100G through
# the engine (config/scenarios/incast-16to1.yaml, deterministic mode, one
# lcore) and of the model alone (open-loop sources, pcc_sim_run), --runs
# times alternated, with the ranges (tests/bench/bench_sim.c; options go
# to it: --runs N, --size BYTES|keep, --scenario FILE, --no-model,
# --model-only, --skip-peer).
#
# The other peer is ns-3 (../shared/anchors/ns3-incast, N = 16, 20 ms:
# NS3_ANCHOR overrides the directory).  When NS3_INCAST names the
# anchor's built ./incast (or ns-3's libraries are installed, in which case
# the anchor is copied to a temporary directory and built with its
# build.sh), it is run NS3_RUNS times (default 3: its speed on a VM moves
# more than the engine's; 5-9 s each) in the same
# run and the ratio printed; else the anchor's recorded figures (results/
# N16_run*.txt, another machine) are printed, labelled as not run here.
# Debian 12 packages the anchor's ns-3.37: apt-get install libns3-dev.
# A benchmark, not a test; doc/perf-sim.md ("Simulator") has the figures.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
bench_build "$dir" bench_sim
me=$(basename "$0")
bench_count NS3_RUNS 3
n=$count
if [ -n "${NS3_INCAST:-}" ] && [ ! -x "$NS3_INCAST" ]; then
	echo "$me: NS3_INCAST '$NS3_INCAST' is not an executable file (the anchor's built incast)" >&2
	exit 1
fi
if [ -n "${NS3_ANCHOR:-}" ] && [ ! -d "$NS3_ANCHOR" ]; then
	echo "$me: NS3_ANCHOR '$NS3_ANCHOR' is not a directory" >&2
	exit 1
fi
bench_cpu
anchor=${NS3_ANCHOR:-$(cd ../shared/anchors/ns3-incast 2>/dev/null && pwd)}
anchor_at=${NS3_ANCHOR:-$(pwd)/../shared/anchors/ns3-incast}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
bench_header
echo "# $pin $bin $*"
# shellcheck disable=SC2086
$pin "$bin" "$@" | tee "$tmp/sim.out"
[ "$(grep -c '^range engine' "$tmp/sim.out")" = 1 ] || exit 1

# ns-3: run the anchor if it is there, else its recorded results
incast=${NS3_INCAST:-}
if [ -z "$incast" ] && [ -f "$anchor/build.sh" ] && ls /usr/lib/*/libns3*-core*.so >/dev/null 2>&1; then
	# ns-3 is installed: an anchor that does not build is an error, not
	# a reason to fall back to another machine's figures
	if ! { cp -r "$anchor" "$tmp/ns3" && chmod -R u+w "$tmp/ns3" &&
		(cd "$tmp/ns3" && sh ./build.sh >build.log 2>&1); }; then
		echo "$me: the ns-3 anchor $anchor did not build (ns-3 is installed); its build.log ends:" >&2
		tail -n 20 "$tmp/ns3/build.log" >&2 2>/dev/null
		exit 1
	fi
	incast=$tmp/ns3/incast
fi
if [ -n "$incast" ] && [ -x "$incast" ]; then
	i=1
	while [ "$i" -le "$n" ]; do
		echo "# $pin $incast --nSenders=16 --simMs=20 --verbose=1 (run $i of $n)"
		# shellcheck disable=SC2086
		$pin "$incast" --nSenders=16 --simMs=20 --verbose=1 2>&1 | grep '^N=' >>"$tmp/ns3.out"
		i=$((i + 1))
	done
	label="ns-3 run here, same run"
	src="$tmp/ns3.out"
else
	label="ns-3 NOT run here (not installed; apt-get install libns3-dev runs it here): the anchor's recorded figures, $anchor/results, another machine (AMD EPYC VM)"
	src=$(ls "$anchor"/results/N16_run*.txt 2>/dev/null)
fi
if [ -z "$src" ]; then
	echo "# no ns-3 figure: no anchor results at $anchor_at (NS3_ANCHOR names another)"
	exit 0
fi
echo "# $label"
# shellcheck disable=SC2086
grep -h '^N=16 ' $src | awk -v label="$label" '
{
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		v[kv[1]] = kv[2]
	}
	w = v["bottleneck_pkts"] / v["wall_run_s"]; c = v["bottleneck_pkts"] / v["cpu_run_s"]
	e = v["events"] / v["wall_run_s"]
	printf "ns-3   bneck %d pkts in %s ms: %.1f K/s wall, %.1f K/s cpu, events %.3f M/s wall\n", v["bottleneck_pkts"], v["sim_ms"], w / 1e3, c / 1e3, e / 1e6
	if (n == 0 || w < wl) wl = w; if (w > wh) wh = w
	if (n == 0 || c < cl) cl = c; if (c > ch) ch = c
	if (n == 0 || e < el) el = e; if (e > eh) eh = e
	n++
}
END {
	if (n == 0) exit
	printf "range ns-3   bneck %.1f-%.1f K/s (cpu %.1f-%.1f), events %.3f-%.3f M/s\n", wl / 1e3, wh / 1e3, cl / 1e3, ch / 1e3, el / 1e6, eh / 1e6
	print wl, wh, cl, ch > "/dev/stderr"
}' 2>"$tmp/ns3.range"
read -r wl wh cl ch <"$tmp/ns3.range" || exit 0
sed -n 's/^range engine bneck \([0-9.]*\)-\([0-9.]*\) K\/s (cpu \([0-9.]*\)-\([0-9.]*\)).*/\1 \2 \3 \4/p' "$tmp/sim.out" |
	awk -v wl="$wl" -v wh="$wh" -v cl="$cl" -v ch="$ch" -v label="$label" '{
	printf "ratio engine / ns-3, bottleneck packets per second: wall %.1f-%.1f, cpu %.1f-%.1f  (%s)\n", $1 * 1e3 / wh, $2 * 1e3 / wl, $3 * 1e3 / ch, $4 * 1e3 / cl, (label ~ /NOT/ ? "against the recorded figures" : "same run")
}'
