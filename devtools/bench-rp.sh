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
# the same run.  Options go to bench_rp (--flows N, --copies N, --rx-ring
# N, --time, --warmup, --burst, --algo NAME..., --icrc-compare).
# BENCH_HUGE=1 runs bench_rp on hugepages (reserved beforehand) instead
# of --no-huge.
#
# BENCH_PEER=REV (a git revision, e.g. 7214b6b) adds an older engine as a
# second peer: REV's tree (git archive) with this tree's bench_rp.c and
# bench_common.h, built in BUILDDIR/peer-<commit>/ with BUILDDIR's C
# compiler, build type and b_sanitize, the project's own options at REV's
# defaults (kept for the next run, with the one used before it; rebuilt
# when the bench sources or those change), run with the same options
# in every run, before or after this tree's bench_rp in turn.  Then per
# algorithm: REV's ns/event over this tree's, the median, min and max of
# the per-run ratios (the VM's speed changes from run to run, two runs
# next to each other much less), and best against best.  doc/perf-rp.md
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
# BENCH_PEER: REV's bench_rp, built from REV's tree and this tree's bench
peer_bin=""
if [ -n "${BENCH_PEER:-}" ]; then
	rev=$(git rev-parse --verify --quiet "${BENCH_PEER}^{commit}") || {
		echo "$(basename "$0"): BENCH_PEER '$BENCH_PEER' is not a commit of this repository" >&2
		exit 1
	}
	pdir="$dir/peer-$(git rev-parse --short=12 "$rev")"
	# REV's engine: with conf.port[].icrc_hw, but older than the macro
	# that says so (bench_rp.c tests it), or without it at all
	pargs=""
	if git grep -q 'bool icrc_hw;' "$rev" -- lib/engine/pcc_engine.h; then
		git grep -q PCC_ENGINE_PORT_ICRC_HW "$rev" -- lib/engine/pcc_engine.h ||
			pargs="-Dc_args=-DPCC_ENGINE_PORT_ICRC_HW=1"
	else
		for a in "$@"; do
			[ "$a" = --icrc-compare ] || continue
			echo "$(basename "$0"): --icrc-compare: BENCH_PEER $BENCH_PEER's engine has no icrc_hw setting" >&2
			exit 1
		done
	fi
	# built as BUILDDIR is: its C compiler, build type and b_sanitize (the
	# project's options, which REV may not have, at REV's defaults)
	pconf=$(python3 - "$dir" <<'EOF'
import json, re, shlex, sys
d = sys.argv[1]
o = {x["name"]: x["value"] for x in json.load(open(d + "/meson-info/intro-buildoptions.json"))}
cc = "cc"
for line in open(d + "/meson-logs/meson-log.txt", errors="replace"):
    m = re.match(r"C compiler for the host machine: (\S+)", line)
    if m:
        cc = m.group(1)
print("pcc=%s pbt=%s psan=%s" % (shlex.quote(cc), shlex.quote(o["buildtype"]),
                                 shlex.quote(o["b_sanitize"])))
EOF
	) || exit 1
	eval "$pconf"
	for f in bench_rp.c bench_common.h; do
		cmp -s "tests/bench/$f" "$pdir/src/tests/bench/$f" || rm -rf "$pdir"
	done
	if [ ! -d "$pdir/src" ]; then
		mkdir -p "$pdir/src" || exit 1
		git archive "$rev" | tar -x -C "$pdir/src" || exit 1
		cp tests/bench/bench_rp.c tests/bench/bench_common.h "$pdir/src/tests/bench/" || exit 1
	fi
	echo "CC=$pcc --buildtype=$pbt -Db_sanitize=$psan $pargs" >"$pdir/config.new"
	cmp -s "$pdir/config.new" "$pdir/config" || rm -rf "$pdir/build"
	mv "$pdir/config.new" "$pdir/config"
	if [ ! -f "$pdir/build/build.ninja" ]; then
		# shellcheck disable=SC2086 # pargs: one option or none
		CC="$pcc" meson setup --buildtype="$pbt" -Db_sanitize="$psan" $pargs \
			"$pdir/build" "$pdir/src" >"$pdir/setup.log" 2>&1 || {
			cat "$pdir/setup.log" >&2
			exit 1
		}
	fi
	ninja -C "$pdir/build" tests/bench/bench_rp >"$pdir/ninja.log" 2>&1 || {
		cat "$pdir/ninja.log" >&2
		exit 1
	}
	peer_bin="$pdir/build/tests/bench/bench_rp"
	if [ ! -x "$peer_bin" ]; then
		echo "$(basename "$0"): $peer_bin was not built" >&2
		exit 1
	fi
	# the two peers used last stay; older peer-* trees go (~20 MB each)
	touch "$pdir"
	# shellcheck disable=SC2012 # ls -t: by time; the names have no newline
	ls -dt "$dir"/peer-* | tail -n +3 | while read -r old; do
		rm -rf "$old"
	done
fi
bench_cpu
# BENCH_HUGE=1: on hugepages (reserved beforehand, e.g. 1024 of 2 MiB)
bench_eal 2048
tmp=$(mktemp -d) || exit 1
rundirs=$(bench_rundirs "bench-rp-$$")
# shellcheck disable=SC2086 # two paths
trap 'rm -rf "$tmp" $rundirs' EXIT INT TERM

bench_header
echo "# $pin $algos_bin --flows $flows --algo noop"
echo "# $rp_bin $eal -l $cpu -- $*"
[ -n "$peer_bin" ] && echo "# peer: $peer_bin (${BENCH_PEER} = $rev), the same options"

# rp_run BIN OUT PREFIX OPTIONS...: bench_rp BIN into file OUT, its rows
# printed with PREFIX
rp_run() {
	rp_b=$1
	rp_out=$2
	rp_pre=$3
	shift 3
	# shellcheck disable=SC2086
	"$rp_b" $eal --file-prefix "bench-rp-$$" -l "$cpu" -- "$@" >"$rp_out" 2>&1 || {
		cat "$rp_out" >&2
		exit 1
	}
	grep -v -e '^TELEMETRY' -e '^EAL' "$rp_out" | sed "s/^/$rp_pre/"
}

r=1
while [ "$r" -le "$runs" ]; do
	echo "# run $r of $runs"
	# shellcheck disable=SC2086
	$pin "$algos_bin" --flows "$flows" --algo noop >"$tmp/algos.$r" || exit 1
	grep '^noop' "$tmp/algos.$r" | sed 's/^/bench_algos /'
	if [ -n "$peer_bin" ] && [ $((r % 2)) -eq 0 ]; then
		rp_run "$peer_bin" "$tmp/peer.$r" "peer " "$@"
	fi
	rp_run "$rp_bin" "$tmp/rp.$r" "" "$@"
	if [ -n "$peer_bin" ] && [ $((r % 2)) -eq 1 ]; then
		rp_run "$peer_bin" "$tmp/peer.$r" "peer " "$@"
	fi
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
# awk: the median of q[k, 1..n[k]], which it leaves sorted
awk_median='
function median(k,   i, j, t, c) {
	c = n[k]
	for (i = 1; i <= c; i++)
		for (j = i + 1; j <= c; j++)
			if (q[k, j] < q[k, i]) { t = q[k, i]; q[k, i] = q[k, j]; q[k, j] = t }
	return c % 2 ? q[k, (c + 1) / 2] : (q[k, c / 2] + q[k, c / 2 + 1]) / 2
}'
echo "# $runs runs, $flows flows: range over the runs (on-CPU), and the median of"
echo "# the per-run ratios"
awk "$awk_median"'
{
	k = $2
	if (!(k in n)) { order[++m] = k; lo[k] = hi[k] = $3; rlo[k] = rhi[k] = $4 }
	n[k]++
	q[k, n[k]] = $4
	if ($3 < lo[k]) lo[k] = $3; if ($3 > hi[k]) hi[k] = $3
	if ($4 < rlo[k]) rlo[k] = $4; if ($4 > rhi[k]) rhi[k] = $4
}
END {
	printf "%-10s %17s %19s %7s\n", "phase", "ns/event", "x bench_algos noop", "median"
	for (i = 1; i <= m; i++) {
		k = order[i]
		printf "%-10s %8.1f - %6.1f %10.2f - %6.2f %7.2f\n", k, lo[k], hi[k], rlo[k], rhi[k],
			median(k)
	}
}' "$tmp/all"

[ -n "$peer_bin" ] || exit 0
# per algorithm: the peer's ns/event over this tree's, run by run
r=1
while [ "$r" -le "$runs" ]; do
	awk -v run="$r" '
FNR == 1 { f++ }
$2 == "sw" && $5 ~ /^[0-9.]+$/ { ns[f, $1] = $5; if (f == 1) name[++n] = $1 }
END {
	for (i = 1; i <= n; i++)
		if ((2, name[i]) in ns && ns[1, name[i]] > 0)
			printf "%s %s %s %s\n", run, name[i], ns[1, name[i]], ns[2, name[i]]
}' "$tmp/rp.$r" "$tmp/peer.$r"
	r=$((r + 1))
done >"$tmp/peer"
echo "# $runs runs: ${BENCH_PEER}'s ns/event over this tree's (> 1: this tree is faster)"
awk "$awk_median"'
{
	k = $2
	if (!(k in n)) { order[++m] = k; bo[k] = $3; bp[k] = $4 }
	q[k, ++n[k]] = $4 / $3
	if ($3 < bo[k]) bo[k] = $3; if ($4 < bp[k]) bp[k] = $4
}
END {
	printf "%-10s %6s %14s %14s\n", "algo", "median", "min - max", "best vs best"
	for (i = 1; i <= m; i++) {
		k = order[i]
		med = median(k)
		printf "%-10s %6.2f %6.2f - %5.2f %14.2f   (ns/event %.1f against %.1f)\n",
			k, med, q[k, 1], q[k, n[k]], bp[k] / bo[k], bo[k], bp[k]
	}
}' "$tmp/peer"
