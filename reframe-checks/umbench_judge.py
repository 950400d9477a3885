# What one umbench run printed, and whether it passes (docs/reframe.md,
# "How a run is judged"): the checks of umbench_checks.py read their output
# with these, and tests/reframe/reframe.sh tries the rules on recorded rows.
import json
import math
import re


def records(path):
    """The JSON objects of a program's output, one a line; other lines
    (a launcher's messages) are left aside."""
    out = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            for line in f:
                if line.startswith('{'):
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return out


# The job script echoes the launcher's status after it: schedulers polled
# without accounting (squeue) know no exit code.
STATUS_LINE = 'echo "umbench_exit=$?"'


def exit_status(path):
    """The launcher's exit status as the job script echoed it, or None."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            got = [ln.strip()[len('umbench_exit='):] for ln in f if ln.startswith('umbench_exit=')]
    except OSError:
        return None
    return int(got[-1]) if got and got[-1].isdigit() else None


# A control character of a program's line, shown escaped on the terminal
# (as umb-run shows it: scripts/umbench/cli.py's CONTROL).
CONTROL = re.compile('[\x00-\x08\x0b-\x1f\x7f-\x9f]')
LINE_MOST = 4096       # characters of one line read for a reason
READ_MOST = 16 << 20   # characters of stderr read for it


def skip_reason(path, program):
    """Why PROGRAM could not run here (it ended 77), in its own words: the
    first line of its stderr (PATH) that starts with its name, as umb-run and
    a user see it, its control characters escaped; None where it said none.
    A line is read in pieces of LINE_MOST, and no more than READ_MOST."""
    try:
        with open(path, encoding='utf-8', errors='replace', newline='\n') as f:
            read = 0
            while read < READ_MOST:
                line = f.readline(LINE_MOST)
                if not line:
                    return None
                read += len(line)
                if line.startswith(program + ':'):
                    return CONTROL.sub(lambda m: repr(m.group())[1:-1], line.strip())
    except OSError:
        return None
    return None


def placement_low(row, placed_min):
    """'SIZE: PCT%...' where a managed row's first placements held under
    placed_min %, else None. Where the row says over how many timed
    iterations (iterations plus not_placed), that takes 95% confidence:
    the one-sided Wilson bound of the share that held is under placed_min,
    so that 20 iterations with one miss too many (85.0% is 17 of 20, a bound
    of 93.8%) do not fail a node whose placement holds in 95% of them, and
    100 iterations at 85% still do (docs/reframe.md)."""
    pct, timed, left_out = row['placed_pct'], row.get('iterations'), row.get('not_placed', 0)
    n = timed + left_out if isinstance(timed, int) and isinstance(left_out, int) else 0
    if n <= 0:
        return None if pct >= placed_min else '%s: %.1f%%' % (row['size'], pct)
    p, z = min(max(pct / 100, 0.0), 1.0), 1.645
    bound = 100 * ((p + z * z / (2 * n)) + z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)
    if bound >= placed_min:
        return None
    return '%s: %.1f%% of %d iterations (at most %.1f%% with 95%% confidence)' % (row['size'], pct, n, bound)


def judge(recs, validate, placed_min, managed):
    """What is wrong with one run's JSON, or None: an end record that says
    success, result rows, validation passed where -c was asked, placement
    at or over placed_min % on every row of managed buffers, and every read
    check passed."""
    end = [r for r in recs if r.get('type') == 'end']
    rows = [r for r in recs if r.get('type') == 'result']
    if not end:
        return 'no end record: the output was cut short'
    if not rows:
        return 'no result rows'
    bad = [r['size'] for r in rows if validate and r.get('validation') != 'pass']
    if bad:
        return 'validation did not pass at sizes %s' % bad
    if end[-1].get('status') != 0:
        return 'the program ended with status %s' % end[-1].get('status')
    if managed:
        unplaced = [r['size'] for r in rows if not isinstance(r.get('placed_pct'), (int, float))]
        if unplaced:
            return 'placement was not checked at sizes %s (managed buffers: the label is not verified)' % unplaced
        low = [w for w in (placement_low(r, placed_min) for r in rows) if w]
        if low:
            return 'placement held under %g%% at %s' % (placed_min, ', '.join(low))
    failed = [c for c in recs if c.get('type') == 'check' and c.get('result') != 'pass']
    if failed:
        return 'the read check failed: %s' % failed[0].get('first_failure')
    return None


def judge_driver(recs, placed_min, managed, link_bound):
    """judge() for a single-node driver, and its figures against the
    machine: no row above the link (umb_copy's link_pct), every GiB/s rate
    (umb_um and umb_oversub) above 0 and at most the GPU's memory peak, and at
    most the link where the rows read across it (link_bound)."""
    why = judge(recs, False, placed_min, managed)
    if why:
        return why
    head = next((r for r in recs if r.get('type') == 'header'), {})
    rows = [r for r in recs if r.get('type') == 'result']
    over = [r for r in rows if (r.get('link_pct') or 0) > 100]
    if over:
        return 'a figure above the link: %s' % over[0]
    peak = head.get('hbm_peak_gibs') or 0
    link = max([g.get('link_limit_gbs') or 0 for g in head.get('gpus', [])] or [0]) * 1e9 / 2**30
    rates = ['%s=%s' % (k, v) for r in rows for k, v in r.items() if k.endswith('gibs') and isinstance(v, (int, float))
             and (v <= 0 or (peak and v > peak) or (link_bound and link and v > link * 1.02))]
    if rates:
        return 'a rate outside (0, %s] GiB/s: %s' % ('%.1f' % link if link_bound and link else '%g' % peak, rates[0])
    return None


def references(path, key, measured):
    """{system:partition: {variable: (value, lower, upper)}} for the check
    of 'program buffers' KEY, from the references file: read by umbench's
    one reader of JSON files (scripts/umbench/schema.py, its schema
    references.schema.json), so that a file that is missing, cut short or
    malformed is an error, not an empty table; as is a reference to a
    variable the check does not measure (MEASURED: its latency_SIZE or
    bandwidth_SIZE names). ValueError, one line, on any of them."""
    from umbench import cli, schema  # the scripts' folder is on sys.path (umbench_checks.py)
    try:
        table = schema.load(path, 'references', 'references %s' % path, 'a references file')
    except schema.Missing:
        raise ValueError('references %s: no such file (UMBENCH_REFERENCES names the file; unset, '
                         'reframe-checks/references.json)' % path)
    except cli.Fail as e:
        raise ValueError(str(e))
    out = {}
    for where, checks in table.items():
        if where.startswith('_'):
            continue
        for var, ref in checks.get(key, {}).items():
            if var not in measured:
                raise ValueError('references %s: %s: "%s": %s: this check measures %s only' % (
                    path, where, key, var, ', '.join(sorted(measured)) or 'nothing'))
            out.setdefault(where, {})[var] = tuple(ref)
    return out


def unbuilt_reason(record, program):
    """Why PROGRAM, absent from its build, is skipped: the reason every
    program of a build without CUDA gives (util/gpu/gpu_none.c), where
    configure recorded none (RECORD: the build's umbench-build.json, read by
    umbench's one reader of it). None where the build has CUDA or says
    nothing readable: a driver missing there is a failed build, not a skip."""
    from umbench import cli, schema  # the scripts' folder is on sys.path (umbench_checks.py)
    try:
        cuda = schema.load(record, 'build')['cuda']
    except cli.Fail:
        return None
    return '%s: this build has no CUDA (configured without it)' % program if cuda == 'no' else None
