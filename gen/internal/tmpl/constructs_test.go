package tmpl

import (
	"slices"
	"testing"
)

// TestConstructs names what a template uses, nested in statements and
// expressions alike, once each.
func TestConstructs(t *testing.T) {
	src := "{% for x in xs if x is defined %}{{ x|upper }}{% else %}{{ -n + 1 }}{% endfor %}" +
		"{% if a %}{% set y, z = s.strip() ~ d['k'], () %}{% elif b %}{{ [1][0:1]|join(d=',') }}{% endif %}" +
		"{% for m in messages %}{% generation %}{{ m }}{% endgeneration %}{% break %}{% endfor %}"
	parsed, err := Parse(src, Options{Transformers: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"filter join", "filter upper", "keyword arguments", "list literal", "method strip()", "operator +",
		"operator unary -", "operator ~", "slice", "statement break or continue", "statement elif", "statement for",
		"statement for-else", "statement generation", "statement if", "statement set", "subscript", "test defined",
		"tuple literal", "unpacking into several targets"}
	if got := Constructs(parsed.Body); !slices.Equal(got, want) {
		t.Errorf("Constructs:\n got %q\nwant %q", got, want)
	}
}
