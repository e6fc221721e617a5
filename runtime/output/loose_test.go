package output

import (
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

// dumpLoose writes n compactly: strings quoted, numbers as written, words
// in <>, an unclosed value marked with !, and after " | " the repairs by
// path.
func dumpLoose(n *loose) string {
	var b, repairs strings.Builder
	var walk func(n *loose, path string)
	walk = func(n *loose, path string) {
		for _, r := range n.repairs {
			repairs.WriteString(" | " + path + ": " + r)
		}
		switch n.kind {
		case looseObject:
			b.WriteByte('{')
			for i, k := range n.keys {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Quote(k) + ":")
				walk(n.elems[i], path+"/"+k)
			}
			b.WriteByte('}')
		case looseArray:
			b.WriteByte('[')
			for i, e := range n.elems {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(e, path+"/"+strconv.Itoa(i))
			}
			b.WriteByte(']')
		case looseString:
			b.WriteString(strconv.Quote(n.text))
		case looseNumber:
			b.WriteString(n.text)
		case looseWord:
			b.WriteString("<" + n.text + ">")
		}
		if !n.closed {
			b.WriteByte('!')
		}
	}
	walk(n, "")
	return b.String() + repairs.String()
}

// looseTests are inputs of the tolerant reader and the trees it reads.
var looseTests = []struct{ in, want string }{
	{`{"a": 1, "b": [true, null]}`, `{"a":1,"b":[<true>,<null>]} | /b/0: unquoted string | /b/1: unquoted string`},
	{`{"a": "x",}`, `{"a":"x"} | : trailing comma removed`},
	{`{a: 'x', b: "y" "c": 2}`, `{"a":"x","b":"y","c":2} | : unquoted key | : unquoted key | : missing comma added | /a: single-quoted string`},
	{"{\"a\": 1 // one\n, /* two */ \"b\": 2}", `{"a":1,"b":2} | : comment removed | : comment removed`},
	{`{"a": [1, 2}`, `{"a":[1,2]} | /a: missing closing bracket added`},
	{`[1, 2}`, `[1,2] | : wrong closing bracket`},
	{`[{"a": 1], 2]`, `[{"a":1}] | /0: missing closing bracket added`}, // the ] is the list's: ", 2]" is left
	// A } that would close the outermost object while a member follows it
	// is the list's bracket, written wrong; one that closes an inner
	// object leaves the list's out.
	{`{"tags": ["a"}, "b": 1}`, `{"tags":["a"],"b":1} | /tags: wrong closing bracket`},
	{`{"tags": ["a"} , b: 1}`, `{"tags":["a"],"b":1} | : unquoted key | /tags: wrong closing bracket`},
	{`{"tags": ["a"}, 2}`, `{"tags":["a"]} | /tags: missing closing bracket added`},
	{`{"a": {"b": [1}, "c": 2}`, `{"a":{"b":[1]},"c":2} | /a/b: missing closing bracket added`},
	{`{"a": [1, 2, ...]}`, `{"a":[1,2]} | /a: ellipsis removed`},
	{`{"s": "He said "hi" to me", "n": 1}`, `{"s":"He said \"hi\" to me","n":1} | /s: unescaped quote kept in the string | /s: unescaped quote kept in the string`},
	{"{\"s\": \"two\nlines\"}", `{"s":"two\nlines"} | /s: raw newline kept in the string`},
	{`{"s": """a "quoted" word"""}`, `{"s":"a \"quoted\" word"} | /s: triple-quoted string`},
	{"{\"s\": `tick`}", `{"s":"tick"} | /s: backtick-quoted string`},
	{`{"foo": "` + "```bar```" + `"}`, `{"foo":"` + "```bar```" + `"}`},
	{`{"a": {"b": "cut`, `{"a":{"b":"cut"!}!}! | : closed where the text ended | /a: closed where the text ended | /a/b: closed where the text ended`},
	{`{"a": 12`, `{"a":12!}! | : closed where the text ended`},
	{`{"a": unquoted text, "b": 2}`, `{"a":<unquoted text>,"b":2} | /a: unquoted string`},
	{`{"a": , "b": 2}`, `{"b":2} | : member without a value dropped | : extra comma removed`},
	{`[1, 2,, 3]`, `[1,2,3] | : extra comma removed`},
	{`"\u00e9\ud83d\ude00\q"`, `"é😀\\q" | : invalid escape kept as written`},
	{`12abc`, `<12abc> | : unquoted string`},
	{`-1.5e3`, `-1.5e3!`},
	{`The answer is **True**`, `<The answer is **True**> | : unquoted string`},
	// A word in a container ends at an ellipsis.
	{`{c: True ...}`, `{"c":<True>} | : unquoted key | : missing comma added | : ellipsis removed | /c: unquoted string`},
	{"[a, b…]", `[<a>,<b>] | : missing comma added | : ellipsis removed | /0: unquoted string | /1: unquoted string`},
	// In an object, a comma or a line break ends an unquoted value only
	// before the next member (a name and its colon), a closing bracket, a
	// comma, a comment, an ellipsis or the end of the text; in a list, a
	// comma ends an item.
	{"{\"a\": **one, two**\n\nThree, four.\n}", "{\"a\":<**one, two**\n\nThree, four.>} | /a: unquoted string"},
	{"{a: hey world\n  so on,\n  res: [hello,\n world]}", "{\"a\":<hey world\n  so on>,\"res\":[<hello>,<world>]} | : unquoted key | : unquoted key | /a: unquoted string | /res/0: unquoted string | /res/1: unquoted string"},
	{"{\"a\": x,\n 'b' : y\nc: z, // d\n}", `{"a":<x>,"b":<y>,"c":<z>} | : single-quoted string | : missing comma added | : unquoted key | : comment removed | : trailing comma removed | /a: unquoted string | /b: unquoted string | /c: unquoted string`},
	{`{"a": x, ..., "b": y,}`, `{"a":<x>,"b":<y>} | : ellipsis removed | : extra comma removed | : trailing comma removed | /a: unquoted string | /b: unquoted string`},
	{`{"a": x, "b`, `{"a":<x>}! | : closed where the text ended | : missing colon added | : closed where the text ended | /a: unquoted string`},
	{`{"a": x, y`, `{"a":<x, y>}! | : closed where the text ended | /a: unquoted string`},
	// A member name the reader looks for is at most maxNameAhead bytes.
	{`{"a": x, ` + strings.Repeat("n", maxNameAhead) + `: y}`, `{"a":<x>,"` + strings.Repeat("n", maxNameAhead) + `":<y>} | : unquoted key | /a: unquoted string | /` + strings.Repeat("n", maxNameAhead) + `: unquoted string`},
	{`{"a": x, ` + strings.Repeat("n", maxNameAhead+1) + `: y}`, `{"a":<x, ` + strings.Repeat("n", maxNameAhead+1) + `: y>} | /a: unquoted string`},
	// A number with thousands separators, in an object, is a word.
	{`{"n": -2,000.00, "m": 12,345,678}`, `{"n":<-2,000.00>,"m":<12,345,678>} | /n: unquoted string | /m: unquoted string`},
	{`{"n": 1,000: 2, "m": 1234,567}`, `{"n":1,"000":2,"m":1234} | : unquoted key | : unquoted key | : missing colon added | : member without a value dropped`},
	{`[1,000, hello,` + "\n" + ` world]`, `[1,000,<hello>,<world>] | /2: unquoted string | /3: unquoted string`},
}

func TestReadLoose(t *testing.T) {
	for _, tt := range looseTests {
		n, _ := readLoose(tt.in, 0)
		if got := dumpLoose(n); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestReadLooseEnd: the reader stops after the value, so that the text
// around it (prose, a closing fence) is left to the caller.
func TestReadLooseEnd(t *testing.T) {
	s := "Here: {\"a\": 1} and more"
	n, end := readLoose(s, strings.IndexByte(s, '{'))
	if n.kind != looseObject || s[end:] != " and more" {
		t.Errorf("got %s, rest %q", dumpLoose(n), s[end:])
	}
	if n, end := readLoose("  // only a comment", 0); n != nil || end != len("  // only a comment") {
		t.Errorf("blank text: got %v at %d", n, end)
	}
}

// hostileLoose are inputs that would cost the reader more than linear
// time if it looked at a byte more than a bounded number of times: a
// prefix, then a unit repeated.
var hostileLoose = []hostileInput{
	{"[", "["}, {"[", `{"a":`}, {"[", `"`}, {"[", "/*"}, {"[", `"a" `}, {"[", ","}, {"[", "x "}, {"[", `"\`},
	{"[", `"\u`}, {"[", `"\ud83d`}, {"[", ".."}, {"[", "1e"}, {"[", "'''"},
	// Every comma or line break in an object's unquoted value looks ahead
	// for a member name.
	{objectValue, "a,"}, {objectValue, "a\n"}, {objectValue, strings.Repeat("n", maxNameAhead-1) + ","},
	{objectValue, `, "` + strings.Repeat("n", maxNameAhead-3)}, {objectValue, ",000"},
}

// objectValue starts an object's unquoted value.
const objectValue = `{"a": x`

type hostileInput struct{ prefix, unit string }

// input is the prefix and the unit repeated up to about n bytes.
func (h hostileInput) input(n int) string { return h.prefix + strings.Repeat(h.unit, n/len(h.unit)) }

// TestReadLooseLinear: hostile inputs take time in proportion to their
// length (costtest.Linear: CPU time, best of runs).
func TestReadLooseLinear(t *testing.T) {
	for _, h := range hostileLoose {
		costtest.Linear(t, strconv.Quote(h.prefix+h.unit), 1<<15, h.input, func(s string) { readLoose(s, 0) })
	}
}

func FuzzReadLoose(f *testing.F) {
	for _, s := range []string{`{"a": [1, {b: 'c'}], ...}`, `"""x"""`, "/*", `[[[[`, `{"a": "b`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for from := 0; from < len(s); {
			n, end := readLoose(s, from)
			if end < from || end > len(s) {
				t.Fatalf("end %d out of [%d, %d]", end, from, len(s))
			}
			if n == nil {
				break
			}
			if end == from {
				t.Fatalf("no progress at %d", from)
			}
			from = end
		}
	})
}
