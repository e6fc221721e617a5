package ttfuncs

import (
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

type item struct {
	Name  string  `json:"name"`
	Note  *string `json:"note,omitempty"`
	Score float64 `json:"score"`
	Who   *who    `json:"who,omitempty"`
}

type who struct {
	Name string `json:"name"`
}

type feed struct {
	Title string         `json:"title"`
	Tags  []string       `json:"tags,omitempty"`
	Items []item         `json:"items"`
	Meta  map[string]int `json:"meta"`
	Flag  *bool          `json:"flag,omitempty"`
}

func run(t *testing.T, src string, f feed) (string, error) {
	t.Helper()
	tmpl := template.Must(template.New("p").Funcs(Funcs()).Parse(src))
	out, err := Execute(tmpl, []byte("> "), "p", "prompts/p.yaml", f)
	return string(out), err
}

func TestExecute(t *testing.T) {
	note := "n'1"
	f := feed{Title: "T", Items: []item{{Name: "a", Score: 1}, {Name: "b", Note: &note, Score: 2.5}}, Meta: map[string]int{"z": 1, "a": 2}}
	tests := []struct{ src, want string }{
		{`{{ str $.F.Items }}`, `> [{'name': 'a', 'score': 1.0}, {'name': 'b', 'note': "n'1", 'score': 2.5}]`},
		{`{{ str $.F.Meta }} {{ str $.F.Flag }}|{{ str (truth $.F.Flag) }} {{ str (truth (opt $.F.Tags)) }} {{ str (def (opt $.F.Tags)) }}`, `> {'a': 2, 'z': 1} |False False False`},
		{`{{ tojson $.F.Items nil "1:1" }}`, `> [{"name": "a", "score": 1.0}, {"name": "b", "note": "n\u00271", "score": 2.5}]`},
		{`{{ $m := $.Mark }}x{{ $.F.Title }}{{ $s := $.Cut $m }}[{{ upper $s }}]`, `> [XT]`},
		{`{{ joinattr $.F.Items "," "Note" "1:1" }} {{ str (mapattr $.F.Items nil "Score" "1:1") }} {{ str (sortattr $.F.Items true false "Name" "1:1") }}`, `> ,n'1 [1.0, 2.5] [{'name': 'b', 'note': "n'1", 'score': 2.5}, {'name': 'a', 'score': 1.0}]`},
		// One item sorts even by an unset field: nothing is compared.
		{`{{ str (sortattr (list (index $.F.Items 0)) false false "Note" "1:1") }}`, `> [{'name': 'a', 'score': 1.0}]`},
		// Dict literals: insertion order printed, sorted in JSON, values by key.
		{`{{ $d := dict "b" 1 "a" (list 2.0 "x" undef) "c" (dict) }}{{ str $d }} {{ tojson $d nil "1:1" }} {{ getitem $d "b" }} {{ length $d }} {{ truth $d }} {{ truth (dict) }}`, `> {'b': 1, 'a': [2.0, 'x', Undefined], 'c': {}} {"a": [2.0, "x", null], "b": 1, "c": {}} 1 3 true false`},
		{`{{ $l := list (dict "k" "B" "v" 1) (dict "k" "a" "v" 2) }}{{ joinattr $l "," "k" "1:1" }} {{ str (mapattr $l nil "v" "1:1") }} {{ str (sortattr $l false false "k" "1:1") }} {{ str (sort (mapattr $l nil "k" "1:1") false false) }}`, `> B,a [1, 2] [{'k': 'a', 'v': 2}, {'k': 'B', 'v': 1}] ['a', 'B']`},
		{`{{ $l := list (dict "c" (index $.F.Items 1)) }}{{ joinattr $l "," "c.Note" "1:1" }} {{ str (mapattr $l nil "c.Score" "1:1") }}`, `> n'1 [2.5]`},
		{`{{ str (getitem $.F.Items -1).Note }} {{ str (getitem $.F.Items 2) }}|{{ str (def (getitem $.F.Meta "q")) }} {{ getitem $.F.Meta "a" }}`, `> n'1 |False 2`},
		// transformers' tojson: insertion order, no escaping but JSON's.
		{`{{ tfjson (dict "b" "é<'>" "a" (list 1 none)) nil "1:1" }} {{ tfjson (strs "x\n") 1 "1:1" }}`, "> {\"b\": \"é<'>\", \"a\": [1, null]}" + ` [
 "x\n"
]`},
		// The int operations at the int64 limits, and loop counters.
		{`{{ add 9223372036854775806 1 "" }} {{ sub -9223372036854775807 1 "" }} {{ mul -4611686018427387904 2 "" }} {{ neg 9223372036854775807 "" }} {{ pow -2 63 "" }} {{ floordiv -9223372036854775808 1 "" }} {{ mod -9223372036854775808 -1 "" }}`,
			`> 9223372036854775807 -9223372036854775808 -9223372036854775808 -9223372036854775807 -9223372036854775808 -9223372036854775808 0`},
		{`{{ inc 0 }} {{ diff 3 1 }} {{ add 1 2.5 "" }} {{ add "a" "b" "" }}`, `> 1 2 3.5 ab`},
		// pad puts the zero value before the items, so that the index is
		// loop.index; nothing stays nothing, for the range's else.
		{`{{ range $i, $x := pad $.F.Items }}{{ $i }}{{ $x.Name }},{{ end }} {{ range $i, $x := pad (strs "x") }}{{ $i }}{{ $x }},{{ end }}`, `> 0,1a,2b, 0,1x,`},
		{`{{ range pad (strs) }}x{{ else }}empty{{ end }} {{ range pad nolist }}x{{ else }}nil{{ end }} {{ range pad (iter (opt $.F.Tags)) }}x{{ else }}unset{{ end }}`, `> empty nil unset`},
		{`{{ cat 1 2.0 true none undef "s" }} {{ cat (equal 1 1.0) (equal undef undef) (equal (strs "a") (strs "a")) (compare 2 "<" 2.5) }}`, `> 12.0TrueNones TrueTrueTrueTrue`},
	}
	for _, tt := range tests {
		got, err := run(t, tt.src, f)
		if err != nil || got != tt.want {
			t.Errorf("%s:\ngot  %q, %v\nwant %q", tt.src, got, err, tt.want)
		}
	}
}

func TestExecuteErrors(t *testing.T) {
	tests := []struct {
		src, out string
		want     runtime.Error
	}{
		{`a{{ req $.F.Title "3:4" "title" }}b`, "> a", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:3:4", Var: "title", Err: runtime.ErrMissing}},
		{`{{ with $.F.Title }}{{ . }}{{ else }}{{ missing "1:2" "title" }}{{ end }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:1:2", Var: "title", Err: runtime.ErrMissing}},
		{`{{ (strict $.F.Flag "5:6" "flag") }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:5:6", Var: "flag", Err: runtime.ErrUndefined}},
		{`{{ div 1 0 "7:8" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:7:8", Err: runtime.ErrInvalid, Detail: "division by zero"}},
		{`{{ pow 2 -1 "7:9" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:7:9", Err: runtime.ErrInvalid, Detail: negativeExponent}},
		{`{{ pow 0.0 -1 "7:10" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:7:10", Err: runtime.ErrInvalid, Detail: "0.0 cannot be raised to a negative power"}},
		// Ints beyond 64 bits, which Python's int holds: an error, never a wrapped int.
		{`{{ add 9223372036854775807 1 "6:1" }}`, "> ", intTooLarge("6:1")},
		{`{{ add true 9223372036854775807 "6:2" }}`, "> ", intTooLarge("6:2")},
		{`{{ sub -9223372036854775808 1 "6:3" }}`, "> ", intTooLarge("6:3")},
		{`{{ mul 4611686018427387904 2 "6:4" }}`, "> ", intTooLarge("6:4")},
		{`{{ mul -1 -9223372036854775808 "6:5" }}`, "> ", intTooLarge("6:5")},
		{`{{ neg -9223372036854775808 "6:6" }}`, "> ", intTooLarge("6:6")},
		{`{{ floordiv -9223372036854775808 -1 "6:7" }}`, "> ", intTooLarge("6:7")},
		{`{{ pow 2 63 "6:8" }}`, "> ", intTooLarge("6:8")},
		{`{{ pow -3037000500 2 "6:9" }}`, "> ", intTooLarge("6:9")},
		{`a{{ raise "roles must alternate" "9:1" }}b`, "> a", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:9:1", Err: runtime.ErrRaised, Detail: "roles must alternate"}},
		{`{{ truncate "abc" 0 false "..." 5 "7:11" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:7:11", Err: runtime.ErrInvalid, Detail: "expected length >= 3, got 0"}},
		// Strings longer than runtime.MaxOutput fail before they are built.
		{`{{ repeat "ab" 9223372036854775807 "8:1" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:1", Err: runtime.ErrTooLarge}},
		{`{{ repeat 4611686018427387904 "ab" "8:2" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:2", Err: runtime.ErrTooLarge}},
		{`{{ indent "a\nb" 9223372036854775807 false false "8:3" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:3", Err: runtime.ErrTooLarge}},
		{`{{ indent "a\nb" (repeat "x" 40000000 "") false false "8:4" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:4", Err: runtime.ErrTooLarge}},
		{`{{ join (strs "a" "b" "c") (repeat "x" 40000000 "") "8:5" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:5", Err: runtime.ErrTooLarge}},
		{`{{ replace "abc" "" (repeat "x" 30000000 "") -1 "8:6" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:6", Err: runtime.ErrTooLarge}},
		{`{{ tojson (strs "a" "b") 40000000 "8:7" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:7", Err: runtime.ErrTooLarge}},
		// A loop stops once the output is longer.
		{`{{ $s := repeat "x" 40000000 "" }}{{ $full := $.Full }}{{ range strs "a" "b" "c" }}{{ if $full }}{{ $.TooLarge "8:8" }}{{ end }}{{ $s }}{{ end }}`, "> " + strings.Repeat("x", 80000000), runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:8:8", Err: runtime.ErrTooLarge}},
		{`{{ joinattr $.F.Items "," "Who.Name" "2:3" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:2:3", Var: "who", Err: runtime.ErrUndefined}},
		{`{{ mapattr $.F.Items nil "Who.Name" "2:4" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:2:4", Var: "who", Err: runtime.ErrUndefined}},
		{`{{ uniqueattr $.F.Items false "Who.Name" "2:5" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:2:5", Var: "who", Err: runtime.ErrUndefined}},
		{`{{ sortattr (list (index $.F.Items 0) (index $.F.Items 0)) false false "Note" "2:6" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:2:6", Var: "note", Err: runtime.ErrUndefined}},
	}
	for _, tt := range tests {
		out, err := run(t, tt.src, feed{Items: []item{{Name: "a"}}})
		var re *runtime.Error
		if !errors.As(err, &re) || *re != tt.want || out != tt.out {
			t.Errorf("%s: got %q, %#v, want %q, %#v", tt.src, short(out), err, short(tt.out), tt.want)
		}
	}
}

// TestPadNotList: pad fails on what is not a list, which the translation
// never ranges over, rather than leave the index loop.index0.
func TestPadNotList(t *testing.T) {
	for _, v := range []any{3, "ab", map[string]int{"a": 1}, undefined{}} {
		if got, err := pad(v); err == nil {
			t.Errorf("pad(%#v) = %#v, want an error", v, got)
		}
	}
}

// TestFullAfterCut: output that a block set cut off no longer counts
// against runtime.MaxOutput.
func TestFullAfterCut(t *testing.T) {
	src := `{{ $m := $.Mark }}{{ repeat "x" 40000000 "" }}{{ repeat "x" 40000000 "" }}{{ $c := $.Cut $m }}` +
		`{{ range strs "a" "b" }}{{ if $.Full }}{{ $.TooLarge "8:9" }}{{ end }}{{ . }}{{ end }}`
	out, err := run(t, src, feed{})
	if err != nil || out != "> ab" {
		t.Errorf("got %q, %v, want %q", short(out), err, "> ab")
	}
}

// intTooLarge is the error of an int operation at pos whose result leaves
// 64 bits.
func intTooLarge(pos string) runtime.Error {
	return runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:" + pos, Err: runtime.ErrInvalid, Detail: "int beyond 64 bits, which promptgen does not hold"}
}

// short abbreviates s for messages.
func short(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

// TestImports keeps the package on the standard library, runtime and
// runtime/jinja.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(strings.Split(path, "/")[0], ".") &&
				path != "github.com/promptgen/promptgen/runtime" && path != "github.com/promptgen/promptgen/runtime/jinja" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

// TestExecuteVariant: a set's template includes components with
// $.Include, picks a version with $.Version, and a failure inside a
// component names the component's prompt and file.
func TestExecuteVariant(t *testing.T) {
	root := template.New("set").Funcs(Funcs())
	parse := func(name, src string) *template.Template {
		return template.Must(root.New(name).Parse(src))
	}
	main := parse("s/main", `A{{ $v := $.Version "pre" }}{{ if eq $v "x" }}{{ $.Include "s/pre.x" "p/pre.x.jinja" }}{{ else }}{{ $.Include "s/pre" "p/pre.jinja" }}{{ end }}B`)
	parse("s/pre", `[{{ $.F.Title }}]`)
	parse("s/pre.x", `<{{ strict undef "1:4" "nope" }}>`)
	out, err := ExecuteVariant(main, []byte(">"), "s/main", "p/main.jinja", feed{Title: "t"}, runtime.Variant{})
	if string(out) != ">A[t]B" || err != nil {
		t.Errorf("unversioned: %q, %v", out, err)
	}
	v := runtime.Variant{Components: []string{"pre"}, Versions: []string{"x"}}
	_, err = ExecuteVariant(main, nil, "s/main", "p/main.jinja", feed{}, v)
	var re *runtime.Error
	if !errors.As(err, &re) || re.Prompt != "s/pre.x" || re.Pos != "p/pre.x.jinja:1:4" || re.Var != "nope" {
		t.Errorf("version x: %#v", err)
	}
	bad := parse("s/bad", `{{ $.Include "s/none" "p/none.jinja" }}`)
	if _, err := ExecuteVariant(bad, nil, "s/bad", "p/bad.jinja", feed{}, runtime.Variant{}); err == nil || !strings.Contains(err.Error(), `no component template "s/none"`) {
		t.Errorf("unknown component: %v", err)
	}
}

// TestExecuteWith: strftime_now formats the time of the render options,
// and an unsupported directive fails the render with ErrInvalid.
func TestExecuteWith(t *testing.T) {
	at := time.Date(2026, 1, 8, 9, 30, 0, 0, time.UTC)
	tmpl := template.Must(template.New("p").Funcs(Funcs()).Parse(`{{ $.Strftime "%d %b %Y" "1:4" }}|{{ $.Strftime "%c" "2:5" }}`))
	out, err := ExecuteWith(tmpl, []byte("> "), "p", "prompts/p.yaml", feed{}, []runtime.RenderOption{runtime.WithNow(at)})
	want := runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:2:5", Err: runtime.ErrInvalid, Detail: "strftime directive %c is not supported (supported: " + jinja.StrftimeDirectives + ")"}
	var re *runtime.Error
	if string(out) != "> 08 Jan 2026|" || !errors.As(err, &re) || *re != want {
		t.Errorf("got %q, %#v; want %q, %#v", out, err, "> 08 Jan 2026|", want)
	}
}
