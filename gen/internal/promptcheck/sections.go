package promptcheck

import (
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/check"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// A section's `when` is an expression; wrapped in an if that prints 1 it
// is a template like any other, with Jinja2's truth, checked and compiled
// by the same code as every condition.
const whenPrefix, whenSuffix = "{% if ", " %}1{% endif %}"

// whenDelimiters may not appear in a when: they would end the if it is
// wrapped in and make the value a template.
var whenDelimiters = []string{"{%", "%}", "{{", "}}", "{#", "#}"}

// when checks the `when` expression of a section with c; nil when it has
// errors.
func when(c *check.Checker, w *ir.TemplateSpec, diags *diag.Sink) *ir.Prompt {
	first, delim := len(w.Text), ""
	for _, d := range whenDelimiters {
		if i := strings.Index(w.Text, d); i >= 0 && i < first {
			first, delim = i, d
		}
	}
	if delim != "" {
		diags.Errorf(w.Map.Pos(first), "when is one expression, without %s: it is wrapped in {%% if ... %%}", delim)
		return nil
	}
	m := src.SourceMap{File: w.Map.File}
	for _, l := range w.Map.Lines {
		l.Offset += len(whenPrefix)
		m.Lines = append(m.Lines, l)
	}
	t, err := tmpl.Parse(whenPrefix+w.Text+whenSuffix, tmpl.Options{})
	if err != nil {
		e, ok := err.(*tmpl.Error)
		if !ok {
			diags.Errorf(w.Map.Pos(0), "%v", err)
			return nil
		}
		end := len(whenPrefix) + len(w.Text)
		msg := e.Msg
		if e.Span.Start >= end { // the wrapper's "%}": the expression ended early
			msg = strings.ReplaceAll(msg, strconv.Quote("%}"), "end of when")
		}
		diags.Errorf(m.Pos(min(e.Span.Start, end)), "%s", msg)
		return nil
	}
	return c.Template(t, m, false)
}

// itemsLoop finds the loop of a `truncate: items` section, written as
// spec: the one for loop at the top level of its template.
func itemsLoop(sec *ir.Section, spec *ir.SectionSpec, diags *diag.Sink) {
	if sec.Truncate != ir.TruncateItems || sec.Body == nil {
		return
	}
	var loops []*ir.For
	for _, n := range sec.Body.Body {
		if f, ok := n.(*ir.For); ok {
			loops = append(loops, f)
		}
	}
	switch len(loops) {
	case 0:
		diags.Errorf(spec.TruncatePos, "truncate: items needs a {%% for %%} loop at the top level of section %q (its iterations are the items)", sec.Name)
	case 1:
		if ir.HasLoopControl(loops[0].Body, loops[0]) {
			diags.Errorf(spec.TruncatePos, "truncate: items cannot drop the iterations of a loop with {%% break %%} or {%% continue %%} (section %q)", sec.Name)
			return
		}
		sec.Items = loops[0]
		sec.Items.Items = true
		sec.Body.ItemEnds = true
	default:
		diags.Errorf(spec.TruncatePos, "section %q has %d for loops at its top level: truncate: items drops the iterations of one (use truncate: text, or one loop)", sec.Name, len(loops))
	}
}
