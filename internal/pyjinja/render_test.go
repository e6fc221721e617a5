package pyjinja

import "testing"

// TestRenderPrintedOpaque checks that jinja_render.py records a {{ }}
// that prints a generator, or a list, tuple or dict holding one (whose
// text holds its address), also where Jinja2 raises after it, and a
// string of one that a filter, ~, % or str.format makes and no {{ }}
// prints, and nothing for a value made of one that no string holds.
func TestRenderPrintedOpaque(t *testing.T) {
	cases := []struct {
		template string
		want     bool
	}{
		{"{{ [1]|map('string') }}", true},
		{"{{ [[1]|reject('string')] }}", true},
		{"{{ ([1]|reverse, 2) }}", true},
		{"{{ {'a': {'b': [1]|select}} }}", true},
		{"{% set s %}{{ [[1]|select] }}{% endset %}{{ s|length > 0 }}{{ x.y }}", true},
		{"{{ [1]|select|string|length }}", true},
		{"{% set t = ([1]|unique)|string %}{{ t is string }}", true},
		{"{{ ({}.items|string)[:6] }}", true},
		{"{{ ('%a' % ([1]|select))|length }}", true},
		{"{{ (([1]|reverse) ~ '')|length }}", true},
		{"{{ '{}'.format([1]|map('abs'))|length }}", true},
		{"{{ '%.3s' % ([1]|select) }}", true},
		{"{{ '%(a).2s'|format(a=[1]|reject) }}", true},
		{"{{ '%s' % ([1]|reverse) }}", true},
		{"{{ ([1]|select|string|upper)[:2] }}", true},
		{"{{ [[1]|select]|length }}{{ [1]|select|list }}", false},
		{"{{ [1]|select|join }}{{ ([1]|string)|length }}{{ '%s' % 'a' }}{{ 1 ~ 'a' }}", false},
		{"{{ [1, 'a', none] }}", false},
	}
	jobs := make([]Job, len(cases))
	for i, c := range cases {
		jobs[i] = Job{Template: c.template, Data: []byte(`{}`)}
	}
	for i, got := range Render(t, Find(t), jobs) {
		if c := cases[i]; got.PrintedOpaque != c.want {
			t.Errorf("%s: PrintedOpaque = %v, want %v (%s)", c.template, got.PrintedOpaque, c.want, got)
		}
	}
}
