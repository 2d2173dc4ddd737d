#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Run DTS-style suites and print TAP.

    run.py --build-dir DIR [SUITE...] [-k PATTERN] [-v] [--list]

SUITE is a suite name (proto_interop), a file name (test_proto_interop.py)
or a path; default: every tests/dts/suites/test_*.py.  -k keeps the tests
whose "suite.test" name contains PATTERN (or matches it as a glob).
Exit status 0 if nothing failed (skips are fine), 1 otherwise, 2 on bad
usage.
"""

import argparse
import fnmatch
import glob
import importlib.util
import inspect
import os
import shutil
import signal
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from framework import Settings, SkipTest, TestSuite, TestTimeout  # noqa: E402


def suite_file(name):
    """Path of a suite given by name, file name or path."""
    if os.path.sep in name or name.endswith('.py'):
        cand = [name, os.path.join(HERE, 'suites', os.path.basename(name))]
    else:
        base = name if name.startswith('test_') else 'test_' + name
        cand = [os.path.join(HERE, 'suites', base + '.py')]
    for c in cand:
        if os.path.isfile(c):
            return os.path.abspath(c)
    raise FileNotFoundError('no suite %r (looked for %s)'
                            % (name, ', '.join(cand)))


def suite_name(path):
    base = os.path.splitext(os.path.basename(path))[0]
    return base[len('test_'):] if base.startswith('test_') else base


def load_suite_classes(path):
    name = 'dts_suite_' + suite_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod     # inspect needs it to find the source
    spec.loader.exec_module(mod)
    classes = [c for _, c in inspect.getmembers(mod, inspect.isclass)
               if issubclass(c, TestSuite) and c is not TestSuite and
               c.__module__ == name]
    # definition order
    classes.sort(key=lambda c: inspect.getsourcelines(c)[1])
    return classes


def test_methods(cls):
    """test_* methods in definition order."""
    meths = [(n, m) for n, m in inspect.getmembers(cls, inspect.isfunction)
             if n.startswith('test_')]
    meths.sort(key=lambda nm: inspect.getsourcelines(nm[1])[1])
    return [n for n, _ in meths]


def selected(full_name, patterns):
    if not patterns:
        return True
    return any(p in full_name or fnmatch.fnmatchcase(full_name, p)
               for p in patterns)


class Tap:
    def __init__(self, total, verbose):
        self.n = 0
        self.failed = 0
        self.verbose = verbose
        print('1..%d' % total, flush=True)

    @staticmethod
    def diag(lines):
        for line in lines:
            for sub in str(line).splitlines() or ['']:
                print('# ' + sub)

    def ok(self, name, log=()):
        self.n += 1
        print('ok %d - %s' % (self.n, name))
        if self.verbose:
            self.diag(log)
        sys.stdout.flush()

    def skip(self, name, reason, log=()):
        self.n += 1
        reason = ' '.join(str(reason).split())
        print('ok %d - %s # SKIP %s' % (self.n, name, reason))
        if self.verbose:
            self.diag(log)
        sys.stdout.flush()

    def not_ok(self, name, lines):
        self.n += 1
        self.failed += 1
        print('not ok %d - %s' % (self.n, name))
        self.diag(lines)
        sys.stdout.flush()


def call_guarded(fn, timeout):
    """Run fn() with a SIGALRM-based time limit (safety net only)."""
    limit = max(1, int(timeout))

    def _alarm(signum, frame):
        raise TestTimeout('exceeded the time limit of %d s (time_limit)'
                          % limit)

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    try:
        fn()
    finally:
        signal.alarm(0)


def failure_lines(exc):
    if isinstance(exc, AssertionError) and not isinstance(exc, TestTimeout):
        tb = traceback.extract_tb(exc.__traceback__)
        where = tb[-1] if tb else None
        lines = str(exc).splitlines() or ['assertion failed']
        if where:
            lines.append('at %s:%d (%s)' % (os.path.basename(where.filename),
                                             where.lineno, where.name))
        return lines
    return traceback.format_exception(type(exc), exc,
                                      exc.__traceback__)[-12:]


def _runtime_base():
    if os.geteuid() == 0:
        return '/var/run/dpdk'
    return os.path.join(os.environ.get('XDG_RUNTIME_DIR', '/tmp'), 'dpdk')


def _runtime_dirs():
    try:
        return set(os.listdir(_runtime_base()))
    except OSError:
        return set()


def _live_unix_paths():
    """Paths of the unix sockets bound on this machine (a running DPDK
    process has its telemetry or multi-process socket in its runtime
    directory)."""
    paths = set()
    try:
        with open('/proc/net/unix', encoding='utf-8') as f:
            next(f)
            for line in f:
                parts = line.split()
                if len(parts) >= 8:
                    paths.add(parts[7])
    except OSError:
        pass
    return paths


def remove_runtime_dirs(before):
    """The EAL leaves /var/run/dpdk/<prefix> behind: remove those the
    suite's processes made (not there before it, no live socket in them)."""
    base = _runtime_base()
    live = _live_unix_paths()
    for name in sorted(_runtime_dirs() - before):
        d = os.path.join(base, name)
        if any(p.startswith(d + '/') for p in live):
            continue
        shutil.rmtree(d, ignore_errors=True)


def run_suite(tap, settings, path, cls, tests):
    before = _runtime_dirs()
    try:
        _run_suite(tap, settings, path, cls, tests)
    finally:
        remove_runtime_dirs(before)


def _run_suite(tap, settings, path, cls, tests):
    sname = suite_name(path)
    suite = cls(settings, sname, settings.suite_work_dir(sname))
    names = ['%s.%s' % (sname, t) for t in tests]

    try:
        call_guarded(suite.set_up_suite, cls.time_limit)
    except SkipTest as e:
        for n in names:
            tap.skip(n, e)
        return
    except BaseException as e:  # noqa: B902 - report, then go on
        lines = ['set_up_suite failed:'] + failure_lines(e)
        lines += suite._take_log()
        for n in names:
            tap.not_ok(n, lines)
        try:
            suite.tear_down_suite()
        except Exception:   # noqa: B902
            pass
        if isinstance(e, KeyboardInterrupt):
            raise
        return

    for t, n in zip(tests, names):
        suite._begin_test()
        state = {'skip': None, 'fail': []}

        def one():
            try:
                suite.set_up()
                getattr(suite, t)()
            except SkipTest as e:
                state['skip'] = e
            except KeyboardInterrupt:
                raise
            except BaseException as e:  # noqa: B902
                state['fail'] += failure_lines(e)
            finally:
                try:
                    suite.tear_down()
                except SkipTest:
                    pass
                except BaseException as e:  # noqa: B902
                    state['fail'] += ['tear_down failed:'] + \
                        failure_lines(e)
        try:
            call_guarded(one, cls.time_limit)
        except TestTimeout as e:
            state['fail'] += failure_lines(e)
        soft = suite._take_soft_failures()
        log = suite._take_log()
        if soft:
            state['fail'] += ['%d check(s) failed:' % len(soft)] + \
                ['  ' + s for s in soft[:100]]
            if len(soft) > 100:
                state['fail'].append('  ... %d more' % (len(soft) - 100))
        if state['fail']:
            tap.not_ok(n, state['fail'] + log)
        elif state['skip'] is not None:
            tap.skip(n, state['skip'], log)
        else:
            tap.ok(n, log)

    try:
        call_guarded(suite.tear_down_suite, cls.time_limit)
    except BaseException as e:  # noqa: B902
        tap.diag(['tear_down_suite of %s failed:' % sname] +
                 failure_lines(e))
        tap.failed += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--build-dir', required=True,
                    help='meson build directory under test')
    ap.add_argument('suites', nargs='*', metavar='SUITE')
    ap.add_argument('-k', dest='patterns', action='append', default=[],
                    metavar='PATTERN', help='select tests (substring/glob)')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='print test logs of passing tests too')
    ap.add_argument('--list', action='store_true',
                    help='list the selected tests and exit')
    args = ap.parse_args()

    if not os.path.isdir(args.build_dir):
        ap.error('--build-dir %s: not a directory' % args.build_dir)
    settings = Settings(args.build_dir, verbose=args.verbose)

    try:
        paths = [suite_file(s) for s in args.suites] or \
            sorted(glob.glob(os.path.join(HERE, 'suites', 'test_*.py')))
    except FileNotFoundError as e:
        ap.error(str(e))

    plan = []
    load_errors = []
    for p in paths:
        try:
            classes = load_suite_classes(p)
        except Exception as e:  # noqa: B902
            load_errors.append((suite_name(p), failure_lines(e)))
            continue
        for cls in classes:
            tests = [t for t in test_methods(cls)
                     if selected('%s.%s' % (suite_name(p), t),
                                 args.patterns)]
            if tests:
                plan.append((p, cls, tests))

    if args.list:
        try:
            for p, cls, tests in plan:
                for t in tests:
                    print('%s.%s' % (suite_name(p), t))
            sys.stdout.flush()
        except BrokenPipeError:     # e.g. run.py --list | head
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

    total = sum(len(t) for _, _, t in plan) + len(load_errors)
    tap = Tap(total, args.verbose)
    for name, lines in load_errors:
        tap.not_ok('%s.load' % name, ['cannot load suite:'] + lines)
    for p, cls, tests in plan:
        run_suite(tap, settings, p, cls, tests)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
