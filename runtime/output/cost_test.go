package output

import (
	"strconv"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

// repeat returns inputs of n bytes made of unit.
func repeat(unit string) func(n int) string {
	return func(n int) string { return strings.Repeat(unit, n/len(unit)) }
}

// TestCostOfExtraction checks that finding the JSON of a completion costs
// time in proportion to its length, whatever it holds: many fences, or
// many starts of values that lead nowhere.
func TestCostOfExtraction(t *testing.T) {
	for _, unit := range []string{"```\n", "```json\n", "~~~\n", "```x``` ", "```json {```", "```json\n[\n```\n", "{", "[", `{"a":`, "{x} ", "[1,"} {
		costtest.Linear(t, "Parse of "+strconv.Quote(unit)+"...", MaxCompletion/8, repeat(unit), func(s string) {
			Parse[summary](s, nil)
		})
	}
}

// TestCostOfChecks checks that the Checker costs time in proportion to the
// document: members given twice, uniqueItems, objects in skipped values.
func TestCostOfChecks(t *testing.T) {
	list := func(item func(i int) string) func(n int) string {
		return func(n int) string {
			var b strings.Builder
			b.WriteString("[0")
			for i := 0; b.Len() < n; i++ {
				b.WriteString("," + item(i))
			}
			return b.String() + "]"
		}
	}
	unique := func(c *Checker) {
		start := c.Offset()
		c.Skip()
		c.UniqueItems(start)
	}
	cases := []struct {
		name  string
		doc   func(n int) string
		check func(*Checker)
	}{
		{"members given twice", func(n int) string {
			return `{"a":0` + list(func(i int) string { return `"k` + strconv.Itoa(i) + `":1,"a":1` })(n)[2:] + "}"
		}, walk},
		{"distinct strings under uniqueItems", list(func(i int) string { return strconv.Quote("t" + strconv.Itoa(i)) }), unique},
		{"distinct objects under uniqueItems", list(func(i int) string { return `{"b":1,"a":` + strconv.Itoa(i) + `}` }), unique},
		{"objects in a skipped value", list(func(i int) string { return `{"a":{"b":[` + strconv.Itoa(i) + `]},"c":null}` }), (*Checker).Skip},
	}
	for _, tt := range cases {
		costtest.Linear(t, tt.name, MaxCompletion/16, tt.doc, func(s string) {
			if err := Check([]byte(s), tt.check); err != nil && tt.name != "members given twice" {
				t.Fatalf("%s: %.200v", tt.name, err)
			}
		})
	}
}

// TestCostOfNumbers checks that numbers with large exponents cost no more
// than others of the same length: in the checks, which compare them
// exactly in linear time, and in a compiled Schema, which does not check
// numbers beyond the limits against the schema.
func TestCostOfNumbers(t *testing.T) {
	doc := func(n string) string { return "[" + strings.Repeat(n+",", 5000) + "1]" }
	base, probe := doc("1.5e00000009"), doc("1.5e+0999999")
	costtest.Same(t, "checks", base, probe, func(s string) {
		Check([]byte(s), func(c *Checker) {
			c.Enter()
			for c.Item() {
				n := c.Num()
				if IsInteger(n) {
					c.Maximum(n, "1")
					c.MultipleOf(n, "0.5")
					NumberIn(n, "2", "3e2")
				}
			}
		})
	})
	schema := MustCompileSchema(`{"type": "array", "items": {"type": "integer", "maximum": 1, "multipleOf": 0.5}}`)
	costtest.Same(t, "compiled schema", base, probe, func(s string) {
		schema.Validate([]byte(s), nil)
	})
}
