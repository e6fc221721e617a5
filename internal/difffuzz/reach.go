package difffuzz

// Reachability of a rejection: promptgen checks all of a template, like a
// compiler, so it rejects code that Jinja2 never runs with a case's data (a
// macro never called, a branch not taken, a loop over nothing). To tell
// those rejections from rejections of code Jinja2 runs, the harness
// locates the rejection's position in the template (rejectionProbe) and
// Jinja2 renders a copy probed there (pyjinja.Probe).

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/internal/pyjinja"
)

// literalIndent is the indentation of the template's lines in the prompt
// file literalPromptFile writes.
const literalIndent = "  "

// rejectionProbe locates run's first error in the template or include it
// lies in: nil where it lies elsewhere (a prompt file's inputs) or cannot be
// located exactly.
//
// A plain file's positions are the template's. In a prompt file the
// template is a block or quoted scalar whose positions promptgen maps only
// approximately where YAML rewrote the text (escapes, folds), so the case
// is generated again from a prompt file that holds the template as a
// literal block at a known line and indentation, where the map is exact.
func rejectionProbe(run *Trial) *pyjinja.Probe {
	pos := run.FirstErr.Pos
	file, ok := strings.CutPrefix(pos.File, casesDir+"/")
	if inc, isInclude := run.Case.Includes[file]; ok && isInclude {
		return plainProbe(inc, file, pos.Line, pos.Col)
	}
	if !ok || file != run.Case.File {
		return nil
	}
	if !strings.HasSuffix(run.Case.File, ".yaml") {
		return plainProbe(run.Case.Template, "", pos.Line, pos.Col)
	}
	source, first, ok := literalPromptFile(run.Case)
	if !ok {
		return nil
	}
	res, _ := generateCase(run.Case, source, run.pkgs[0], backends[0].renderer)
	for _, d := range res.Diagnostics {
		if d.Severity != gen.SeverityError {
			continue
		}
		// The same template and inputs: the same first error, moved.
		if normalizeMsg(d.Msg) != run.Rejected || d.Pos.File != pos.File || d.Pos.Line < first || d.Pos.Col <= len(literalIndent) {
			return nil
		}
		return plainProbe(run.Case.Template, "", d.Pos.Line-first+1, d.Pos.Col-len(literalIndent))
	}
	return nil
}

// plainProbe is the probe at line and col (1-based, col in bytes) of
// template text, which include names ("" for the case's template); nil
// where text has no such byte.
func plainProbe(text, include string, line, col int) *pyjinja.Probe {
	off := 0
	for range line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return nil
		}
		off += i + 1
	}
	end := len(text)
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		end = off + i
	}
	if col < 1 || off+col-1 >= end {
		return nil
	}
	return &pyjinja.Probe{Template: include, Offset: off + col - 1}
}

// literalPromptFile is c's prompt file with its template written last, as
// a literal block scalar whose lines are indented by literalIndent and
// start on file line first; false where a literal block cannot hold the
// template (a character YAML escapes). Line breaks \r\n become \n,
// which leaves each line's bytes, and so its columns, as they were.
func literalPromptFile(c *Case) (source []byte, first int, ok bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(c.Source, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, 0, false
	}
	m := doc.Content[0]
	var rest []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "template" {
			rest = append(rest, m.Content[i], m.Content[i+1])
		}
	}
	var b bytes.Buffer
	if len(rest) > 0 {
		m.Content = rest
		head, err := yaml.Marshal(m)
		if err != nil {
			return nil, 0, false
		}
		b.Write(head)
	}
	// Keep (+) the final line breaks, or strip (-) where there is none.
	template := strings.ReplaceAll(c.Template, "\r\n", "\n")
	chomp, body := "-", template
	if strings.HasSuffix(body, "\n") {
		chomp, body = "+", strings.TrimSuffix(body, "\n")
	}
	fmt.Fprintf(&b, "template: |%d%s\n", len(literalIndent), chomp)
	first = bytes.Count(b.Bytes(), []byte("\n")) + 1
	for _, line := range strings.Split(body, "\n") {
		b.WriteString(literalIndent + line + "\n")
	}
	var back struct{ Template string }
	if err := yaml.Unmarshal(b.Bytes(), &back); err != nil || back.Template != template {
		return nil, 0, false
	}
	return b.Bytes(), first, true
}
