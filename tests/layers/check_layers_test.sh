#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/check-layers.sh passes on the tree, and fails, naming the file,
# line and layers, on copies of it with a crossing put in on purpose: an
# include of lib/host from the engine, a hand-declared call of lib/host
# from the engine, another component's internal header, the app
# starting the engine itself, and the host program (tests/tools) reaching
# past pcc_host.h.  TAP output.

top=$(cd "$(dirname "$0")/../.." && pwd)
check="$top/devtools/check-layers.sh"
tmp=$(mktemp -d /tmp/pcc-layers-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
fail=0

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	fail=1
	echo "not ok $n - $1"
	[ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/# /'
}

# A copy of the sources the check reads.
copy_tree() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree"
	(cd "$top" && tar cf - lib drivers algos app tests/tools) | (cd "$tmp/tree" && tar xf -)
}

# $1 what, $2 file to edit, $3 sed script, $4 text the report must hold
expect_fail() {
	copy_tree
	sed -i "$3" "$tmp/tree/$2"
	out=$("$check" "$tmp/tree" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && printf '%s' "$out" | grep -qF -- "$4"; then
		ok "fails on $1: $(printf '%s' "$out" | head -1)"
	else
		not_ok "fails on $1" "exit $rc, output: $out"
	fi
}

out=$("$check" "$top" 2>&1)
if [ $? -eq 0 ] && [ -z "$out" ]; then
	ok "the tree passes, quietly"
else
	not_ok "the tree passes" "$out"
fi

expect_fail "lib/engine including pcc_host.h" lib/engine/worker.c \
	'0,/^#include "engine_internal.h"/s//#include "pcc_host.h"\n#include "engine_internal.h"/' \
	'includes pcc_host.h (host): engine may not use host'
expect_fail "lib/engine calling lib/host by hand" lib/engine/worker.c \
	'$a unsigned int pcc_host_mailbox_poll(void);' \
	'names pcc_host_mailbox_poll (host): engine may not use host'
expect_fail "lib/proto including lib/dev" lib/proto/proto_parse.c \
	'0,/^#include "proto_internal.h"/s//#include "pcc_dev.h"\n#include "proto_internal.h"/' \
	'includes pcc_dev.h (dev): proto may not use dev'
expect_fail "lib/engine registering the algorithms" lib/engine/rp.c \
	'$a int pcc_algos_register_builtin(void);' \
	'names pcc_algos_register_builtin (algos): engine may not use algos'
expect_fail "the app including an internal header" app/dpdk-pcc/main.c \
	'0,/^#include "args.h"/s//#include "host_internal.h"\n#include "args.h"/' \
	'includes host_internal.h: internal to host'
expect_fail "the app starting the engine itself" app/dpdk-pcc/main.c \
	'$a static void x(struct pcc_engine *e) { pcc_engine_start(e); }' \
	'calls pcc_engine_start: the engine is configured and run through lib/host only'
expect_fail "the host program using the engine's header" tests/tools/pcc_host_example.c \
	'0,/^#include "pcc_host.h"/s//#include "pcc_engine.h"\n#include "pcc_host.h"/' \
	'includes pcc_engine.h (engine): host_program may not use engine'

echo "1..$n"
exit $fail
