package gen

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/internal/pyjinja"
)

// elifChain is an if with n branches: most compare n, every seventh reads
// a list element (a condition with statements of its own in Go).
func elifChain(n int) string {
	var b strings.Builder
	b.WriteString("{% if n == 0 %}zero")
	for i := 1; i < n; i++ {
		if i%7 == 0 {
			fmt.Fprintf(&b, "{%% elif xs[0] == 'b%d' %%}x%d", i, i)
		} else {
			fmt.Fprintf(&b, "{%% elif n == %d %%}n%d", i, i)
		}
	}
	b.WriteString("{% else %}other{% endif %}")
	return b.String()
}

// TestLongChains renders, on both backends and against Jinja2, an if
// with 1,200 branches (the go backend nested each elif in the previous
// else, and go/parser, which formats the code, stops at 1000 nested
// scopes: 500 branches were an internal error), and expression chains
// (and, or, ~, +, filters, conditionals) near the parser's limit of 200
// levels, which bounds them. The go backend's code must not nest deeper
// for 2,500 branches (Jinja2 compiles up to about 2,990) than for 8.
func TestLongChains(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated code and runs Jinja2")
	}
	python := pyjinja.Find(t)
	// The parser allows 198 links (200 levels, less the body's and the
	// {{ }}'s); Jinja2 compiles 194 (Python's 200 nested parentheses).
	const links = 190
	templates := map[string]string{
		"elifs":   elifChain(1200),
		"and":     "{{ a" + strings.Repeat(" and a", links) + " }}",
		"or":      "{{ z" + strings.Repeat(" or z", links-1) + " or a }}",
		"concat":  "{{ s" + strings.Repeat(" ~ s", links) + " }}",
		"plus":    "{{ i" + strings.Repeat(" + i", links) + " }}",
		"filters": "{{ s" + strings.Repeat("|upper|lower", links/2) + " }}",
		"conds":   "{{ " + strings.Repeat("s if z else ", links) + "s }}",
	}
	feeds := map[string][]string{
		"elifs": {`{"n": 0, "xs": ["q"]}`, `{"n": 1, "xs": ["q"]}`, `{"n": 601, "xs": ["q"]}`, `{"n": 1198, "xs": ["q"]}`,
			`{"n": 1199, "xs": ["q"]}`, `{"n": 9999, "xs": ["q"]}`, `{"n": 9999, "xs": ["b707"]}`, `{"n": 800, "xs": ["b707"]}`},
		"and":     {`{"a": "x"}`, `{"a": ""}`},
		"or":      {`{"z": "", "a": "y"}`, `{"z": "w", "a": "y"}`},
		"concat":  {`{"s": "Ab"}`},
		"plus":    {`{"i": 2}`},
		"filters": {`{"s": "Ab"}`},
		"conds":   {`{"s": "Ab", "z": false}`},
	}

	mod := newTempModule(t)
	var keys []string
	var jobs []renderJob
	var want []pyjinja.Job
	for _, k := range []string{"and", "concat", "conds", "elifs", "filters", "or", "plus"} {
		writeFile(t, filepath.Join(mod, "prompts", k+".jinja"), []byte(templates[k]))
		keys = append(keys, k)
		for i, f := range feeds[k] {
			path := filepath.Join(mod, "feeds", fmt.Sprintf("%s%d.json", k, i))
			writeFile(t, path, []byte(f))
			jobs = append(jobs, renderJob{k, path})
			want = append(want, pyjinja.Job{Template: templates[k], Data: []byte(f)})
		}
	}
	if len(keys) != len(templates) {
		t.Fatalf("%d of %d templates rendered", len(keys), len(templates))
	}
	outputs := renderAll(t, mod, keys, jobs)
	jinja := pyjinja.Render(t, python, want)
	for i, j := range jobs {
		if jinja[i].Status != "ok" {
			t.Fatalf("%s %s: Jinja2: %s", j.key, want[i].Data, jinja[i].Text)
		}
		for bi, b := range backends {
			if got := outputs[bi][i]; got != jinja[i].Text {
				t.Errorf("%s: %s %s (-jinja2 +got):\n%s", b.renderer, j.key, want[i].Data, cmp.Diff(jinja[i].Text, got))
			}
		}
	}

	depth := func(n int) int {
		res, err := generate(mapFS(map[string]string{"p.jinja": elifChain(n)}), "p", Config{Pkg: "out", ImportPath: "x/out"})
		if err != nil {
			t.Fatalf("%d branches: %v", n, err)
		}
		for _, f := range res.Files {
			if f.Name == "p_prompt.go" {
				return maxIndent(f.Content)
			}
		}
		t.Fatalf("%d branches: no p_prompt.go", n)
		return 0
	}
	if short, long := depth(8), depth(2500); short != long {
		t.Errorf("the go code of 8 branches is indented %d tabs deep, of 2,500 %d", short, long)
	}
}

// maxIndent returns the largest number of tabs that starts a line of src.
func maxIndent(src []byte) int {
	most := 0
	for line := range bytes.Lines(src) {
		most = max(most, len(line)-len(bytes.TrimLeft(line, "\t")))
	}
	return most
}
