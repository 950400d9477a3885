"""What ran, in the one normal form (issue 66, class 3; pass 13, kinds 6
and 7): like.alike compares benchmark options as the programs' parser
reads them and the environment as the programs read it, whichever of
run.json and a run's header says it, and describes a difference by the
one escaping rule. Runs that ran the same are alike; a real difference is
named."""
import os
import re
import sys
import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

import common
from common import counted, scale

# Options as the programs' parser reads them: (short, long, values or None for a flag).
SPELT = [("-i", "--iterations", ["5", "7", "1000"]), ("-x", "--warmup", ["0", "1"]), ("-W", "--window-size", ["1", "4"]),
         ("-f", "--full", None), ("-c", "--validation", None), (None, "--loop", ["auto", "handshake"]),
         (None, "--path", None), ("-k", "--root", ["fixed:0", "rotate"]), ("-m", "--message-size", ["8:64", "1K"])]


def spelt(data, option, value):
    """One occurrence of an option as a user may write it: short or long,
    the value apart, attached or after "=" (a long name's unique prefix too)."""
    short, long_, values = SPELT[option]
    forms = ([[short]] if short and values is None else []) + ([[long_]] if values is None else [])
    if values is not None:
        unique = [n for n in like.LONG if n.startswith(long_[2:-1])] == [long_[2:]]
        forms += [[long_, value], [long_ + "=" + value]] + ([[long_[:-1], value]] if unique else []) + \
            ([[short, value], [short + value]] if short else [])
    return data.draw(st.sampled_from(forms), label="spelling")


def written(data, final):
    """FINAL ({option: value}) as a command line the C parser reads the same:
    the options in any order, any of them given before with other values
    or again (the last one wins)."""
    events = []
    for k, v in final.items():
        events += [(k, data.draw(st.sampled_from(SPELT[k][2] or [None]), label="earlier"))
                   for _ in range(data.draw(st.integers(0, 2), label="times before"))] + [(k, v)]
    order = data.draw(st.permutations(events), label="order")
    last = {k: i for i, (k, _) in enumerate(order)}
    return sum((spelt(data, k, final[k] if i == last[k] else v) for i, (k, v) in enumerate(order)), [])


def options_drawn(data):
    keys = data.draw(st.lists(st.integers(0, len(SPELT) - 1), unique=True, max_size=5), label="options")
    return {k: SPELT[k][2] and data.draw(st.sampled_from(SPELT[k][2])) for k in keys}


def canonical(final):
    return sum(([SPELT[k][1]] + ([v] if v else []) for k, v in sorted(final.items())), [])


sys.path.insert(0, common.SCRIPTS)
from umbench import like, values  # noqa: E402
from umbench.shown import escaped  # noqa: E402

# The C parser's readers (util/core/parse.c, util/mpi/options_parse.c) and
# values.READ's for them; the option of each default set_defaults gives.
C_READER = {"umb_parse_long": "_integer", "umb_parse_bytes": "_bytes", "parse_sizes": "_sizes",
            "parse_seconds": "_seconds", "parse_precision": "_percent"}
FIELD = {"M": "mem_limit", "size-budget": "size_budget"}


def spelt_integer(data, v):
    return "0" * data.draw(st.integers(0, 3), label="zeros") + str(v)


def spelt_bytes(data, v):
    forms = [str(v)] + ["%d%s" % (v >> s, c) for s, c in ((10, "K"), (20, "M"), (30, "G")) if v and v % (1 << s) == 0]
    form = data.draw(st.sampled_from(forms), label="bytes")
    return "0" * data.draw(st.integers(0, 2), label="zeros") + (form.lower() if data.draw(st.booleans(), label="lower") else form)


def spelt_seconds(data, v):
    return data.draw(st.sampled_from([repr(v), "%g" % v, "%.3f" % v, "%ge0" % v, "0%g" % v]), label="seconds")


def spelt_percent(data, v):
    return data.draw(st.sampled_from(["%g" % v, "%g%%" % v, "%.2f%%" % v, "0%g" % v]), label="percent")


def spelt_sizes(data, v):
    lo, hi = v
    return "%s:%s" % (spelt_bytes(data, lo), spelt_bytes(data, hi))


# An option's values (as read), how to write one, and its default (None: none).
GIB = 1 << 30
VALUES = {"i": ([1, 5, 20, 100000], spelt_integer, None), "x": ([0, 1, 20], spelt_integer, None),
          "W": ([1, 64, 65536], spelt_integer, None), "device": ([0, 3], spelt_integer, None),
          "M": ([1 << 20, GIB, 2 * GIB, 3 * GIB], spelt_bytes, 2 * GIB), "m": ([(1, 8), (1024, 8192), (8, 4 << 20)], spelt_sizes, None),
          "timeout": ([0.0, 30.0, 61.5], spelt_seconds, None), "size-budget": ([0.5, 3.0, 10.0], spelt_seconds, 3.0),
          "launch-budget": ([0.25, 3.0, 100.0], spelt_seconds, None), "precision": ([0.5, 2.0, 5.0], spelt_percent, None)}

TUNED = ["OMPI_MCA_btl", "UCX_TLS", "HWLOC_HIDE_ERRORS", "OMPI_MCA_pml", "UCX_RNDV_THRESH"]
VALUE = st.text(alphabet="ab ,=\n\x1b\u00e9-", max_size=12)


def header_of(env):
    """The header's mpi_env as util/mpi/mpi_info.c writes it: "K=V" joined
    by blanks, cut at the buffer's 2,047 characters."""
    return {"mpi_env": (" ".join("%s=%s" % kv for kv in env.items()) or "none")[:like.HEADER_ENV_CUT]}


class Like(unittest.TestCase):
    """What ran, in the one normal form (like.ran, like.alike): options as
    the programs' parser reads them, the environment as the programs read
    it, whichever of run.json and a header says it (pass 13, kinds 6, 7)."""

    def test_option_table_is_the_programs(self):
        """like.LONG is the C parser's table (util/mpi/options_parse.c and
        the one-sided family's own options), name, letter and argument."""
        kinds = {"no_argument": 0, "required_argument": 1, "optional_argument": 2}
        table = {}
        for rel in ("util/mpi/options_parse.c", "util/mpi/rma/rma.c"):
            with open(os.path.join(common.TOP, rel)) as f:
                for name, kind, val in re.findall(r'\{"([a-z-]+)", (\w+_argument), 0, ([^}]+)\}', f.read()):
                    letter = val.strip()
                    table[name] = (letter[1] if letter.startswith("'") else name, kinds[kind])
        self.assertEqual(table, like.LONG)
        with open(os.path.join(common.TOP, "util/mpi/options_parse.c")) as f:
            shorts = re.search(r'"(:[A-Za-z:]+)%s"', f.read()).group(1) + "w:s:"  # the one-sided family's own_short
        self.assertEqual({c: int(shorts[i + 1:i + 2] == ":") for i, c in enumerate(shorts) if c != ":"}, like.SHORT)

    def test_values_read_as_the_programs_read_them(self):
        """values.READ reads each option's value with the reader of the
        function the C parser calls for it, and values.DEFAULT holds the
        defaults set_defaults gives (util/mpi/options.h)."""
        with open(os.path.join(common.TOP, "util/mpi/options_parse.c")) as f:
            src = f.read()
        longs = {opt: name for name, opt in re.findall(r'\{"([a-z-]+)", \w+_argument, 0, (\w+)\}', src)}
        parts = re.split(r"\bcase ('.'|OPT_\w+):", src)
        found, pending = {}, []
        for label, body in zip(parts[1::2], parts[2::2]):  # a case with no body falls through to the next's
            body = re.split(r"default:|\n}\n", body)[0]
            pending.append(label[1] if label.startswith("'") else longs[label])
            if body.strip():
                m = re.search(r"\b(%s)\(" % "|".join(C_READER), body)
                found.update({k: C_READER[m.group(1)] for k in pending} if m else {})
                pending = []
        self.assertEqual(found, {k: f.__name__ for k, f in values.READ.items()})
        with open(os.path.join(common.TOP, "util/mpi/options.h")) as f:
            header = f.read()
        defaults = re.findall(r"o->(\w+) = (UMB_DEFAULT_\w+);", src)
        defined = {field: eval(re.search(r"#define %s (.*?)(/\*|$)" % name, header, re.M).group(1).replace("(size_t)", ""))
                  for field, name in defaults}
        self.assertEqual(defined, {FIELD[k]: v for k, v in values.DEFAULT.items()})

    @settings(max_examples=scale(80))
    @given(st.data())
    def test_values_alike_as_the_parser_reads_them(self, data):
        """A value spelt another way ("-i 020", "-M 1024M", "--size-budget
        3.0") or given as the default ("-M 2G") is alike; another value is
        named (pass 14: "-i 020" against "-i 20" differed, "-M 2G" against
        none too)."""
        key = data.draw(st.sampled_from(sorted(VALUES)), label="option")
        flag = "-" + key if len(key) == 1 else "--" + key
        value = data.draw(st.sampled_from(VALUES[key][0]), label="value")
        other = data.draw(st.sampled_from([v for v in VALUES[key][0] if v != value]), label="other")
        counted("values_alike_as_the_parser_reads_them")
        a, b = VALUES[key][1](data, value), VALUES[key][1](data, value)
        self.assertEqual(like.alike({"options": [flag, a]}, {"options": [flag, b]}), [], (flag, a, b))
        unlike = like.alike({"options": [flag, VALUES[key][1](data, value)]}, {"options": [flag, VALUES[key][1](data, other)]})
        self.assertEqual([d[0] for d in unlike], ["options"], (flag, value, other))
        if VALUES[key][2] is not None:
            given = {"options": [flag, VALUES[key][1](data, VALUES[key][2])]}
            self.assertEqual(like.alike(given, {"options": []}), [], (flag, given))
            self.assertEqual(len(like.alike({"options": [flag, VALUES[key][1](data, value)]}, {"options": []})),
                             int(value != VALUES[key][2]), (flag, value))

    @settings(max_examples=scale(60))
    @given(st.data())
    def test_options_alike_as_the_parser_reads_them(self, data):
        """Options in another order, given twice, in another spelling: alike
        (pass 13: "-i 5 -x 1" and "-x 1 -i 5" were refused as unlike); a
        value that differs in the end is named, both sides as written."""
        final = options_drawn(data)
        words = written(data, final)
        counted("options_alike_as_the_parser_reads_them")
        a, b = {"options": canonical(final)}, {"options": words}
        self.assertEqual(like.alike(a, b), [], (canonical(final), words))
        valued = [k for k in final if SPELT[k][2]]
        if valued:
            k = data.draw(st.sampled_from(valued), label="changed")
            other = dict(final)
            other[k] = data.draw(st.sampled_from([v for v in SPELT[k][2] if v != final[k]]), label="other value")
            differ = like.alike(a, {"options": words + spelt(data, k, other[k])})
            self.assertEqual([d[0] for d in differ], ["options"], (final, other))

    @settings(max_examples=scale(60))
    @given(st.dictionaries(st.sampled_from(TUNED), VALUE, max_size=4), st.integers(0, 2500),
           st.sampled_from([None, "", "tsc", "WTIME", "wtime"]), VALUE)
    def test_environment_as_the_programs_read_it(self, env, filler, laps, value):
        """A run's environment from run.json, from its header (a value with a
        blank or newline; cut at 2,047 characters), or both: alike; a value
        that differs is named by the one escaping rule; UMB_LAPS_CLOCK only
        as the programs read it, "wtime" or nothing (pass 13, kinds 6, 7)."""
        counted("environment_as_the_programs_read_it")
        env = dict(env, UCX_ZFILL="f" * filler)
        head = header_of(env)
        sides = [like.ran({"env": env}, "default", head), like.ran({}, "default", head), like.ran({"env": env}, "default", {})]
        for x in sides:
            for y in sides:
                self.assertEqual(like.alike(x, y), [], (env, head))
        laps_env = dict(env, **({"UMB_LAPS_CLOCK": laps} if laps is not None else {}))
        self.assertEqual(bool(like.alike(sides[1], like.ran({}, "default", header_of(laps_env)))), laps == "wtime", laps)
        changed = dict({"OMPI_MCA_btl": value + "x"}, **{k: v for k, v in env.items() if k != "OMPI_MCA_btl"})
        differ = like.alike(sides[2], like.ran({}, "default", header_of(changed)))  # first: in the header, whatever cut
        self.assertEqual([d[0] for d in differ], ["environment"], (env, changed))
        text = like.differences(differ)
        self.assertIn(escaped(like.shlex.quote("OMPI_MCA_btl=" + value + "x")), text)
        self.assertEqual(text, escaped(text), "a control character described raw")


if __name__ == "__main__":
    unittest.main()
