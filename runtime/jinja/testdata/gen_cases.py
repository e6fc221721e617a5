#!/usr/bin/python3
"""Computes the expected results for the Go tests of package jinja with real
Python and Jinja2, and writes them to testdata/cases.json.

Run from the package directory (go generate does): /usr/bin/python3 testdata/gen_cases.py

Encodings: floats travel as their IEEE 754 bits (an unsigned integer) so
that every value, -0.0 and NaN included, is exact. Where Python raises, the
expected value is {"raises": "<exception name>"}; the Go tests check the
documented fallback for those cases.
"""

import datetime
import itertools
import json
import math
import struct
import subprocess
import sys
import unicodedata

import jinja2
from jinja2 import filters
from markupsafe import Markup

ENV = jinja2.Environment()
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


STRFTIME_TIMES = [
    datetime.datetime(2026, 1, 8, 9, 30, 0), datetime.datetime(2025, 12, 31, 23, 59, 59),
    datetime.datetime(2024, 2, 29, 0, 0, 0), datetime.datetime(2026, 7, 4, 12, 5, 9),
    datetime.datetime(1999, 11, 21, 13, 0, 7), datetime.datetime(2003, 5, 17, 0, 30, 1),
    datetime.datetime(1, 1, 1, 1, 1, 1),
]
STRFTIME_FORMATS = [
    "%Y-%m-%d", "%d %b %Y", "%B %d, %Y", "", "plain text", "%%", "100%% %Y",
    "%a %A %b %B %d %H %I %j %m %M %p %S %y %Y", "%H:%M:%S", "%I%p", "日付: %Y年%m月%d日 😀",
]


def bits(f):
    return struct.unpack("<Q", struct.pack("<d", f))[0]


# BEYOND_INT64 is the expected result of an int operation whose Python
# result does not fit in int64: promptgen fails rather than wrap.
BEYOND_INT64 = "beyond int64"


def int64_or_beyond(v):
    return v if INT64_MIN <= v <= INT64_MAX else BEYOND_INT64


def render(source, **kw):
    return ENV.from_string(source).render(**kw)


def attempt(fn, encode=lambda v: v):
    try:
        return encode(fn())
    except Exception as e:  # the test only needs to know that Python raised
        return {"raises": type(e).__name__}


FLOATS = [
    0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 0.5, 1.5, 2.5, -2.5, 2.675, 1.005,
    0.125, 0.375, 42.55, 100.0, 1e-4, 1e-5, 1.5e-5, 1e-7, 1.234e-7, 0.00012345,
    123456789012345.0, 1234567890123456.0, 12345678901234567.0, 9007199254740993.0,
    1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 1.5e300, -1.5e-300, 5e-324, 2.2250738585072014e-308,
    1.7976931348623157e308, 9.223372036854775e18, 9.223372036854776e18, -9.223372036854776e18,
    15.0, 25.0, 25.4, 35.0, 1234.5678, -1234.5678, 99999.5, 0.045, 3.14159, 1e100,
    math.inf, -math.inf, math.nan,
]

CASE_STRINGS = [
    "", "a", "A", "hello world", "Hello World", "hELLO wORLD", "ß", "straße", "STRASSE",
    "ﬁx ﬂow ﬀ ﬃ ﬅ ﬓ", "ǆemal ǅ Ǆ ǈ ǲ Ǳ", "ǅungla", "İstanbul", "ıi Iİ", "ΣΑΣ", "ΟΔΥΣΣΕΥΣ",
    "Σ", "aΣ", "ΑΣ.", "ΑΣ'Α", "ΑΣ'", "ΑΣ\u00ad", "A\u00adΣ", "AΣ\u200b", "AΣ1", "AΣ A", "ΣΣ",
    "ΑΣΣ", "ΑΣ\u0345", "Σ\u0301a", "ΑΣ ΣΑΣ aΣ-bΣ ΑΣ(ΑΣ)", "ὈΔΥΣΣΕΎΣ", "ŉ ǰ ΐ ΰ", "ᾳ ᾼ ᾀ ᾈ ῼ",
    "e\u0301cole \u00e9t\u00e9", "Ωmega", "日本語", "😀 emoji 🎉", "Ⓐⓑ", "Ꭰꭰ", "ᲀ", "ᲐᲑ ა",
    "a\u0345", "\u0345", "hello-world (foo) {bar} [baz] <qux>", "it's a dog's life",
    "o'neil mcdonald", "123abc 4x", "a\tb\nc\x1cd\x85e\u2028f\u3000g\xa0h", "mixed ÇA VA",
    "hello   world", "  leading", "trailing  ", "-dash-start", "a-b-c", "x<y", "ßa ßb",
    "ǆa-ǆb", "ﬁ-ﬁ ﬁ", "K\u212a\u0130", "ǉubljana", "\u1e9e", "\U00010400\U00010428",
]

SPACES = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000"
STRIP_STRINGS = [
    "", " ", "abc", "  abc  ", SPACES + "a b" + SPACES, "\u200ba\u200b", "\u180ea\u180e",
    "\ufeffx\ufeff", "\x00a\x00", "\u3000日本\u3000",
]
STRIP_CHARS = [
    ("xxhixx", "x"), ("abcHelloabc", "cba"), ("", "x"), ("hello", ""), ("ééaéé", "é"),
    ("😀a😀", "😀"), ("  a  ", " "), ("a\u0301a", "\u0301a"), ("www.example.com", "cmowz."),
]

SPLIT_STRINGS = [
    "", "   ", "a", "a b  c", "  a b c  ", "a,b,,c,", ",", ",,", "a\x1cb\x85c\u3000d\u200be",
    "日本,語, 😀", "a, b, c", "abab", "xabyabz",
]

SEARCH_STRINGS = ["", "a", "abab", "aaaa", "xabyabz", "日本語の日本", "éaéa", "ab日本ab"]
INDENT_STRINGS = [
    "", "a", "a\nb", "a\n\nb\n", "a\r\nb\rc\x0bd\x0ce\x1cf\x1dg\x1eh\x85i\u2028j\u2029k",
    "\n", "\r", "a\r", "a\n", "\n\n", "  x\n\ty", "\x1fnot a break\x1f", "a\r\n\r\nb",
]

TRUNCATE_STRINGS = [
    "foo bar baz qux", "", "short", "日本語のテキストです とても長い文章", "word" * 20,
    "a b c d e f g h i j k l m", "😀" * 30, "exactly ten", "no_spaces_here_at_all_really_long",
    "ends with space ", "  leading spaces are here too", "é" * 260,
]

INT_STRINGS = [
    "42", "-42", "+42", " 42 ", "\t+7\n", "42.9", "-42.9", "1e3", "1.5e3", "1_000", "1_000.5",
    "0x1A", "0X1a", "-0x10", "+0x1", "0o17", "0b101", "0b_1", "017", "0", "00", "-0", "0_0",
    "0_7", "abc", "", " ", "12abc", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "1e18", "1e19",
    "9.3e18", "-9.3e18", "nan", "inf", "-inf", "infinity", "١٢٣", "١٢.٥", "\u00a012\u2003",
    "\x8512", "\x1c12", "12\x00", "1__2", "_12", "12_", "0x_ff", "0x", "+-1", "--1", "ff", "FF",
    "z", "Z", "zz", "1.5", ".5", "5.", "1e", "٣x", "ⅷ", "²", "𝟗𝟖", "0b2", "0o8", "1_0_0",
    "7fffffffffffffff", "8000000000000000", "-8000000000000000", "zzzzzzzzzzzzz",
]
INT_BASES = [10, 16, 0, 2, 8, 36, 1, 37]

FLOAT_STRINGS = [
    "", " ", "1", "1.5", "-1.5", "+1.5", " 1.5 ", "\t1.5\n", "1.", ".5", ".", "-.5", "1e5", "1E+5",
    "1e-5", "1e", "1e+", "e5", "1_000.5", "1_000_000", "1__0", "_1", "1_", "1_.5", "1._5",
    "1e1_0", "1_e1", "0x1p3", "0x10", "inf", "-inf", "+inf", "Infinity", "iNfInItY", "-infinity",
    "infinit", "infinity ", "nan", "-nan", "NaN", "nan(1)", "1e400", "-1e400", "1e-400",
    "-1e-400", "4.9e-324", "2.5e-324", "1.7976931348623157e308", "1.7976931348623159e308",
    "0.1", "00012.50", "١.٥", "\u00a01.5\u2003", "\x851.5", "\x1c1.5", "1.5\x00", "abc", "1.5abc",
    "--1", "+-1", "1e5.5", "12_3.4_5e6_7", "0.000000000000000000000000000001", "9" * 400,
]

INT_ARITH = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10**18, -(10**18), INT64_MAX, INT64_MIN]
# Ints beyond 2^53, whose float conversions are not exact, for true division.
BIG_INTS = [2**53 + 1, -(2**53 + 1), 2**53 + 3, 2**62 + 1, 3 * 2**55 + 7, INT64_MAX - 1]
FLOAT_ARITH = [
    0.0, -0.0, 1.0, -1.0, 7.5, -7.5, 2.0, -2.0, 0.1, 3.0, 1e300, -1e300, 5e-324, 1e-300,
    math.inf, -math.inf, math.nan,
]
# Products either side of the int64 limits: the factors of 2^62, 2^63 and
# 3037000499^2 < 2^63 < 3037000500^2, each with either sign.
MUL_INTS = [x for v in [2**31, 2**32, 2**33, 3037000499, 3037000500, 2**62, 2**63 - 2**62] for x in [v, -v]]
POW_BASES = [0, 1, -1, 2, -2, 3, 7, 10, -10, 3037000499, -3037000500, INT64_MAX, INT64_MIN]
POW_EXPS = [0, 1, 2, 3, 10, 19, 39, 40, 62, 63, 64, 100]

QUOTED_STRINGS = [
    "", "a", "it's", 'say "hi"', "both ' and \"", "back\\slash", "\n\t\r", "\x00\x01\x1f\x7f",
    "\x80\x9f\xa0\xad\xff", "é日本😀", "\u200b\u2028\u2029\ufeff", "\U000e0001", "\ud7ff",
    "\ue000", "\U0010ffff", "\u0378", "\u0100\u0300", "\U0001f600\U000f0000", "<>&",
    "tab\there", "\x1b[0m",
]

INDEX_STRINGS = ["", "a", "héllo", "日本語", "😀x😀"]
SLICE_BOUNDS = [None, -12, -10, -3, -1, 0, 1, 3, 9, 10, 12]
SLICE_STEPS = [1, 2, 3, -1, -2, -3, 11, -11]
SLICE_STRINGS = ["héllo wörld", "abcdef", "😀a😀b", ""]
STRING_SLICE_BOUNDS = [None, -20, -4, -1, 0, 1, 2, 5, 11, 20]

SORT_LISTS = [
    ["b", "A", "a", "B", "c"], ["Ä", "a", "ä", "Z", "z"], ["ß", "SS", "ss", "s", "Ss"],
    ["İ", "i", "I", "ı", "i\u0307"], ["b", "a", "B", "A", "b"], [], ["x"],
    ["ΣΑΣ", "σας", "Σας", "ς"], ["apple", "Banana", "cherry", "APPLE", "banana"],
]

JSON_VALUES = [
    None, True, False, 0, -1, INT64_MAX, INT64_MIN, 1.0, 0.1, 1e-7, 1e16, 1e22, 5e-324, -0.0,
    123456789012345.0, math.nan, math.inf, -math.inf,
    "", "plain", 'quote" back\\slash /', "<script>alert('x') && y</script>",
    "\n\r\t\b\f\x00\x1f\x7f", "é日本😀", "\u2028\u2029\ufeff\U0010ffff",
    [], {}, [[]], [{}], {"a": []},
    [1, [2, [3, []]], {}, "x"],
    {"b": 1, "a": [True, None], "c": {"z": "é", "y": {}}, "d": [1.5, -0.0, "<&>"]},
    {"<key>": "&", "é": 1, "😀": [], "'": "'"},
    40 * [[]],  # replaced by a 40-level nesting below
]
JSON_INDENTS = [None, 0, 2, 4, -1]


def nested(depth):
    """Returns a value nested depth lists deep, beyond the writer's fixed state."""
    v = {"deep": [1, {}], "more": [[], [2]]}
    for _ in range(depth):
        v = [v, depth]
    return v


JSON_VALUES[-1] = nested(40)


def json_tree(v, sort=True):
    """Encodes a Python value as a tagged tree that keeps int and float
    apart, with dict keys sorted or in insertion order."""
    if v is None:
        return ["null"]
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float):
        return ["float", bits(v)]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, list):
        return ["list", [json_tree(x, sort) for x in v]]
    return ["dict", [[k, json_tree(v[k], sort)] for k in (sorted(v) if sort else v)]]


def tojson(v, indent):
    if indent is None:
        return render("{{ v|tojson }}", v=v)
    return render("{{ v|tojson(indent=i) }}", v=v, i=indent)


def truncate_cases():
    cases = []
    for s, length, killwords, end, leeway in itertools.product(
        TRUNCATE_STRINGS, [3, 5, 9, 11, 20, 255], [False, True], ["...", "", "…"], [None, 0],
    ):
        if length < len(end):
            continue
        out = filters.do_truncate(ENV, s, length, killwords, end, leeway)
        cases.append([s, length, killwords, end, 5 if leeway is None else leeway, out])
    return cases + unasserted_truncate_cases()


def truncate_markup_cases():
    """Truncate of Markup with a plain end: the cut counts the end as it
    is, and Markup's + appends it escaped."""
    cases = []
    for s, length, killwords, end, leeway in itertools.product(
        TRUNCATE_STRINGS + ["a <b> \"c\" d&e f", "<<x&y>> <z>"], [3, 5, 9, 11, 255],
        [False, True], ["...", "", "<", "&\"'", "日<"], [None, 0],
    ):
        if length < len(end):
            continue
        out = filters.do_truncate(ENV, Markup(s), length, killwords, end, leeway)
        assert isinstance(out, Markup)
        cases.append([s, length, killwords, end, 5 if leeway is None else leeway, str(out)])
    return cases


def unasserted_truncate_cases():
    """Truncate arguments that fail Jinja's asserts, computed by python -O."""
    args = [
        ["foo bar baz qux", 2, False, "...", 0], ["foo bar baz qux", 0, True, "...", 0],
        ["foo bar baz qux", 1, True, "...", 0], ["日本語 日本語", 1, False, "……", 0],
        ["foo bar baz qux", 9, False, "...", -3], ["foo bar baz qux", 14, True, "!", -1],
        ["foo bar baz qux", 15, False, "...", -1],
        ["ab", 0, True, "....", 0], ["foo bar baz qux", -3, True, "", 0],
        ["foo bar baz qux", -30, False, "", 0],
    ]
    script = (
        "import json, sys, jinja2\n"
        "from jinja2 import filters\n"
        "env = jinja2.Environment()\n"
        "print(json.dumps([filters.do_truncate(env, *a) for a in json.load(sys.stdin)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-O", "-c", script], input=json.dumps(args), capture_output=True,
        text=True, check=True,
    ).stdout
    return [a + [r] for a, r in zip(args, json.loads(out))]


def ranges(pred, cps):
    """Returns [lo, hi] runs of the code points in cps for which pred holds."""
    out = []
    for cp in cps:
        if pred(cp):
            if out and out[-1][1] == cp - 1:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
    return out


def unicode_tables():
    """Per-code-point reference data for the exhaustive tests, covering every
    code point assigned in Python's Unicode version except surrogates."""
    all_cps = range(0x110000)
    skip = lambda cp: unicodedata.category(chr(cp)) in ("Cn", "Cs")
    cps = [cp for cp in all_cps if not skip(cp)]

    def mapping(fn):
        return [[cp, fn(chr(cp))] for cp in cps if fn(chr(cp)) != chr(cp)]

    def final_sigma(s):
        return s.lower().endswith("ς")

    return {
        "unicode_version": unicodedata.unidata_version,
        "skipped": ranges(skip, all_cps),
        "upper": mapping(str.upper),
        "lower": mapping(str.lower),
        "title": mapping(str.title),
        "printable": ranges(lambda cp: chr(cp).isprintable(), cps),
        "space": ranges(lambda cp: chr(cp).isspace(), cps),
        # "A"+c+"Σ" ends in final sigma when c is case-ignorable or cased,
        # c+"Σ" when c is cased and not case-ignorable.
        "sigma_after_a": ranges(lambda cp: final_sigma("A" + chr(cp) + "Σ"), cps),
        "sigma_after": ranges(lambda cp: final_sigma(chr(cp) + "Σ"), cps),
        "int": [[cp, filters.do_int(chr(cp), -1)] for cp in cps if filters.do_int(chr(cp), -1) != -1],
    }


# Values of value_test.go, named by text: JSON as json.loads reads it, or
# one of VALUE_SPECIALS.
VALUE_SPECIALS = {
    "nan": lambda: math.nan,
    "undefined": lambda: ENV.undefined(),
    "[undefined]": lambda: [ENV.undefined()],
}
VALUE_PRINT = [
    '{"b": 1, "a": [1, 2.5, "x\'y", null, true, {"k": "é"}], "u": "日本\\u200b\\n"}',
    '"日本\\u200b\\n"', '["日本\\u200b\\n"]', "9007199254740993", "-9223372036854775808", "1e16", "1e-07",
    "1.0", "1e2", "1", "-0.0", "1e400", "-1e400", "null", "false", "[]", "{}",
    # A key given twice keeps its first place and its last value.
    '{"a": 1, "b": 2, "a": 3}', '{"z": 1, "a": 2, "m": 3}', "nan", "undefined", "[undefined]",
]
VALUE_KIND_TESTS = ["integer", "float", "number", "boolean", "none", "string", "mapping", "sequence"]
VALUE_KINDS = ["1", "1.0", "1e2", "true", "null", '"s"', "{}", "[]"]
VALUE_TRUTH = [
    '""', "0", "0.0", "[]", "{}", "null", "false", "undefined",
    '"0"', "[0]", '{"a": null}', "-1", "1e-300", "true",
]
BIG = "9007199254740993"
VALUE_COMPARE = [
    # Python compares an int and a float exactly.
    [BIG, "==", "9007199254740992.0"], [BIG, ">", "9007199254740992.0"], [BIG, "<", "9007199254740994.0"],
    ["9007199254740992.0", "<", BIG], ["9223372036854775807", "<", "9.223372036854775808e18"],
    ["-9223372036854775808", "==", "-9.223372036854775808e18"], ["-5", ">", "-5.5"], ["5", "<", "5.5"],
    ["1", "==", "1.0"], ["true", "==", "1"], ["[1, 2]", "<", "[1, 3]"], ['{"a": 1}', "==", '{"a": 1.0}'],
    ['{"a": 1, "b": 2}', "==", '{"b": 2, "a": 1}'], ['"b"', ">", '"a"'], ["1e400", ">", "9223372036854775807"],
    # NaN is unordered and unequal.
    ["nan", "==", "nan"], ["nan", "<", "1"], ["nan", ">=", "1"], ["1", ">", "nan"],
    ["undefined", "==", "undefined"], ["undefined", "==", "null"],
    # What Python rejects fails; undefined is Jinja2's UndefinedError.
    ['[1, "a"]', "<", "[1, 2]"], ['"a"', "<", "1"], ["null", "<", "1"], ["undefined", "<", "1"],
]
VALUE_ARITH = [
    ["7", "//", "2"], ["-7", "//", "2"], ["-7", "%", "3"], ["7", "/", "2"], ["2", "**", "-1"], ["1", "+", "1.5"],
    ['"a"', "+", '"b"'], ["[1]", "+", "[2]"], ['"ab"', "*", "2"], ["true", "+", "1"],
    ["1", "+", '"a"'], ["1", "//", "0"], ["1", "+", "undefined"],
    # Python's ints are unbounded: beyond int64, promptgen fails.
    ["9223372036854775807", "+", "1"], ["true", "+", "9223372036854775807"], ["-9223372036854775808", "-", "1"],
    ["4611686018427387904", "*", "2"], ["-4611686018427387904", "*", "2"], ["-9223372036854775808", "//", "-1"],
    ["-9223372036854775808", "%", "-1"], ["2", "**", "63"], ["-2", "**", "63"], ["9223372036854775807", "+", "1.0"],
]
VALUE_CONTAINS = [
    ['["a", 1.0]', '"a"'], ['["a", 1.0]', "1"], ['{"k": null}', '"k"'], ['"xyz"', '"x"'], ["undefined", '"x"'],
    ['{"k": null}', "[1]"], ['"abc"', "1"],
]
VALUE_ITEMS = [['"日本語"', "-1"], ['{"items": 5}', '"items"'], ["null", '"a"']]
VALUE_JSON = ['{"b": 1, "a": [1, 2.5, "x\'y", null, true, {"k": "é"}], "u": "日本\\u200b\\n"}', "1e400", "[undefined]"]


# value_printf: Python's format % args, each row [format, args, tuple]: the
# args' text (see value), passed as a tuple of its items where tuple is set.
PRINTF_VALUES = ["0", "5", "-5", "255", "-255", "9223372036854775807", "-9223372036854775808", "true",
                 "0.0", "-0.0", "2.675", "-2.345", "1234567.0", "1e-05", "0.0001234", "1e+300", "1e400",
                 "-1e400", "nan", '"ab"', '"日本語"', '"é\\n"', '""', "null", "[1, \"a\"]", '{"a": 1}', "undefined"]
PRINTF_SPECS = ["%s", "%r", "%a", "%5s", "%-5s|", "%.1s", "%05s", "%d", "%i", "%u", "%+d", "% d", "%05d", "%-05d|",
                "%.3d", "%+ 5d", "%x", "%#x", "%X", "%#06X", "%o", "%#o", "%#.3o", "%c", "%5c", "%f", "%.2f", "%#.0f",
                "%010.3f", "%+F", "%e", "%.0e", "%#.0E", "%-12.3e|", "%g", "%G", "%.3g", "%#g", "%#.2g", "%.0g", "%08.3g",
                "%ld", "%hx", "%Lf"]
PRINTF_CASES = (
    [[spec, v, False] for spec in PRINTF_SPECS for v in PRINTF_VALUES]
    + [[f, a, True] for f, a in [
        ["%s and %s", '["a", 1]'], ["%s", "[]"], ["%s %s", '["a"]'], ["%s", "[1, 2]"], ["abc", "[]"], ["100%%", "[]"],
        ["%*d|", "[5, 3]"], ["%-*d|", "[5, 3]"], ["%*d|", "[-5, 3]"], ["%.*f", "[2, 3.14159]"], ["%.*f", "[-2, 3.14159]"],
        ["%*s", '[1.0, "a"]'], ["%.*s", '[true, "ab"]'], ["%(a)s", "[1]"], ["%s", "[[1]]"], ["%s", '[{"a": 1}]'],
        ["%", "[]"], ["%y", "[1]"], ["%5%", "[1]"], ["%2$s", "[1]"], ["a%", "[1]"], ["%.", "[1]"], ["%s|%r", "[undefined]"],
        ["%d", "[undefined]"], ["%f", "[undefined]"], ["%x", "[undefined]"], ["%c", "[undefined]"], ["%c", "[1114112]"],
        ["%c", "[-1]"], ["%c", "[65]"], ["%c", '["ab"]'], ["%c", "[1.5]"], ["%d", "[1e20]"], ["%.10d", "[-5]"],
        ["%é", "[1]"], ["日%y", "[1]"],
    ]]
    + [[f, a, False] for f, a in [
        ["%(a)s", '{"a": 1}'], ["%(a)s %(a)r", '{"a": "x"}'], ["%(b)s", '{"a": 1}'], ["%(a)s %s", '{"a": 1}'],
        ["%s %(a)s", '{"a": 1}'], ["%s %s", "{}"], ["abc", "{}"], ["abc", "[1]"], ["abc", "5"], ["abc", '""'],
        ["%(a)s", '"x"'], ["%(a)s", "5"], ["%(a)s", "[]"], ["%(a)s", "undefined"], ["abc", "undefined"],
        ["%s %s", "undefined"], ["%((a))s", '{"(a)": 1}'], ["%(a", '{"a": 1}'], ["%(a)", '{"a": 1}'],
        ["%(a)*d", '{"a": 3}'], ["%(a)5.1f|%(b)-4d|", '{"a": 2.25, "b": 7}'], ["%(a)d", '{"a": "x"}'],
    ]]
)

# value_strformat: Python's str.format, each row [format, args, kwargs]:
# a list and a dict of value texts (see value). Every format spec
# of STRFORMAT_SPECS applied to each of STRFORMAT_VALUES, then specs drawn
# at random from their parts, then the syntax of fields.
STRFORMAT_VALUES = ["0", "7", "-7", "1234567", "-1234567", "255", "9223372036854775807", "-9223372036854775808",
                    "true", "false", "0.0", "-0.0", "2.675", "-1234.5", "0.5", "1e-05", "123456789.125", "1e+16",
                    "1e+300", "1e400", "-1e400", "nan", '"ab"', '"日本語"', '""', "null", '[1, "a"]', '{"a": 1}',
                    "undefined"]
STRFORMAT_SPECS = ["", "s", "d", "5", "<5", ">5", "^6", "=8", "*^9", "日>4", "05", "<05", "+", "-", " ", "z", "#", ",",
                   "_", ",d", "_x", "#x", "#X", "#o", "#b", "_b", "c", ".2", ".0", ".3s", "e", "E", ".2e", "f", ".1f",
                   "F", "g", "G", ".3g", "#g", "#.0f", "%", ".1%", "n", "010,.2f", "010,", "+08.2f", "z.1f", "-^+10,.3f",
                   "x>+12_", "012_b", ",.0e", "0=+8", "08.3", "r", "5.5", "1,_", "__", ".", "0", "00", "+#010x",
                   "z", "#.3", ".10", "20.10e", "^", "=<8"]
STRFORMAT_FIELDS = [
    ["{} and {}", '["a", 1]', "{}"], ["{1}{0}{1}", '["a", "b"]', "{}"], ["{x}-{y!r}", "[]", '{"x": 1, "y": "q"}'],
    ["{0}{}", '["a", "b"]', "{}"], ["{}{0}", '["a", "b"]', "{}"], ["{}", "[]", "{}"], ["{2}", '["a"]', "{}"],
    ["{z}", "[]", '{"x": 1}'], ["{{}}{{{}}}", "[5]", "{}"], ["}", "[]", "{}"], ["{", "[]", "{}"], ["a}}b{{c", "[]", "{}"],
    ["{!r}", '["é\\n"]', "{}"], ["{!a}", '["é\\n"]', "{}"], ["{!s:>4}", "[1]", "{}"], ["{!x}", "[1]", "{}"],
    ["{!}", "[1]", "{}"], ["{!rr}", "[1]", "{}"], ["{:{}}", '[1, "5"]', "{}"], ["{:{w}.{p}f}", "[3.14159]", '{"w": 9, "p": 2}'],
    ["{:{:{}}}", "[1, 2, 3]", "{}"], ["{a}{}{a}", "[1]", '{"a": 2}'],
    ["{0:}", "[null]", "{}"], ["{:d}", "[null]", "{}"], ["{:>3}", "[[1]]", "{}"], ["{!r:^9}", '[{"a": "b"}]', "{}"],
    ["{}", "[undefined]", "{}"], ["{!r}", "[undefined]", "{}"], ["{:5}", "[undefined]", "{}"], ["{a{b}", "[]", '{"a": 1}'],
    ["{00}", '["z"]', "{}"], ["{0a}", '["z"]', '{"0a": 7}'], ["{:%}", "[true]", "{}"], ["{:c}", "[1114112]", "{}"],
    ["{:+c}", "[65]", "{}"], ["{:.2d}", "[5]", "{}"], ["{:,n}", "[5]", "{}"], ["{:,s}", '["a"]', "{}"],
    ["{:=5}", '["a"]', "{}"], ["{: }", '["a"]', "{}"], ["{:d}", "[2.5]", "{}"], ["{:x}", "[2.5]", "{}"], ["{:,x}", "[255]", "{}"],
    ["{:s}", "[true]", "{}"], ["{:s}", "[1]", "{}"], ["{:zd}", "[1]", "{}"], ["{:#s}", '["a"]', "{}"], ["{:z}", '["a"]', "{}"],
]


def strformat_cases():
    import random
    rnd = random.Random(27)
    parts = [["", "", "", "x<", "0>", "é^", "<", ">", "^", "="], ["", "", "+", "-", " "], ["", "", "z"], ["", "", "#"],
             ["", "", "0"], ["", "", "1", "7", "12"], ["", "", ",", "_"], ["", "", ".0", ".1", ".3", ".12"],
             ["", "", "d", "b", "o", "x", "X", "c", "e", "E", "f", "F", "g", "G", "n", "%", "s"]]
    drawn = ["".join(rnd.choice(p) for p in parts) for _ in range(1500)]
    def texts(a):
        return ["undefined"] if a == "[undefined]" else [json.dumps(x, ensure_ascii=False) for x in json.loads(a)]

    return ([["{:%s}" % spec, [v], {}] for spec in STRFORMAT_SPECS for v in STRFORMAT_VALUES]
            + [["{:%s}" % spec, [rnd.choice(STRFORMAT_VALUES)], {}] for spec in drawn]
            + [[f, texts(a), {n: json.dumps(x) for n, x in json.loads(k).items()}] for f, a, k in STRFORMAT_FIELDS])


def strformat(env, f, a, k):
    args, kwargs = [value(x) for x in a], {n: value(x) for n, x in k.items()}
    return attempt(lambda: env.from_string("{{ f.format(*a, **k) }}").render(f=f, a=args, k=kwargs))


# value_filter: filters of Filter, each row [name, x, [args]] by value text.
FILTER_CASES = (
    [["center", x, a] for x in ['"abc"', '"ab"', '""', '"日本"', "5", "null", "undefined", "[1]"]
     for a in [[], ["10"], ["9"], ["2"], ["0"], ["-3"], ["true"], ['"9"'], ["4.0"]]]
    + [[f, x, []] for f in ["escape", "forceescape"]
       for x in [json.dumps("<a href='x'>&amp; \"q\"</a>"), '"plain"', "5", "null", "undefined", '["<"]', "true"]]
    + [["groupby", x, a] for x in ['[{"c": "b", "n": 1}, {"c": "A", "n": 2}, {"c": "a", "n": 3}, {"c": "B", "n": 4}]',
                                   '[{"c": "b", "n": 1}, {"n": 2}]', '[{"c": {"d": "x"}}, {"c": {"d": "X"}}, {"c": {}}]',
                                   '[{"c": 1}, {"c": 1.0}, {"c": true}, {"c": 0}]', '[{"c": 1}, {"c": "a"}]', '[[1, "x"], [0, "y"], [1, "z"]]',
                                   '["ba", "ab", "Bc"]', "[]", "undefined", "5", '{"b": 1, "a": 2}', '[{"c": [2]}, {"c": [1]}, {"c": [2]}]',
                                   '[{"c": null}, {"c": null}]', '[{"c": "a"}]']
       for a in [['"c"'], ['"c"', "null", "true"], ['"c"', '"z"'], ['"c"', '"b"', "true"], ['"c.d"'], ['"c.d"', '"x"'], ["0"], ['"0"'],
                 ["1"]]]
    + [["slice", x, a] for x in ["[1, 2, 3, 4, 5, 6, 7]", "[1, 2, 3]", "[]", '"abcde"', "undefined", "5", '{"a": 1, "b": 2}']
       for a in [["3"], ["3", '"x"'], ["1"], ["0"], ["-2"], ["10"], ["true"], ['"3"'], ["2.0"], ["3", "null"], ["2", "0"]]]
    + [["unique", x, a] for x in ['["b", "A", "a", "B", "b"]', "[1, 1.0, true, 0, false, 2, 0.0]", '[null, null, "x", "X"]',
                                  '[{"c": "a", "n": 1}, {"c": "A", "n": 2}, {"c": "b", "n": 3}, {"n": 4}, {"n": 5}]',
                                  '[{"c": {"d": "x"}}, {"c": {"d": "X"}}, {"c": {}}]', '[{"c": [1]}, {"c": [1]}]', '[[1], [1]]',
                                  '[{"a": 1}]', '[[1, "x"], [0, "y"], [1, "z"]]', "[]", "undefined", '"Hello"', '{"b": 1, "a": 2, "B": 3}', "5"]
       for a in [[], ["true"], ["false", '"c"'], ["true", '"c"'], ["false", '"c.d"'], ["false", "0"], ["false", '"0"']]]
    + [["filesizeformat", x, a] for x in ["0", "1", "1.0", "-5.5", "999", "1000", "1023", "1024", "123456789",
                                          "1e24", "9.999999999999999e+23", "1e30", "1e400", "nan", '"2048"', '"x"',
                                          "true", "null", "undefined", "[1]", "-1e30"]
       for a in [[], ["true"]]]
    + [["urlencode", x, []] for x in ['"a b/c?d=é&x~_.-"', "5", "null", "undefined", "true", '{"a b": "c/d", "e": 1, "f": [1, "x"]}',
                                      '[["k", "v w"], ["n", 2]]', "[]", '[["k"]]', '["ab"]', "[1]", "{}", "1.5"]]
    + [["abs", x, []] for x in ["-9223372036854775808", "-9223372036854775807", "9223372036854775807"]]
    + [["sum", x, a] for x in ["[9223372036854775807, 1]", "[-9223372036854775808]", "[9223372036854775807, 0.5]"]
       for a in [[], ["null", "-1"]]]
    + [["sum", x, a] for x in ["[1, 2, 3]", "[1, 2.5]", "[]", '["a", "b"]', "[[1], [2]]", "undefined", '"ab"', "5", "[true, true]",
                              '[{"n": 1}, {"n": 2.5}]', '[{"n": 1}, {"m": 2}]', '{"a": 1}']
       for a in [[], ["null", "10"], ["null", "0.5"], ['"n"'], ['"n"', "1"], ["null", '""'], ["null", "[]"], ["null", "null"]]]
    + [[f, x, a] for f in ["min", "max"] for x in ['[3, 1, 2]', '["b", "A", "a", "B"]', "[]", "undefined", '"hello"', "[1, 2.5, true]",
                                                '[1, "a"]', '[{"n": 2, "s": "b"}, {"n": 1, "s": "B"}, {"n": 1, "s": "a"}]', '{"b": 1, "a": 2}',
                                                "5"]
       for a in [[], ["true"], ["false", '"n"'], ["true", '"s"'], ["false", '"s"'], ["false", '"z"']]]
    + [["striptags", json.dumps(x), []] for x in [
        "<p>Hello <b>world</b></p>", "a <!-- c <b> --> b", "<!-->x", "a<b", "a>b", "x <br/>\n\t y  z", "Main &raquo;\t<em>About</em>",
        "&amp;lt; &lt;&gt; &quot;&#39; &#x41;&#66; &copy &notit; &nbsp;x", "&#0; &#x80; &#xD800; &#1114112; &#1; &#x7f; &#xFFFE;", "&#x1FFFF;x&#13;&#x81;&#xfdd0;&#99999999999999999999;&#x;&#;&#65",
        "<a href='>'>t</a>", "<<b>>", "\u3000wide\xa0space\u2028", "", "no tags", "<!-- unclosed", "<unclosed", "&unknown; &AMP &amp",
    ]] + [["striptags", x, []] for x in ["5", "null", "undefined", '["<b>"]']]
    + [["wordcount", json.dumps(x), []] for x in [
        "", "one", "  two  words ", "it's a dog-eat-dog world_wide 3.14", "e\u0301t\u00e9 na\u00efve", "\u65e5\u672c\u8a9e \u4e2d\u6587",
        "x\u00b2 \u2167 \u0663\u0664 \u2155", "a\u200bb\u00a0c\u3000d", "\u02b0mod \u01c5title", "!?.,;-- \u2014 \U0001f600",
    ]] + [["wordcount", x, []] for x in ["5", "-1.5", "null", "undefined", "true", '["a b", 1]', '{"k": "v w"}']]
    + [["xmlattr", x, a] for x in ['{"class": "a<b", "id": 5, "n": null, "t": true, "l": [1, "x"], "q": "\\"\'&"}', "{}", '{"n": null}',
                                   '{"a b": 1}', '{"a/b": 1}', '{"a=b": 1}', '{"a>b": 1}', '{"a\\tb": 1}', '{"é": "ü"}', '{"x": ""}',
                                   "undefined", "[1]", '"s"', "null"]
       for a in [[], ["false"], ["true"]]]
)

# value_wordwrap: [text, width, break_long_words, wrapstring, break_on_hyphens].
WRAP_TEXTS = [
    "", "\n", "one", "The quick brown fox jumps over the lazy dog and keeps running far away",
    "a-very-long-hyphenated-compound-word that wraps", "well-known self-evident co-op e-mail x-ray 12-34 a--b",
    "em--dash and so---on here--there, ok.--yes ?--no", "supercalifragilisticexpialidocious antidisestablishment",
    "line one\nline two is longer than the width\r\nthird\rfourth\x0bfifth\x85sixth\u2028end\n",
    "  leading and trailing spaces   ", "tabs\tbetween\twords\tand  double  spaces", "日本語のテキスト 中文 字符 한국어 텍스트",
    "über-größe naïve-café é-é-é", "---leading dashes and trailing---", "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p",
    "\u3000ideographic\u3000space\xa0nbsp end", "x" * 30 + "-" + "y" * 30, "word_with_underscore-and-hyphen 1-2-3 a1-b2",
    "http://example.com/a-very/long-path?with=query-strings&more", "-", "--", "a -- b", "a-", "-a", "ab-cd", "ab-c", "a-bc-d",
    "first\n\nafter a blank line\n \n\n", "\n\nx",
]
WRAP_CASES = [[t, w, bl, ws, bh] for t in WRAP_TEXTS for w in [1, 3, 5, 8, 12, 20, 79]
              for bl, bh in [(True, True), (False, True), (True, False), (False, False)] for ws in [None]] + [
    [WRAP_TEXTS[3], 10, True, "<br>", True], [WRAP_TEXTS[3], 0, True, None, True], ["", 0, True, None, True],
    ["\n", 0, True, None, True], [WRAP_TEXTS[3], -2, True, None, True],
]


def value(text):
    return VALUE_SPECIALS[text]() if text in VALUE_SPECIALS else json.loads(text)


def value_cases():
    """The tables of value_test.go (value_<name> in cases.json): each row
    holds the values' texts and then what Jinja2 renders for the operation,
    or {"raises": ...}."""
    show = lambda source, **kw: attempt(lambda: render(source, **{k: value(v) for k, v in kw.items()}))
    return {
        "print": [[x, show("{{ x }}", x=x)] for x in VALUE_PRINT],
        "kinds": [[x, [t for t in VALUE_KIND_TESTS if show("{{ x is %s }}" % t, x=x) == "True"]] for x in VALUE_KINDS],
        "truth": [[x, show("{% if x %}True{% else %}False{% endif %}", x=x)] for x in VALUE_TRUTH],
        "compare": [[a, op, b, show("{{ a %s b }}" % op, a=a, b=b)] for a, op, b in VALUE_COMPARE],
        "arith": [[a, op, b, show("{{ a %s b }}" % op, a=a, b=b)] for a, op, b in VALUE_ARITH],
        "negate": [[x, show("{{ -x }}", x=x)] for x in ["-9223372036854775808", "9223372036854775807", "true", "-0.0", '"a"', "undefined"]],
        "contains": [[c, x, show("{{ x in c }}", c=c, x=x)] for c, x in VALUE_CONTAINS],
        "item": [[c, k, show("{{ c[k] is defined }}", c=c, k=k), show("{{ c[k] }}", c=c, k=k)] for c, k in VALUE_ITEMS],
        "len": [[x, show("{{ x|length }}", x=x)] for x in ['"日本語"']],
        "reverse": [[x, show("{{ x[::-1] }}", x=x)] for x in ['"日本語"']],
        "tojson": [[x, show("{{ x|tojson }}", x=x)] for x in VALUE_JSON],
        "marshal": [[x, json.dumps(value(x), separators=(",", ":"))] for x in ['{"z": [1, 2.0, null], "a": "é"}']],
        "keys": [[x, show("{{ x.keys()|list }}", x=x)] for x in [VALUE_JSON[0]]],
        "undefined": [[src, show(src, x="undefined")] for src in ["{{ x.items() }}", "{{ x|items|list }}"]],
        "filter": [
            [f, x, a, attempt(lambda: ENV.from_string("{{ x|%s(*a)%s }}" % (f, "|list" if f in ("slice", "unique") else "")).render(x=value(x), a=[value(v) for v in a]))]
            for f, x, a in FILTER_CASES
        ],
        "wordwrap": [
            [t, w, bl, ws, bh, attempt(lambda: filters.do_wordwrap(ENV, t, w, bl, ws, bh))] for t, w, bl, ws, bh in WRAP_CASES
        ],
        "printf": [
            [f, a, tup, attempt(lambda: ENV.from_string("{{ f % x }}").render(f=f, x=tuple(value(a)) if tup else value(a)))]
            for f, a, tup in PRINTF_CASES
        ],
        "strformat": [[f, a, k, strformat(ENV, f, a, k)] for f, a, k in strformat_cases()],
    }


def main():
    cases = {
        "python": sys.version.split()[0],
        "jinja2": jinja2.__version__,
        "float_repr": [[bits(f), render("{{ x }}", x=f)] for f in FLOATS],
        "bool": [[b, render("{{ x }}", x=b)] for b in (True, False)],
        "quoted": [[s, repr(s), render("{{ x }}", x=[s])] for s in QUOTED_STRINGS],
        "upper": [[s, s.upper()] for s in CASE_STRINGS],
        "lower": [[s, s.lower()] for s in CASE_STRINGS],
        "capitalize": [[s, filters.do_capitalize(s)] for s in CASE_STRINGS],
        "title": [[s, filters.do_title(s)] for s in CASE_STRINGS],
        "pytitle": [[s, s.title()] for s in CASE_STRINGS],
        "swapcase": [[s, s.swapcase()] for s in CASE_STRINGS],
        "islower": [[s, s.islower()] for s in CASE_STRINGS + SPLIT_STRINGS],
        "isupper": [[s, s.isupper()] for s in CASE_STRINGS + SPLIT_STRINGS],
        "splitlines": [[s, k, s.splitlines(k)] for s in INDENT_STRINGS + SPLIT_STRINGS for k in [False, True]],
        "search": [
            [s, sub, span, m, attempt(lambda: getattr(s, m)(sub, *span))]
            for s in SEARCH_STRINGS
            for sub in ["", "a", "ab", "é", "日本", "xyz"]
            for span in [[], [1], [-2], [0, -1], [2, 1], [-100, 100], [3, 3], [10], [None, 2]]
            for m in ["find", "rfind", "count", "index", "rindex"]
        ],
        "justify": [
            [s, w, f, m, attempt(lambda: getattr(s, m)(w, f) if m != "zfill" else s.zfill(w))]
            for s in ["", "a", "ab", "-12", "+x", "日本", "-", "é"]
            for w in [-1, 0, 1, 2, 3, 4, 5, 8]
            for f in [" ", "*", "ł", "ab", ""]
            for m in ["ljust", "rjust", "center", "zfill"]
        ],
        "filter_names": sorted(jinja2.Environment().filters),
        "test_names": sorted(jinja2.Environment().tests),
        "strip": [
            [s, left, right, s.strip() if left and right else s.lstrip() if left else s.rstrip() if right else s]
            for s in STRIP_STRINGS + CASE_STRINGS
            for left, right in [(True, True), (True, False), (False, True)]
        ],
        "strip_chars": [
            [s, c, left, right, s.strip(c) if left and right else s.lstrip(c) if left else s.rstrip(c)]
            for s, c in STRIP_CHARS
            for left, right in [(True, True), (True, False), (False, True)]
        ],
        "split": [
            [s, sep, maxsplit, attempt(lambda: s.split(sep, maxsplit))]
            for s in SPLIT_STRINGS
            for sep in [None, ",", ", ", "ab", " ", ""]
            for maxsplit in [-1, 0, 1, 2, 5]
        ],
        "indent": [
            [s, ind, first, blank, filters.do_indent(s, ind, first, blank)]
            for s in INDENT_STRINGS
            for ind in ["    ", "\t", "", ">> "]
            for first in [False, True]
            for blank in [False, True]
        ]
        + [[s, " " * w, False, False, filters.do_indent(s, w)] for s in INDENT_STRINGS for w in [0, 2]],
        "truncate": truncate_cases(),
        "truncate_markup": truncate_markup_cases(),
        "round": [
            [bits(f), p, m, attempt(lambda: filters.do_round(f, p, m), bits)]
            for f in FLOATS
            for p in [0, 1, 2, 3, -1, -2, -5, 5, 10, 17, 22, 23, 30, 308, 309, 323, 324, -22, -23, -308, -309, 400]
            for m in ["common", "ceil", "floor"]
        ],
        "round_int": [
            [x, p, attempt(lambda: str(filters.do_round(x, p)))]
            for x in INT_ARITH + BIG_INTS + [1250, -1250, 1350, 15, 25, -25, 5 * 10**18, -5 * 10**18]
            for p in [0, 2, -1, -2, -3, -18, -19, -20, -400]
        ],
        "parse_int": [
            [s, d, base, attempt(lambda: str(filters.do_int(s, d, base)))]
            for s in INT_STRINGS
            for base in INT_BASES
            for d in [0, -1]
        ],
        "float_to_int": [[bits(f), 7, attempt(lambda: str(filters.do_int(f, 7)))] for f in FLOATS],
        "parse_float": [[s, bits(d), bits(filters.do_float(s, d))] for s in FLOAT_STRINGS for d in [0.0, -2.5]],
        "add": [[a, b, int64_or_beyond(a + b)] for a in INT_ARITH for b in INT_ARITH],
        "sub": [[a, b, int64_or_beyond(a - b)] for a in INT_ARITH for b in INT_ARITH],
        "mul": [[a, b, int64_or_beyond(a * b)] for a in INT_ARITH + MUL_INTS for b in INT_ARITH + MUL_INTS],
        "neg": [[a, int64_or_beyond(-a)] for a in INT_ARITH],
        "floordiv": [[a, b, int64_or_beyond(a // b)] for a in INT_ARITH for b in INT_ARITH if b],
        "mod": [[a, b, a % b] for a in INT_ARITH for b in INT_ARITH if b],
        "truediv": [[a, b, bits(a / b)] for a in INT_ARITH + BIG_INTS for b in INT_ARITH + BIG_INTS if b],
        "floordiv_float": [
            [bits(a), bits(b), bits(a // b)] for a in FLOAT_ARITH for b in FLOAT_ARITH if b != 0
        ],
        "mod_float": [[bits(a), bits(b), bits(a % b)] for a in FLOAT_ARITH for b in FLOAT_ARITH if b != 0],
        "pow": [[a, b, int64_or_beyond(a**b)] for a in POW_BASES for b in POW_EXPS],
        # A complex result (negative base, fractional exponent) fails in bits.
        "pow_float": [
            [bits(a), bits(b), attempt(lambda: a**b, bits)]
            for a in FLOAT_ARITH + [0.5, 10.0, -8.0]
            for b in FLOAT_ARITH + [0.5, -0.5, 400.0, -400.0, 1 / 3]
        ],
        "index": [[xs, i, attempt(lambda: xs[i])] for xs in [[], [10, 20, 30]] for i in range(-5, 6)],
        "index_string": [[s, i, attempt(lambda: s[i])] for s in INDEX_STRINGS for i in range(-7, 8)],
        "slice": [
            [xs, lo, hi, step, xs[lo:hi:step]]
            for xs in [list(range(10)), [], [1]]
            for lo in SLICE_BOUNDS
            for hi in SLICE_BOUNDS
            for step in SLICE_STEPS
        ],
        "slice_string": [
            [s, lo, hi, step, s[lo:hi:step]]
            for s in SLICE_STRINGS
            for lo in STRING_SLICE_BOUNDS
            for hi in STRING_SLICE_BOUNDS
            for step in SLICE_STEPS
        ],
        "sorted_keys": [[ks, sorted(ks)] for ks in [[], ["b", "a", "B", "é", "e", "😀", "ｚ", "_", "1"]]],
        "sort": [
            [xs, rev, cs, filters.do_sort(ENV, xs, rev, cs)]
            for xs in SORT_LISTS
            for rev in [False, True]
            for cs in [False, True]
        ],
        "unique": [
            [xs, cs, list(filters.do_unique(ENV, xs, cs))]
            for xs in SORT_LISTS + [["foo", "bar", "foobar", "FooBar"], ["İ", "i\u0307"]]
            for cs in [False, True]
        ],
        "json": [[json_tree(v), ind, tojson(v, ind)] for v in JSON_VALUES for ind in JSON_INDENTS],
        # transformers' tojson (see gen/testdata/chat/render.py).
        "transformers_json": [
            [json_tree(v, sort=False), ind, json.dumps(v, ensure_ascii=False, indent=ind, sort_keys=False)]
            for v in JSON_VALUES for ind in JSON_INDENTS
        ],
        # transformers' strftime_now (the directives promptgen supports).
        "strftime": [
            [list(t.timetuple())[:6], f, t.strftime(f)]
            for t in STRFTIME_TIMES for f in STRFTIME_FORMATS
        ],
        "unicode": unicode_tables(),
        **{"value_" + name: table for name, table in value_cases().items()},
    }
    with open("testdata/cases.json", "w", encoding="utf-8") as out:
        json.dump(cases, out, ensure_ascii=False, separators=(",", ":"))
        out.write("\n")


main()
