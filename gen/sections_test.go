package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/runtime"
)

// TestSectionsRun generates testdata/sections/prompts with both backends,
// renders every feed of cases.json with tokens counted as words (so the
// budgets below are checked by hand) and checks what Render, Sections and
// runtime.ParseSections return: both backends alike, every truncate mode
// at and around its budget, a section left out by when, and feed values
// that try to close or open a section.
func TestSectionsRun(t *testing.T) {
	mod := newTempModule(t)
	dir := filepath.Join("testdata", "sections")
	copyTree(t, filepath.Join(dir, "prompts"), filepath.Join(mod, "prompts"))
	copyFile(t, filepath.Join(dir, "cases.json"), filepath.Join(mod, "cases.json"))
	copyFile(t, filepath.Join(dir, "main.go.txt"), filepath.Join(mod, "main.go"))
	for pkg, renderer := range map[string]Renderer{"goout": RendererGo, "ttout": RendererTextTemplate} {
		out := filepath.Join(mod, pkg)
		res, err := Generate(context.Background(), Config{Dir: filepath.Join(mod, "prompts"), Out: out, Pkg: pkg, ImportPath: "pgtest/" + pkg, Renderer: renderer})
		if err != nil {
			t.Fatalf("generate %s: %v", renderer, err)
		}
		writeResult(t, out, res)
	}
	goCmd(t, mod, "vet", "./...")
	stdout, err := goRun(mod, "run", ".")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stdout)
	}
	type result struct {
		Render           string
		Sections, Parsed []runtime.Section
		Err              string
		Budget           *runtime.BudgetError
	}
	var got map[string][2]result
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for name, r := range got {
		if d := cmp.Diff(r[0], r[1]); d != "" {
			t.Errorf("%s: the backends differ (-go +text/template):\n%s", name, d)
		}
	}

	list := func(items string, more string) string {
		var b strings.Builder
		b.WriteString("## List\nItems:\n")
		for _, i := range strings.Fields(items) {
			b.WriteString("  - " + i + "\n")
		}
		if more != "" {
			b.WriteString("  ... and " + more + " more\n")
		}
		return b.String() + "End."
	}
	var feeds map[string]struct{ Note string }
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "cases.json")), &feeds); err != nil {
		t.Fatal(err)
	}
	type section = runtime.Section
	want := map[string][]section{
		// 2 title + 1 + 2 per item + 1 = 20: at the budget.
		"fits": {
			{Name: "list", Text: list("a b c d e f g h", ""), Tokens: 20, Budget: 20},
			{Name: "note", Text: "one two three four five six", Tokens: 6, Budget: 6},
			{Name: "strict", Text: "one two three four five six", Tokens: 6, Budget: 8},
		},
		// 22 tokens: 6 items and the 4 words of "... and 3 more" fit.
		"one over": {
			{Name: "list", Text: list("a b c d e f", "3"), Tokens: 20, Budget: 20, Dropped: 3, Truncated: true},
			{Name: "note", Text: "one two three four five six", Tokens: 6, Budget: 6},
			{Name: "strict", Text: "one two three four five six", Tokens: 6, Budget: 8},
		},
		"many": {
			{Name: "list", Text: list("a b c d e f", "14"), Tokens: 20, Budget: 20, Dropped: 14, Truncated: true},
			{Name: "strict", Text: "one two three", Tokens: 3, Budget: 8},
		},
		"no items": {
			{Name: "list", Text: list("", ""), Tokens: 4, Budget: 20},
			{Name: "note", Text: "one", Tokens: 1, Budget: 6},
			{Name: "strict", Text: "one", Tokens: 1, Budget: 8},
		},
		// One word over: cut at budget - Count("…") = 5 tokens, then "…"
		// (which joins the last word here).
		"note cut": {
			{Name: "list", Text: list("a", ""), Tokens: 6, Budget: 20},
			{Name: "note", Text: "one two three four five…", Tokens: 5, Budget: 6, Truncated: true},
			{Name: "strict", Text: "one two three four five six seven", Tokens: 7, Budget: 8},
		},
	}
	for name, sections := range want {
		r := got[name][0]
		if r.Err != "" {
			t.Errorf("%s: %s", name, r.Err)
			continue
		}
		if d := cmp.Diff(sections, r.Sections); d != "" {
			t.Errorf("%s: Sections (-want +got):\n%s", name, d)
		}
		// The log form gives back every name and text as rendered.
		var parsed []section
		for _, s := range sections {
			parsed = append(parsed, section{Name: s.Name, Text: s.Text})
		}
		if d := cmp.Diff(parsed, r.Parsed); d != "" {
			t.Errorf("%s: ParseSections(Render) (-want +got):\n%s", name, d)
		}
		var blocks []string
		for _, s := range sections {
			blocks = append(blocks, "<!-- BEGIN: "+s.Name+" -->\n"+s.Text+"\n<!-- END: "+s.Name+" -->")
		}
		head := fmt.Sprintf("Head %d", utf8.RuneCountInString(feeds[name].Note))
		if w := head + "\n\n" + strings.Join(blocks, "\n\n") + "\n"; r.Render != w {
			t.Errorf("%s: Render (-want +got):\n%s", name, cmp.Diff(w, r.Render))
		}
	}

	over := got["strict over"][0]
	if over.Budget == nil || *over.Budget != (runtime.BudgetError{Section: "strict", Tokens: 9, Budget: 8}) {
		t.Errorf("strict over: err = %s, budget error %+v; want section strict, 9 tokens, budget 8", over.Err, over.Budget)
	}

	spoof := got["spoof"][0]
	if spoof.Err != "" {
		t.Fatalf("spoof: %s", spoof.Err)
	}
	var names []string
	for _, s := range spoof.Parsed {
		names = append(names, s.Name)
	}
	if d := cmp.Diff([]string{"list", "note", "strict"}, names); d != "" {
		t.Errorf("spoof: a feed value moved a section boundary (-want +got):\n%s", d)
	}
	for i, s := range spoof.Sections {
		if i < len(spoof.Parsed) && spoof.Parsed[i].Text != s.Text {
			t.Errorf("spoof: section %s parses back as %q, rendered as %q", s.Name, spoof.Parsed[i].Text, s.Text)
		}
	}
}
