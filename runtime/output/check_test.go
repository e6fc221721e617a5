package output

import (
	"encoding/json"
	"errors"
	"math/big"
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
		for _, check := range []func(*Checker){walk, (*Checker).Skip} {
			err := Check([]byte(doc), check)
			if json.Valid([]byte(doc)) == errors.Is(err, ErrInvalidJSON) {
				t.Fatalf("json.Valid = %v, but Check returned %v", json.Valid([]byte(doc)), err)
			}
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
		// A member given twice is an error: encoding/json would decode
		// the second value into the first. Both values are checked.
		{`{"a":"bad","b":"ok","a":"ok"}`, []string{"/a const", "/a duplicate"}},
		{`{"a":"ok","a":"bad"}`, []string{"/a const", "/a duplicate"}},
		{`{"a":["bad"],"b":"bad","a":1}`, []string{"/a duplicate", "/a/0 const", "/b const"}},
		{`{"k\u0061":"ok","ka":"ok"}`, []string{"/ka duplicate"}},
		{`{"a":1,"A":1}`, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pointers(Check([]byte(tt.doc), walk))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
		}
	}
	// Duplicates in large objects are found by a map.
	var b strings.Builder
	b.WriteString(`{"dup":"ok"`)
	for i := range 2 * largeObject {
		b.WriteString(`,"k` + strings.Repeat("x", i) + `":"ok"`)
	}
	b.WriteString(`,"dup":"ok"}`)
	if diff := cmp.Diff([]string{"/dup duplicate"}, pointers(Check([]byte(b.String()), walk))); diff != "" {
		t.Errorf("large object (-want +got):\n%s", diff)
	}
}

// TestCheckSkip checks what Skip checks in a value that no schema
// describes: member names and numbers.
func TestCheckSkip(t *testing.T) {
	tests := []struct {
		doc  string
		want []string
	}{
		{`[{"a":1},{"b":{"c":1,"c":2}},[],{}]`, []string{"/1/b/c duplicate"}},
		{`{"a":{"a":{"a":1}},"b":[1,{"a":1}]}`, nil},
		{`[1e999, -1E+999, 0.5e-0999, "1e99999", ` + strings.Repeat("1", MaxNumberLength) + `]`, nil},
		{`[1e1000, 1.5E-99999, ` + strings.Repeat("1", MaxNumberLength+1) + `]`, []string{"/0 number", "/1 number", "/2 number"}},
		{`1e1000`, []string{" number"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, pointers(Check([]byte(tt.doc), (*Checker).Skip))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
		}
	}
}

// TestCheckUnknown checks the members that differ from a property only
// in case, as encoding/json matches names: "K" and the Kelvin sign fold
// to "k".
func TestCheckUnknown(t *testing.T) {
	check := func(c *Checker) {
		c.Enter()
		for c.Member() {
			switch c.Key() {
			case "sentiment", "k", "ID", "id":
				c.Skip()
			default:
				c.Unknown("ID", "id", "k", "sentiment")
				c.Skip()
			}
		}
	}
	doc := `{"sentiment":1,"Sentiment":2,"SENTIMENT":3,"sentiments":4,"K":5,"\u212a":6,"k":7,"ID":8,"id":9,"Id":10}`
	want := []*Error{
		{"/Id", "properties", `member "Id" is not "ID": names are case-sensitive`},
		{"/K", "properties", `member "K" is not "k": names are case-sensitive`},
		{"/SENTIMENT", "properties", `member "SENTIMENT" is not "sentiment": names are case-sensitive`},
		{"/Sentiment", "properties", `member "Sentiment" is not "sentiment": names are case-sensitive`},
		{"/\u212a", "properties", "member \"\u212a\" is not \"k\": names are case-sensitive"},
	}
	var got Errors
	errors.As(Check([]byte(doc), check), &got)
	if diff := cmp.Diff(want, []*Error(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
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
		{`{"list":[{"a":1,"b":[2]},{"b":[2.0],"a":1}]}`, []string{"/list uniqueItems"}},
		{`{"list":[1e999999,10e999998]}`, []string{"/list uniqueItems", "/list/0 number", "/list/1 number"}},
		{`{"list":[0,-0.0]}`, []string{"/list uniqueItems"}},
		{`{"list":["1",1,true]}`, nil},
		{`{"list":["true",true,null]}`, nil},
		{`{"list":[{"a":[]},{"a":{}},{"a":null}]}`, nil},
		{`{"list":[1,2,1]}`, []string{"/list uniqueItems"}},
		{`{"list":[]}`, []string{"/list minItems"}},
		{`{"s":"éé"}`, nil},
		{`{"s":"e\u0301"}`, []string{"/s pattern"}},
		{`{"s":"abcd"}`, []string{"/s maxLength"}},
		{`{}`, []string{" minProperties"}},
		{`{"a":1,"b":2,"a":3}`, []string{"/a duplicate"}},
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
		{"1e999999", "1e999998", 1}, {"1e999999", "10e999998", 0}, {"-1e999999", "1e-999999", -1},
		{"1e-999999", "0", 1}, {"-1e-999999", "-0.0", -1}, {"-1e-5", "-1e-6", -1}, {"0.001e3", "100E-2", 0},
		{"123.456", "123.4560000", 0}, {"123.456", "123.4561", -1}, {"-2", "-10", 1},
	} {
		if got := numberCmp(tt.a, tt.b); got != tt.cmp {
			t.Errorf("numberCmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.cmp)
		}
		if got := numberCmp(tt.b, tt.a); got != -tt.cmp {
			t.Errorf("numberCmp(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.cmp)
		}
	}
	for n, want := range map[string]bool{
		"1": true, "1.0": true, "1e2": true, "1.5": false, "1.5e1": true, "1e-1": false, "-0": true,
		"1.5e999999": true, "1e-999999": false, "0.0e-5": true, "-0.0": true, "12.5e1": true, "1.25e1": false, "100e-2": true,
	} {
		if IsInteger(n) != want {
			t.Errorf("IsInteger(%s) = %v", n, !want)
		}
	}
	if !NumberIn("2.50", "1", "2.5") || NumberIn("3", "1", "2.5") {
		t.Error("NumberIn")
	}
}

// FuzzNumbers holds the comparisons of numbers to big.Rat's exact ones.
func FuzzNumbers(f *testing.F) {
	f.Add("1", "1.0")
	f.Add("-0.5e-3", "-5E-4")
	f.Add("123456789012345678901234567890", "1.2345678901234567890123456789e29")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, n := range []string{a, b} {
			if end, st := scanNumber(n+" ", 0); n == "" || st != scanOK || end != len(n) || !withinLimits(n) {
				return
			}
		}
		x, _ := new(big.Rat).SetString(a)
		y, _ := new(big.Rat).SetString(b)
		if got, want := numberCmp(a, b), x.Cmp(y); got != want {
			t.Errorf("numberCmp(%s, %s) = %d, want %d", a, b, got, want)
		}
		if got, want := IsInteger(a), x.IsInt(); got != want {
			t.Errorf("IsInteger(%s) = %v, want %v", a, got, want)
		}
	})
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
