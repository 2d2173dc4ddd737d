# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# Bash completion for dpdk-pcc (installed as
# share/bash-completion/completions/dpdk-pcc).  Options and their value
# hints come from `dpdk-pcc --help` itself, so they cannot drift from the
# binary: NAME|NAME alternatives, the algorithms --algo lists, files for
# FILE/PATH/PLUGIN arguments, directories for DIR.  Before '--' the EAL's
# common options are offered.  The interactive console (-i) completes its
# own commands with Tab (doc/console.md).

_dpdk_pcc_help()
{
	local bin=$1
	if [[ -z ${_dpdk_pcc_help_cache-} || ${_dpdk_pcc_help_bin-} != "$bin" ]]; then
		_dpdk_pcc_help_cache=$("$bin" --help 2>/dev/null)
		_dpdk_pcc_help_bin=$bin
	fi
	printf '%s\n' "$_dpdk_pcc_help_cache"
}

_dpdk_pcc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} help spec i app=0

	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] && app=1
	done
	if [[ $app == 0 ]]; then
		if [[ $cur == - || $cur == --* && $prev != --file-prefix ]]; then
			COMPREPLY=($(compgen -W "-- -l -m --no-huge --no-pci --no-shconf \
				--file-prefix --vdev --log-level --in-memory --help --help-eal \
				--version --trace --trace-dir" -- "$cur"))
		fi
		return 0
	fi
	help=$(_dpdk_pcc_help "$bin")
	if [[ $prev == --* ]]; then
		# the argument spec of prev: the word after it on its help line
		spec=$(printf '%s\n' "$help" | sed -n "s/^ *\(-[a-z], \)\{0,1\}${prev} \([^ ]*\).*/\2/p" |
			head -n 1)
		case $prev in
		--algo)
			COMPREPLY=($(compgen -W "$(printf '%s\n' "$help" |
				sed -n '/--algo NAME/,/^ *--/p' | tr -d '\n' |
				sed -n 's/.*(\([^)]*\).*/\1/p' | tr ',' ' ' |
				sed 's/ or .*//')" -- "$cur"))
			return 0
			;;
		esac
		case $spec in
		*'|'*)
			COMPREPLY=($(compgen -W "${spec//|/ }" -- "$cur"))
			return 0
			;;
		FILE|PATH|PLUGIN|SCENARIO*)
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
			;;
		DIR)
			COMPREPLY=($(compgen -d -- "$cur"))
			return 0
			;;
		'')
			;;
		*)
			return 0 # a number or a name: nothing to offer
			;;
		esac
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$help" |
			grep -oE -- '^ +(-[a-z], )?--[a-z0-9][a-z0-9-]*' |
			grep -oE -- '--[a-z0-9-]+' | sort -u)" -- "$cur"))
	fi
	return 0
}
complete -F _dpdk_pcc dpdk-pcc
