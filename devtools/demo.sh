#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# Install what is missing, build, and run dpdk-pcc on the fabric
# simulator (no NIC needed): an 8:1 incast at 100G (eight senders write
# 1 MB each to one receiver) twice, with DCQCN (RED/ECN marking, CNPs)
# and with HPCC (INT), through the real engine and algorithms in
# deterministic mode.  Prints both summary tables and where the plots
# are: per run a run directory (CSVs, summary.json, rate.png,
# queue.png) and one picture of the two side by side.  Extra arguments
# are appended to the app arguments of both runs (e.g. --seed 2).

cd "$(dirname "$0")/.." || exit 1
t0=$(date +%s)
# phases with their elapsed time, on a terminal only (quiet in CI logs)
phase() {
	[ -t 1 ] && printf 'demo: %s [%ds]\n' "$1" $(($(date +%s) - t0))
	return 0
}
phase "installing what is missing"
devtools/setup.sh || exit 1
phase "building (a first build takes a few minutes)"
devtools/build.sh build || exit 1
# a prefix of its own: two users, or two runs, do not collide
prefix=pcc-demo-$$

out=sim-out/demo
rm -rf "$out"
mkdir -p "$out" || exit 1
for s in incast-8to1 incast-8to1-hpcc; do
	phase "simulating $s"
	if ! build/app/dpdk-pcc/dpdk-pcc \
		--no-huge -m 1024 --no-pci --no-shconf --file-prefix "$prefix" -l 0-1 \
		--log-level=lib.eal:error --log-level=lib.telemetry:error \
		--log-level='pcc.*:warning' \
		-- --sim "config/scenarios/$s.yaml" --sim-out "$out/$s" "$@" \
		>"$out/$s.log" 2>&1; then
		cat "$out/$s.log" >&2
		exit 1
	fi
	rm -rf "/var/run/dpdk/$prefix" "${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix" 2>/dev/null
	# the summary table (what precedes it is the run's set-up)
	sed -n '/^Simulation /,$p' "$out/$s.log"
	echo
done

if command -v gnuplot >/dev/null 2>&1; then
	gnuplot <<EOF || exit 1
set datafile separator ','
set terminal pngcairo size 1200,500 noenhanced
set output '$out/incast-8to1.png'
set multiplot layout 1,2 title '8:1 incast at 100G, 1 MB per sender: DCQCN (ECN) and HPCC (INT) on the simulator'
set grid
set xlabel 'time (us)'
set key top right
set ylabel 'receiver port queue (KB, log)'
set logscale y
set yrange [1:20000]
plot '< grep ",sw0->r0," $out/incast-8to1/queues.csv' using 1:(\$4/1000.0) with lines lw 2 title 'DCQCN', \
     '< grep ",sw0->r0," $out/incast-8to1-hpcc/queues.csv' using 1:(\$4/1000.0) with lines lw 2 title 'HPCC'
unset logscale y
set yrange [0:*]
set ylabel 'rate of sender s0 (Gb/s)'
plot '< grep ",0,f0," $out/incast-8to1/flows.csv' using 1:4 with lines lw 2 title 'DCQCN', \
     '< grep ",0,f0," $out/incast-8to1-hpcc/flows.csv' using 1:4 with lines lw 2 title 'HPCC'
unset multiplot
EOF
	echo "Side by side: $out/incast-8to1.png"
fi
echo "Runs: $out/incast-8to1, $out/incast-8to1-hpcc (flows.csv, queues.csv," \
	"cnps.csv, summary.json, rate.png, queue.png)"
