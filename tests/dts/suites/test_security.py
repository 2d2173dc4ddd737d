# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Issue 20's local threat model (doc/host.md, "Files and the local threat
model"): an unprivileged user, created for the suite, tries what the
issue did against dpdk-pcc run by root (and by a second unprivileged
user): block a failover by locking the HA lock file, forge or read the
HA state through a lock directory others may write into or a file
planted before, and redirect the crash report through a symbolic link.
Every attempt must be refused; each refusal is printed with its reason
(TAP comments), the attacker's errno or dpdk-pcc's exit-2 line."""

import io
import os
import pwd
import shutil
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402
from framework.app import AppSession, unique_file_prefix  # noqa: E402
from framework.telemetry import tlm_wait  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402
from framework.utils import run_cmd  # noqa: E402

try:
    import pexpect
except ImportError:
    pexpect = None

TRAFFIC = ['--ring-pair', '--algo', 'dcqcn', '--gen-flows', '4',
           '--gen-qpn', '0x100', '--gen-rate', '1000', '--idle-sleep', '50',
           '--stats-period', '0']
HA_TIMING = ['--ha-heartbeat-ms', '20', '--ha-stale-ms', '100']

# What the attacker runs: each attempt prints "refused <what>: <reason>"
# or "DONE <what>"; with 'hold' it then keeps whatever it got (file
# descriptors, locks) until its stdin closes.
ATTACK = r'''
import fcntl, os, struct, sys
act, args = sys.argv[1], sys.argv[2:]
got = []
def attempt(what, fn):
    try:
        r = fn()
        print('DONE %s' % what, flush=True)
        return r
    except OSError as e:
        print('refused %s: %s' % (what, e), flush=True)
def lock_bytes(fd):
    # read locks on every free LEADER and TAKEOVER byte of generations
    # 0..63 (the ACTIVE's own leader byte is held: skipped)
    n = 0
    for off in range(4096, 4096 + 2 * 64):
        try:
            fcntl.fcntl(fd, fcntl.F_OFD_SETLK,
                        struct.pack('hhqqi', fcntl.F_RDLCK, 0, off, 1, 0))
            n += 1
        except OSError:
            pass
    if n == 0:
        raise OSError('no byte could be locked')
if act == 'lock':
    for path in args:
        fd = attempt('open %s to lock it' % path,
                     lambda: os.open(path, os.O_RDONLY))
        if fd is not None:
            got.append(fd)
            attempt('read-lock the leader and takeover bytes of %s' % path,
                    lambda: lock_bytes(fd))
elif act == 'read':
    for path in args:
        attempt('read %s' % path, lambda: open(path, 'rb').read())
elif act == 'create':
    for path in args:
        attempt('create %s' % path,
                lambda: os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)))
elif act == 'plant':
    # plant DIR TARGET: DIR (made 0777 if missing; a shared sticky one is
    # used as it is) with a forged journal,
    # a lock file and a link to TARGET, all open to everyone
    d, target = args
    if not os.path.isdir(d):
        os.makedirs(d)
        os.chmod(d, 0o777)
    for name, text in (('pcc-ha-sec.lock', ''),
                       ('pcc-ha-sec.lock.journal',
                        '1 0 0 min_rate_mbps 1\n1 0 0 g 1\n')):
        with open(os.path.join(d, name), 'w') as f:
            f.write(text)
        os.chmod(os.path.join(d, name), 0o666)
    attempt('link %s/report -> %s' % (d, target),
            lambda: os.symlink(target, os.path.join(d, 'report')))
elif act == 'procfd':
    for pid in args:
        for fdn in range(3, 64):
            p = '/proc/%s/fd/%d' % (pid, fdn)
            try:
                if 'pcc-ha' not in os.readlink(p):
                    continue
            except OSError as e:
                if fdn == 3:
                    print('refused readlink %s: %s' % (p, e), flush=True)
                    break
                continue
            fd = attempt('open %s to lock it' % p,
                         lambda: os.open(p, os.O_RDONLY))
            if fd is not None:
                got.append(fd)
                attempt('read-lock through %s' % p, lambda: lock_bytes(fd))
if 'hold' in os.environ.get('ATTACK_MODE', ''):
    print('holding', flush=True)
    sys.stdin.read()
'''


class TestSecurity(TestSuite):

    def set_up_suite(self):
        if os.geteuid() != 0:
            raise SkipTest('needs root: users are created for the suite')
        for tool in ('useradd', 'userdel', 'setpriv'):
            if shutil.which(tool) is None:
                raise SkipTest('%s not installed' % tool)
        self.app = self.dpdk_pcc()
        self.users = []
        tag = os.getpid() % 100000
        self.attacker = self.add_user('pcca%d' % tag)
        self.victim = self.add_user('pccv%d' % tag)
        self.sessions = []
        self.helpers = []
        self.plugin = os.path.join(self.build_dir, 'tests', 'unit',
                                   'plugins', 'plug_fault.so')

    def add_user(self, name):
        if subprocess.run(['id', name], capture_output=True).returncode != 0:
            res = run_cmd(['useradd', '-M', '-r', '-U', '-s',
                           '/usr/sbin/nologin', name], timeout=30)
            self.verify(res.returncode == 0, 'useradd %s: %s'
                        % (name, res.describe()))
        self.users.append(name)
        return pwd.getpwnam(name)

    def tear_down_suite(self):
        for u in getattr(self, 'users', []):
            shutil.rmtree('/tmp/dpdk-pcc-%d' % pwd.getpwnam(u).pw_uid,
                          ignore_errors=True)
            run_cmd(['userdel', u], timeout=30)

    def tear_down(self):
        for s in self.sessions:
            s.close(grace=5)
        self.sessions = []
        for h in self.helpers:
            if h.poll() is None:
                h.kill()
            h.wait()
        self.helpers = []

    # ---- helpers ------------------------------------------------------

    def as_user(self, user):
        return ['setpriv', '--reuid=%d' % user.pw_uid,
                '--regid=%d' % user.pw_gid, '--clear-groups', '--']

    def attack(self, act, *args):
        """Run an attack to completion as the attacker; returns its
        lines, each refusal noted."""
        res = run_cmd(self.as_user(self.attacker) +
                      ['/usr/bin/python3', '-c', ATTACK, act] +
                      [str(a) for a in args], timeout=30, cwd='/')
        lines = res.stdout.splitlines()
        for l in lines:
            if l.startswith('refused'):
                self.note('attacker %s' % l)
        self.log(res.describe())
        return lines

    def attack_hold(self, act, *args):
        """An attack that keeps what it got while the test goes on."""
        p = subprocess.Popen(self.as_user(self.attacker) +
                             ['/usr/bin/python3', '-c', ATTACK, act] +
                             [str(a) for a in args],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, cwd='/',
                             env=dict(os.environ, ATTACK_MODE='hold'))
        self.helpers.append(p)
        lines = []
        for line in p.stdout:
            line = line.rstrip('\n')
            if line == 'holding':
                break
            lines.append(line)
            if line.startswith('refused'):
                self.note('attacker %s' % line)
        return lines

    def spawn(self, prefix, app_args, user=None, lcores='0-1'):
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        cmd = [self.app.path, '--no-huge', '-m', '1024', '--no-pci',
               '--file-prefix', prefix, '-l', lcores, '--'] + \
            [str(a) for a in app_args]
        log = io.StringIO()
        child = pexpect.spawn(cmd[0], cmd[1:], timeout=30,
                              encoding='utf-8', codec_errors='replace')
        child.logfile_read = log
        s = AppSession(child, ' '.join(cmd), log)
        self.sessions.append(s)
        return s

    def refused_by_app(self, args, token, user=None, env=None):
        """dpdk-pcc exits 2 with a line naming token; noted."""
        cmd = self.app.cmdline(args, lcores='0')
        if user is not None:
            cmd = self.as_user(user) + ['env', '-u', 'XDG_RUNTIME_DIR'] + cmd
        res = run_cmd(cmd, timeout=60, cwd='/tmp')
        line = [l for l in res.stderr.splitlines()
                if l.startswith('dpdk-pcc:')]
        self.verify(res.returncode == 2 and line and token in line[0],
                    'expected exit 2 and a line with %r:\n%s'
                    % (token, res.describe()))
        self.note('dpdk-pcc refused (exit 2): %s' % line[0])
        return line[0]

    def private_dir(self, name, mode=0o700):
        d = self.work_path(name)
        shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
        os.chmod(d, mode)
        return d

    def shared_dir(self, name, mode=0o1777):
        d = os.path.join('/tmp', 'pcc-sec-%d-%s' % (os.getpid(), name))
        shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
        os.chmod(d, mode)
        return d

    # ---- failover ----------------------------------------------------

    def test_failover_not_blockable(self):
        """The issue's attack: a read lock on the lock file's leader and
        takeover bytes held across a SIGKILL of the ACTIVE.  The lock
        file is 0600 (here in a 0755 directory: the file mode alone
        stops it), so the attacker cannot open it, directly or through
        /proc; the STANDBY takes over at once."""
        lock_dir = self.private_dir('ha-block', 0o755)
        name = 'blk%d' % os.getpid()
        ha = ['--ha', '%s:%s' % (name, lock_dir)] + HA_TIMING
        pa, pb = unique_file_prefix('sec-a'), unique_file_prefix('sec-b')
        a = self.spawn(pa, TRAFFIC + ha)
        a.expect(r'HA \S+: ACTIVE \(generation', timeout=30)
        b = self.spawn(pb, TRAFFIC + ha)
        b.expect(r'HA \S+: STANDBY: waiting', timeout=30)
        lock = os.path.join(lock_dir, 'pcc-ha-%s.lock' % name)
        for f in (lock, lock + '.journal'):
            st = os.stat(f)
            self.assert_equal(stat.S_IMODE(st.st_mode), 0o600, 'mode of %s' % f)
        out = self.attack_hold('lock', lock)
        self.verify(not any(l.startswith('DONE') for l in out),
                    'the attacker got hold of the lock file: %s' % out)
        out = self.attack('procfd', a.child.pid, b.child.pid)
        self.verify(not any(l.startswith('DONE') for l in out),
                    'the attacker opened it through /proc: %s' % out)
        tlm_wait(pa, '/pcc/stats', lambda r: r.get('gen_pkts', 0) > 0)
        t0 = time.monotonic()
        a.child.kill(signal.SIGKILL)
        b.expect(r'HA \S+: ACTIVE \(generation', timeout=10)
        self.note('failover with the attacker running: %.0f ms to ACTIVE'
                  % ((time.monotonic() - t0) * 1e3))
        self.assert_equal(b.close(), 0, 'B exit status')

    # ---- HA state ------------------------------------------------------

    def test_ha_state_not_forgeable(self):
        """Lock directories others may write into, files planted by the
        attacker, files left open to others: all refused before the
        engine starts; the attacker can neither read nor add to the
        state of a running pair."""
        shared = self.shared_dir('ha')
        self.attack('plant', shared, '/etc/shadow')
        self.refused_by_app(TRAFFIC + ['--ha', 'sec:%s' % shared],
                            'writable by others')
        # a directory of the attacker's, given by mistake
        theirs = os.path.join(shared, 'theirs')
        self.attack('plant', theirs, '/etc/shadow')
        self.refused_by_app(TRAFFIC + ['--ha', 'sec:%s' % theirs],
                            'owned by uid %d' % self.attacker.pw_uid)
        # a running ACTIVE: nothing to read, nothing to add
        lock_dir = self.private_dir('ha-state', 0o755)
        pa = unique_file_prefix('sec-st')
        a = self.spawn(pa, TRAFFIC + ['--ha', 'sec:%s' % lock_dir] + HA_TIMING)
        a.expect(r'HA \S+: ACTIVE \(generation', timeout=30)
        lock = os.path.join(lock_dir, 'pcc-ha-sec.lock')
        out = self.attack('read', lock, lock + '.journal')
        out += self.attack('create', os.path.join(lock_dir, 'pcc-ha-x.lock'),
                           lock + '.journal')
        self.verify(not any(l.startswith('DONE') for l in out),
                    'the attacker read or wrote HA state: %s' % out)
        self.assert_equal(a.close(), 0, 'exit status')
        # a lock file or journal left open to others (an older version's
        # 0644): whoever opened it then may still hold it: refused
        os.chmod(lock, 0o644)
        self.refused_by_app(TRAFFIC + ['--ha', 'sec:%s' % lock_dir],
                            'mode 0644')
        os.chmod(lock, 0o600)
        os.chmod(lock + '.journal', 0o666)
        self.refused_by_app(TRAFFIC + ['--ha', 'sec:%s' % lock_dir],
                            'journal')
        shutil.rmtree(shared, ignore_errors=True)

    def test_ha_default_dir_not_plantable(self):
        """An unprivileged user's dpdk-pcc (no XDG_RUNTIME_DIR) uses
        /tmp/dpdk-pcc-UID: the attacker who made it first, with a forged
        journal, gets a refusal, not a replay; without the plant the
        victim runs and makes it 0700 with 0600 files."""
        vdir = '/tmp/dpdk-pcc-%d' % self.victim.pw_uid
        shutil.rmtree(vdir, ignore_errors=True)
        self.attack('plant', vdir, '/etc/shadow')
        args = ['--ring-pair', '--flows', '4096', '--stats-period', '0',
                '--run-time', '1', '--ha', 'sec']
        self.refused_by_app(args, 'owned by uid %d' % self.attacker.pw_uid,
                            user=self.victim)
        shutil.rmtree(vdir)
        cmd = self.as_user(self.victim) + ['env', '-u', 'XDG_RUNTIME_DIR'] + \
            self.app.cmdline(args, lcores='0')
        res = run_cmd(cmd, timeout=60, cwd='/tmp')
        self.log(res.describe())
        self.assert_equal(res.returncode, 0, 'victim exit status')
        st = os.stat(vdir)
        self.assert_equal((st.st_uid, stat.S_IMODE(st.st_mode)),
                          (self.victim.pw_uid, 0o700), 'owner and mode of %s'
                          % vdir)
        for f in ('pcc-ha-sec.lock', 'pcc-ha-sec.lock.journal'):
            st = os.stat(os.path.join(vdir, f))
            self.assert_equal(stat.S_IMODE(st.st_mode), 0o600, 'mode of ' + f)
        out = self.attack('read', os.path.join(vdir, 'pcc-ha-sec.lock'))
        self.verify(not any(l.startswith('DONE') for l in out),
                    'the attacker read the victim\'s lock file')

    # ---- crash report --------------------------------------------------

    def test_crash_report_not_redirectable(self):
        """A link planted by the attacker (in a shared directory, or a
        directory of theirs) towards a root-only file is refused before
        the start, the file untouched; a real crash writes a 0600 report
        the attacker cannot read."""
        secret = self.work_path('root-only')
        with open(secret, 'w') as f:
            f.write('secret\n')
        os.chmod(secret, 0o600)
        shared = self.shared_dir('crash')
        self.attack('plant', os.path.join(shared, 'd'), secret)
        self.attack('plant', shared, secret)
        self.refused_by_app(TRAFFIC + ['--crash-file',
                                       os.path.join(shared, 'report')],
                            'is a symbolic link')
        # a directory others may write into, without the sticky bit
        open_dir = self.shared_dir('crash-open', 0o777)
        self.refused_by_app(TRAFFIC + ['--crash-file',
                                       os.path.join(open_dir, 'report')],
                            'without the sticky bit')
        shutil.rmtree(open_dir, ignore_errors=True)
        self.refused_by_app(TRAFFIC + ['--crash-file',
                                       os.path.join(shared, 'd', 'report')],
                            'owned by uid %d' % self.attacker.pw_uid)
        with open(secret) as f:
            self.assert_equal(f.read(), 'secret\n', 'the root-only file')
        if not os.path.exists(self.plugin):
            self.skip('plug_fault.so not built')
        # a fresh name in the sticky shared directory (as DOCA's
        # /tmp/doca_pcc_coredump.txt): created 0600, unreadable to others
        report = os.path.join(shared, 'fresh-report')
        res = self.app.run(TRAFFIC + ['--gen-ce', '50', '--plugin',
                                      self.plugin, '--crash-file', report,
                                      '--run-time', '60'],
                           lcores='0-1', timeout=90)
        self.log(res.describe())
        self.assert_equal(res.returncode, 3, 'exit status of the crash')
        self.assert_equal(stat.S_IMODE(os.stat(report).st_mode), 0o600,
                          'mode of the report')
        out = self.attack('read', report)
        self.verify(not any(l.startswith('DONE') for l in out),
                    'the attacker read the crash report')
        shutil.rmtree(shared, ignore_errors=True)
