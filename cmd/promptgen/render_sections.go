package main

import (
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/promptgen/promptgen/gen"
	pgruntime "github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/tiktoken"
	"github.com/promptgen/promptgen/runtime/ttfuncs"
)

// tokenizers are the encodings a prompt file's `tokenizer` may name.
var tokenizers = map[string]func() pgruntime.Tokenizer{
	"o200k_base":  tiktoken.O200kBase,
	"cl100k_base": tiktoken.Cl100kBase,
}

var truncateModes = map[string]pgruntime.Truncate{
	"error": pgruntime.TruncateError,
	"items": pgruntime.TruncateItems,
	"text":  pgruntime.TruncateText,
}

// renderSections renders the sectioned prompt p as its generated Render
// does.
func renderSections(p *gen.Preview, feed any) (rendered, error) {
	r := rendered{tok: tokenizers[p.Tokenizer]()}
	run := func(name, source string, ends *[]int) (string, error) {
		t, err := parse(name, source)
		if err != nil {
			return "", err
		}
		var out []byte
		if ends != nil {
			out, err = ttfuncs.ExecuteItems(t, nil, p.Key, p.File, feed, ends)
		} else {
			out, err = ttfuncs.Execute(t, nil, p.Key, p.File, feed)
		}
		return string(out), err
	}
	var err error
	if r.head, err = run(p.Key, p.Source, nil); err != nil {
		return r, err
	}
	for _, ps := range p.Sections {
		if ps.When != "" {
			in, err := run(p.Key+"#"+ps.Name+".when", ps.When, nil)
			if err != nil {
				return r, err
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
		body, err := run(p.Key+"#"+ps.Name, ps.Source, endsOf)
		if err != nil {
			return r, err
		}
		s, err := pgruntime.BuildSection(r.tok, pgruntime.SectionInput{Name: ps.Name, Title: ps.Title, Body: body,
			Budget: ps.Budget, Truncate: truncateModes[ps.Truncate], Markers: p.Markers, Loop: ends})
		if err != nil {
			return r, fmt.Errorf("%s: render %s: %w", p.File, p.Key, err)
		}
		r.sections = append(r.sections, s)
	}
	r.out = pgruntime.AppendPrompt(nil, r.head, r.sections, p.Markers)
	return r, nil
}

// printBudget writes the section budget report of r to standard error.
func (a *app) printBudget(r rendered, tokenizer string) {
	tok, head, sections, prompt := r.tok, r.head, r.sections, string(r.out)
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
