#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-np.sh [BUILDDIR] [bench_np options...]
# NP probe reflection, packets/s per lcore, against dpdk-testpmd
# --forward-mode=macswap --tx-first on a net_ring pair, in one run.
#
# Builds tests/bench/bench_np in BUILDDIR (default: build) and runs, on the
# last CPU, BENCH_RUNS times (default 3), one after the other:
#  1. bench_np: CCMAD probe requests circulate on a ring pair between the
#     dpdk-pcc engine's NP port (the worker loop dpdk-pcc runs) and a
#     generator that turns each response back into its request, both on
#     one lcore; then the same loop and generator with testpmd's own
#     macswap code in place of the NP (tests/bench/bench_np.c);
#  2. dpdk-testpmd --vdev=net_ring0 --vdev=net_ring1 --forward-mode=macswap
#     --tx-first, one forwarding lcore, for TESTPMD_SECONDS (default 10;
#     the first 2 are warm-up).
# Every figure is per second on a CPU (bench_np: CLOCK_THREAD_CPUTIME_ID;
# testpmd: /proc/.../schedstat of its forwarding thread).  Per run:
#   in harness  = macswap loop ns / NP loop ns (same generator, same ring
#                 pair: the NP against testpmd's code in the identical
#                 harness, the generator charged to both);
#   extra       = NP loop ns - macswap loop ns (what the NP costs over
#                 testpmd's macswap per packet);
#   calibrated  = testpmd ns / (testpmd ns + extra): the NP as if it ran in
#                 testpmd's place, against testpmd (nothing estimated or
#                 subtracted but the difference of two on-CPU loops).
# Then the range of each over the runs.
# Options go to bench_np (--time, --warmup, --inflight, --burst, --ipv6,
# --vlan); EAL options in BENCH_EAL go to both programs
# (e.g. BENCH_EAL=--force-max-simd-bitwidth=512 for the NP's 512-bit
# vectors); options in TESTPMD_ARGS go to testpmd after its own (e.g.
# TESTPMD_ARGS=--burst=64 with bench_np's --burst 64 --inflight 128).
# doc/perf-np.md has the figures measured here.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
bench_dir "$@"
shift "$skip"
bench_build "$dir" bench_np
for a in "$@"; do
	case "$a" in
	--peer* | --runs*)
		echo "bench-np.sh: $a is for bench_np alone: the script runs both loops" \
			"(NP and macswap) and sets the runs (BENCH_RUNS)" >&2
		exit 1
		;;
	esac
done
bench_count TESTPMD_SECONDS 10 5 "seconds: 2 of warm-up, testpmd's statistics every 1-2 s"
secs=$count
bench_cpu
main=0
eal="--no-huge -m 1024 --no-pci --no-shconf --log-level=lib.eal:error ${BENCH_EAL:-}"
tmp=$(mktemp -d) || exit 1
rundirs="$(bench_rundirs "bench-tp-$$") $(bench_rundirs "bench-np-$$")"
# shellcheck disable=SC2086 # four paths
trap 'rm -rf "$tmp" $rundirs' EXIT INT TERM

bench_runs
have_tp=0
command -v dpdk-testpmd >/dev/null 2>&1 && [ "$cpu" -gt 0 ] && have_tp=1

# testpmd run: "ns-per-packet-on-CPU Mpps-wall periods cpu-fraction" in $tmp/tp.$1
testpmd_run() {
	lb=""
	command -v stdbuf >/dev/null 2>&1 && lb="stdbuf -oL"
	# shellcheck disable=SC2086
	$lb dpdk-testpmd $eal --file-prefix "bench-tp-$$" -l "$main,$cpu" \
		--vdev=net_ring0 --vdev=net_ring1 -- --forward-mode=macswap --tx-first \
		--nb-cores=1 --stats-period 1 ${TESTPMD_ARGS:-} </dev/null >"$tmp/tp.out" 2>&1 &
	tp=$!
	sleep 2
	# the forwarding lcore's thread: on-CPU ns over the measured window
	tid=""
	for t in "/proc/$tp/task/"*; do
		case "$(cat "$t/comm" 2>/dev/null)" in
		rte-worker-"$cpu" | lcore-worker-"$cpu") tid=${t##*/} ;;
		esac
	done
	lines0=$(wc -l <"$tmp/tp.out")
	t0=$(date +%s%N)
	c0=$(cut -d' ' -f1 "/proc/$tp/task/$tid/schedstat" 2>/dev/null || echo 0)
	sleep $((secs - 2))
	t1=$(date +%s%N)
	c1=$(cut -d' ' -f1 "/proc/$tp/task/$tid/schedstat" 2>/dev/null || echo 0)
	kill -INT "$tp" 2>/dev/null
	wait "$tp"
	# per stats period: Rx-pps of port 0 + port 1 (one lcore forwards both)
	tail -n +"$((lines0 + 1))" "$tmp/tp.out" |
		awk '/Rx-pps:/ { s += $2; n++ } END { if (n >= 2 && s > 0) printf "%.0f %d\n", s / (n / 2), n / 2 }' \
			>"$tmp/tp.pps"
	if [ -s "$tmp/tp.pps" ] && [ -n "$tid" ] && [ "$c1" -gt "$c0" ]; then
		read -r pps periods <"$tmp/tp.pps"
		awk -v p="$pps" -v n="$periods" -v c="$((c1 - c0))" -v t="$((t1 - t0))" \
			'BEGIN { f = c / t; printf "%.3f %.2f %d %.4f\n", 1e9 * f / p, p / 1e6, n, f }' \
			>"$tmp/tp.$1"
	else
		echo "# dpdk-testpmd: no figures (output in $tmp/tp.out):" >&2
		tail -n 20 "$tmp/tp.out" >&2
	fi
}

bench_header
echo "# $bin $eal -l $cpu -- --runs 1 $*  (BENCH_RUNS=$runs times)"
if [ "$have_tp" = 1 ]; then
	echo "# dpdk-testpmd $eal -l $main,$cpu --vdev=net_ring0 --vdev=net_ring1 --" \
		"--forward-mode=macswap --tx-first --nb-cores=1 --stats-period 1" \
		"${TESTPMD_ARGS:+$TESTPMD_ARGS }(${secs} s)"
else
	echo "# dpdk-testpmd not found (or a single CPU): no calibrated figure"
fi
r=1
while [ "$r" -le "$runs" ]; do
	# shellcheck disable=SC2086
	if ! "$bin" $eal --file-prefix "bench-np-$$" -l "$cpu" -- --runs 1 "$@" >"$tmp/np.$r" 2>"$tmp/np.err"; then
		cat "$tmp/np.$r" "$tmp/np.err" >&2
		exit 1
	fi
	[ "$r" = 1 ] && sed -n 's/^# /# bench_np: /p' "$tmp/np.$r"
	[ "$have_tp" = 1 ] && testpmd_run "$r"
	r=$((r + 1))
done

r=1
while [ "$r" -le "$runs" ]; do
	tpf=/dev/null
	[ -s "$tmp/tp.$r" ] && tpf="$tmp/tp.$r"
	awk -v run="$r" '
/^np-ccmad / { np = $4; npw = $2 }
/^macswap / { ms = $4; msw = $2 }
FILENAME !~ /np\./ && NF == 4 { tp = $1; tpw = $2; frac = $4 }
END {
	x = ms / np; extra = np - ms
	if (tp > 0) { cal = tp + extra; printf "%d %.2f %.2f %.2f %.2f %.3f %.2f %.3f %.2f %.2f %.3f\n", run, np, ms, tp, extra, x, cal, tp / cal, npw, tpw, frac }
	else printf "%d %.2f %.2f - %.2f %.3f - - %.2f - -\n", run, np, ms, extra, x, npw
}' "$tmp/np.$r" "$tpf"
	r=$((r + 1))
done >"$tmp/all"

printf "%-3s %8s %8s %8s %8s %10s %9s %10s %8s %8s %6s\n" run "NP-ns" "peer-ns" "tp-ns" \
	"extra" "in-harness" "cal-NP-ns" "calibrated" "NP-Mpps" "tp-Mpps" "tp-cpu"
awk '{ printf "%-3s %8s %8s %8s %8s %10s %9s %10s %8s %8s %6s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$tmp/all"
echo "# NP-ns, peer-ns: on-CPU ns per packet of bench_np's loop with the NP and with testpmd's"
echo "# macswap code (same generator); tp-ns: dpdk-testpmd's on-CPU ns per packet (tp-Mpps per"
echo "# wall second, forwarding thread on a CPU tp-cpu of the window); in-harness = peer-ns /"
echo "# NP-ns; extra = NP-ns - peer-ns; calibrated = tp-ns / (tp-ns + extra)"
awk -v runs="$runs" '
function upd(i, v) { if (v == "-") return; if (!(i in lo) || v < lo[i]) lo[i] = v; if (!(i in hi) || v > hi[i]) hi[i] = v }
{ upd(2, $2); upd(3, $3); upd(4, $4); upd(5, $5); upd(6, $6); upd(8, $8) }
END {
	printf "# %d runs, range: NP %s-%s ns/pkt, testpmd macswap in harness %s-%s ns/pkt, extra %s-%s ns\n", runs, lo[2], hi[2], lo[3], hi[3], lo[5], hi[5]
	printf "ratio NP / testpmd macswap, identical harness (generator in both): %s-%s\n", lo[6], hi[6]
	if (8 in lo)
		printf "ratio NP / dpdk-testpmd per lcore, calibrated (testpmd %s-%s ns/pkt): %s-%s  (target >= 1.0)\n", lo[4], hi[4], lo[8], hi[8]
}' "$tmp/all"
