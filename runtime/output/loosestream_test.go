package output

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

// maxPending bounds what a looseStream keeps undecided between writes: a
// member name after a comma or a line break that may end an object's
// unquoted value, up to its colon (the longest; a \uXXXX\uXXXX escape
// but its last byte is 11 bytes).
const maxPending = maxNameAhead

// streamLoose feeds s[from:] to a looseStream in chunks of the sizes next
// returns, then ends it, and returns the tree and where it ends, as
// readLoose does. It checks that little is kept undecided between writes,
// and with midway what the stream shows then: a new version whenever the
// tree changed, closed values that do not change any more, strings that
// only grow, numbers and words not shown before they end.
func streamLoose(t testing.TB, s string, from int, next func() int, midway bool) (*loose, int) {
	r := &looseStream{off: from}
	type seen struct {
		n    *loose
		dump string
	}
	var closed []seen
	strs := map[*loose]string{}
	lastDump, lastVersion := "", r.version()
	for rest := s[from:]; rest != ""; {
		k := min(max(next(), 1), len(rest))
		r.write(rest[:k])
		rest = rest[k:]
		if len(r.w) > maxPending {
			t.Fatalf("%q: %d bytes kept undecided: %q", s, len(r.w), r.w)
		}
		root := r.root()
		if root == nil || !midway {
			continue
		}
		dump := looseShape(root)
		if dump != lastDump && r.version() == lastVersion {
			t.Fatalf("%q: the tree changed from %s to %s, the version did not", s, lastDump, dump)
		}
		lastDump, lastVersion = dump, r.version()
		walkLoose(root, func(n *loose) {
			switch {
			case n.closed:
				closed = append(closed, seen{n, looseShape(n)})
			case n.kind == looseString:
				if !strings.HasPrefix(n.text, strs[n]) {
					t.Fatalf("%q: string text %q after %q", s, n.text, strs[n])
				}
				strs[n] = n.text
			case n.kind == looseNumber || n.kind == looseWord:
				if n.text != "" {
					t.Fatalf("%q: a %v not ended shows %q", s, n.kind, n.text)
				}
			}
		})
	}
	r.end()
	for _, c := range closed {
		if got := looseShape(c.n); got != c.dump {
			t.Fatalf("%q: a value closed as %s became %s", s, c.dump, got)
		}
	}
	if r.root() == nil {
		return nil, r.off
	}
	return r.root(), r.root().end
}

// looseShape writes n without its repairs, which the version does not
// follow.
func looseShape(n *loose) string {
	var b strings.Builder
	walkLoose(n, func(n *loose) {
		b.WriteString(strconv.Itoa(int(n.kind)) + strconv.Quote(n.text) + strconv.FormatBool(n.closed) + strconv.Itoa(len(n.keys)) + strconv.Itoa(len(n.elems)) + " ")
	})
	return b.String()
}

// looseSpans writes n as dumpLoose does, then the kind and offsets of
// every node.
func looseSpans(n *loose) string {
	if n == nil {
		return "<nil>"
	}
	b := []byte(dumpLoose(n) + " |")
	walkLoose(n, func(n *loose) {
		b = strconv.AppendInt(append(b, ' '), int64(n.kind), 10)
		b = strconv.AppendInt(append(b, '@'), int64(n.start), 10)
		b = strconv.AppendInt(append(b, '-'), int64(n.end), 10)
	})
	return string(b)
}

func walkLoose(n *loose, f func(*loose)) {
	f(n)
	for _, e := range n.elems {
		walkLoose(e, f)
	}
}

// looseCorpus returns the inputs of the tolerant reader's tests, of the
// completions and of every fuzz corpus of the package.
func looseCorpus(t *testing.T) []string {
	var in []string
	for _, tt := range looseTests {
		in = append(in, tt.in)
	}
	for _, c := range completions {
		in = append(in, c.completion)
	}
	in = append(in, streamEdges...)
	files, err := filepath.Glob("testdata/fuzz/*/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			for _, prefix := range []string{"string(", "[]byte("} {
				if lit, ok := strings.CutPrefix(line, prefix); ok && strings.HasSuffix(lit, ")") {
					if s, err := strconv.Unquote(lit[:len(lit)-1]); err == nil {
						in = append(in, s)
					}
				}
			}
		}
	}
	return in
}

// streamEdges are inputs whose decisions need bytes a chunk may not hold
// yet.
var streamEdges = []string{
	`{"a": "x" , "b": "y" "c"}`, `{"a": "x"   // c` + "\n}", `{"a": "x"  /* c */}`, `{"a": "x"  /x"}`, `["x"  /`,
	`"x"   `, `"x"  y"`, `["\u00e9", "\ud83d\ude00", "\ud83d\u0041", "\ud83d", "\ud83dx", "\u12", "\u12x", "\`,
	`['''a''b'''`, `["""a""", """`, `[""`, `"""`, `''`, "[`a`, `", `{a: True..., b: 1.., c: x…y, d: 1...x, e: 1e...}`,
	`[1e5, 1e+, 1e, -, +., 1.5e-3x, 12]`, `[12`, `[1e`, `{"a": 1/2}`, `[/* x */ 1, // y` + "\n2 /", `/`, `//`, `/*/`,
	`/**/ "a"`, `  `, `{{{{`, `{"a"`, `{"a" `, `{"a":`, `{a b: 1}`, `{:}`, `[]]`, `{]`, `[}`, `[{]}`, `{"x": [}`,
	"{\"s\": \"a\n\"}", `[1 …]`, `[…]`, `[...]`, `[..]`, `{c: x...`, `{c: x..`, "{c: x\xe2\x80", `"a" "b"`,
	"12 ", "12", "-", "1.5e", "word", `"\q\u00e`,
	`{"a": x, "` + strings.Repeat("n", maxNameAhead-3) + `" : 1}`, `{"a": x, ` + strings.Repeat("n", maxNameAhead) + `: 1}`,
	`{"a": x,` + "\n  \n" + ` b, c: 1, "d\"e": 2 /`, `{"a": x, /* c */}`, `{"a": x, ..`, `{"a": x, 'b`, `{"a": x, b`,
	`{"a": 1,2`, `{"a": 1,23`, `{"a": 1,234`, `{"a": -1,234,567.5, "b": 1,234: 2, "c": 1234,567}`,
}

// TestLooseStreamChunkings: a value fed in any chunks reads as the whole
// text does: every input of the corpus, from its start and from every
// bracket or quote, in chunks of one byte, of 16 bytes, of random sizes,
// and split in two at every offset of short inputs.
func TestLooseStreamChunkings(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	for _, s := range looseCorpus(t) {
		froms := []int{0}
		for i := 0; i < len(s) && len(froms) < 8; i++ {
			if strings.IndexByte("{[\"'`", s[i]) >= 0 {
				froms = append(froms, i)
			}
		}
		for _, from := range froms {
			want, wantEnd := readLoose(s, from)
			wantSpans := looseSpans(want)
			check := func(how string, next func() int, midway bool) {
				t.Helper()
				got, end := streamLoose(t, s, from, next, midway)
				if looseSpans(got) != wantSpans || end != wantEnd {
					t.Fatalf("%q from %d in %s: end %d, want %d; (-one read +streamed)\n%s", s, from, how, end, wantEnd, cmp.Diff(want, got, cmp.AllowUnexported(loose{})))
				}
			}
			check("1-byte chunks", func() int { return 1 }, len(s)-from <= 256)
			check("16-byte chunks", func() int { return 16 }, true)
			for range 10 {
				check("random chunks", func() int { return 1 + rng.IntN(8) }, len(s)-from <= 256)
			}
			if len(s)-from <= 80 {
				for cut := from + 1; cut < len(s); cut++ {
					first := true
					check("two chunks at "+strconv.Itoa(cut), func() int {
						if first {
							first = false
							return cut - from
						}
						return len(s)
					}, true)
				}
			}
		}
	}
}

// FuzzLooseStream: the text fed in chunks of the given sizes reads as the
// whole text does.
func FuzzLooseStream(f *testing.F) {
	for _, s := range streamEdges {
		f.Add(s, []byte{1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, s string, sizes []byte) {
		want, wantEnd := readLoose(s, 0)
		i := 0
		got, end := streamLoose(t, s, 0, func() int {
			if len(sizes) == 0 {
				return len(s)
			}
			i++
			return int(sizes[i%len(sizes)])
		}, true)
		if looseSpans(got) != looseSpans(want) || end != wantEnd {
			t.Fatalf("end %d, want %d; (-one read +streamed)\n%s", end, wantEnd, cmp.Diff(want, got, cmp.AllowUnexported(loose{})))
		}
	})
}

// TestLooseStreamMidway: what the stream shows before the text ends.
func TestLooseStreamMidway(t *testing.T) {
	tests := []struct{ in, want string }{
		{``, `<nil>`},
		{`  // c`, `<nil>`},
		{`{"a": [1, 2`, `{"a":[1,!]!}!`},
		{`{"a": [1, 2,`, `{"a":[1,2]!}!`},
		{`{"a": "He said`, `{"a":"He said"!}!`},
		{`{"a": "x"`, `{"a":"x"!}!`}, // the quote may be inside the string
		{`{"a": "x",`, `{"a":"x"}!`}, // not
		{`{"a": tr`, `{"a":<>!}!`},
		{`{"a": 12e`, `{"a":!}!`},
		{`{"a": {"b`, `{"a":{}!}!`},
		{`{"a": {"b": `, `{"a":{}!}!`},
		{`{"a": {"b": [`, `{"a":{"b":[]!}!}!`},
		{`[1, "\u00`, `[1,""!]!`},
		{`{"a": one, two`, `{"a":<>!}!`}, // the comma may be the value's
		{`{"a": one, "b`, `{"a":<>!}!`},
		{`{"a": one, "b":`, `{"a":<one>}! | /a: unquoted string`},
		{`{"a": 12,`, `{"a":!}!`}, // 12,345?
		{`{"a": 12, `, `{"a":12}!`},
	}
	for _, tt := range tests {
		r := &looseStream{}
		r.write(tt.in)
		got := "<nil>"
		if r.root() != nil {
			got = dumpLoose(r.root())
		}
		if got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestLooseStreamLinear: the hostile inputs fed one byte or 16 bytes at a
// time cost time in proportion to their length (up to 1 MB of brackets,
// quotes, comments, and commas or line breaks in an object's unquoted
// value; 256 KB of the others).
func TestLooseStreamLinear(t *testing.T) {
	for _, chunk := range []int{1, 16} {
		for _, h := range hostileLoose {
			size := 1 << 15
			if h.unit == "[" || h.unit == `"` || h.unit == "/*" || h.unit == "a," || h.unit == "a\n" {
				size = 1 << 17
			}
			costtest.Linear(t, strconv.Quote(h.prefix+h.unit)+" in chunks of "+strconv.Itoa(chunk), size, h.input, func(s string) {
				r := &looseStream{}
				for i := 0; i < len(s); i += chunk {
					r.write(s[i:min(i+chunk, len(s))])
				}
				r.end()
			})
		}
	}
}
