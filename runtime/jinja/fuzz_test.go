package jinja

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
)

func FuzzAppendFloat(f *testing.F) {
	for _, x := range benchFloats {
		f.Add(x)
	}
	f.Add(math.Copysign(0, -1))
	f.Add(math.NaN())
	f.Add(5e-324)
	f.Add(math.MaxFloat64)
	f.Fuzz(func(t *testing.T, x float64) {
		out := string(AppendFloat(nil, x))
		if out != FormatFloat(x) {
			t.Fatalf("AppendFloat and FormatFloat disagree: %q, %q", out, FormatFloat(x))
		}
		switch out {
		case "nan", "inf", "-inf":
			out = strings.Replace(out, "inf", "Inf", 1)
		default:
			// Python's repr never looks like an int.
			if !strings.ContainsAny(out, ".e") {
				t.Fatalf("AppendFloat(%v) = %q has neither '.' nor 'e'", x, out)
			}
		}
		back, err := strconv.ParseFloat(out, 64)
		if err != nil || !sameFloat(back, x) {
			t.Fatalf("AppendFloat(%v) = %q, which parses back as %v, %v", x, out, back, err)
		}
	})
}

func FuzzTruncate(f *testing.F) {
	f.Add("foo bar baz qux", 9, false, "...", 5)
	f.Add("日本語 日本語 日本語", 4, true, "…", 0)
	f.Add("😀😀😀", 1, false, "", 0)
	f.Add("a b", -3, false, "....", -1)
	f.Fuzz(func(t *testing.T, s string, length int, killwords bool, end string, leeway int) {
		out := Truncate(s, length, killwords, end, leeway)
		if utf8.ValidString(s) && utf8.ValidString(end) && !utf8.ValidString(out) {
			t.Fatalf("Truncate(%q, %d, %v, %q, %d) = %q, invalid UTF-8", s, length, killwords, end, leeway, out)
		}
		if out != s && !strings.HasSuffix(out, end) {
			t.Fatalf("Truncate(%q, %d, %v, %q, %d) = %q, which lacks end", s, length, killwords, end, leeway, out)
		}
	})
}

func FuzzIndent(f *testing.F) {
	f.Add("a\nb\r\nc", "  ", false, false)
	f.Add("\n\n", "\t", true, true)
	f.Add("x\u2028y\x85", "", false, true)
	f.Fuzz(func(t *testing.T, s, indent string, first, blank bool) {
		out, _ := Indent(s, indent, first, blank)
		if utf8.ValidString(s) && utf8.ValidString(indent) && !utf8.ValidString(out) {
			t.Fatalf("Indent(%q, %q, %v, %v) = %q, invalid UTF-8", s, indent, first, blank, out)
		}
		// Every line break of s becomes "\n".
		if strings.IndexFunc(indent, isLineBreak) < 0 && strings.ContainsFunc(out, func(r rune) bool { return r != '\n' && isLineBreak(r) }) {
			t.Fatalf("Indent(%q, %q, %v, %v) = %q keeps a line break other than \\n", s, indent, first, blank, out)
		}
		// Without an indent string the flags make no difference.
		if other, _ := Indent(s, "", !first, !blank); indent == "" && out != other {
			t.Fatalf("Indent(%q, \"\", ...) depends on first and blank", s)
		}
	})
}

func FuzzStrFormat(f *testing.F) {
	f.Add("{} {x!r:>{w}}", "ab", int64(-12), 2.5)
	f.Add("{:010,.2f}|{1:_b}|{0:^9}", "é", int64(255), -1234.5)
	f.Add("{{{:{}}}}", "x", int64(3), 1e300)
	f.Fuzz(func(t *testing.T, format, s string, n int64, x float64) {
		kwargs := DictValue()
		kwargs.dict.add("x", false, StringValue(s))
		kwargs.dict.add("w", false, IntValue(int(n%64)))
		out, err := StrFormat(format, []Value{StringValue(s), IntValue(int(n)), FloatValue(x)}, kwargs)
		var re *runtime.Error
		if err != nil && !errors.As(err, &re) {
			t.Fatalf("StrFormat(%q): %v, not a render error", format, err)
		}
		if err == nil && utf8.ValidString(format) && utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("StrFormat(%q) = %q, invalid UTF-8", format, out)
		}
	})
}
