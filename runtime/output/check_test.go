package output

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walk reads every value of a document with the Checker's readers, as a
// generated check does, and fails every string "bad".
func walk(c *Checker) {
	switch c.Kind() {
	case Object:
		c.Enter()
		for c.Member() {
			walk(c)
		}
	case Array:
		c.Enter()
		for c.Item() {
			walk(c)
		}
	case String:
		if c.Str() == "bad" {
			c.Fail("const", "bad string")
		}
	case Number:
		c.Num()
	case Bool:
		c.Bool()
	default:
		c.Skip()
	}
}

func TestCheckSyntax(t *testing.T) {
	for _, doc := range []string{
		``, ` `, `{`, `[`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `[1 2]`, `{"a":1 "b":2}`,
		`tru`, `nul`, `01`, `1.`, `-`, `"abc`, `"\x"`, `{"a":1}}`, `[1]]`, `1 2`, `{"a":[1,{"b":}]}`,
		"\"a\x01\"", `{1:2}`, `[}`, `{]`,
	} {
		if err := Check([]byte(doc), walk); !errors.Is(err, ErrInvalidJSON) {
			t.Errorf("Check(%q) = %v, want ErrInvalidJSON", doc, err)
		}
	}
	for _, doc := range []string{
		`{}`, `[]`, ` { "a" : [ 1 , 2.5e3 , -0 , true , false , null , "x\u00e9\n" ] } `, `"s"`, `0`,
		`{"a":{"b":{"c":[[[]]]}}}`, "\"\xff\"",
	} {
		if err := Check([]byte(doc), walk); err != nil {
			t.Errorf("Check(%q) = %v, want nil", doc, err)
		}
	}
}

// FuzzCheck checks that the Checker reads exactly what encoding/json
// accepts, whatever it is given.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a":[1,"bad",{"b":null}]}`, `[1,]`, `{"a":1,"a":"bad"}`, `"\u00e9"`, `{"~/":[true]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		err := Check([]byte(doc), walk)
		if json.Valid([]byte(doc)) == errors.Is(err, ErrInvalidJSON) {
			t.Fatalf("json.Valid = %v, but Check returned %v", json.Valid([]byte(doc)), err)
		}
	})
}

// pointers returns "pointer keyword" of each violation.
func pointers(err error) []string {
	var es Errors
	if !errors.As(err, &es) {
		if err == nil {
			return nil
		}
		return []string{err.Error()}
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Pointer+" "+e.Keyword)
	}
	return out
}

func TestCheckPointersAndDuplicates(t *testing.T) {
	tests := []struct {
		doc  string
		want []string
	}{
		{`{"a/b":{"c~d":["ok","bad"]}}`, []string{"/a~1b/c~0d/1 const"}},
		{`[["bad"],"bad"]`, []string{"/0/0 const", "/1 const"}},
		// The last of duplicate members counts, as when decoding.
		{`{"a":"bad","b":"ok","a":"ok"}`, nil},
		{`{"a":"ok","a":"bad"}`, []string{"/a const"}},
		{`{"a":["bad"],"b":"bad","a":1}`, []string{"/b const"}},
		{`{"k\u0061":"bad","ka":"ok"}`, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pointers(Check([]byte(tt.doc), walk))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
		}
	}
	// Duplicates in large objects are found by a map.
	var b strings.Builder
	b.WriteString(`{"dup":"bad"`)
	for i := range 2 * largeObject {
		b.WriteString(`,"k` + strings.Repeat("x", i) + `":"ok"`)
	}
	b.WriteString(`,"dup":"ok"}`)
	if err := Check([]byte(b.String()), walk); err != nil {
		t.Errorf("large object: %v", err)
	}
}

func TestCheckCounts(t *testing.T) {
	check := func(c *Checker) {
		c.Enter()
		for c.Member() {
			switch c.Key() {
			case "list":
				start := c.Offset()
				c.Enter()
				for c.Item() {
					c.Skip()
				}
				c.Items(1, 3)
				c.UniqueItems(start)
			case "s":
				s := c.Str()
				c.Length(s, 2, 3)
				c.Pattern(s, MustCompilePattern(`^[a-zé]+$`))
			default:
				c.Skip()
			}
		}
		c.Properties(1, 2)
	}
	tests := []struct {
		doc  string
		want []string
	}{
		{`{"list":[1,"1",[1],{"a":1}]}`, []string{"/list maxItems"}},
		{`{"list":[1,1.0]}`, []string{"/list uniqueItems"}},
		{`{"list":[{"a":[1,2]},{"a":[1,2e0]}]}`, []string{"/list uniqueItems"}},
		{`{"list":["a","\u0061"]}`, []string{"/list uniqueItems"}},
		{`{"list":[]}`, []string{"/list minItems"}},
		{`{"s":"éé"}`, nil},
		{`{"s":"e\u0301"}`, []string{"/s pattern"}},
		{`{"s":"abcd"}`, []string{"/s maxLength"}},
		{`{}`, []string{" minProperties"}},
		{`{"a":1,"b":2,"a":3}`, nil},
		{`{"a":1,"b":2,"c":3}`, []string{" maxProperties"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pointers(Check([]byte(tt.doc), check))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
		}
	}
}

func TestNumbers(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		cmp  int
	}{
		{"1", "1.0", 0}, {"1e2", "100", 0}, {"0.1", "0.10000000000000001", -1},
		{"9007199254740993", "9007199254740992", 1}, {"-0", "0", 0}, {"1e400", "1e399", 1},
	} {
		if got := numberCmp(tt.a, tt.b); got != tt.cmp {
			t.Errorf("numberCmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.cmp)
		}
	}
	for n, want := range map[string]bool{"1": true, "1.0": true, "1e2": true, "1.5": false, "1.5e1": true, "1e-1": false, "-0": true} {
		if IsInteger(n) != want {
			t.Errorf("IsInteger(%s) = %v", n, !want)
		}
	}
	if !NumberIn("2.50", "1", "2.5") || NumberIn("3", "1", "2.5") {
		t.Error("NumberIn")
	}
}

func TestCheckUnions(t *testing.T) {
	isString := func(c *Checker) {
		if c.Kind() != String {
			c.TypeError("string")
			return
		}
		c.Skip()
	}
	short := func(c *Checker) {
		if c.Kind() != String {
			c.TypeError("string")
			return
		}
		c.Length(c.Str(), -1, 2)
	}
	tests := []struct {
		name  string
		check func(*Checker)
		doc   string
		want  []string
	}{
		{"oneOf one", func(c *Checker) { c.OneOf(isString, short); c.Skip() }, `"long"`, nil},
		{"oneOf two", func(c *Checker) { c.OneOf(isString, short); c.Skip() }, `"ab"`, []string{" oneOf"}},
		{"oneOf none, fewest errors", func(c *Checker) { c.OneOf(isString, short); c.Skip() }, `1`, []string{" type"}},
		{"anyOf two", func(c *Checker) { c.AnyOf(isString, short); c.Skip() }, `"ab"`, nil},
		{"inside an object", func(c *Checker) {
			c.Enter()
			for c.Member() {
				c.AnyOf(short)
				c.Skip()
			}
		}, `{"a":"abc","b":"x"}`, []string{"/a maxLength"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pointers(Check([]byte(tt.doc), tt.check))); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s", tt.name, tt.doc, diff)
		}
	}
}

// TestPatternClass checks the byte-table patterns against regexp.
func TestPatternClass(t *testing.T) {
	inputs := []string{"", "abc", "ab-c", "ABC", "a b", "é", "\xff", "a\n", "0-9", "-", "abc\x00"}
	for _, expr := range []string{`^[a-z0-9-]+$`, `^[a-z]*$`, `^[^a-z]+$`, `[a-z]+`, `^[a-z]+`, `^\w+$`, `^[a-zé]+$`, `^(?i)[a-z]+$`, `^[\x00-\x7f]+$`} {
		p := MustCompilePattern(expr)
		re := regexp.MustCompile(expr)
		for _, in := range inputs {
			if got, want := p.MatchString(in), re.MatchString(in); got != want {
				t.Errorf("%s on %q: %v, regexp says %v (class %v)", expr, in, got, want, p.class != nil)
			}
		}
	}
	if MustCompilePattern(`^[a-z0-9-]+$`).class == nil {
		t.Error("^[a-z0-9-]+$ is not matched with a byte table")
	}
}
