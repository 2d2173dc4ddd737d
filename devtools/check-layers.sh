#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors
#
# devtools/check-layers.sh [ROOT]
#
# The layers point one way (doc/engine.md, "Layers"):
#
#   app/dpdk-pcc, lib/compat -> lib/simrun -> lib/host -> lib/engine ->
#   lib/dev, lib/pacer, drivers/pacer -> lib/proto; algos/ -> lib/dev;
#   lib/simrun -> drivers/sim -> lib/proto; lib/simrun -> algos/ (profiles);
#   lib/file (private files) below app, lib/host, lib/dev and drivers/sim;
#   lib/flowspec (flow groups and units in YAML) below lib/host and drivers/sim
#
# Fails (exit 1, one line per crossing: file, line, what, why) when a
# source file of a component
#   - includes a header of a component it may not use (a higher layer or a
#     sibling), or another component's *_internal.h;
#   - calls or names a function of such a component (pcc_host_*,
#     pcc_engine_*, pcc_algos_*, pcc_sim_*, pcc_tp_*, app_*), even
#     declared by hand;
#   - outside lib/host (and the engine itself), creates, starts, stops or
#     hooks the engine: the engine is configured and run only through
#     lib/host ("one configuration path").
# Tests, benchmarks and tools (tests/) may use any layer, but for the
# host program tests/tools/pcc_host_example.c: lib/host's public API only
# (what a program written against pcc_host.h gets).  Quiet on success.

cd "${1:-$(dirname "$0")/..}" || exit 1
exec /usr/bin/python3 - "$@" <<'EOF'
import os
import re
import sys

# component: (folders, components it may use)
COMPONENTS = {
    'file': (['lib/file'], []),
    'proto': (['lib/proto'], []),
    'flowspec': (['lib/flowspec'], []),
    'dev': (['lib/dev'], ['proto', 'file']),
    'pacer': (['lib/pacer'], ['proto']),
    'pacer_drivers': (['drivers/pacer'], ['pacer', 'proto']),
    'sim': (['drivers/sim'], ['proto', 'file', 'flowspec']),
    'algos': (['algos'], ['dev', 'proto']),
    'engine': (['lib/engine'], ['proto', 'dev', 'pacer', 'pacer_drivers']),
    'host': (['lib/host'], ['engine', 'algos', 'dev', 'pacer', 'proto', 'file', 'flowspec']),
    'simrun': (['lib/simrun'], ['host', 'engine', 'algos', 'dev', 'pacer', 'proto', 'sim',
                                'flowspec']),
    'compat': (['lib/compat'], ['simrun', 'host', 'engine', 'algos', 'dev', 'pacer', 'proto',
                                'sim', 'flowspec']),
    'app': (['app'], ['simrun', 'host', 'engine', 'algos', 'dev', 'pacer', 'proto', 'sim',
                      'pacer_drivers', 'file', 'flowspec']),
    'host_program': (['tests/tools/pcc_host_example.c'], ['host']),
}

# function prefixes a component owns (checked for components that may not
# use it); lower layers' prefixes are not checked (pcc_dev_ etc. are used
# legitimately everywhere above)
PREFIXES = {
    'host': [r'pcc_host_\w+', r'pcc_tp_\w+'],
    'engine': [r'pcc_engine_\w+', r'pcc_ring_pair_\w+'],
    'algos': [r'pcc_algos_\w+'],
    'sim': [r'pcc_sim_\w+'],
    'simrun': [r'pcc_simrun_\w+'],
    'app': [r'app_\w+'],
    'file': [r'pcc_file_\w+'],
    'flowspec': [r'pcc_flowspec_\w+', r'pcc_unit_\w+'],
}

# "one configuration path": only lib/host (and the engine) drives it
ENGINE_DRIVE = re.compile(r'\b(pcc_engine_(create|start|stop|wait|destroy|main_loop|'
                          r'set_hooks|set_poll_hook|conf_default))\s*\(')
DRIVE_OK = {'host', 'engine'}

root = '.'
headers = {}  # header file name -> component


def sources(folder):
    """(directory, file names) of a folder, or of a single file."""
    path = os.path.join(root, folder)
    if os.path.isfile(path):
        yield os.path.dirname(path), [os.path.basename(path)]
        return
    for d, _, files in os.walk(path):
        yield d, files


for comp, (folders, _) in COMPONENTS.items():
    for folder in folders:
        for d, files in sources(folder):
            for f in files:
                if f.endswith('.h'):
                    headers[f] = comp


def component_of(path):
    for comp, (folders, _) in COMPONENTS.items():
        for folder in folders:
            if path == folder or path.startswith(folder + '/'):
                return comp
    return None


INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(\\.|[^"\\])*"')
bad = []

for comp, (folders, uses) in COMPONENTS.items():
    allowed = set(uses) | {comp}
    for folder in folders:
        for d, files in sources(folder):
            for f in sorted(files):
                if not f.endswith(('.c', '.h')):
                    continue
                path = os.path.relpath(os.path.join(d, f), root)
                text = open(path, encoding='utf-8', errors='replace').read()
                for no, line in enumerate(text.split('\n'), 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    name = os.path.basename(m.group(1))
                    owner = headers.get(name)
                    if owner is None:
                        continue
                    if owner not in allowed:
                        bad.append('%s:%d: includes %s (%s): %s may not use %s' %
                                   (path, no, name, owner, comp, owner))
                    elif name.endswith('_internal.h') and owner != comp:
                        bad.append('%s:%d: includes %s: internal to %s' %
                                   (path, no, name, owner))
                # calls and names, comments and strings left out
                code = COMMENT.sub(lambda m: '\n' * m.group(0).count('\n'), text)
                code = STRING.sub('""', code)
                for owner, pats in PREFIXES.items():
                    if owner in allowed:
                        continue
                    for pat in pats:
                        for m in re.finditer(r'\b' + pat + r'\b', code):
                            no = code.count('\n', 0, m.start()) + 1
                            bad.append('%s:%d: names %s (%s): %s may not use %s' %
                                       (path, no, m.group(0), owner, comp, owner))
                if comp not in DRIVE_OK:
                    for m in ENGINE_DRIVE.finditer(code):
                        no = code.count('\n', 0, m.start()) + 1
                        bad.append('%s:%d: calls %s: the engine is configured and run '
                                   'through lib/host only' % (path, no, m.group(1)))

for b in bad:
    print('check-layers: ' + b)
sys.exit(1 if bad else 0)
EOF
