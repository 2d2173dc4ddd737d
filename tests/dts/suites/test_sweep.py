# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-pcc authors

"""dpdk-pcc-sweep: a sweep file (a scenario and a matrix of parameters,
algorithm variants and seeds) expands into independent dpdk-pcc --sim
runs; they run on local cores and through GNU parallel (really run
here), and a Slurm array script maps task i to line i + 1 of the job
list (checked with bash -n and a dry run of every index); every run's
summary is gathered into one CSV, mean/min/max over seeds and plots.

The runs are deterministic, so the local and the GNU parallel gathering
must give byte-identical summary.csv and aggregate.csv.
"""

import csv
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from framework import TestSuite, run_cmd  # noqa: E402

SWEEP = """# a small sweep: 2 algorithm variants x 2 RAI values x 2 seeds
name: small
scenario: {scenario}
set:
  duration: 2ms
  output.sample: 50us
matrix:
  algo:
    dcqcn: {{}}
    hpcc: {{algorithms.0.name: hpcc, switch.int: true, switch.ecn.mode: off}}
  algorithms.0.params.rai_mbps: [20, 40]
  seed: 1-2
"""


class TestSweep(TestSuite):

    def set_up_suite(self):
        self.tool = self.settings.build_path('app', 'dpdk-pcc-sweep',
                                             'dpdk-pcc-sweep')
        self.verify(os.access(self.tool, os.X_OK), 'no %s' % self.tool)
        self.scen = self.settings.source_path('config', 'scenarios',
                                              'dumbbell-2flow.yaml')
        self.sweep = self.work_path('small.yaml')
        with open(self.sweep, 'w') as f:
            f.write(SWEEP.format(scenario=self.scen))
        self.outs = {}

    def sw(self, args, timeout=300, env=None):
        return run_cmd(['/usr/bin/python3', self.tool] + list(args),
                       timeout=timeout, env=env)

    def local(self):
        if 'local' not in self.outs:
            out = self.work_path('local')
            res = self.sw(['run', self.sweep, '-o', out, '-j', '2'])
            self.verify(res.returncode == 0, 'local sweep: exit %s\n%s' %
                        (res.returncode, res.describe()))
            self.outs['local'] = (out, res)
        return self.outs['local']

    @staticmethod
    def rows(path):
        with open(path) as f:
            return list(csv.DictReader(f))

    def test_expand_jobs_and_slurm_array(self):
        out = self.work_path('expand')
        res = self.sw(['expand', self.sweep, '-o', out])
        self.verify(res.returncode == 0, res.describe())
        with open(os.path.join(out, 'jobs.txt')) as f:
            jobs = f.read().splitlines()
        self.assert_equal(len(jobs), 8, 'jobs (2 x 2 x 2)')
        runs = self.rows(os.path.join(out, 'runs.csv'))
        self.assert_equal([r['algo'] for r in runs],
                          ['dcqcn'] * 4 + ['hpcc'] * 4, 'algo axis')
        self.assert_equal([r['rai_mbps'] for r in runs],
                          ['20', '20', '40', '40'] * 2, 'rai axis')
        self.assert_equal([r['seed'] for r in runs], ['1', '2'] * 4,
                          'seed axis')
        # the run's scenario carries the overrides, as text
        with open(os.path.join(out, 'runs', '0005', 'scenario.yaml')) as f:
            text = f.read()
        for token in ('name: hpcc', "int: 'true'", "mode: 'off'",
                      "rai_mbps: '20'", "seed: 2", "duration: 2ms"):
            self.check(token in text, '%r missing from run 5:\n%s' %
                       (token, text))
        sb = os.path.join(out, 'sweep.sbatch')
        r = run_cmd(['bash', '-n', sb])
        self.check(r.returncode == 0, 'bash -n sweep.sbatch: %s' %
                   r.describe())
        with open(sb) as f:
            body = f.read()
        self.check('#SBATCH --array=0-7\n' in body, 'array indexes:\n%s'
                   % body)
        for k in range(8):
            r = run_cmd(['bash', sb], env={'SLURM_ARRAY_TASK_ID': str(k),
                                           'PCC_SWEEP_DRY_RUN': '1'})
            self.check(r.returncode == 0 and r.stdout.strip() == jobs[k],
                       'task %d runs %r, expected line %d %r' %
                       (k, r.stdout.strip(), k + 1, jobs[k]))
        r = run_cmd(['bash', sb], env={'SLURM_ARRAY_TASK_ID': '8',
                                       'PCC_SWEEP_DRY_RUN': '1'})
        self.check(r.returncode != 0 and 'no job 8' in r.stderr,
                   'task 8 of 8: %s' % r.describe())
        r = run_cmd(['bash', sb])
        self.check(r.returncode != 0 and 'SLURM_ARRAY_TASK_ID' in r.stderr,
                   'outside Slurm: %s' % r.describe())

    def test_local_run_gathers(self):
        out, res = self.local()
        summ = self.rows(os.path.join(out, 'summary.csv'))
        self.assert_equal(len(summ), 8, 'rows of summary.csv')
        for r in summ:
            self.check(r['flows'] == '2' and float(r['thpt_gbps_total']) > 0,
                       'run %s: %s' % (r['run'], r))
        agg = self.rows(os.path.join(out, 'aggregate.csv'))
        self.assert_equal(len(agg), 4, 'groups (seeds folded)')
        for g in agg:
            self.assert_equal(g['runs'], '2', 'runs per group')
            lo, mean, hi = (float(g['util_pct_' + k])
                            for k in ('min', 'mean', 'max'))
            self.check(lo <= mean <= hi, 'mean outside min..max: %s' % g)
        # HPCC keeps the queue short, DCQCN does not (its start)
        by = {(g['algo'], g['rai_mbps']): g for g in agg}
        self.check(float(by[('hpcc', '20')]['queue_max_bytes_max']) <
                   float(by[('dcqcn', '20')]['queue_max_bytes_min']),
                   'queue max: hpcc %s, dcqcn %s' %
                   (by[('hpcc', '20')]['queue_max_bytes_max'],
                    by[('dcqcn', '20')]['queue_max_bytes_min']))
        for p in ('throughput.png', 'queue.png'):
            path = os.path.join(out, 'plots', p)
            self.check(os.path.isfile(path) and os.path.getsize(path) > 1000,
                       'plot %s missing' % p)
        self.check(re.search(r'algo=hpcc rai_mbps=40\s+2 ', res.stdout),
                   'no aggregate table on stdout:\n%s' % res.stdout)

    def test_gnu_parallel_same_results(self):
        if shutil.which('parallel') is None:
            self.verify(False, 'GNU parallel missing (devtools/setup.sh '
                        'installs it)')
        local, _ = self.local()
        out = self.work_path('parallel')
        res = self.sw(['run', self.sweep, '-o', out, '-j', '2', '--parallel'])
        self.verify(res.returncode == 0, 'parallel sweep: %s' %
                    res.describe())
        with open(os.path.join(out, 'joblog.txt')) as f:
            log = f.read().splitlines()
        self.assert_equal(len(log), 9, 'joblog lines (header + 8 jobs)')
        self.check(all(l.split('\t')[6] == '0' for l in log[1:]),
                   'a job failed:\n%s' % '\n'.join(log))
        for name in ('summary.csv', 'aggregate.csv'):
            with open(os.path.join(local, name)) as a, \
                    open(os.path.join(out, name)) as b:
                self.check(a.read() == b.read(), '%s differs between the '
                           'local and the GNU parallel runs' % name)

    def test_seeds_of_a_scenario(self):
        out = self.work_path('seeds')
        incast = self.work_path('incast4.yaml')
        with open(self.settings.source_path(
                'config', 'scenarios', 'incast-16to1.yaml')) as f:
            text = f.read()
        text = re.sub(r'senders: 16', 'senders: 4', text)
        text = re.sub(r'src: \[[^\]]*\]', 'src: [s0, s1, s2, s3]', text)
        text = text.replace('size: 1MB', 'size: 100KB')
        with open(incast, 'w') as f:
            f.write(text)
        res = self.sw(['run', '--scenario', incast, '--seeds', '1-3', '-o',
                       out, '-j', '2'])
        self.verify(res.returncode == 0, res.describe())
        agg = self.rows(os.path.join(out, 'aggregate.csv'))
        self.assert_equal(len(agg), 1, 'one group')
        self.assert_equal(agg[0]['runs'], '3', 'runs')
        self.check(float(agg[0]['fct_us_min_min']) <=
                   float(agg[0]['fct_us_max_max']), 'FCT min > max')
        flows = self.rows(os.path.join(out, 'flows.csv'))
        self.assert_equal(len(flows), 12, 'flows (3 runs x 4)')
        self.check(all(float(r['slowdown']) >= 1.0 for r in flows),
                   'a slowdown below 1: %s' % [r['slowdown'] for r in flows])
        for p in ('fct_cdf.png', 'slowdown.png'):
            self.check(os.path.isfile(os.path.join(out, 'plots', p)),
                       '%s missing' % p)

    def test_bad_input_named(self):
        bad = self.work_path('bad.yaml')
        cases = (
            ('scenario: %s\nmatrix: {seed: 4-1}\n' % self.scen,
             "'4-1': the range ends before it starts"),
            ('scenario: %s\nbogus: 1\n' % self.scen, "unknown key 'bogus'"),
            ('scenario: nosuch.yaml\n', "scenario 'nosuch.yaml': no such "
             'file'),
            ('scenario: %s\nmatrix: {algorithms.7.name: [x]}\n' % self.scen,
             "index 7 not in a list of 1"),
        )
        for text, token in cases:
            with open(bad, 'w') as f:
                f.write(text)
            res = self.sw(['expand', bad, '-o', self.work_path('bad-out')])
            self.check(res.returncode == 2 and token in res.stderr,
                       '%r: exit %s, stderr %r' % (text, res.returncode,
                                                   res.stderr))
