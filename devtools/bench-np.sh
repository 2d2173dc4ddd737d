#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/bench-np.sh [BUILDDIR] [bench_np options...]
# NP probe reflection, packets/s per lcore, against dpdk-testpmd
# --forward-mode=macswap --tx-first on a net_ring pair, in one run.
#
# Builds tests/bench/bench_np in BUILDDIR (default: build) and runs, on the
# last CPU:
#  1. bench_np: CCMAD probe requests circulate on a ring pair between the
#     dpdk-pcc engine's NP port (the worker loop dpdk-pcc runs) and a
#     generator that turns each response back into its request, both on
#     one lcore; then the same loop with testpmd's macswap in place of the
#     NP (tests/bench/bench_np.c);
#  2. dpdk-testpmd --vdev=net_ring0 --vdev=net_ring1 --forward-mode=macswap
#     --tx-first, one forwarding lcore (REFERENCE section 4), for
#     TESTPMD_SECONDS (default 10; the first 2 are warm-up).
# Prints one table: packets/s per wall-clock second and per second the
# lcore's thread was on a CPU (from /proc/.../schedstat for testpmd), the
# ns per packet spent in bench_np's generator (TSC around its step) and
# the forwarder's alone (on-CPU ns per packet less the generator's: what
# testpmd's per-lcore figure measures, as testpmd has no generator: the
# ratio the 0.8x target is judged on), and the ratios, both ways.
# Options go to bench_np (--time, --warmup, --inflight, --burst, --ipv6,
# --vlan); EAL options in BENCH_EAL go to both programs
# (e.g. BENCH_EAL=--force-max-simd-bitwidth=512 for the NP's 512-bit
# vectors); options in TESTPMD_ARGS go to testpmd after its own (e.g.
# TESTPMD_ARGS=--burst=64 with bench_np's --burst 64 --inflight 128).
# doc/perf.md has the figures measured here.

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=devtools/bench-lib.sh
. devtools/bench-lib.sh
dir=build
case "$1" in
-* | "") ;;
*)
	dir=$1
	shift
	;;
esac
bench_build "$dir" bench_np
secs=${TESTPMD_SECONDS:-10}
case "$secs" in
'' | *[!0-9]*) secs=0 ;;
esac
if [ "$secs" -lt 5 ]; then
	echo "bench-np.sh: invalid TESTPMD_SECONDS '${TESTPMD_SECONDS}' (expected seconds," \
		"5 or more: 2 of warm-up, testpmd's statistics every 1-2 s)" >&2
	exit 1
fi
cpu=$(($(nproc) - 1))
main=0
eal="--no-huge -m 1024 --no-pci --no-shconf --log-level=lib.eal:error ${BENCH_EAL:-}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

bench_header
echo "# $bin $eal -l $cpu -- $*"
# shellcheck disable=SC2086
if ! "$bin" $eal --file-prefix "bench-np-$$" -l "$cpu" -- "$@" >"$tmp/np.out" 2>"$tmp/np.err"; then
	cat "$tmp/np.out" "$tmp/np.err" >&2
	exit 1
fi
sed -n 's/^# /# bench_np: /p' "$tmp/np.out"

# testpmd: forwarding lcore on the same CPU as the loop above
tp_ok=0
if command -v dpdk-testpmd >/dev/null 2>&1 && [ "$cpu" -gt 0 ]; then
	echo "# dpdk-testpmd $eal -l $main,$cpu --vdev=net_ring0 --vdev=net_ring1 --" \
		"--forward-mode=macswap --tx-first --nb-cores=1 --stats-period 1" \
		"${TESTPMD_ARGS:+$TESTPMD_ARGS }(${secs} s)"
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
		tp_ok=1
		read -r tp_pps tp_periods <"$tmp/tp.pps"
		tp_frac=$(awk -v c="$((c1 - c0))" -v t="$((t1 - t0))" 'BEGIN { printf "%.4f", c / t }')
	else
		echo "# dpdk-testpmd: no figures (output in $tmp/tp.out):" >&2
		tail -n 20 "$tmp/tp.out" >&2
	fi
else
	echo "# dpdk-testpmd not found (or a single CPU): no testpmd figure"
fi

awk -v tp_ok="$tp_ok" -v tp_pps="${tp_pps:-0}" -v tp_frac="${tp_frac:-1}" \
	-v tp_periods="${tp_periods:-0}" '
/^np-ccmad / { np = $3; npw = $2; npg = $5; npf = $6 }
/^macswap / { ms = $3; msw = $2; msg = $5; msf = $6 }
END {
	printf "%-44s %10s %12s %8s %8s %8s\n", "loop (one lcore)", "Mpps", "Mpps/cpu-s", "ns/pkt", "gen-ns", "fwd-ns"
	printf "%-44s %10.2f %12.2f %8.1f %8.1f %8.1f\n", "dpdk-pcc NP, CCMAD requests + generator", npw, np, 1000 / np, npg, npf
	printf "%-44s %10.2f %12.2f %8.1f %8.1f %8.1f\n", "bench macswap + the same generator", msw, ms, 1000 / ms, msg, msf
	if (tp_ok) {
		tw = tp_pps / 1e6; tc = tw / tp_frac
		printf "%-44s %10.2f %12.2f %8.1f %8s %8.1f\n", "dpdk-testpmd macswap --tx-first, 2 ports", tw, tc, 1000 / tc, "-", 1000 / tc
		printf "%-44s %10.2f %12.2f %8.1f\n", "  per port (testpmd counts each port)", tw / 2, tc / 2, 2000 / tc
		if (npf > 0)
			printf "ratio NP / testpmd per lcore, forwarder alone (generator time taken out)  %.3f   (target >= 0.8)\n", (1000 / tc) / npf
		printf "ratio NP / testpmd per lcore, whole loop (the generator charged to the NP)  %.3f\n", np / tc
		printf "ratio NP / testpmd per port, whole loop  %.3f\n", np / (tc / 2)
		printf "# testpmd: %d stats periods, forwarding thread on a CPU %.1f%% of the window\n", tp_periods, 100 * tp_frac
	}
	printf "ratio NP / macswap, same loop     %.3f\n", np / ms
	if (npf > 0)
		printf "ratio NP / macswap, forwarder alone %.3f\n", msf / npf
}' "$tmp/np.out"
