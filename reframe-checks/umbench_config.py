# ReFrame's configuration for umbench's own machines, an example for sites
# (docs/reframe.md): "local", this machine with its Open MPI and mpirun;
# "cluster", the two-node Slurm cluster of tests/cluster (sbatch, srun).
#
#   reframe -C reframe-checks/umbench_config.py -c reframe-checks/umbench_checks.py -r
#
# A site copies this file and changes: the systems' hostnames and
# partitions, the scheduler (slurm, lsf, pbs, flux) and launcher (srun,
# mpirun, jsrun), access (e.g. ['--gres=gpu:2'] or ['-p gpu']), and one
# environment per MPI library (its cc, and the modules or PATH that bring
# it in). UMBENCH_RUN_AS_ROOT=1 lets Open MPI run as root (containers, CI).
import os
import re
import sys



def env(name, default, pattern, accepted):
    """One typed read of a variable: its value matches PATTERN (ASCII only:
    str.isdigit() takes '\u00b2', which int() refuses), else one line and
    exit 1, never a traceback through ReFrame's loader (docs/reframe.md)."""
    value = os.environ.get(name, default)
    if not re.fullmatch(pattern, value, re.ASCII):
        sys.exit('umbench_config.py: %s=%r: expected %s' % (name, value, accepted))
    return value


ROOT_OK = {'OMPI_ALLOW_RUN_AS_ROOT': '1', 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM': '1'} \
    if env('UMBENCH_RUN_AS_ROOT', '0', '[01]?', '1 (let Open MPI run as root) or 0') == '1' else {}
# Not blanks alone, and no control character (DEL included), as every name a message shows.
PERFLOG = env('UMBENCH_PERFLOG', 'perflogs', r'(?=.*[^ ])[^\x00-\x1f\x7f]{1,4096}', 'a folder name, not empty or blank')
# More MPI libraries as environments of "local": UMBENCH_ENVIRONS="NAME=BINDIR
# ..." makes an environment NAME per library, with BINDIR (its mpicc and
# mpirun) first on PATH; e.g. ompi4-cuda=/opt/umb-stacks/ompi4-cuda/bin
# (scripts/umb-stack, docs/stacks.md). A site writes its own, with modules.
EXTRA = [w.split('=', 1) for w in os.environ.get('UMBENCH_ENVIRONS', '').split()]
# BINDIR goes into the job script's "export PATH=BINDIR:$PATH", which a
# shell reads: an absolute path in characters no shell reads twice (a ':'
# would be two folders on PATH, and not BINDIR's mpicc first; '$(...)'
# would run). NAME: as ReFrame names an environment, one of its own (a name
# given twice, or "openmpi", left one library's checks silently run by
# another's).
NAMES = [w[0] for w in EXTRA]
BAD = [w for w in EXTRA if len(w) != 2 or not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_-]{0,63}', w[0], re.ASCII)
       or w[0] == 'openmpi' or NAMES.count(w[0]) > 1 or not re.fullmatch(r'/[A-Za-z0-9._+/-]{0,4095}', w[1], re.ASCII)
       or not os.path.isfile(os.path.join(w[1], 'mpicc'))]
if BAD:  # one line and exit 1, not a traceback through ReFrame's loader
    sys.exit('umbench_config.py: UMBENCH_ENVIRONS: expected NAME=BINDIR ..., each NAME once (letters, digits, _ -; not'
             ' openmpi) and BINDIR an absolute path (letters, digits, . _ + - /) with an mpicc in it, got %r'
             % '='.join(BAD[0]))
LOCAL_JOBS = int(env('UMBENCH_LOCAL_JOBS', '1', '0*[1-9][0-9]{0,3}', 'a number of jobs from 1 to 9999'))
# UMBENCH_GPU_SLOTS=1: on a machine of several GPUs, each GPU check of
# "local" holds GPUs of its own while it runs (gpu_slot.sh), so that
# UMBENCH_LOCAL_JOBS checks run side by side, one rank per GPU.
GPU_SLOTS = env('UMBENCH_GPU_SLOTS', '0', '[01]?', '1 (each GPU check holds GPUs of its own) or 0') == '1'
# gpu_slot.sh reads these in each job's shell, where a bad one can only be
# a line in the job's stderr and shared GPUs: read here too, typed as it
# reads them, they are refused before any check runs (docs/reframe.md).
env('UMBENCH_SLOT_WAIT', '900', '[0-9]{1,6}', 'seconds a GPU check waits for its GPUs, 0 to 999999')
env('UMBENCH_SLOT_DIR', '/tmp/umbench-gpu-slots', r'/[^\x00-\x1f]{0,4095}',
    "an absolute path of the GPUs' lock folder (a relative one is one per job folder)")
LAUNCH_ENV = [[k, v] for k, v in ROOT_OK.items()] + [['OMPI_MCA_rmaps_base_oversubscribe', '1']]

site_configuration = {
    'systems': [
        {
            'name': 'cluster',
            'descr': "tests/cluster's two Slurm nodes on one machine (SLURM_CONF set)",
            'hostnames': ['^n[12]$'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'nodes',
                    'descr': 'both nodes, over TCP',
                    # No accounting on that cluster: poll with squeue, not sacct.
                    'scheduler': 'squeue',
                    'launcher': 'srun',
                    'access': ['--ntasks-per-node=1'],  # one rank per node: the runs cross the network
                    'environs': ['openmpi'],
                    # One job at a time, as tests/cluster/slurm.sh runs them: both
                    # nodes share this machine's cores, and a loaded machine makes
                    # Open MPI 4.1's btl/tcp crash inside MPI_Init more often
                    # (docs/cluster.md).
                    'max_jobs': 1,
                },
            ],
        },
        {
            'name': 'local',
            'descr': 'this machine: its Open MPI, mpirun',
            'hostnames': ['.*'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'default',
                    'scheduler': 'local',
                    'launcher': 'mpirun',
                    'environs': ['openmpi'] + [name for name, _ in EXTRA],
                    # One run at a time, so that the figures are the machine's;
                    # UMBENCH_LOCAL_JOBS=N runs N at once where only the checks
                    # matter (tests/gpu/run-all reframe).
                    'max_jobs': LOCAL_JOBS,
                    'extras': {'gpu_slots': GPU_SLOTS},
                },
            ],
        },
    ],
    'environments': [
        {
            'name': 'openmpi',
            'cc': 'mpicc',
            'cxx': '',  # umbench is C (and CUDA): no C++ or Fortran compiler is asked for
            'ftn': '',
            'env_vars': LAUNCH_ENV,
        },
    ] + [{'name': name, 'cc': os.path.join(bindir, 'mpicc'), 'cxx': '', 'ftn': '',
          'env_vars': LAUNCH_ENV + [['PATH', bindir + ':$PATH']]} for name, bindir in EXTRA],
    'logging': [
        {
            'level': 'debug',
            'handlers': [
                {'type': 'file', 'name': 'reframe.log', 'level': 'debug', 'format': '[%(asctime)s] %(levelname)s: %(message)s'},
                {'type': 'stream', 'name': 'stdout', 'level': 'info', 'format': '%(message)s'},
            ],
            'handlers_perflog': [
                {
                    'type': 'filelog',
                    'prefix': '%(check_system)s/%(check_partition)s',
                    'level': 'info',
                    # One line per performance variable: what umbench printed,
                    # with its exit status, findings and the path of each row.
                    'format': ('%(check_job_completion_time)s|%(check_name)s|%(check_hashcode)s|%(check_system)s:%(check_partition)s|'
                               '%(check_environ)s|status=%(check_umbench_status)s|findings=%(check_findings)s|'
                               'paths=%(check_paths)s|%(check_perfvalues)s'),
                    'format_perfvars': '%(check_perf_var)s=%(check_perf_value)s %(check_perf_unit)s (ref %(check_perf_ref)s)|',
                    'append': True,
                    'basedir': PERFLOG,
                },
            ],
        },
    ],
}
