# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Issue 20's pool soak (meson suite 'soak'; devtools/test.sh runs it in
the clang ASan+UBSan build): about a minute of generator traffic with CE
marks (CNPs) and RTT probes on a ring pair, the engine's mbuf pool
followed through /pcc/mempools (in use, available), and at the end, once
every generated packet left and the engine stopped, the pool's in-use
count back to what it was before the traffic: nothing leaked.

The baseline is taken right after the start, before the flows begin
(start).  At the stop every flow is done (all its packets counted in
gen_pkts) and nothing is queued; what may still be in use are the RTT
probes in flight, at most one per flow (the rtt algorithm probes each
flow in a closed loop: a probe goes out when the previous one came
back), so the end may exceed the baseline by at most the flow count.  A
leak of one mbuf per 100 000 packets would exceed that 40 times over.
Every frame is also accounted for (rx_unaccounted 0) and no allocation
failed (nombuf 0)."""

import io
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite  # noqa: E402
from framework.app import AppSession, unique_file_prefix  # noqa: E402
from framework.telemetry import tlm_query  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402
from framework.utils import wait_for  # noqa: E402

try:
    import pexpect
except ImportError:
    pexpect = None

FLOWS = 8
RATE_MBPS = 100
TRAFFIC_S = 40
PAYLOAD = 1024
START_US = 5000000
SIZE = RATE_MBPS * 1000000 // 8 * TRAFFIC_S       # bytes per flow
PKTS = FLOWS * -(-SIZE // PAYLOAD)                  # every packet generated


class TestSoak(TestSuite):

    time_limit = 300

    def set_up_suite(self):
        if pexpect is None:
            raise SkipTest('python3-pexpect not installed')
        self.app = self.dpdk_pcc()
        self.session = None

    def tear_down(self):
        if self.session is not None:
            self.session.close(grace=10)
            self.session = None

    def pool(self, prefix):
        """(in_use, avail, size) of the engine's mbuf pool."""
        r = tlm_query(prefix, '/pcc/mempools')
        i = [k for k, n in enumerate(r['name']) if n.startswith('pcc_mbuf')][0]
        return r['in_use'][i], r['avail'][i], r['size'][i]

    def test_pool_in_use_returns_to_baseline(self):
        flows = self.work_path('soak-flows.yaml')
        with open(flows, 'w') as f:
            f.write('flows:\n  - count: %d\n    qpn: 0x100\n    size: %d\n'
                    '    payload: %d\n    rate: %dM\n    start: %dus\n'
                    % (FLOWS, SIZE, PAYLOAD, RATE_MBPS, START_US))
        prefix = unique_file_prefix('soak')
        cmd = [self.app.path, '--no-huge', '-m', '1024', '--no-pci', '--file-prefix',
               prefix, '-l', '0-1', '--', '--ring-pair', '--algo', 'rtt', '--gen-file',
               flows, '--gen-ce', '5', '--idle-sleep', '10', '--stats-period', '0', '-i']
        log = io.StringIO()
        child = pexpect.spawn(cmd[0], cmd[1:], timeout=60, encoding='utf-8',
                              codec_errors='replace')
        child.logfile_read = log
        self.session = s = AppSession(child, ' '.join(cmd), log)
        s.expect_exact('pcc> ', timeout=120)
        t0 = time.monotonic()
        base, _, size = self.pool(prefix)
        self.note('mbuf pool: %d mbufs, %d in use before the traffic (%.1f s after the '
                  'start, the flows start at %.1f s)'
                  % (size, base, time.monotonic() - t0, START_US / 1e6))
        samples = []

        def done():
            st = tlm_query(prefix, '/pcc/stats')
            samples.append(self.pool(prefix)[0])
            return st.get('gen_pkts', 0) >= PKTS  # a refusal: not yet

        # the poll interval only spaces the samples; the condition waited
        # for is every generated packet sent
        wait_for(done, timeout=240, interval=2)
        took = time.monotonic() - t0
        s.command('stop', timeout=60)
        end, avail, _ = self.pool(prefix)
        st = tlm_query(prefix, '/pcc/stats')
        self.note('%.0f s of traffic: %d packets generated, %d received, %d CNPs, %d '
                  'probe answers; in use while running: max %d of %d samples; after the '
                  'stop: %d in use, %d available'
                  % (took, st['gen_pkts'], st['rx_pkts'], st['cnp_tx'],
                     st.get('fate_rtt_event', 0), max(samples), len(samples), end, avail))
        self.check(st['cnp_tx'] > 0, 'no CNP: the CE marks did not work')
        self.check(st.get('fate_rtt_event', 0) > 0, 'no probe came back')
        self.assert_equal(st['nombuf'], 0, 'mbuf allocation failures')
        self.assert_equal(st['rx_unaccounted'], 0, 'frames not accounted for')
        self.check(max(samples) < size // 2,
                   'in use while running up to %d of %d' % (max(samples), size))
        self.verify(end <= base + FLOWS,
                    'in use after the stop %d, before the traffic %d: more than the %d '
                    'probes that may be in flight' % (end, base, FLOWS))
        s.sendline('quit')
        self.assert_equal(s.wait_exit(60), 0, 'exit status')
        self.session = None
