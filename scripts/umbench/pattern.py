"""--match's matcher: Python's regular-expression syntax, read by Python's
own parser, and matched by sets of positions, never by backtracking. Python's
re tries the ways a pattern can split a name one after another, so that
'(.?.?.?)*zz' against a 20-character name took longer than a run; here each
group and repeat is worked out once per position of the name (memoized), so a
search takes at most about (pattern length) x (name length)^3 steps, whatever
the pattern. What needs backtracking to mean anything (backreferences,
lookarounds, conditionals, atomic groups, possessive repeats) and flags are
refused, as is a nesting deeper than DEEPEST."""

from . import cli

try:  # the parser re itself uses; a module of its own before Python 3.11
    from re import _constants as C, _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants as C
    import sre_parse

DEEPEST = 50  # groups and repeats inside one another: more than a "program pair" name needs
TAKES = "characters, ., [...], \\d \\w \\s, |, (...), * + ? {m,n}, ^ $ \\b"


class Refused(Exception):
    """Why a pattern is not taken; the caller names the option."""


def _word(c):
    return c.isalnum() or c == "_"


# One character against a node, as re reads a str pattern (Unicode classes).
CATEGORY = {C.CATEGORY_DIGIT: str.isdecimal, C.CATEGORY_SPACE: str.isspace, C.CATEGORY_WORD: _word}
CATEGORY.update({getattr(C, "CATEGORY_NOT_" + k[len("CATEGORY_"):]): (lambda f: lambda c: not f(c))(f)
                 for k, f in (("CATEGORY_DIGIT", str.isdecimal), ("CATEGORY_SPACE", str.isspace), ("CATEGORY_WORD", _word))})


def _in(items, c):
    """A character class [...]: its items, NEGATE first where [^...]."""
    negate = bool(items) and items[0][0] is C.NEGATE
    hit = False
    for op, av in items[negate:]:
        hit = (op is C.LITERAL and c == chr(av) or op is C.RANGE and av[0] <= ord(c) <= av[1]
               or op is C.CATEGORY and CATEGORY[av](c))
        if hit:
            break
    return hit != negate


ONE = {C.LITERAL: lambda av, c: c == chr(av), C.NOT_LITERAL: lambda av, c: c != chr(av),
       C.ANY: lambda av, c: c != "\n", C.IN: _in}


def _at(code, s, q):
    """A zero-width position: ^ $ \\A \\Z \\b \\B (no MULTILINE)."""
    n = len(s)
    if code in (C.AT_BEGINNING, C.AT_BEGINNING_STRING):
        return q == 0
    if code == C.AT_END:
        return q == n or q == n - 1 and s[q] == "\n"
    if code == C.AT_END_STRING:
        return q == n
    boundary = (q > 0 and _word(s[q - 1])) != (q < n and _word(s[q]))
    return boundary if code == C.AT_BOUNDARY else n > 0 and not boundary


REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT)  # lazy or greedy: the same names are found


def _check(items, depth):
    """Refused: what this matcher does not take, and nesting past DEEPEST."""
    if depth > DEEPEST:
        raise Refused("nested more than %d deep" % DEEPEST)
    for op, av in items:
        if op in ONE and op is not C.IN:
            continue
        if op is C.IN:
            if any(o not in (C.NEGATE, C.LITERAL, C.RANGE, C.CATEGORY) or o is C.CATEGORY and a not in CATEGORY
                   for o, a in av):
                raise Refused("a character class this matcher does not read")
        elif op is C.AT:
            if av not in (C.AT_BEGINNING, C.AT_BEGINNING_STRING, C.AT_END, C.AT_END_STRING, C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
                raise Refused("an anchor this matcher does not read")
        elif op is C.BRANCH:
            for alt in av[1]:
                _check(alt, depth + 1)
        elif op is C.SUBPATTERN:
            if av[1] or av[2]:
                raise Refused("flags such as (?i) are not taken")
            _check(av[-1], depth + 1)
        elif op in REPEATS:
            _check(av[2], depth + 1)
        else:
            raise Refused("backreferences, lookarounds, (?(...)), atomic groups and possessive repeats are not taken: "
                          "they need a backtracking matcher, whose time has no bound")


class Pattern:
    """A compiled --match: .search(name) is true where re.search would find
    the pattern in name; .pattern is its text."""

    def __init__(self, text):
        self.pattern = text
        tree = sre_parse.parse(text)  # re.error, as re.compile gives
        if tree.state.flags & ~(C.SRE_FLAG_UNICODE | C.SRE_FLAG_VERBOSE):
            raise Refused("flags such as (?i) are not taken")
        _check(tree, 0)
        self.tree = tree

    def search(self, name):
        run = _Run(name)
        return bool(run.step_all(self.tree, set(range(len(name) + 1))))


class _Run:
    """One name: the ends each node reaches from each start, worked out once."""

    def __init__(self, s):
        self.s, self.memo = s, {}

    def ends(self, items, p):
        key = (id(items), p)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = frozenset(self.step_all(items, {p}))
        return got

    def step_all(self, items, cur):
        for op, av in items:
            if not cur:
                break
            cur = self.step(op, av, cur)
        return cur

    def step(self, op, av, cur):
        s = self.s
        if op in ONE:
            return {q + 1 for q in cur if q < len(s) and ONE[op](av, s[q])}
        if op is C.AT:
            return {q for q in cur if _at(av, s, q)}
        if op is C.BRANCH:
            return set().union(*(self.ends(alt, q) for alt in av[1] for q in cur))
        if op is C.SUBPATTERN:
            return set().union(*(self.ends(av[-1], q) for q in cur))
        return set().union(*(self.repeat(av, q) for q in cur))

    def repeat(self, av, p):
        """Where body{lo,hi} ends from p. A body's ends are never before its
        start, so after len+1 turns the ends no longer change: no count is
        followed further than that."""
        key = (id(av), p)
        if key in self.memo:
            return self.memo[key]
        lo, hi, body = av
        cur, turns = {p}, len(self.s) + 1
        for _ in range(min(lo, turns)):
            cur = set().union(*(self.ends(body, q) for q in cur))
        found, new = set(cur), set(cur)
        for _ in range(min(hi - lo, turns)):  # the fewest turns past lo reach each end: a breadth-first walk
            new = set().union(*(self.ends(body, q) for q in new)) - found
            if not new:
                break
            found |= new
        self.memo[key] = frozenset(found)
        return self.memo[key]


def compiled(text):
    """A Pattern, or re.error / Refused saying why not."""
    try:
        return Pattern(text)
    except OverflowError as e:  # a{99999999999}
        raise Refused(str(e))
    except (RecursionError, MemoryError):  # 5000 nested groups: deeper than the parser goes
        raise Refused("nested too deeply to read")


# What --match takes, in every command's --help.
HELP = ("; Python's regular expressions (%s), matched without backtracking so that every pattern ends: "
        "backreferences, lookarounds and flags are refused" % TAKES.replace("%", "%%"))


def regex(text, option="--match"):
    """None (the option not given) finds every name; a blank one is refused,
    since it would too, silently (no_blanks). Python's syntax, matched
    without backtracking (pattern.py): every pattern ends."""
    if text is not None and not text.strip():
        raise cli.Fail("%s %s: empty; expected a regular expression (leave %s out for every one)" % (option, cli.shown(text), option))
    try:
        return compiled(text or "")
    except sre_parse.error as e:
        raise cli.Fail("%s %s: not a regular expression (%s)" % (option, cli.clip(text, 60), e))
    except Refused as e:
        raise cli.Fail("%s %s: %s; it takes %s" % (option, cli.clip(text, 60), e, TAKES))
