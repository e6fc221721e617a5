package output

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

const lenientSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string"},
    "count": {"type": "integer"},
    "price": {"type": "number"},
    "ok": {"type": "boolean"},
    "mood": {"type": "string", "enum": ["positive", "neutral", "negative"], "x-aliases": {"positive": ["happy"]}},
    "tags": {"type": "array", "items": {"type": "string"}},
    "note": {"type": ["string", "null"]}
  },
  "required": ["name", "count"],
  "additionalProperties": false,
  "x-aliases": {"name": ["full_name"]}
}`

type lenientOut struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Price float64  `json:"price,omitempty"`
	OK    bool     `json:"ok,omitempty"`
	Mood  string   `json:"mood,omitempty"`
	Tags  []string `json:"tags,omitempty"`
	Note  *string  `json:"note,omitempty"`
}

var (
	lenientShape     = MustCompileShape(lenientSchema)
	lenientValidator = MustCompileSchema(lenientSchema)
)

func TestParseLenient(t *testing.T) {
	tests := []struct {
		name, in string
		want     lenientOut
		fixes    []string
	}{
		{"clean", `{"name": "a", "count": 1}`, lenientOut{Name: "a", Count: 1}, nil},
		{"comments and trailing comma", "{\"name\": \"a\", // who\n \"count\": 2,}", lenientOut{Name: "a", Count: 2},
			[]string{"comment removed", "trailing comma removed"}},
		{"unquoted keys, single quotes", `{name: 'a', count: 3}`, lenientOut{Name: "a", Count: 3},
			[]string{"unquoted key", "unquoted key", "/name: single-quoted string"}},
		{"prose and a fence", "Sure! Here it is:\n```json\n{\"name\": \"a\", \"count\": 4}\n```\nHope this helps.", lenientOut{Name: "a", Count: 4}, nil},
		{"fence inside a string", "```json\n{\"name\": \"```x```\", \"count\": 5}\n```", lenientOut{Name: "```x```", Count: 5}, nil},
		{"numbers as strings", `{"name": "a", "count": "12,111", "price": "$1,234.56"}`, lenientOut{Name: "a", Count: 12111, Price: 1234.56},
			[]string{"/count: number read from a string", "/price: number read from a string"}},
		{"big numbers kept exact", `{"name": "a", "count": "9,007,199,254,740,993", "tags": ["x"],}`, lenientOut{Name: "a", Count: 9007199254740993, Tags: []string{"x"}},
			[]string{"trailing comma removed", "/count: number read from a string"}},
		{"a member twice with one value", `{"name": "a", "count": 1, "Count": 1.0}`, lenientOut{Name: "a", Count: 1},
			[]string{"/Count: member given twice with the same value dropped"}},
		{"integral float", `{"name": "a", "count": 3.0}`, lenientOut{Name: "a", Count: 3}, []string{"/count: integral number made an integer"}},
		{"bool from text", `{"name": "a", "count": 1, "ok": "True"}`, lenientOut{Name: "a", Count: 1, OK: true}, []string{"/ok: boolean read from text"}},
		{"enum case and text after", `{"name": "a", "count": 1, "mood": "NEGATIVE: the customer is upset"}`, lenientOut{Name: "a", Count: 1, Mood: "negative"},
			[]string{"/mood: enum value matched with text after it"}},
		{"enum alias", `{"name": "a", "count": 1, "mood": "happy"}`, lenientOut{Name: "a", Count: 1, Mood: "positive"}, []string{"/mood: enum value matched by its alias"}},
		{"member alias and case", `{"full_name": "a", "Count": 1}`, lenientOut{Name: "a", Count: 1},
			[]string{"/name: member name matched by its alias", "/count: member name matched ignoring case and punctuation"}},
		{"one-item list", `{"name": "a", "count": 1, "tags": "x"}`, lenientOut{Name: "a", Count: 1, Tags: []string{"x"}}, []string{"/tags: single value made a one-item list"}},
		{"extra member", `{"name": "a", "count": 1, "why": "?"}`, lenientOut{Name: "a", Count: 1}, []string{"/why: member the schema does not have dropped"}},
		{"truncated, only optional missing", `{"name": "a", "count": 1, "tags": ["x", "y"`, lenientOut{Name: "a", Count: 1, Tags: []string{"x", "y"}},
			[]string{"closed where the text ended", "/tags: closed where the text ended", "/tags: value the answer ended inside, closed (nothing required is missing)", "value the answer ended inside, closed (nothing required is missing)"}},
		{"missing comma, wrong bracket", `{"name": "a" "count": 1, "tags": ["x"}`, lenientOut{Name: "a", Count: 1, Tags: []string{"x"}},
			[]string{"missing comma added", "/tags: missing closing bracket added"}},
	}
	for _, tt := range tests {
		got, fixes, err := ParseLenient[lenientOut](tt.in, lenientShape, lenientValidator)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
		var fs []string
		for _, f := range fixes {
			fs = append(fs, f.String())
		}
		if d := cmp.Diff(tt.fixes, fs); d != "" {
			t.Errorf("%s: fixes (-want +got)\n%s", tt.name, d)
		}
	}
}

// TestParseLenientRejects: what cannot be mapped fails with an Error
// naming where, the keyword and what is wrong.
func TestParseLenientRejects(t *testing.T) {
	tests := []struct {
		name, in string
		want     Error
	}{
		// Not JSON: the repair's error.
		{"required missing", `{name: "a"}`, Error{"", "required", `missing required member "count"`}},
		{"cut string", `{"name": "a", "count": 1, "note": "half`, Error{"/note", "truncated", "the answer ends inside the string"}},
		{"cut number", `{"name": "a", "count": 12`, Error{"/count", "truncated", "the answer ends inside the number 12"}},
		{"fraction for an integer", `{name: "a", "count": 1.5}`, Error{"/count", "type", "1.5 is not an integer"}},
		{"enum matching none", `{name: "a", "count": 1, "mood": "meh"}`, Error{"/mood", "enum", `"meh" is not one of "positive", "neutral", "negative"`}},
		{"number out of range", `{name: "a", "count": 1, "price": 1e-999999}`, Error{"/price", "number", "number beyond the limits: at most 100 bytes, with an exponent of at most 999"}},
		{"member twice", `{name: "a", "count": 1, "Count": 2}`, Error{"/count", "duplicate", `member "count" is given twice, with different values`}},
		// JSON that breaks the schema: the validator's errors, all of them.
		{"JSON, required missing", `{"name": "a"}`, Error{"", "required", "missing properties: 'count'"}},
		{"JSON, fraction for an integer", `{"name": "a", "count": 1.5}`, Error{"/count", "type", "expected integer, but got number"}},
		{"JSON, enum matching none", `{"name": "a", "count": 1, "mood": "meh"}`, Error{"/mood", "enum", `value must be one of "positive", "neutral", "negative"`}},
	}
	for _, tt := range tests {
		_, _, err := ParseLenient[lenientOut](tt.in, lenientShape, lenientValidator)
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || *es[0] != tt.want {
			t.Errorf("%s: got %q, want %v", tt.name, err, tt.want)
		}
	}
}

// TestParseLenientBareValues: a scalar, enum or list answer may be bare
// text; a sentence stating both booleans is ambiguous.
func TestParseLenientBareValues(t *testing.T) {
	boolShape := MustCompileShape(`{"type": "boolean"}`)
	moodShape := MustCompileShape(`{"enum": ["positive", "neutral", "negative"]}`)
	if got, _, err := ParseLenient[bool]("The answer is **True**.", boolShape, nil); err != nil || !got {
		t.Errorf("bool: got %v, %v", got, err)
	}
	var es Errors
	if _, _, err := ParseLenient[bool]("The answer is true or false.", boolShape, nil); !errors.As(err, &es) || es[0].Keyword != "ambiguous" {
		t.Errorf("both booleans: got %v, want ambiguous", err)
	}
	enumShape := MustCompileShape(`{"type": "string", "enum": ["ONE", "TWO"]}`)
	if got, fixes, err := ParseLenient[string]("ONE: the first", enumShape, nil); err != nil || got != "ONE" || len(fixes) != 1 {
		t.Errorf("enum: got %q, %v, %v", got, fixes, err)
	}
	for text, want := range map[string]string{
		"The sentiment is clearly NEGATIVE.":     "negative",
		"**Positive** - the customer thanks us.": "positive",
	} {
		if got, _, err := ParseLenient[string](text, moodShape, nil); err != nil || got != want {
			t.Errorf("enum in %q: got %q, %v, want %q", text, got, err, want)
		}
	}
	// A mention inside a longer one is not a mention; an alias counts as
	// its value, in the text too.
	pairShape := MustCompileShape(`{"enum": ["ONE", "ONE_TWO", "THREE"], "x-aliases": {"THREE": ["trio"]}}`)
	for text, want := range map[string]string{"The answer is ONE_TWO.": "ONE_TWO", "I'd say a Trio.": "THREE"} {
		if got, _, err := ParseLenient[string](text, pairShape, nil); err != nil || got != want {
			t.Errorf("%q: got %q, %v, want %q", text, got, err, want)
		}
	}
	if _, _, err := ParseLenient[string]("ONE, or a trio", pairShape, nil); !errors.As(err, &es) || es[0].Keyword != "ambiguous" {
		t.Errorf("a value and another's alias: got %v, want ambiguous", err)
	}
	if _, _, err := ParseLenient[string]("Positive or negative, hard to say.", moodShape, nil); !errors.As(err, &es) || es[0].Keyword != "ambiguous" {
		t.Errorf("two enum values in the text: got %v, want ambiguous", err)
	}
	unionShape := MustCompileShape(`{"anyOf": [{"type": "integer"}, {"type": "string", "enum": ["none"]}]}`)
	if got, _, err := ParseLenient[any]("None", unionShape, nil); err != nil || got != "none" {
		t.Errorf("union: got %v, %v", got, err)
	}
}

// TestParseLenientAgreesOnValidJSON: for valid JSON of the schema, the
// lenient parse is the strict one, with no fixes; and whatever the input,
// a nil error means the value validates against the compiled schema.
func TestParseLenientAgreesOnValidJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	moods := []string{"positive", "neutral", "negative"}
	for i := range 300 {
		doc := `{"name": ` + strconv.Quote("n"+strconv.Itoa(i)) + `, "count": ` + strconv.Itoa(r.IntN(1000)-500)
		if r.IntN(2) == 0 {
			doc += `, "mood": "` + moods[r.IntN(3)] + `"`
		}
		if r.IntN(2) == 0 {
			doc += `, "price": ` + strconv.FormatFloat(r.Float64()*100, 'g', -1, 64)
		}
		doc += "}"
		want, err := Parse[lenientOut](doc, lenientValidator)
		if err != nil {
			t.Fatal(err)
		}
		got, fixes, err := ParseLenient[lenientOut](doc, lenientShape, lenientValidator)
		if err != nil || len(fixes) != 0 || !cmp.Equal(want, got) {
			t.Errorf("%s: got %+v, %v, %v", doc, got, fixes, err)
		}
	}
}

func FuzzParseLenient(f *testing.F) {
	for _, s := range []string{`{name: 'a', count: "1,000",}`, "```\n{\"name\": \"a\"\n```", `{"name": "a", "count": 1, "mood": "HAPPY"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, _, err := ParseLenient[lenientOut](s, lenientShape, lenientValidator)
		if err != nil {
			return
		}
		// A value without error satisfies the schema.
		doc, merr := jsonMarshalOut(v)
		if merr != nil {
			t.Fatal(merr)
		}
		if verr := lenientValidator.Validate(doc, nil); verr != nil {
			t.Fatalf("%q parsed to %s, which the schema rejects: %v", s, doc, verr)
		}
	})
}

func jsonMarshalOut(v lenientOut) ([]byte, error) { return json.Marshal(v) }

// TestParseLenientLinear: hostile answers cost time in proportion to
// their length (costtest.Linear: CPU time, best of runs).
func TestParseLenientLinear(t *testing.T) {
	for name, unit := range map[string]string{
		"brackets": "[", "objects": `{"a":1}`, "quotes": `"`, "comments": "/*", "fences": "```\n{\n",
		"words": "true false ", "keys": `{"name": "a", "name": `,
	} {
		costtest.Linear(t, name, 1<<15, func(n int) string { return strings.Repeat(unit, n/len(unit)) },
			func(s string) { ParseLenient[lenientOut](s, lenientShape, nil) })
	}
}

func BenchmarkParseLenientClean(b *testing.B) {
	doc := `{"name": "a", "count": 12, "mood": "neutral", "tags": ["x", "y"]}`
	b.Run("Parse", func(b *testing.B) {
		for b.Loop() {
			Parse[lenientOut](doc, lenientValidator)
		}
	})
	b.Run("ParseLenient", func(b *testing.B) {
		for b.Loop() {
			ParseLenient[lenientOut](doc, lenientShape, lenientValidator)
		}
	})
	repaired := "```json\n{name: 'a', count: \"12\", mood: 'Neutral', tags: ['x', 'y',],}\n```"
	b.Run("ParseLenientRepaired", func(b *testing.B) {
		for b.Loop() {
			ParseLenient[lenientOut](repaired, lenientShape, lenientValidator)
		}
	})
}

// TestParseLenientMissingNull: a required member whose schema lets it be
// null (strict mode's optional) may be left out of a complete object, and
// reads as null; not when the answer ends inside the object, nor when the
// schema does not say null.
func TestParseLenientMissingNull(t *testing.T) {
	const schema = `{"type": "object", "properties": {
		"city": {"type": "string"},
		"unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]},
		"days": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
		"note": {"$ref": "#/$defs/note"}
	}, "required": ["city", "unit", "days", "note"], "additionalProperties": false,
	"$defs": {"note": {"type": ["string", "null"]}}}`
	type out struct {
		City string  `json:"city"`
		Unit *string `json:"unit"`
		Days *int    `json:"days"`
		Note *string `json:"note"`
	}
	shape, validator := MustCompileShape(schema), MustCompileSchema(schema)
	got, fixes, err := ParseLenient[out](`{"city": "Oslo", "days": 3}`, shape, validator)
	three := 3
	if d := cmp.Diff(out{City: "Oslo", Days: &three}, got); err != nil || d != "" {
		t.Errorf("left out: %v (-want +got)\n%s", err, d)
	}
	var fs []string
	for _, f := range fixes {
		fs = append(fs, f.String())
	}
	want := []string{"/note: required member that may be null left out, read as null", "/unit: required member that may be null left out, read as null"}
	if d := cmp.Diff(want, fs); d != "" {
		t.Errorf("fixes (-want +got)\n%s", d)
	}

	for _, tc := range []struct{ in, want string }{
		{`{"unit": null, "days": null, "note": null}`, `missing properties: 'city'`},
		{`{"city": "Oslo", "days": 3`, `missing required member "note"`},
	} {
		_, _, err := ParseLenient[out](tc.in, shape, validator)
		var es Errors
		if !errors.As(err, &es) || len(es) != 1 || es[0].Keyword != "required" || es[0].Message != tc.want {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.want)
		}
	}
}
