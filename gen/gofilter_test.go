package gen

import (
	"context"
	"encoding/json"
	"go/format"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// textutilSource is the user's package of Go filters (gen/testdata/gofilter
// golden.py has the same functions in Python): a string filter with an
// argument, one that may fail, one of a list, one of the user's own
// struct type (crm.Order, of crmSource), and ones with an int, plus functions that cannot be
// filters.
const textutilSource = `package textutil

import (
	"errors"
	"strings"

	"pgtest/crm"
)

func Redact(s, mask string) string { return strings.ReplaceAll(s, "secret", mask) }

func Shout(s string) (string, error) {
	if s == "quiet" {
		return "", errors.New("quiet does not shout")
	}
	return strings.ToUpper(s) + "!", nil
}

func Initials(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n[:min(len(n), 1)]
	}
	return out
}

func Repeat(s string, n int) string { return strings.Repeat(s, n) }

func Pad(s string, width int, fill string) string {
	for len(s) < width {
		s += fill
	}
	return s
}

func Total(orders []crm.Order) float64 {
	t := 0.0
	for _, o := range orders {
		t += o.Total * float64(o.Qty)
	}
	return t
}

func Join(xs ...string) string      { return strings.Join(xs, "") }
func Pair(s string) (string, int)   { return s, 0 }
func Nothing() string               { return "" }
func Level(s string) crm.Status     { return crm.Status(s) }
func Ptr(s *string) string          { return *s }
func Generic[T any](x T) T          { return x }

var Variable = 1
`

// goFilterDir holds the Go filter prompts and want.json, what Jinja2
// renders for them, written by golden.py (make golden).
var goFilterDir = filepath.Join("testdata", "gofilter")

// goFilterMain renders the Go filter prompts through the generated code of
// both backends, a render where a Go filter's operand is undefined, and
// ones whose filter fails, called directly and through map.
const goFilterMain = `package main

import (
	"fmt"

	"pgtest/crm"
	"pgtest/gorender"
	"pgtest/ttrender"
)

func main() {
	orders := []crm.Order{{ID: "A1", Qty: 2, Total: 9.5, Paid: true}, {ID: "B2", Qty: 1, Total: 3}}
	renders := []func() (string, error){
		func() (string, error) { return gorender.Note.Render(gorender.NoteFeed{Name: "ada", Note: "the secret is out", Team: []string{"Ada Lovelace", "Bo", "Cy"}, Orders: orders}) },
		func() (string, error) { return gorender.Note.Render(gorender.NoteFeed{Name: "bo", Note: "no secrets", Team: []string{}, Orders: []crm.Order{}}) },
		func() (string, error) { return gorender.NewAgent().Render("default", gorender.AgentFeed{User: "ada", Topic: "tools"}) },
		func() (string, error) { return gorender.Maybe.Render(gorender.MaybeFeed{}) },
		func() (string, error) { return gorender.Note.Render(gorender.NoteFeed{Name: "quiet", Note: "n", Team: []string{}, Orders: []crm.Order{}}) },
		func() (string, error) { return gorender.Note.Render(gorender.NoteFeed{Name: "cy", Note: "n", Team: []string{"Bo", "quiet"}, Orders: []crm.Order{}}) },
		func() (string, error) { return ttrender.Note.Render(ttrender.NoteFeed{Name: "ada", Note: "the secret is out", Team: []string{"Ada Lovelace", "Bo", "Cy"}, Orders: orders}) },
		func() (string, error) { return ttrender.Note.Render(ttrender.NoteFeed{Name: "bo", Note: "no secrets", Team: []string{}, Orders: []crm.Order{}}) },
		func() (string, error) { return ttrender.NewAgent().Render("default", ttrender.AgentFeed{User: "ada", Topic: "tools"}) },
		func() (string, error) { return ttrender.Maybe.Render(ttrender.MaybeFeed{}) },
		func() (string, error) { return ttrender.Note.Render(ttrender.NoteFeed{Name: "quiet", Note: "n", Team: []string{}, Orders: []crm.Order{}}) },
		func() (string, error) { return ttrender.Note.Render(ttrender.NoteFeed{Name: "cy", Note: "n", Team: []string{"Bo", "quiet"}, Orders: []crm.Order{}}) },
	}
	for _, r := range renders {
		s, err := r()
		if err != nil {
			s = "ERROR: " + err.Error()
		}
		fmt.Printf("%s\n---\n", s)
	}
}
`

// newGoFilterModule makes a temporary module holding the crm and textutil
// packages and the Go filter prompts.
func newGoFilterModule(t *testing.T) string {
	t.Helper()
	mod := newTempModule(t)
	writeFile(t, filepath.Join(mod, "crm", "crm.go"), []byte(crmSource))
	writeFile(t, filepath.Join(mod, "textutil", "textutil.go"), []byte(textutilSource))
	writeFile(t, filepath.Join(mod, "cmd", "tool", "main.go"), []byte("package main\n\nfunc Run(s string) string { return s }\n\nfunc main() {}\n"))
	for _, name := range []string{"note.yaml", "maybe.yaml", "agent/promptset.yaml"} {
		writeFile(t, filepath.Join(mod, "prompts", name), readFile(t, filepath.Join(goFilterDir, "prompts", name)))
	}
	return mod
}

// TestGoFilterRender generates the Go filter prompts on both backends,
// compiles them in a module with the filters' package, and checks that
// every render prints what Jinja2 prints with the same filters in Python,
// and that an undefined operand (which a Go function cannot take) and a
// filter's error fail the render at the filter.
func TestGoFilterRender(t *testing.T) {
	mod := newGoFilterModule(t)
	for _, b := range backends {
		out := filepath.Join(mod, b.pkg)
		res, err := Generate(context.Background(), Config{Dir: filepath.Join(mod, "prompts"), Out: out, Pkg: b.pkg, ImportPath: "pgtest/" + b.pkg, Renderer: b.renderer})
		if err != nil {
			t.Fatalf("generate %s: %v", b.renderer, err)
		}
		again, err := Generate(context.Background(), Config{Dir: filepath.Join(mod, "prompts"), Out: out, Pkg: b.pkg, ImportPath: "pgtest/" + b.pkg, Renderer: b.renderer})
		if err != nil || !slices.EqualFunc(res.Files, again.Files, func(a, b File) bool { return a.Name == b.Name && string(a.Content) == string(b.Content) }) {
			t.Errorf("%s: a second run generates other files (%v)", b.renderer, err)
		}
		for _, f := range res.Files {
			if formatted, err := format.Source(f.Content); err != nil || string(formatted) != string(f.Content) {
				t.Errorf("%s: %s is not gofmt'd (%v)", b.renderer, f.Name, err)
			}
		}
		writeResult(t, out, res)
	}
	writeFile(t, filepath.Join(mod, "main.go"), []byte(goFilterMain))
	goCmd(t, mod, "vet", "./...")
	got, err := goRun(mod, "run", ".")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, got)
	}
	var jinja map[string]string
	if err := json.Unmarshal(readFile(t, filepath.Join(goFilterDir, "want.json")), &jinja); err != nil {
		t.Fatal(err)
	}
	one := []string{jinja["note ada"], jinja["note bo"], jinja["agent"],
		`ERROR: prompts/maybe.yaml:5:22: render maybe: "nick": variable is undefined`,
		"ERROR: prompts/note.yaml:15:13: render note: filter shout: quiet does not shout",
		"ERROR: prompts/note.yaml:22:17: render note: filter shout: quiet does not shout"}
	if len(jinja) != 3 || slices.Contains(one, "") {
		t.Fatalf("%s: want the renders note ada, note bo and agent, got %v", filepath.Join(goFilterDir, "want.json"), jinja)
	}
	want := append(one, one...)
	if diff := cmp.Diff(want, strings.Split(strings.TrimSuffix(string(got), "\n---\n"), "\n---\n")); diff != "" {
		t.Errorf("renders (-want +got):\n%s", diff)
	}

	// promptgen render and test cannot call the user's functions.
	cfg := Config{Dir: filepath.Join(mod, "prompts")}
	if _, _, err := LoadPreview(cfg, "note"); err == nil || err.Error() != `prompt "note" has Go filters (initials (pgtest/textutil.Initials), pad (pgtest/textutil.Pad), redact (pgtest/textutil.Redact), repeat (pgtest/textutil.Repeat), shout (pgtest/textutil.Shout), total (pgtest/textutil.Total)), which promptgen render and test cannot call: they run templates inside promptgen, without your module's code; render it through the generated package instead (a Go test or program that calls Render)` {
		t.Errorf("LoadPreview: got %v", err)
	}
	if _, _, err := LoadSetPreview(cfg, "agent"); err == nil || !strings.HasPrefix(err.Error(), `template set "agent" has Go filters (shout (pgtest/textutil.Shout)), which promptgen render and test cannot call`) {
		t.Errorf("LoadSetPreview: got %v", err)
	}
}

// TestGoFilterErrors checks the errors of Go filters: at the filters:
// entry, a function that does not exist or cannot be a filter, a name that
// is a built-in filter; at the use, a wrong number or type of arguments
// (showing the function's signature), keyword arguments that name no
// parameter, one twice or leave one out, the same through map (whose
// items are the filtered values), first and in of a map of a filter
// that may fail (which Jinja2 calls lazily), a misspelt filter name (with a
// did-you-mean among the Go filters), and a Go filter named as a test.
func TestGoFilterErrors(t *testing.T) {
	mod := newGoFilterModule(t)
	const redact = "filters:\n  redact: pgtest/textutil.Redact\n"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"no such function", "filters:\n  redact: pgtest/textutil.Redakt\ntemplate: \"{{ 'a' | redact('b') }}\"\n",
			[]string{`prompts/p.yaml:2:11: package "pgtest/textutil" has no function "Redakt" (did you mean "Redact"?)`}},
		{"not a function", "filters:\n  v: pgtest/textutil.Variable\ntemplate: \"{{ 'a' | v }}\"\n",
			[]string{`prompts/p.yaml:2:6: package "pgtest/textutil" has no function "Variable"`}},
		{"main package", "filters:\n  run: pgtest/cmd/tool.Run\ntemplate: \"{{ 'a' | run }}\"\n",
			[]string{`prompts/p.yaml:2:8: cannot use Go package "pgtest/cmd/tool": it is a main package, which cannot be imported`}},
		{"no such package", "filters:\n  redact: pgtest/nope.Redact\ntemplate: \"{{ 'a' | redact('b') }}\"\n",
			[]string{`prompts/p.yaml:2:11: cannot load Go package "pgtest/nope": `}},
		{"cannot be a filter", "filters:\n  join: pgtest/textutil.Join\n  j: pgtest/textutil.Join\n  pair: pgtest/textutil.Pair\n  nothing: pgtest/textutil.Nothing\n" +
			"  level: pgtest/textutil.Level\n  ptr: pgtest/textutil.Ptr\n  generic: pgtest/textutil.Generic\n  \"a-b\": pgtest/textutil.Redact\n  x: Redact\ntemplate: \"{{ 'a' | j }}\"\n",
			[]string{
				`prompts/p.yaml:2:3: filter "join" would shadow Jinja2's built-in filter "join" (give the Go filter another name)`,
				`prompts/p.yaml:3:6: cannot use func textutil.Join(xs ...string) string as filter "j": it is variadic (a filter has a fixed number of arguments)`,
				`prompts/p.yaml:4:9: cannot use func textutil.Pair(s string) (string, int) as filter "pair": it must return one value, or a value and an error`,
				`prompts/p.yaml:5:12: cannot use func textutil.Nothing() string as filter "nothing": it takes no parameter for the filtered value`,
				`prompts/p.yaml:6:10: cannot use func textutil.Level(s string) crm.Status as filter "level": its result: a filter takes and returns string, int, float64, bool, slices, maps with string keys and structs`,
				`prompts/p.yaml:7:8: cannot use func textutil.Ptr(s *string) string as filter "ptr": parameter s (*string): a filter takes and returns string, int, float64, bool, slices, maps with string keys and structs`,
				`prompts/p.yaml:8:12: cannot use func textutil.Generic[T any](x T) T as filter "generic": it is generic`,
				`prompts/p.yaml:9:3: invalid filter name "a-b" (a filter name is a letter or _ and then letters, digits and _)`,
				`prompts/p.yaml:10:6: invalid Go function "Redact" for filter "x" (write an import path, a dot and an exported function name, like example.com/app/textutil.Redact)`,
			}},
		{"argument count", redact + "template: \"{{ 'a' | redact }} {{ 'a' | redact('b', 'c') }}\"\n",
			[]string{
				`prompts/p.yaml:3:15: filter redact takes 1 argument, got 0 (func textutil.Redact(s string, mask string) string)`,
				`prompts/p.yaml:3:34: filter redact takes 1 argument, got 2 (func textutil.Redact(s string, mask string) string)`,
			}},
		{"argument type", redact + "inputs:\n  n: int\ntemplate: \"{{ n | redact('b') }} {{ 'a' | redact(3) }}\"\n",
			[]string{
				`prompts/p.yaml:5:15: filter redact: the filtered value is an int, the Go function takes a string (func textutil.Redact(s string, mask string) string)`,
				`prompts/p.yaml:5:50: filter redact: argument "mask" is an int, the Go function takes a string (func textutil.Redact(s string, mask string) string)`,
			}},
		{"struct type", "filters:\n  total: pgtest/textutil.Total\ninputs:\n  orders: {type: array, items: {type: object, properties: {id: {type: string}}}}\ntemplate: \"{{ orders | total }}\"\n",
			[]string{`prompts/p.yaml:5:15: filter total: the filtered value is a list of object, the Go function takes a list of crm.Order (func textutil.Total(orders []crm.Order) float64)`}},
		{"inferred operand", redact + "template: \"{{ x | redact('b') }} {{ x.y }}\"\n",
			[]string{`prompts/p.yaml:3:39: "x" is a string, it has no attribute "y"`}},
		{"keyword arguments", "filters:\n  pad: pgtest/textutil.Pad\ntemplate: \"{{ 'a' | pad(widht=3) }} {{ 'a' | pad(3, width=2) }} {{ 'a' | pad(fill='.') }}\"\n",
			[]string{
				`prompts/p.yaml:3:25: filter pad has no parameter "widht" (did you mean "width"?) (func textutil.Pad(s string, width int, fill string) string)`,
				`prompts/p.yaml:3:53: filter pad got parameter "width" twice (func textutil.Pad(s string, width int, fill string) string)`,
				`prompts/p.yaml:3:68: filter pad needs parameter "width" (func textutil.Pad(s string, width int, fill string) string)`,
			}},
		{"did you mean", redact + "template: \"{{ 'a' | redcat('b') }}\"\n",
			[]string{`prompts/p.yaml:3:21: unknown filter "redcat" (did you mean "redact"?)`}},
		{"dynamic value", redact + "inputs: chat\ntemplate: \"{% for m in messages %}{{ m.content | redact('b') }}{{ m.content | string | redact('b') }}{% endfor %}\"\n",
			[]string{`prompts/p.yaml:4:38: filter redact: the filtered value is a dynamic value (of the chat context), the Go function takes a string: convert it first, such as with | string (func textutil.Redact(s string, mask string) string)`}},
		{"map", "filters:\n  initials: pgtest/textutil.Initials\n  redact: pgtest/textutil.Redact\ninputs:\n  team: [string]\ntemplate: \"{{ team | map('initials') | join }} {{ team | map('redact') | join }} {{ team | map('redact', mask=1) | join }}\"\n",
			[]string{
				`prompts/p.yaml:6:26: filter initials: each item that map passes it is a string, the Go function takes a list of string (func textutil.Initials(names []string) []string)`,
				`prompts/p.yaml:6:51: filter redact takes 1 argument, got 0 (func textutil.Redact(s string, mask string) string)`,
				`prompts/p.yaml:6:111: filter redact: argument "mask" is an int, the Go function takes a string (func textutil.Redact(s string, mask string) string)`,
			}},
		{"first and in of map", "filters:\n  shout: pgtest/textutil.Shout\n  redact: pgtest/textutil.Redact\ninputs:\n  team: [string]\ntemplate: \"{{ team | map('shout') | first }} {{ 'A!' in team | map('shout') | select | map('lower') }} {{ team | map('redact', '*') | first }}\"\n",
			[]string{
				`prompts/p.yaml:6:37: first of map("shout") is not supported: Jinja2 stops at the item first needs, so it does not call pgtest/textutil.Shout, which may fail, on the items after it (join the mapped list, or loop over it)`,
				`prompts/p.yaml:6:49: in of map("shout") is not supported: Jinja2 stops at the item in needs, so it does not call pgtest/textutil.Shout, which may fail, on the items after it (join the mapped list, or loop over it)`,
			}},
		{"select", "filters:\n  shout: pgtest/textutil.Shout\ninputs:\n  team: [string]\ntemplate: \"{{ team | select('shout') | join }} {{ team | reject('shout') | join }}\"\n",
			[]string{
				`prompts/p.yaml:5:29: unknown test "shout" (shout is a Go filter of filters:, which adds filters, not tests: select, reject and is take a test's name; map("shout") applies the filter to each item)`,
				`prompts/p.yaml:5:65: unknown test "shout" (shout is a Go filter of filters:, which adds filters, not tests: select, reject and is take a test's name; map("shout") applies the filter to each item)`,
			}},
		{"set", "filters:\n  redact: pgtest/textutil.Redact\ntemplates:\n  main:\n    default: \"{{ x | redact }}\"\n",
			[]string{`prompts/promptset.yaml:5:18: filter redact takes 1 argument, got 0 (func textutil.Redact(s string, mask string) string)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "p.yaml"
			if strings.Contains(tt.src, "templates:") {
				file = "promptset.yaml"
			}
			wantBindDiagnostics(t, mod, file, tt.src, tt.want)
		})
	}
}
