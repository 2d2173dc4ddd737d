#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# Install what is missing, build, and run dpdk-pcc on virtual ports:
# a ring pair (port 0 = RP, port 1 = NP) with four generated RoCEv2 RDMA
# WRITE flows.  A test knob marks 5% of the generated packets ECN CE (a
# congested path); the NP turns each mark into a CNP for the sending QP and
# the RP counts the CNPs per flow.  Every number printed comes from live
# counters.  Extra arguments are appended to the app arguments.

cd "$(dirname "$0")/.." || exit 1
devtools/setup.sh || exit 1
devtools/build.sh build || exit 1

exec build/app/dpdk-pcc/dpdk-pcc \
	--no-huge -m 1024 --no-pci --no-shconf --file-prefix pcc-demo -l 0-1 \
	--log-level=lib.eal:error --log-level=lib.telemetry:error \
	--log-level='pcc.*:notice' \
	-- --ring-pair --gen-flows 4 --gen-rate 2000 --gen-size 1024 \
	--gen-ce 5 --run-time 3 --stats-period 0 "$@"
