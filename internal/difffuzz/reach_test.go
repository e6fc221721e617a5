package difffuzz

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// rejectedSum is what the reach tests' templates have promptgen reject
// (a constant int beyond 64 bits) and Jinja2 render (9223372036854775808).
const rejectedSum = "9223372036854775807 + 1"

// reachCase is a case with inputs flag, xs and o whose template (or, with
// include, the included file inc.jinja) holds rejectedSum, its prompt
// file's template written in style.
func reachCase(t *testing.T, template, include string, style yaml.Style) *Case {
	t.Helper()
	c := &Case{Key: "c00000", File: "c00000.yaml", Template: template}
	if include != "" {
		c.Includes = map[string]string{"inc.jinja": include}
	}
	tn := yamlScalar(template)
	tn.Style = style
	inputs := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
		yamlScalar("flag"), yamlScalar("bool"),
		yamlScalar("xs"), {Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{yamlScalar("string")}},
		yamlScalar("o"), yamlScalar("object")}}
	src, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{yamlScalar("inputs"), inputs, yamlScalar("template"), tn}})
	if err != nil {
		t.Fatal(err)
	}
	c.Source = src
	return c
}

// TestRejectionProbe checks that the probe locates the rejection at its
// byte in the template however the prompt file holds it, and in an
// included file.
func TestRejectionProbe(t *testing.T) {
	const tmpl = "é\t{{ 'x\\\\y' }}\n  {% if flag %}\"a\"\n{% else %}{{ 9223372036854775807 + 1 }}{% endif %}\n"
	for _, tc := range []struct {
		name, template, include string
		style                   yaml.Style
		plain                   bool
	}{
		{name: "literal block", template: tmpl, style: yaml.LiteralStyle},
		{name: "double-quoted", template: tmpl, style: yaml.DoubleQuotedStyle},
		{name: "single-quoted", template: tmpl, style: yaml.SingleQuotedStyle},
		{name: "no final line break", template: strings.TrimSuffix(tmpl, "\n"), style: yaml.DoubleQuotedStyle},
		{name: "crlf", template: strings.ReplaceAll(tmpl, "\n", "\r\n"), style: yaml.DoubleQuotedStyle},
		{name: "plain file", template: "{% set flag = true %}" + tmpl, plain: true},
		{name: "included file", template: "{% include 'inc.jinja' %}", include: tmpl},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := reachCase(t, tc.template, tc.include, tc.style)
			if tc.plain {
				c.File, c.Source = "c00000.jinja", []byte(tc.template)
			}
			run := NewTrial(c)
			Generate(run, map[string][]byte{})
			if !strings.HasPrefix(run.FirstErr.Msg, "this constant int expression is 9223372036854775808") {
				t.Fatalf("rejection %v; want the one of %q", run.FirstErr, rejectedSum)
			}
			text, file := tc.template, ""
			if tc.include != "" {
				text, file = tc.include, "inc.jinja"
			}
			want := pyjinja.Probe{Template: file, Offset: strings.Index(text, rejectedSum)}
			if got := rejectionProbe(run); got == nil || *got != want {
				t.Errorf("rejection at %v: probe %+v; want %+v", run.FirstErr.Pos, got, want)
			}
		})
	}
}

// TestProbeReach checks, on rejected cases Jinja2 renders, whether it
// runs the rejected construct with the case's data.
func TestProbeReach(t *testing.T) {
	cases := []struct {
		name, template, include, data string
		want                          bool
	}{
		{"printed", "{{ 9223372036854775807 + 1 }}", "", `{"flag": true, "xs": []}`, true},
		{"macro not called", "{% macro m() %}{{ 9223372036854775807 + 1 }}{% endmacro %}{% if not flag %}{{ m() }}{% endif %}", "", `{"flag": true, "xs": []}`, false},
		{"macro called", "{% macro m() %}{{ 9223372036854775807 + 1 }}{% endmacro %}{{ m() }}", "", `{"flag": true, "xs": []}`, true},
		{"else branch not taken", "{% if flag %}a{% else %}{{ 9223372036854775807 + 1 }}{% endif %}", "", `{"flag": true, "xs": []}`, false},
		{"else branch taken", "{% if flag %}a{% else %}{{ 9223372036854775807 + 1 }}{% endif %}", "", `{"flag": false, "xs": []}`, true},
		{"elif test not reached", "{% if flag %}a{% elif 9223372036854775807 + 1 %}b{% endif %}", "", `{"flag": true, "xs": []}`, false},
		{"zero-iteration loop", "{% for x in xs %}{{ 9223372036854775807 + 1 }}{% endfor %}", "", `{"flag": true, "xs": []}`, false},
		{"loop run once", "{% for x in xs %}{{ 9223372036854775807 + 1 }}{% endfor %}", "", `{"flag": true, "xs": ["a"]}`, true},
		{"untaken conditional arm", "{{ 'a' if flag else (9223372036854775807 + 1) | string }}", "", `{"flag": true, "xs": []}`, false},
		{"taken conditional arm", "{{ 'a' if flag else (9223372036854775807 + 1) | string }}", "", `{"flag": false, "xs": []}`, true},
		{"short-circuited or", "{{ flag or (9223372036854775807 + 1) }}", "", `{"flag": true, "xs": []}`, false},
		// Rejected at the name after a dot, past the attribute node's start.
		{"attribute, branch not taken", "{% if not flag %}{{ o.pop }}{% endif %}", "", `{"flag": true, "xs": [], "o": {}}`, false},
		{"attribute, run", "{% if not flag %}{{ o.pop }}{% endif %}", "", `{"flag": false, "xs": [], "o": {}}`, true},
		{"included, branch not taken", "{% include 'inc.jinja' %}", "{% if not flag %}{{ 9223372036854775807 + 1 }}{% endif %}", `{"flag": true, "xs": []}`, false},
		{"included, run", "{% include 'inc.jinja' %}", "{% if not flag %}{{ 9223372036854775807 + 1 }}{% endif %}", `{"flag": false, "xs": []}`, true},
		// Jinja2 fails to parse {% raw +%}, in a file it never loads (seed 101).
		{"included, does not parse", "{% if not flag %}{% include 'inc.jinja' %}{% endif %}", "a{% raw +%}b{% endraw %}", `{"flag": true, "xs": []}`, false},
	}
	runs := make([]*Trial, len(cases))
	for i, tc := range cases {
		runs[i] = NewTrial(reachCase(t, tc.template, tc.include, 0))
		Generate(runs[i], map[string][]byte{})
		if runs[i].Probe = rejectionProbe(runs[i]); runs[i].Probe == nil {
			t.Fatalf("%s: rejection %v: not located", tc.name, runs[i].FirstErr)
		}
		runs[i].Data = []byte(tc.data)
	}
	RenderJinja(t, pyjinja.Find(t), runs)
	for i, tc := range cases {
		if j := runs[i].Jinja; j.Status != "ok" || j.Reached == nil || *j.Reached != tc.want {
			t.Errorf("%s: rejection %v: Jinja2 %s, reached %s; want it to render, reached %v", tc.name, runs[i].FirstErr, j, ptrString(j.Reached), tc.want)
		}
	}
}

func ptrString(b *bool) string {
	if b == nil {
		return "nil"
	}
	if *b {
		return "true"
	}
	return "false"
}
