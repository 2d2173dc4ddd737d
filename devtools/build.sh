#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/build.sh [BUILDDIR [MESON_SETUP_OPTIONS...]]
# Configure BUILDDIR once (default: build) and build what changed.  Quiet on
# success; prints the log on failure.  Set CC to pick the compiler.

cd "$(dirname "$0")/.." || exit 1
dir=${1:-build}
[ $# -gt 0 ] && shift
log="$dir.log"

if [ ! -f "$dir/build.ninja" ]; then
	if ! meson setup "$dir" "$@" >"$log" 2>&1; then
		cat "$log" >&2
		echo "build.sh: meson setup $dir failed" >&2
		exit 1
	fi
fi
if ! ninja -C "$dir" >"$log" 2>&1; then
	cat "$log" >&2
	echo "build.sh: build in $dir failed" >&2
	exit 1
fi
rm -f "$log"
