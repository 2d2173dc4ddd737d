#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# Install the Debian 12 packages dpdk-pcc needs, only those that are
# missing.  Quiet when nothing is missing.  Needs root (or sudo) to install.

set -e

PKGS="dpdk dpdk-dev libdpdk-dev libibverbs-dev libpcap-dev libcmocka-dev
zlib1g-dev libyaml-dev libjansson-dev meson ninja-build pkg-config gcc clang
libclang-rt-14-dev python3 python3-pexpect python3-scapy tshark cppcheck prometheus
clang-format gnuplot-nox babeltrace python3-yaml parallel slurm-client
python3-jsonschema stress-ng"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "setup.sh: missing packages:$missing (run as root to install)" >&2
		exit 1
	}
	SUDO=sudo
fi

echo "setup.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture: answer no, silently.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$SUDO debconf-set-selections
log=$(mktemp)
if ! { $SUDO apt-get update -q && \
		$SUDO apt-get install -y -q --no-install-recommends $missing; } \
		>"$log" 2>&1; then
	cat "$log" >&2
	rm -f "$log"
	echo "setup.sh: apt-get failed" >&2
	exit 1
fi
rm -f "$log"
