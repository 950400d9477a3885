"""One rule shows a value on a line, in every script as in the C programs
(util/core/strbuf.h, umb_show_char; docs/output.md, "Control characters"):
a C0 control, DEL, a C1 control (U+009B opens a sequence, as ESC [ does)
and a byte that is not UTF-8 (a name read with surrogateescape) as \\xNN.
A newline the user typed never makes one message two."""
import re
import sys

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\udc80-\udcff]")


def _hex(m):
    c = ord(m.group())
    return "\\x%02x" % (c - 0xdc00 if c >= 0xdc80 else c)


def decoded(data):
    """What a program or launcher wrote (bytes) as text that escaped() shows
    byte for byte: a byte that is not UTF-8 as \\xNN, not U+FFFD; a CR as
    \\x0d, not read as a line end (Python's text mode made it \\x0a). Its
    lines are text.split("\\n"): splitlines() also ends one at a CR."""
    return data.decode("utf-8", "surrogateescape")


def escaped(text):
    """TEXT on one line: every control character (a folder called
    "a<newline>b") shown as \\xNN."""
    return CONTROL.sub(_hex, str(text))


class _Shown:
    """A standard stream whose every write goes through escaped(), line
    ends kept: whatever a command prints (a run.json field, a finding, a
    name), no control character of its data reaches the terminal. A value
    with a newline is escaped where it is formatted (escaped())."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        return self._stream.write("\n".join(escaped(line) for line in text.split("\n")))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def shown_streams():
    """Standard output and error through the rule, once."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is not None and not isinstance(getattr(sys, name), _Shown):
            setattr(sys, name, _Shown(getattr(sys, name)))


def shown(text):
    """A value as a message names it: an empty or blank one quoted, so that the line still shows it."""
    return repr(text) if isinstance(text, str) and (not text.strip() or text != text.strip()) else str(text)


def clip(text, width):
    """One line of at most about `width` characters, cut at a word boundary
    with "..." where it is longer: never mid-word (a reason cut at 200
    characters read "no such fi"). Escaped first (escaped), then cut: a
    newline is shown as \\x0a, not made a blank."""
    text = " ".join(escaped(text).split())
    if len(text) <= width:
        return text
    cut = text[:width + 1].rsplit(" ", 1)[0] if " " in text[:width + 1] else text[:width]
    return cut.rstrip(" ,;:") + " ..."
