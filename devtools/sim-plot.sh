#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# (Re)draw the plots of simulator run directories (doc/simulator.md):
#   devtools/sim-plot.sh RUN_DIR [RUN_DIR ...]
# Each run directory holds flows.csv, queues.csv and the plot.gp the
# simulator wrote at the end of the run; this runs gnuplot (Debian
# gnuplot-nox) on it and prints the PNGs it made: rate.png (rate per
# flow) and queue.png (switch egress queue depth).

set -e

if [ $# -eq 0 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
	sed -n '5,10p' "$0" | sed 's/^# \{0,1\}//'
	[ $# -eq 0 ] && exit 1
	exit 0
fi

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "sim-plot.sh: gnuplot not installed (apt-get install gnuplot-nox," \
		"or devtools/setup.sh)" >&2
	exit 1
fi

rc=0
for dir in "$@"; do
	if [ ! -f "$dir/plot.gp" ]; then
		echo "sim-plot.sh: $dir: no plot.gp (not a finished simulator run)" >&2
		rc=1
		continue
	fi
	if (cd "$dir" && gnuplot plot.gp); then
		for png in rate.png queue.png; do
			[ -f "$dir/$png" ] && echo "$dir/$png"
		done
	else
		echo "sim-plot.sh: $dir: gnuplot failed" >&2
		rc=1
	fi
done
exit $rc
