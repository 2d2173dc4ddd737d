# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""Fleet metrics: /metrics for Prometheus (issue 22).

dpdk-pcc with --metrics-port serves every /pcc/ counter at
http://ADDR:PORT/metrics.  On a ring pair whose generator flows are
finite (so the counters stop once they are done) with CE marks (CNPs):

- the Prometheus text format passes `promtool check metrics`; OpenMetrics
  (asked for with Accept) ends with `# EOF` and has its content type;
  other paths 404, other methods 405; every series the shipped Grafana
  dashboard (doc/grafana-dpdk-pcc.json) plots is there;
- a real Prometheus server (Debian's) scrapes it, and a PromQL query
  returns the CNP counter and DCQCN's cnp_events counter with the values
  /pcc/stats and /pcc/counters show;
- bad --metrics-port / --metrics-addr values exit 2 naming the value; a
  port already in use is a clear start-up error.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402
from framework.app import unique_file_prefix  # noqa: E402
from framework.telemetry import tlm_query  # noqa: E402
from framework.test_suite import SkipTest  # noqa: E402

GEN_FILE = '''flows:
  - count: 2
    qpn: 0x100
    size: 20000000
    rate: 2000M
'''


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def http(url, method='GET', headers=None):
    """(status, content type, body)."""
    req = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get('Content-Type'), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get('Content-Type'), e.read().decode()


class TestMetrics(TestSuite):

    time_limit = 180

    def set_up_suite(self):
        self.app = self.dpdk_pcc()
        for tool in ('prometheus', 'promtool'):
            if shutil.which(tool) is None:
                raise SkipTest('%s not installed (Debian package prometheus)' % tool)
        self.prefix = unique_file_prefix('dts-met')
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d/metrics' % self.port
        gen = os.path.join(self.work_dir, 'flows.yaml')
        with open(gen, 'w', encoding='utf-8') as f:
            f.write(GEN_FILE)
        cmd = self.app.cmdline(['--ring-pair', '--algo', 'dcqcn', '--gen-file', gen,
                                '--gen-ce', '10', '--idle-sleep', '50', '--stats-period',
                                '0', '--flows', '4096', '--metrics-port', str(self.port)],
                               lcores='0-1', file_prefix=self.prefix)
        # telemetry needs the multi-process runtime: no --no-shconf
        cmd = [a for a in cmd if a != '--no-shconf']
        self.log_f = open(os.path.join(self.work_dir, 'dpdk-pcc.log'), 'w', encoding='utf-8')
        self.proc = subprocess.Popen(cmd, stdout=self.log_f, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.prom = None
        # the flows are done: counters no longer move
        deadline = time.monotonic() + 60
        done = False
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                a = tlm_query(self.prefix, '/pcc/stats,1')
                time.sleep(0.5)  # poll interval, not a synchronisation
                b = tlm_query(self.prefix, '/pcc/stats,1')
            except OSError:
                time.sleep(0.2)  # the socket is not there yet
                continue
            # before the engine exists the replies are refusals (status, error)
            if a and b and a.get('cnp_tx', 0) > 0 and a.get('rx_pkts') == b.get('rx_pkts'):
                done = True
                break
        if not done:
            self.tear_down_suite()
            raise AssertionError('the flows did not finish (see %s)' % self.log_f.name)

    def tear_down_suite(self):
        if self.prom is not None and self.prom.poll() is None:
            self.prom.terminate()
            self.prom.wait(30)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log_f.close()

    def test_formats(self):
        status, ctype, body = http(self.url)
        self.assert_equal(status, 200, 'GET /metrics')
        self.check(ctype.startswith('text/plain; version=0.0.4'), ctype)
        res = run_cmd(['promtool', 'check', 'metrics'], input=body, timeout=60)
        self.check(res.returncode == 0, 'promtool check metrics:\n%s' % res.describe())
        for name in ('pcc_process_state 0', 'pcc_port_cnp_tx_total{port="1"',
                     'pcc_algo_value{port="0",slot="0",algo="dcqcn",counter="cnp_events"}',
                     'pcc_lcore_polls_total{lcore="1"}'):
            self.check(name in body, 'no %s' % name)
        status, ctype, om = http(self.url, headers={
            'Accept': 'application/openmetrics-text; version=1.0.0'})
        self.assert_equal(status, 200, 'OpenMetrics')
        self.check(ctype.startswith('application/openmetrics-text'), ctype)
        self.check(om.endswith('# EOF\n'), 'no # EOF')
        self.check('# TYPE pcc_port_cnp_tx counter' in om, 'OpenMetrics counter family')
        # every series the shipped Grafana dashboard plots exists
        with open(os.path.join(self.source_dir, 'doc', 'grafana-dpdk-pcc.json'),
                  encoding='utf-8') as f:
            dash = json.load(f)
        names = {m for p in dash['panels'] for t in p['targets']
                 for m in re.findall(r'pcc_\w+', t['expr'])}
        self.verify(len(names) >= 6, 'dashboard series: %s' % names)
        for n in names:
            self.check(re.search(r'^%s[{ ]' % n, body, re.M), 'dashboard: no %s' % n)
        self.assert_equal(http(self.url.replace('/metrics', '/nope'))[0], 404, '/nope')
        self.assert_equal(http(self.url, method='POST')[0], 405, 'POST')

    def test_prometheus_scrapes(self):
        """Debian's Prometheus scrapes /metrics; PromQL gives /pcc/'s values."""
        web = free_port()
        conf = os.path.join(self.work_dir, 'prometheus.yml')
        with open(conf, 'w', encoding='utf-8') as f:
            f.write('global:\n  scrape_interval: 1s\n'
                    'scrape_configs:\n  - job_name: dpdk-pcc\n'
                    '    static_configs:\n      - targets: ["127.0.0.1:%d"]\n' % self.port)
        data = os.path.join(self.work_dir, 'prom-data')
        shutil.rmtree(data, ignore_errors=True)
        self.prom_log = open(os.path.join(self.work_dir, 'prometheus.log'), 'w',
                             encoding='utf-8')
        self.prom = subprocess.Popen(['prometheus', '--config.file=' + conf,
                                      '--storage.tsdb.path=' + data,
                                      '--web.listen-address=127.0.0.1:%d' % web],
                                     stdout=self.prom_log, stderr=subprocess.STDOUT)
        want_cnp = tlm_query(self.prefix, '/pcc/stats,1')['cnp_tx']
        want_ev = tlm_query(self.prefix, '/pcc/counters,0,0')['values'][0]
        api = 'http://127.0.0.1:%d/api/v1/query?query=' % web

        def promql(q):
            try:
                status, _, body = http(api + urllib.parse.quote(q))
            except OSError:
                return None
            if status != 200:
                return None
            r = json.loads(body)['data']['result']
            return int(float(r[0]['value'][1])) if r else None

        got = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            got = promql('pcc_port_cnp_tx_total{port="1",job="dpdk-pcc"}')
            if got is not None:
                break
            time.sleep(0.5)  # scrape interval 1 s: poll, not a synchronisation
        self.log('PromQL CNPs %s, /pcc/stats,1 cnp_tx %d' % (got, want_cnp))
        self.verify(got is not None, 'Prometheus returned nothing (see prometheus.log)')
        self.assert_equal(got, want_cnp, 'CNP counter through Prometheus')
        ev = promql('pcc_algo_value{port="0",slot="0",counter="cnp_events"}')
        self.assert_equal(ev, want_ev, "DCQCN's cnp_events through Prometheus")
        self.check(promql('up{job="dpdk-pcc"}') == 1, 'target not up')

    def test_bad_values(self):
        for args, value in ((['--metrics-port', '0'], "'0'"),
                            (['--metrics-port', '70000'], "'70000'"),
                            (['--metrics-port', '9', '--metrics-addr', 'nowhere'],
                             "'nowhere'")):
            res = self.app.run(['--ring-pair'] + args + ['--run-time', '1'], timeout=60)
            self.check(res.returncode == 2 and value in res.stderr,
                       '%s: %s' % (args, res.describe()))
        # the port this suite's dpdk-pcc serves on is taken
        res = self.app.run(['--ring-pair', '--metrics-port', str(self.port),
                            '--run-time', '1'], timeout=60)
        self.check(res.returncode != 0 and 'cannot listen on 127.0.0.1 port %d' % self.port
                   in res.stdout + res.stderr, res.describe())
