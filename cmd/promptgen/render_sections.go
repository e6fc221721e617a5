package main

import (
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/tiktoken"
	"github.com/promptgen/promptgen/runtime/ttfuncs"
)

// tokenizers are the encodings a prompt file's `tokenizer` may name.
var tokenizers = map[string]func() runtime.Tokenizer{
	"o200k_base":  tiktoken.O200kBase,
	"cl100k_base": tiktoken.Cl100kBase,
}

var truncateModes = map[string]runtime.Truncate{
	"error": runtime.TruncateError,
	"items": runtime.TruncateItems,
	"text":  runtime.TruncateText,
}

// renderSections renders the sectioned prompt p as its generated Render
// does, and with budget prints the section budget report.
func (a *app) renderSections(p *gen.Preview, feed any, budget bool) int {
	tok := tokenizers[p.Tokenizer]()
	run := func(name, source string, ends *[]int) (string, bool) {
		t, err := a.parse(name, source)
		if err != nil {
			return "", false
		}
		var out []byte
		if ends != nil {
			out, err = ttfuncs.ExecuteItems(t, nil, p.Key, p.File, feed, ends)
		} else {
			out, err = ttfuncs.Execute(t, nil, p.Key, p.File, feed)
		}
		if err != nil {
			fmt.Fprintln(a.stderr, err)
			return "", false
		}
		return string(out), true
	}
	head, ok := run(p.Key, p.Source, nil)
	if !ok {
		return exitFail
	}
	var sections []runtime.Section
	for _, ps := range p.Sections {
		if ps.When != "" {
			in, ok := run(p.Key+"#"+ps.Name+".when", ps.When, nil)
			if !ok {
				return exitFail
			}
			if in != "1" {
				continue
			}
		}
		var ends []int
		endsOf := (*[]int)(nil)
		if ps.Items {
			endsOf = &ends
		}
		body, ok := run(p.Key+"#"+ps.Name, ps.Source, endsOf)
		if !ok {
			return exitFail
		}
		s, err := runtime.BuildSection(tok, runtime.SectionInput{Name: ps.Name, Title: ps.Title, Body: body,
			Budget: ps.Budget, Truncate: truncateModes[ps.Truncate], Markers: p.Markers, Loop: ends})
		if err != nil {
			fmt.Fprintf(a.stderr, "%s: render %s: %v\n", p.File, p.Key, err)
			return exitFail
		}
		sections = append(sections, s)
	}
	out := runtime.AppendPrompt(nil, head, sections, p.Markers)
	if budget {
		a.printBudget(tok, head, sections, string(out), p.Tokenizer)
	}
	return a.printRender(out, nil)
}

// printBudget writes the section budget report to standard error.
func (a *app) printBudget(tok runtime.Tokenizer, head string, sections []runtime.Section, prompt, tokenizer string) {
	w := tabwriter.NewWriter(a.stderr, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "section\ttokens\tbudget\tdropped\tcut\t")
	orDash := func(n int) string {
		if n == 0 {
			return "-"
		}
		return strconv.Itoa(n)
	}
	fmt.Fprintf(w, "(head)\t%d\t-\t-\t-\t\n", tok.Count(head))
	for _, s := range sections {
		cut := "-"
		if s.Truncated {
			cut = "yes"
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t\n", s.Name, s.Tokens, orDash(s.Budget), orDash(s.Dropped), cut)
	}
	fmt.Fprintf(w, "prompt\t%d\t\t\t\t\n", tok.Count(prompt))
	w.Flush()
	fmt.Fprintf(a.stderr, "tokens counted with %s\n", tokenizer)
}
