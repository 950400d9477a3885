# umbench's ReFrame test library (docs/reframe.md): point ReFrame's -c here.
#
#   reframe -C reframe-checks/umbench_config.py -c reframe-checks/umbench_checks.py -r
#
# umbench_build builds umbench with Autotools once per programming
# environment (each MPI library its own build); the run checks take every
# program of the registry (programs.txt) over every buffer pair or
# collective placement, run it with --format json and judge the JSON: exit
# status, validation, placement, the read check. Performance variables are
# the figures at named sizes, with references per system and partition from
# references.json (UMBENCH_REFERENCES names another file). A run that exits
# 77 (no GPU, or an MPI that cannot carry D buffers) is skipped, not failed.
import os
import shlex
import shutil
import sys

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.backends import getlauncher
from reframe.core.exceptions import ReframeError
from reframe.core.builtins import fixture, parameter, run_after, run_before, sanity_function, variable

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
KINDS = ['H', 'D', 'MH', 'MD']
SLOT = os.path.join(HERE, 'gpu_slot.sh')


# The registry of programs (programs.txt), read by the scripts' own reader.
sys.path.insert(0, os.path.join(TOP, 'scripts'))
from umbench import programs  # noqa: E402
# What a run's output says, and whether it passes (no ReFrame in it).
sys.path.insert(0, HERE)
from umbench_judge import (STATUS_LINE, exit_status, judge, judge_driver, records, references, skip_reason,  # noqa: E402
                           unbuilt_reason)

PROGRAMS = {p['name']: p for p in programs.load()}


def gpu_slot(check, gpus):
    """Where the partition runs checks side by side on one machine of
    several GPUs (its extras' gpu_slots), a GPU check first waits for GPUS
    of them that no other check holds (gpu_slot.sh): one rank per GPU."""
    extras = check.current_partition.extras if check.current_partition else {}
    return ['. %s %d' % (shlex.quote(SLOT), gpus)] if extras.get('gpu_slots') and 'gpu' in check.tags else []


def of_family(family):
    return sorted(programs.of_family(family))


# The command each batch scheduler of ReFrame submits with.
SUBMIT = {'slurm': 'sbatch', 'squeue': 'sbatch', 'lsf': 'bsub', 'pbs': 'qsub', 'torque': 'qsub',
          'pbspro': 'qsub', 'sge': 'qsub', 'oar': 'oarsub', 'ssh': 'ssh'}


def scheduler_missing(partition):
    """Why no job can be submitted to PARTITION from here (its scheduler's
    command is not on PATH, e.g. --system cluster on a machine without
    Slurm), or None."""
    name = partition.scheduler.registered_name
    command = SUBMIT.get(name)
    if command and not shutil.which(command):
        return 'partition %s: its scheduler %s submits with %s, which is not on PATH here' % (partition.fullname, name, command)
    return None


def first_folder_under(top, path):
    """The folder of TOP that holds PATH, or None where PATH is not under TOP."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(top))
    return None if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep) else rel.split(os.sep)[0]


class umbench_build(rfm.CompileOnlyRegressionTest):
    '''umbench, built with Autotools for one programming environment.'''

    valid_systems = ['*']
    valid_prog_environs = ['*']
    build_system = 'Autotools'
    #: The umbench source tree (default: the one this library is in).
    umbench_src = variable(str, value=os.environ.get('UMBENCH_SRC', TOP))
    #: CUDA: 'auto' (configure finds it), 'no', or the toolkit's folder.
    cuda = variable(str, value='auto')
    #: --with-cuda-arch, e.g. '90' ('' leaves configure's default).
    cuda_arch = variable(str, value='')
    build_jobs = variable(int, value=2)
    #: configure's CPPFLAGS: tests/reframe/reframe.sh builds a test build
    #: with '-DUMB_TEST_HOOKS' (the -c hook, util/mpi/bench.c); '' for a real one.
    cppflags = variable(str, value='')

    @run_after('setup')
    def scheduler_here(self):
        """Every check of a partition whose scheduler is not here is skipped
        with the reason: its build first, then, through it, the rest."""
        why = scheduler_missing(self.current_partition)
        if why:
            self.skip(why)

    @run_before('compile')
    def configure_options(self):
        self.sourcesdir = self.umbench_src
        # Large or configured folders of the tree are linked, not copied; so
        # are ReFrame's own stage and output where its --prefix is in the
        # tree (the default, run from the top): copied, the tree would hold
        # the copy being made.
        own = {first_folder_under(self.umbench_src, d) for d in (self.stagedir, self.outputdir) if d}
        self.readonly_files = [n for n in os.listdir(self.umbench_src)
                               if n in own or n in ('.git', 'docs', '.carry') or n.startswith(('build', '_build', 'umb-results'))]
        self.prebuild_cmds = ['[ -x configure ] || ./autogen.sh']
        self.build_system.builddir = 'rfm_build'
        self.build_system.max_concurrency = self.build_jobs
        opts = []
        if self.cuda == 'no':
            opts.append('--without-cuda')
        elif self.cuda != 'auto':
            opts.append('--with-cuda=%s' % self.cuda)
        if self.cuda_arch:
            opts.append('--with-cuda-arch=%s' % self.cuda_arch)
        if self.cppflags:
            opts.append('CPPFLAGS=%s' % self.cppflags)
        self.build_system.config_opts = opts

    @sanity_function
    def programs_built(self):
        return sn.all(sn.map(lambda p: sn.assert_true(os.path.isfile(self.program_path(p)), msg='%s was not built' % p),
                             [n for n, p in PROGRAMS.items() if p['needs'] == 'mpi']))

    def program_path(self, name):
        return os.path.join(self.stagedir, 'rfm_build', PROGRAMS[name]['dir'], name)


class umbench_run(rfm.RunOnlyRegressionTest):
    '''What every umbench run check shares: the build, the JSON, the sanity
    and the performance variables.'''

    build = fixture(umbench_build, scope='environment')
    valid_systems = ['*']
    valid_prog_environs = ['*']
    num_tasks = 2
    time_limit = '10m'
    #: -m, as the programs take it.
    sizes = variable(str, value='8:64K')
    #: The sizes whose figures are performance variables.
    perf_sizes = variable(typ.List[int], value=[8, 65536])
    #: -c: check every byte.
    validate = variable(bool, value=True)
    #: Managed buffers: every row's Placed % must be at least this.
    placed_min = variable(float, value=90.0)
    #: --path and --counters (e.g. 'light'); off by default.
    path = variable(bool, value=False)
    counters = variable(str, value='')
    #: Options passed on as they are (e.g. ['-i', '100']).
    options = variable(typ.List[str], value=[])
    references_file = variable(str, value=os.environ.get('UMBENCH_REFERENCES', os.path.join(HERE, 'references.json')))
    #: What the run said, for the performance log.
    findings = variable(str, value='', loggable=True)
    paths = variable(str, value='', loggable=True)
    umbench_status = variable(int, value=-1, loggable=True)
    metric = 'avg_latency_us'
    unit = 'us'

    def program_args(self):
        raise NotImplementedError

    @run_after('init')
    def tag_buffers(self):
        """"host": every buffer on the host (runs anywhere); "gpu" otherwise."""
        self.tags = {'host' if set(self.buffer_label().split()) == {'H'} else 'gpu', self.program}

    @run_before('run')
    def command(self):
        self.executable = self.build.program_path(self.program)
        self.executable_opts = ['-m', self.sizes, '--format', 'json', '--timeout', '300'] + (['-c'] if self.validate else [])
        self.executable_opts += (['--path'] if self.path else []) + (['--counters=%s' % self.counters] if self.counters else [])
        self.executable_opts += self.options + self.program_args()
        self.prerun_cmds = gpu_slot(self, self.num_tasks)
        self.postrun_cmds = [STATUS_LINE]
        self.descr = '%s %s' % (self.program, self.buffer_label())

    def buffer_label(self):
        return ' '.join(a for a in self.program_args() if not a.startswith('-'))

    def managed(self):
        return any(k in ('MH', 'MD') for k in self.buffer_label().split())

    @run_before('sanity')
    def skipped_or_read(self):
        status = exit_status(os.path.join(self.stagedir, self.stdout.evaluate()))
        self.umbench_status = -1 if status is None else status
        recs = records(os.path.join(self.stagedir, self.stdout.evaluate()))
        if status == 77:
            self.skip(skip_reason(os.path.join(self.stagedir, self.stderr.evaluate()), self.program)
                      or 'exit 77: a requirement is missing here')
        found = [r for r in recs if r.get('type') == 'finding']
        self.findings = '; '.join('%s [%s]%s' % (f.get('finding'), f.get('rows'),
                                                 ' seen once' if f.get('confidence') == 'seen once' else '')
                                  for f in found) or 'none'
        rows = [r for r in recs if r.get('type') == 'result']
        self.paths = ','.join('%s:%s' % (r['size'], r['path']) for r in rows if 'path' in r) or '-'

    @sanity_function
    def sane(self):
        recs = records(os.path.join(self.stagedir, self.stdout.evaluate()))
        why = judge(recs, self.validate, self.placed_min, self.managed())
        return sn.all([sn.assert_true(why is None, msg=why or ''),
                       sn.assert_eq(self.umbench_status, 0, msg='exit status {0}, not 0')])

    @run_before('performance')
    def performance_variables(self):
        recs = records(os.path.join(self.stagedir, self.stdout.evaluate()))
        rows = {r['size']: r for r in recs if r.get('type') == 'result'}
        name = self.metric.split('_')[1]  # latency, bandwidth
        self.perf_variables = {'%s_%d' % (name, s): self.figure(rows, s) for s in self.perf_sizes if s in rows}
        self.reference = self.references()

    def figure(self, rows, size):
        return sn.make_performance_function(lambda: rows[size][self.metric], self.unit)

    def references(self):
        """{system:partition: {variable: (value, lower, upper, unit)}} for
        this check's program and buffers, from the references file; one
        that cannot be read, is malformed, or names a size this check does
        not measure fails the check with its reason (umbench_judge.references)."""
        name = self.metric.split('_')[1]
        measured = {'%s_%d' % (name, s) for s in self.perf_sizes}
        try:
            table = references('%s' % self.references_file, '%s %s' % (self.program, self.buffer_label()), measured)
        except ValueError as e:
            raise ReframeError(str(e)) from None
        return {where: {var: ref + (self.unit,) for var, ref in refs.items()} for where, refs in table.items()}


@rfm.simple_test
class umbench_pt2pt(umbench_run):
    '''A point-to-point or one-sided program over one buffer pair.'''

    program = parameter(of_family('pt2pt') + of_family('rma'))
    pair = parameter(['%s %s' % (a, a) for a in KINDS] + ['MD MH'])

    @run_after('init')
    def metric_of_program(self):
        if not self.program.endswith('_latency'):
            self.metric, self.unit = 'avg_bandwidth_mbs', 'MB/s'

    def program_args(self):
        return self.pair.split()


@rfm.simple_test
class umbench_collective(umbench_run):
    '''A collective with every rank's buffer of one kind.'''

    program = parameter(of_family('collective'))
    placement = parameter(KINDS)

    def program_args(self):
        return ['--buffer', self.placement]


class umbench_driver(rfm.RunOnlyRegressionTest):
    '''A single-node driver of c/ (programs.txt's "driver" family): one
    process with ReFrame's local launcher, no MPI; skipped without a GPU.'''

    build = fixture(umbench_build, scope='environment')
    valid_systems = ['*']
    valid_prog_environs = ['*']
    num_tasks = 1
    time_limit = '10m'
    placed_min = variable(float, value=90.0)
    umbench_status = variable(int, value=-1, loggable=True)
    findings = variable(str, value='', loggable=True)
    driver = ''

    def driver_args(self):
        raise NotImplementedError

    @run_before('run')
    def command(self):
        self.executable = self.build.program_path(self.driver)
        self.job.launcher = getlauncher('local')()  # one process, no MPI
        self.executable_opts = self.driver_args() + ['--format', 'json']
        self.prerun_cmds = gpu_slot(self, 1)
        self.postrun_cmds = [STATUS_LINE]
        self.descr = '%s %s' % (self.driver, ' '.join(self.driver_args()))

    def output(self):
        return records(os.path.join(self.stagedir, self.stdout.evaluate()))

    def rows(self):
        return [r for r in self.output() if r.get('type') == 'result']

    @run_before('sanity')
    def skipped(self):
        status = exit_status(os.path.join(self.stagedir, self.stdout.evaluate()))
        self.umbench_status = -1 if status is None else status
        if not os.path.exists(self.build.program_path(self.driver)):  # else its sanity fails: not built
            why = unbuilt_reason(os.path.join(self.build.stagedir, 'rfm_build', 'umbench-build.json'), self.driver)
            self.skip_if(why is not None, why)
        if status == 77:  # the driver's own reason, as for the MPI programs
            self.skip(skip_reason(os.path.join(self.stagedir, self.stderr.evaluate()), self.driver)
                      or '%s ended 77 (cannot run here) and said no reason on stderr' % self.driver)
        self.findings = 'none'

    @sanity_function
    def sane(self):
        why = judge_driver(self.output(), self.placed_min, self.managed(), self.link_bound())
        return sn.all([sn.assert_eq(self.umbench_status, 0, msg='exit status {0}, not 0'),
                       sn.assert_true(why is None, msg=why or '')])

    def managed(self):
        """Rows whose placement is their label (umb_copy's managed kinds)."""
        return False

    def link_bound(self):
        """The rows read across the host link (so none may exceed it)."""
        return False


@rfm.simple_test
class umbench_copy(umbench_driver):
    '''umb_copy: each memory kind's copy bandwidth against the link.'''

    memory = parameter(['pageable', 'pinned', 'managed-host', 'managed-device', 'device'])
    perf_size = variable(str, value='64M')
    driver = 'umb_copy'
    tags = {'gpu', 'umb_copy'}

    def managed(self):
        return self.memory.startswith('managed')

    def driver_args(self):
        # umb_copy -h: prefetch moves managed-device, both ways; the others are copies.
        how = {'device': ['--direction', 'dtod', '--method', 'ce'], 'managed-device': ['--method', 'prefetch']}
        return ['--memory', self.memory] + how.get(self.memory, ['--direction', 'htod,dtoh', '--method', 'ce']) \
            + ['--size', self.perf_size]

    @run_before('performance')
    def performance_variables(self):
        self.perf_variables = {'%s_gbs' % r['direction']: sn.make_performance_function(lambda r=r: r['median_gbs'], 'GB/s')
                               for r in self.rows() if 'median_gbs' in r}


@rfm.simple_test
class umbench_um(umbench_driver):
    '''umb_um: a GPU kernel reads managed memory under one policy, run 1
    (where the pages start on the host) and the last run apart; the read
    check must pass. Accessed-by reads across the link: never above it.'''

    policy = parameter(['demand', 'accessed-by', 'prefetch', 'read-mostly'])
    size = variable(str, value='256M')
    repeat = variable(int, value=3)
    driver = 'umb_um'
    tags = {'gpu', 'umb_um'}

    def driver_args(self):
        how = {'demand': ['--advise', 'none'], 'accessed-by': ['--advise', 'accessed-by'],
               'prefetch': ['--prefetch', 'whole'], 'read-mostly': ['--advise', 'read-mostly']}
        return ['--size', self.size, '--repeat', str(self.repeat)] + how[self.policy]

    def link_bound(self):
        return self.policy == 'accessed-by'

    @run_before('performance')
    def performance_variables(self):
        row = (self.rows() or [{}])[0]
        keys = ['run1_gibs', 'run%d_gibs' % self.repeat]
        self.perf_variables = {k: sn.make_performance_function(lambda k=k: row[k], 'GiB/s') for k in keys if k in row}


@rfm.simple_test
class umbench_oversub(umbench_driver):
    '''umb_oversub: one pass over managed memory of a factor of free GPU
    memory, per memory mode (grid-stride). The factor stays at or under 1:
    umb_oversub refuses more without --allow-oversubscription, which this
    check never passes.'''

    mode = parameter(['demand', 'zerocopy', 'prefetch', 'stripe-64K'])
    factor = variable(float, value=0.1)
    driver = 'umb_oversub'
    tags = {'gpu', 'umb_oversub'}

    def driver_args(self):
        return ['--factor', '%g' % self.factor, '--pattern', 'grid', '--mode', self.mode]

    @run_before('performance')
    def performance_variables(self):
        row = (self.rows() or [{}])[0]
        self.perf_variables = {'gibs': sn.make_performance_function(lambda: row['gibs'], 'GiB/s')} if 'gibs' in row else {}
