#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# Install what is missing, build, run every test, print one summary line
# 'N passed, N failed[, N skipped]'.  Exit status non-zero on any failure.
#
# Two builds:
#   build        gcc: unit tests, DTS-style suites, style check
#   build-clang  clang with ASan+UBSan: unit tests again, libFuzzer smoke
#                runs, the pool soak (about a minute)
# Set PCC_TEST_QUICK=1 to skip the clang build.  Extra arguments go to
# 'meson test' for the gcc build (e.g. --suite unit).

cd "$(dirname "$0")/.." || exit 1
t0=$(date +%s)
# phases with their elapsed time, on a terminal only (quiet in CI logs)
phase() {
	[ -t 1 ] && printf 'test: %s [%ds]\n' "$1" $(($(date +%s) - t0))
	return 0
}
phase "installing what is missing"
devtools/setup.sh || exit 1
phase "building with gcc"
devtools/build.sh build || exit 1

logs="build/meson-logs/testlog.json"
rm -f build/meson-logs/testlog.json build-clang/meson-logs/testlog.json

phase "running the unit tests, DTS suites and checks (several minutes)"
# the pool soak (suite soak) runs once, in the sanitizer build below
nosoak=""
[ $# -eq 0 ] && nosoak="--no-suite soak"
# shellcheck disable=SC2086
meson test -C build --no-rebuild --print-errorlogs $nosoak "$@" \
	>build/meson-logs/test-console.txt 2>&1
if [ -z "$PCC_TEST_QUICK" ] && [ $# -eq 0 ]; then
	phase "building with clang, ASan and UBSan"
	if CC=clang devtools/build.sh build-clang -Dfuzz=enabled -Dsanitizers=true; then
		phase "running the unit tests and fuzz smoke runs under ASan"
		meson test -C build-clang --no-rebuild --print-errorlogs \
			--suite unit --suite fuzz --suite soak \
			>build-clang/meson-logs/test-console.txt 2>&1
		logs="$logs build-clang/meson-logs/testlog.json"
	else
		echo "FAILED build-clang: see above"
		echo "0 passed, 1 failed"
		exit 1
	fi
fi

existing=""
for l in $logs; do
	[ -f "$l" ] && existing="$existing $l"
done
if [ -z "$existing" ]; then
	cat build/meson-logs/test-console.txt
	echo "0 passed, 1 failed"
	exit 1
fi
phase "done"
exec /usr/bin/python3 devtools/tap-summary.py $existing
