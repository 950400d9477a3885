"""The option space of umbench's programs, read from their own --help, as
launches for tests/mpi/option_space.sh (issue 66: no accepted option set
crashes, hangs or exits 0 without its rows).

    option_space.py launches SEED NP PROGRAM...   a family's launches
    option_space.py verdicts PROGRAM...           the drivers' option values

Every option a program's --help names gets a few values its placeholder
admits (the range's edges where cheap, every word of a word list, every
buffer kind and pair). Each value is asked of the program alone first
(--check-options, no MPI): a refusal there must be one line, exit 1, and
the value is not one the program accepts. The accepted values are packed
into launches, a covering design: every (option, value) in at least one
launch, over the family's programs in turn, a value added to a launch only
where --check-options still takes the whole launch. Output, one line each:

    L NP PROGRAM NSIZES NPAIRS ARG...   a launch (NPAIRS: pairs given, 0 none)
    K NP PROGRAM NSIZES NPAIRS ARG...   a launch of GPU buffer kinds alone
    S NP PROGRAM NSIZES NPAIRS ARG...   one of its values alone, for a refusal
    C PROGRAM ARG...                    a driver's value, for its verdict alone
    FAIL text                           a refusal that was not one line
"""
import random
import re
import subprocess
import sys

# Every launch's own counts, tiny, unless an option of the launch sets one.
BASE = [("-m", "4:16"), ("-i", "2"), ("-x", "0"), ("--format", "csv"),
        ("--size-budget", "0.1"), ("--timeout", "20")]
# What the programs answer, not options to vary.
NOT_VARIED = {"-h", "--help", "-v", "--version", "--check-options"}
# At most this many buffer pairs in one launch (a program takes 32).
PAIRS_PER_LAUNCH = 8
# Placeholders and the values tried for each. N takes its range from the
# text instead (both edges up to CHEAP). S: seconds; not --timeout's edge
# of 1 s, which MPI_Init alone passed on a loaded 2-core host (launches of
# 1.4 to 3 s), and --size-budget's 3 s x 3 sizes must end within RUN_LIMIT.
PLACEHOLDER = {
    "[MIN:]MAX": ["4:16", "1:1", "1K:2K"],
    "MIN:MAX": ["4K:16K", "1:1"],
    "BYTES": ["64M", "1G", "4K"],
    "P%": ["50%", "5%"],
    "S": ["2", "3"],
    "E": ["8K", "64K"],
    "B": ["4K"],
    "F": ["2", "4"],
    "fixed:N": ["fixed:0", "fixed:1"],
}
# -W 65536 is not: Open MPI 4.1's ob1 takes 10 s for one iteration of
# 65,536 messages in flight on a 2-core host (4,096: 1.3 s for the launch).
CHEAP = 4096


def help_text(program):
    out = subprocess.run([program, "--help"], capture_output=True, text=True, check=False)
    return out.stdout


def option_lines(text):
    """(head, description) for each option line of the help text."""
    found = []
    for line in text.splitlines():
        if re.match(r"^ {2,8}-", line):
            body = line.strip()
            m = re.search(r"\S {2,}", body)
            head, desc = (body[:m.start() + 1], body[m.end():]) if m else (body, "")
            found.append([head, desc])
        elif found and line.startswith(" " * 20):
            found[-1][1] += " " + line.strip()
        elif not line.startswith(" "):
            found.append(None)
    return [f for f in found if f]


def options(text):
    """[(names, metavar, description)]: names as the help spells them."""
    result = []
    for head, desc in option_lines(text):
        tokens = [t for t in re.split(r"[\s,]+", head) if t and t != "|"]
        current = None
        for token in tokens:
            if token.startswith("-"):
                name, _, optional = token.partition("[=")
                metavar = "[=" + optional if optional else None
                # "-m, --message-size ARG": the letter and the long name are one option.
                if current and current[1] is None and len(current[0]) == 1 and len(current[0][0]) == 2 \
                        and name.startswith("--"):
                    current[0].append(name)
                    current[1] = metavar
                else:
                    current = [[name], metavar, desc]
                    result.append(current)
            elif current and current[1] is None:
                current[1] = token
    return [(n, m, d) for n, m, d in result if not set(n) & NOT_VARIED]


def numbers(desc):
    m = re.search(r"(-?\d+) to (\d+)", desc)
    if not m:
        return ["0", "1"]
    low, high = int(m.group(1)), int(m.group(2))
    return [str(v) for v in sorted({low, low + 1, high}) if v <= CHEAP]


def list_words(desc):
    """The words a LIST's description names, each item's last (the text
    after its first ": ", out of parentheses): a=b|c as a=b and a=c."""
    words = re.findall(r"\b[A-Z]{1,2}(?:,[A-Z]{1,2})+\b", desc)  # a kind per rank
    words += [m + ":4K" for m in re.findall(r"([a-z]+):SIZE", desc)]
    words += re.findall(r"\(default ([\d.]+)\)", desc)
    text = desc
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", "", text)
    text = text.split(": ", 1)[-1]
    for item in re.split(r"[,;]", text):
        token = (item.split() or ["-"])[-1]
        stem, sep, alts = token.partition("=")
        if token.startswith("-"):
            continue
        if sep:
            if stem.endswith("["):
                stem = stem[:-1]
                words.append(stem)
            words += [stem + "=" + a for a in alts.rstrip("]").split("|")]
        else:
            words += token.split("|")
    return list(dict.fromkeys(words + ["all"]))


def values(metavar, desc):
    """The values tried for one option: None alone for a flag."""
    if metavar is None:
        return [None]
    if metavar.startswith("[="):
        return [None] + ["=" + w for w in metavar[2:-1].split("|")]
    tried = []
    for part in metavar.split("|"):
        if part == "N":
            tried += numbers(desc)
        elif part in ("LIST", "KIND", "P") :
            tried += list_words(desc)
        elif part in PLACEHOLDER:
            tried += PLACEHOLDER[part]
        elif re.fullmatch(r"[a-z][\w-]*", part) or part == "GiB" or part == "GB":
            tried.append(part)
    return list(dict.fromkeys(tried))


def kinds(text):
    """The buffer kinds the help's SRC DST table names (point-to-point, RMA)."""
    if "SRC and DST" not in text:
        return []
    table = text.split("SRC and DST", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"(?:^|\s{2,})([A-Z]{1,2})\s{2,}[a-z]", table, re.M)


def words(names, value):
    """The command-line words of one option value."""
    if value is None:
        return [names[-1]]
    if value.startswith("="):
        return [names[-1] + value]
    return [names[-1], value]


def sizes(spec):
    """How many sizes -m MIN:MAX gives: MIN, the powers of two between, MAX."""
    def read(s):
        return int(s[:-1]) << {"K": 10, "M": 20, "G": 30}[s[-1]] if s[-1] in "KMG" else int(s)
    low, high = (read(s) for s in spec.split(":"))
    between = [1 << k for k in range(64) if low < 1 << k < high]
    return 1 + len(between) + (high != low)


def check(program, args):
    out = subprocess.run([program, "--check-options"] + args, capture_output=True, text=True, check=False)
    return out.returncode, out.stderr


def launch_args(groups):
    """BASE, less what the groups set, then the groups: the pairs last."""
    set_names = {n for names, _ in groups if names for n in names}
    args = [w for name, v in BASE if name not in set_names for w in (name, v)]
    pairs = []
    for names, value in groups:
        if names is None:
            pairs += value.split()
        else:
            args += words(names, value)
    return args + pairs


def describe(np, program, groups):
    spec = next((v for names, v in groups if names and "-m" in names), dict(BASE)["-m"])
    npairs = sum(1 for names, _ in groups if names is None)
    return f"{np} {program} {sizes(spec)} {npairs} " + " ".join(launch_args(groups))


def accepted(program, names, value, refusals):
    """Whether PROGRAM takes the value alone; a refusal must be one line."""
    args = launch_args([(names, value)])
    rc, err = check(program, args)
    if rc == 1 and len(err.splitlines()) == 1 and err.startswith(program.rsplit("/", 1)[-1] + ": "):
        return False
    if rc != 0 or err:
        refusals.append(f"FAIL {program} --check-options {' '.join(args)}: exit {rc}, stderr {err!r}")
        return False
    return True


def family_space(programs, refusals):
    """{program: [(names, value, gpu)]}: the values each program takes alone;
    gpu: a buffer kind other than host memory, which a host without a GPU
    skips (exit 77) with the whole launch for a collective."""
    space = {}
    for program in programs:
        text = help_text(program)
        taken = [(names, v, "MH" in desc and v != "H") for names, metavar, desc in options(text)
                 for v in values(metavar, desc) if accepted(program, names, v, refusals)]
        ks = kinds(text)
        taken += [(None, f"{a} {b}", False) for a in ks for b in ks]
        space[program] = taken
    return space


def fits(launch, group):
    """Whether the group may join the launch: one value of an option, at most
    PAIRS_PER_LAUNCH pairs, and --check-options takes the whole."""
    program, groups = launch
    if group[0] is None:
        if sum(1 for g in groups if g[0] is None) >= PAIRS_PER_LAUNCH:
            return False
    elif any(g[0] == group[0] for g in groups):
        return False
    return check(program, launch_args(groups + [group]))[0] == 0


def pack(programs, items, rng, first=()):
    """Launches [(program, groups)] covering items {(names, value): programs}:
    as many as the option of most values needs, the programs in turn, each
    value in the next launch (from where the last one went) that takes it."""
    per_option = {}
    for (names, value), progs in items.items():
        per_option.setdefault(names, []).append((value, progs))
    if not per_option:
        return []
    count = max(-(-len(v) // PAIRS_PER_LAUNCH) if names is None else len(v) for names, v in per_option.items())
    launches = [(programs[i % len(programs)], list(first)) for i in range(max(count, len(programs)))]
    cursor = 0
    for names in sorted(per_option, key=lambda n: (n is None, n or ())):
        choices = sorted(per_option[names], key=lambda c: str(c[0]))
        rng.shuffle(choices)
        for value, progs in choices:
            group = (list(names) if names else None, value)
            for step in range(len(launches)):
                launch = launches[(cursor + step) % len(launches)]
                if launch[0] in progs and fits(launch, group):
                    launch[1].append(group)
                    cursor = (cursor + step + 1) % len(launches)
                    break
            else:
                launches.append((progs[0], list(first) + [group]))
    return [launch for launch in launches if len(launch[1]) > len(first)]


def plan(programs, space, rng):
    """The launches on host buffers, then those of the GPU kinds apart (on a
    host without a GPU these end 77 and take no other value with them)."""
    host, gpu = {}, {}
    for program in programs:
        for names, value, on_gpu in space[program]:
            (gpu if on_gpu else host).setdefault((tuple(names) if names else None, value), []).append(program)
    # Every launch of a program of pairs runs host buffers first: the other
    # pairs skip without a GPU, and its rows still show the options at work.
    first = [(None, "H H")] if (None, "H H") in host else []
    host.pop((None, "H H"), None)
    launches = pack(programs, host, rng, first)
    return [("L", launch) for launch in launches] + [("K", launch) for launch in pack(programs, gpu, rng)]


def main(argv):
    if argv[0] == "verdicts":
        refusals = []
        for program in argv[1:]:
            for names, metavar, desc in options(help_text(program)):
                for value in values(metavar, desc):
                    print("C", program, " ".join(words(names, value)))
        return 0
    seed, np, programs = int(argv[1]), argv[2], argv[3:]
    refusals = []
    space = family_space(programs, refusals)
    for line in refusals:
        print(line)
    for kind, (program, groups) in plan(programs, space, random.Random(seed)):
        print(kind, describe(np, program, groups))
        for group in groups:
            print("S", describe(np, program, [group]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
