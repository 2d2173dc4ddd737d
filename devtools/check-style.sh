#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# Keep the tree in DPDK coding style.
#   devtools/check-style.sh          check; print offenders; exit 1 if any
#   devtools/check-style.sh --fix    reformat C sources in place first
#
# Checks: clang-format (.clang-format: DPDK style as clang-format 14 can
# express it) on every C file; an SPDX line on every source, script and
# build file; no trailing whitespace; cppcheck on lib/, app/, drivers/ and
# algos/.

cd "$(dirname "$0")/.." || exit 1
fix=0
[ "$1" = "--fix" ] && fix=1

fail=0
err() {
	echo "check-style: $*"
	fail=1
}

# Tracked and new files in a git checkout; else the source folders (build
# directories may be anywhere, so they are not searched).
files() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		{ git ls-files -- "$@"; git ls-files -o --exclude-standard -- "$@"; } |
			sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done
	else
		for pat in "$@"; do
			case "$pat" in
			*/*) find ${pat%%/*} -type f -name "${pat#*/}" 2>/dev/null ;;
			*) find . -maxdepth 1 -type f -name "$pat" | sed 's|^\./||'
			   find app lib drivers algos config tests devtools doc .ci \
				-type f -name "$pat" 2>/dev/null ;;
			esac
		done | sort -u
	fi
}

cfiles=$(files '*.c' '*.h')
srcfiles=$(files '*.c' '*.h' '*.py' '*.sh' 'meson.build' 'meson_options.txt')

if [ $fix -eq 1 ] && [ -n "$cfiles" ]; then
	echo "$cfiles" | xargs clang-format -i
fi

for f in $cfiles; do
	if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
		err "$f: not clang-formatted (run devtools/check-style.sh --fix)"
	fi
done

for f in $srcfiles; do
	head -n 4 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause' ||
		err "$f: no SPDX-License-Identifier line in the first 4 lines"
	if grep -n '[[:space:]]$' "$f" >/dev/null; then
		err "$f:$(grep -n '[[:space:]]$' "$f" | head -1 | cut -d: -f1): trailing whitespace"
	fi
done

if command -v cppcheck >/dev/null 2>&1; then
	dirs=""
	for d in lib app drivers algos; do
		[ -n "$(files "$d/*.c")" ] && dirs="$dirs $d"
	done
	if [ -n "$dirs" ]; then
		out=$(cppcheck -q --std=c11 --enable=warning,portability,performance \
			--error-exitcode=1 --inline-suppr \
			--suppress=missingIncludeSystem --suppress=unknownMacro \
			$(for d in $dirs; do find "$d" -name '*.h' -exec dirname {} \; ; done |
				sort -u | sed 's/^/-I/') \
			$dirs 2>&1) || err "cppcheck:
$out"
	fi
else
	err "cppcheck not installed (devtools/setup.sh installs it)"
fi

exit $fail
