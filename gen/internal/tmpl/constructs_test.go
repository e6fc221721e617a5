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

// TestConstructsGenerators names a generator filter whose truth a
// template tests, and one that is a conditional's arm, but not one that
// a filter converts first.
func TestConstructsGenerators(t *testing.T) {
	const tested, arm = "generator filter tested for truth", "generator filter as a conditional's arm"
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"{% if a and xs|select %}{% endif %}", []string{tested}},
		{"{% if a %}{% elif not xs|map('upper') %}{% endif %}", []string{tested}},
		{"{{ 1 if xs|unique or a else 2 }}", []string{tested}},
		{"{% for x in xs if ys|reverse %}{% endfor %}", []string{tested}},
		{"{% for x in (xs|reject if a else ys) %}{% endfor %}", []string{arm}},
		{"{{ ys if a else xs|selectattr('k') }}", []string{arm}},
		{"{% if xs|select|list %}{% endif %}{{ xs|select|list if a else ys }}{{ xs|select }}", nil},
	} {
		parsed, err := Parse(c.src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range Constructs(parsed.Body) {
			if f == tested || f == arm {
				got = append(got, f)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Constructs(%q): got %q, want %q", c.src, got, c.want)
		}
	}
}
