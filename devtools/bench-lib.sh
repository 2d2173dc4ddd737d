# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
# shellcheck shell=sh
#
# Sourced by devtools/bench-*.sh (from the top of the tree), not run:
#
#   bench_build BUILDDIR NAME   set up BUILDDIR if needed (meson), build
#                               only tests/bench/NAME and what it links;
#                               sets bin; exits with meson's or ninja's
#                               output on failure
#   bench_option BUILDDIR NAME VALUE
#                               set up BUILDDIR if needed (meson), and set
#                               its meson option NAME to VALUE unless it
#                               has that value (meson setup --reconfigure);
#                               exits with meson's output on failure
#   bench_header                one line: date, CPUs, model, load
#   bench_dir ARGS...           dir = the optional BUILDDIR first argument
#                               (default build), skip = how many arguments
#                               it took (0 or 1): then `shift "$skip"`
#   bench_cpu                   cpu = the last CPU this process may run on
#                               (its affinity: taskset's mask, not
#                               nproc - 1, which is a count); pin = the
#                               taskset command that pins to it ('' without
#                               taskset)
#   bench_count VAR DEFAULT [MIN [WHY]]
#                               count = $VAR (DEFAULT if unset), a count
#                               >= MIN (default 1), or exit with an error
#                               naming it (and WHY, what MIN is for)
#   bench_runs                  runs = BENCH_RUNS (default 3), as
#                               bench_count
#   bench_eal MB                eal = the EAL arguments of a single-process
#                               bench: MB of memory, --no-huge unless
#                               BENCH_HUGE=1 (hugepages reserved beforehand)
#
# A script takes its BUILDDIR (default: build) as an optional first
# argument, before the benchmark's options (which start with '-').

bench_setup() {
	if [ ! -f "$1/build.ninja" ]; then
		meson setup "$1" >"$1.log" 2>&1 || {
			cat "$1.log" >&2
			exit 1
		}
		rm -f "$1.log"
	fi
}

bench_build() {
	dir=$1
	bin="$dir/tests/bench/$2"
	bench_setup "$dir"
	ninja -C "$dir" "tests/bench/$2" >/dev/null || {
		ninja -C "$dir" "tests/bench/$2" >&2
		exit 1
	}
	if [ ! -x "$bin" ]; then
		echo "$(basename "$0"): $bin was not built" >&2
		exit 1
	fi
}

bench_option() {
	bench_setup "$1"
	cur=$(meson introspect --buildoptions "$1" | python3 -c '
import json, sys
print(next((o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]), ""))' "$2") ||
		exit 1
	if [ "$cur" != "$3" ]; then
		meson setup --reconfigure "$1" "-D$2=$3" >"$1.log" 2>&1 || {
			cat "$1.log" >&2
			exit 1
		}
		rm -f "$1.log"
	fi
}

bench_header() {
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs: $model," \
		"load $(cut -d' ' -f1-3 /proc/loadavg)"
}

# shellcheck disable=SC2034 # dir and skip are for the caller
bench_dir() {
	dir=build
	skip=0
	case "$1" in
	-* | "") ;;
	*)
		dir=$1
		skip=1
		;;
	esac
}

# shellcheck disable=SC2034 # cpu and pin are for the caller
bench_cpu() {
	cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))') || exit 1
	pin=""
	command -v taskset >/dev/null 2>&1 && pin="taskset -c $cpu"
}

bench_count() {
	eval "set_=\${$1:-}"
	count=${set_:-$2}
	case "$count" in
	'' | *[!0-9]*) count=0 ;;
	esac
	if [ "$count" -lt "${3:-1}" ]; then
		echo "$(basename "$0"): invalid $1 '$set_' (a count, ${3:-1} or more${4:+: $4})" >&2
		exit 1
	fi
}

# shellcheck disable=SC2034 # runs is for the caller
bench_runs() {
	bench_count BENCH_RUNS 3
	runs=$count
}

# The EAL runtime directories of file prefix $1 (to remove at exit: the
# EAL leaves them, --no-shconf or not).
bench_rundirs() {
	echo "/var/run/dpdk/$1 ${XDG_RUNTIME_DIR:-/tmp}/dpdk/$1"
}

# shellcheck disable=SC2034 # eal is for the caller
bench_eal() {
	eal="--no-huge -m $1 --no-pci --no-shconf --log-level=lib.eal:error"
	# --huge-unlink: the pages go back when the bench exits (DPDK keeps
	# a prefix's hugepage files otherwise, and each run has its own)
	[ "${BENCH_HUGE:-0}" = 1 ] &&
		eal="-m $1 --no-pci --no-shconf --huge-unlink --log-level=lib.eal:error"
}
