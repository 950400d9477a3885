"""A benchmark option's value as the programs' parser reads it
(util/mpi/options_parse.c), so that like.alike compares values, not
spellings: "-i 020" is "-i 20", "-M 2048M" is "-M 2G", and the default
given is the default left out."""
import re


def _integer(v):  # umb_parse_long: decimal digits, no sign ("020" is 20)
    return int(v) if re.fullmatch(r"[0-9]+", v) else None


def _bytes(v):  # umb_parse_bytes: digits and an optional K, M or G, either case
    m = re.fullmatch(r"([0-9]+)([KkMmGg]?)", v)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()] if m else None


def _sizes(v):  # umb_parse_size_range: MAX, MIN:MAX or MIN:, each in bytes
    lo, colon, hi = v.partition(":")
    lo, hi = (_bytes(lo), _bytes(hi) if hi else "") if colon else ("", _bytes(lo))
    return None if None in (lo, hi) else (lo, hi)


def _seconds(v):  # umb_parse_decimal with an exponent
    return float(v) if re.fullmatch(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", v) else None


def _percent(v):  # parse_precision: off, or plain digits and an optional %
    return v if v == "off" else float(v.rstrip("%")) if re.fullmatch(r"([0-9]+\.?[0-9]*|\.[0-9]+)%?", v) else None


# Each option's value as the programs' parser reads it (util/mpi/options_parse.c;
# test_like checks each reader against the function the C parser calls),
# and the defaults set_defaults gives (util/mpi/options.h): "-i 020" is
# "-i 20", "-M 2G" is no -M. A value no reader takes compares as written.
READ = {"i": _integer, "x": _integer, "W": _integer, "device": _integer, "M": _bytes, "m": _sizes,
        "timeout": _seconds, "size-budget": _seconds, "launch-budget": _seconds, "precision": _percent}
DEFAULT = {"M": 2 << 30, "size-budget": 3.0}


def read_value(key, v):
    """v as the programs read the value of option `key`; as written where no reader takes it."""
    got = READ[key](v) if key in READ else None
    return v if got is None else got
