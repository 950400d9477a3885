"""How busy the machine is around tests/tools/overhead's rounds
(--wait-idle): the CPU time others spent, from /proc/stat."""
import os
import time

REDO = 4  # --wait-idle: times at most a round is run again
IDLE_LIMIT = 120  # --wait-idle: seconds at most before a round


def machine_cpu():
    """(CPU seconds the machine spent busy, steal included, from /proc/stat;
    CPU seconds of this process and its children that ended, the ranks among
    them; wall seconds), or None without /proc/stat."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    t = os.times()
    busy = (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait
    return busy, t.user + t.system + t.children_user + t.children_system, time.monotonic()


def others_cpu(before, after):
    """CPUs' worth of work that was not ours between two machine_cpu readings."""
    busy, own, wall = (a - b for a, b in zip(after, before))
    return max(busy - own, 0.0) / max(wall, 1e-9)


def wait_idle(share):
    """Seconds waited until the CPUs were at least `share` idle over one
    second (IDLE_LIMIT at most)."""
    start = time.monotonic()
    while time.monotonic() - start < IDLE_LIMIT:
        before = machine_cpu()
        time.sleep(1.0)
        after = machine_cpu()
        if before is None or after is None or others_cpu(before, after) <= (1 - share) * os.cpu_count():
            break
    return time.monotonic() - start


def quiet_round(share, r, quiet, one_round):
    """Round r of every program (one_round()): with --wait-idle SHARE, run again (REDO times at
    most) where other work used more than the rest of a CPU while it ran,
    each time once the CPUs were that idle (checked before the first round
    too; after a round that ran undisturbed, the next starts at once)."""
    for attempt in range(REDO + 1):
        if share and (r == 0 or attempt > 0):
            quiet["waited"] += wait_idle(share)
        before = machine_cpu()
        rows = one_round()
        after = machine_cpu()
        if not share or before is None or after is None or others_cpu(before, after) <= 1 - share:
            return rows
        quiet["again" if attempt < REDO else "kept"] += 1
    return rows
