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

	"github.com/promptgen/promptgen/runtime"
)

type item struct {
	Name  string  `json:"name"`
	Note  *string `json:"note,omitempty"`
	Score float64 `json:"score"`
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
		{`{{ tojson $.F.Items nil }}`, `> [{"name": "a", "score": 1.0}, {"name": "b", "note": "n\u00271", "score": 2.5}]`},
		{`{{ $m := $.Mark }}x{{ $.F.Title }}{{ $s := $.Cut $m }}[{{ upper $s }}]`, `> [XT]`},
		{`{{ joinattr $.F.Items "," "Note" }} {{ str (mapattr $.F.Items "Score") }} {{ str (sortattr $.F.Items true false "Name") }}`, `> ,n'1 [1.0, 2.5] [{'name': 'b', 'note': "n'1", 'score': 2.5}, {'name': 'a', 'score': 1.0}]`},
		{`{{ str (getitem $.F.Items -1).Note }} {{ str (getitem $.F.Items 2) }}|{{ str (def (getitem $.F.Meta "q")) }} {{ getitem $.F.Meta "a" }}`, `> n'1 |False 2`},
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
		{`{{ div 1 0 "7:8" }}`, "> ", runtime.Error{Prompt: "p", Pos: "prompts/p.yaml:7:8", Err: runtime.ErrInvalid}},
	}
	for _, tt := range tests {
		out, err := run(t, tt.src, feed{})
		var re *runtime.Error
		if !errors.As(err, &re) || *re != tt.want || out != tt.out {
			t.Errorf("%s: got %q, %#v, want %q, %#v", tt.src, out, err, tt.out, tt.want)
		}
	}
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
