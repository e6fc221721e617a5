package gen

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiagnostics runs Generate on small bad inputs and compares every
// diagnostic, exactly.
func TestDiagnostics(t *testing.T) {
	specExample, err := os.ReadFile(filepath.Join("testdata", "load", "spec_example_invalid.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		files  map[string]string
		strict bool
		want   string
	}{
		{
			name:  "spec example is invalid YAML",
			files: map[string]string{"summarize.yaml": string(specExample)},
			want:  "p/summarize.yaml:31:2: invalid YAML: found character that cannot start any token (line 28 is indented less than the block scalar \"template\" that starts at line 20: indent all of its lines)",
		},
		{
			name:  "unknown key",
			files: map[string]string{"a.yaml": "temlate: hi\ntemplate: hi\n"},
			want:  "p/a.yaml:1:1: unknown key \"temlate\" (did you mean \"template\"?)",
		},
		{
			name:  "unclosed block",
			files: map[string]string{"a.yaml": "template: |\n  {% if x %}\n  hi\n"},
			want:  "p/a.yaml:2:3: unclosed \"if\" block (expected \"endif\")",
		},
		{
			name:  "unknown filter",
			files: map[string]string{"a.yaml": "template: |\n  {{ name | uper }}\n"},
			want:  "p/a.yaml:2:13: unknown filter \"uper\" (did you mean \"upper\"?)",
		},
		{
			name:   "undeclared variable under -strict",
			files:  map[string]string{"a.jinja": "Hello {{ name }}"},
			strict: true,
			want:   "p/a.jinja:1:1: prompt \"a\" declares no inputs (-strict requires them)",
		},
		{
			name:  "undeclared variable with inputs",
			files: map[string]string{"a.yaml": "inputs:\n  article: string\ntemplate: \"{{ artcle }}\"\n"},
			want:  "p/a.yaml:2:3: warning: input \"article\" is declared but not used by the template\np/a.yaml:3:15: undefined variable \"artcle\" (did you mean \"article\"?)",
		},
		{
			name:  "Go name collision",
			files: map[string]string{"a.yaml": "inputs:\n  user_id: string\n  userId: string\ntemplate: \"{{ user_id }} {{ userId }}\"\n"},
			want:  "p/a.yaml:2:3: \"user_id\" and \"userId\" (line 3) both map to UserID; set go_name on one\np/a.yaml:3:3: \"userId\" and \"user_id\" (line 2) both map to UserID; set go_name on one",
		},
		{
			name:  "go_name that is not an exported identifier",
			files: map[string]string{"a.yaml": "go_name: summary\ninputs:\n  x: {type: string, go_name: 2x}\ntemplate: \"{{ x }}\"\n"},
			want:  "p/a.yaml:1:10: go_name \"summary\" is not an exported Go identifier\np/a.yaml:3:30: go_name \"2x\" is not an exported Go identifier",
		},
		{
			name:  "go_name collision",
			files: map[string]string{"a.yaml": "go_name: B\ntemplate: hi\n", "b.yaml": "template: hi\n"},
			want:  "p/a.yaml:1:10: \"a\" and \"b\" (p/b.yaml:1:1) both map to B; set go_name on one\np/b.yaml:1:1: \"b\" and \"a\" (p/a.yaml:1:10) both map to B; set go_name on one",
		},
		{
			name:  "nested type named like a prompt",
			files: map[string]string{"x.jinja": "{{ item.a }}", "x_item.jinja": "hi"},
			want:  "p/x.jinja:1:4: \"x.item\" and \"x_item\" (p/x_item.jinja:1:1) both map to XItem; set go_name on one\np/x_item.jinja:1:1: \"x_item\" and \"x.item\" (p/x.jinja:1:4) both map to XItem; set go_name on one",
		},
		{
			name:  "set with several targets and one value",
			files: map[string]string{"a.jinja": "{% set a, b = pair %}{{ a }}{{ b }}"},
			want:  "p/a.jinja:1:15: set with 2 targets needs 2 values separated by commas",
		},
		{
			name:  "set with more values than targets",
			files: map[string]string{"a.jinja": "{% set a, b = 1, 2, 3 %}{{ a }}{{ b }}"},
			want:  "p/a.jinja:1:15: set assigns 3 values to 2 targets",
		},
		{
			name:  "attribute path with a list index",
			files: map[string]string{"a.jinja": "{{ xs|map(attribute='tags.0')|join }}"},
			want:  "p/a.jinja:1:4: attribute= supports field names only, not \"0\"",
		},
		{
			name:  "sort by an attribute path through an optional object",
			files: map[string]string{"a.yaml": "inputs:\n  xs:\n    type: array\n    items: {type: object, properties: {c: {type: object, properties: {n: {type: string}}, required: [n]}}}\ntemplate: \"{{ xs|sort(attribute='c.n')|length }}\"\n"},
			want:  "p/a.yaml:5:15: sort by attribute= through the optional field \"c\" is not supported",
		},
		{
			name:  "list literal mixing int and number stored in a variable",
			files: map[string]string{"a.jinja": "{% set xs = [1, 2.5] %}{{ xs }}"},
			want:  "p/a.jinja:1:14: this int would become a number, unlike in Jinja2: a literal mixing int and number elements is supported only where it is printed, joined or concatenated with ~",
		},
		{
			name:  "dict literal with a variable key",
			files: map[string]string{"a.jinja": "{{ {name: 1} }}"},
			want:  "p/a.jinja:1:5: dict literal keys must be string constants",
		},
		{
			name:  "dict method read as a key",
			files: map[string]string{"a.jinja": "{{ {'items': 1}.items }}"},
			want:  "p/a.jinja:1:17: attribute \"items\" of a dict is its method in Jinja2, not the key (write ['items'])",
		},
		{
			name:  "variable typed only by a dict literal",
			files: map[string]string{"a.jinja": "{{ x if c else {'a': 1} }}"},
			want:  "p/a.jinja:1:4: cannot infer the type of \"x\" from a dict literal (declare it in inputs)",
		},
		{
			name:  "tojson result in a dict literal",
			files: map[string]string{"a.jinja": "{{ {'data': x|tojson} }}"},
			want:  "p/a.jinja:1:13: a tojson result cannot be a list or dict element (Jinja2 keeps it as Markup, which prints as Markup('...') inside a list or dict)",
		},
		{
			name:  "bool mixed with numbers",
			files: map[string]string{"a.yaml": "inputs: {flag: bool}\ntemplate: \"{{ flag + 1 }}{{ flag == 1 }}{{ 2 if flag else false }}\"\n"},
			want: "p/a.yaml:2:15: unsupported operand types for +: bool and int\n" +
				"p/a.yaml:2:29: comparing bool with int is not supported\n" +
				"p/a.yaml:2:59: type mismatch: int and bool",
		},
		{
			name:  "membership in a list of lists",
			files: map[string]string{"a.jinja": "{{ 1 in [[1]] }}"},
			want:  "p/a.jinja:1:9: membership test in a list of list of int is not supported",
		},
		{
			name:  "object that would contain itself",
			files: map[string]string{"a.jinja": "{{ y.a == y }}"},
			want:  "p/a.jinja:1:4: type mismatch: a value cannot contain itself",
		},
		{
			name:  "variable named like a generated method",
			files: map[string]string{"a.yaml": "inputs:\n  validate: bool\ntemplate: \"{{ validate }}\"\n"},
			want:  "p/a.yaml:2:3: \"validate\" maps to Validate, which promptgen generates itself (set go_name)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "p")
			for name, content := range tt.files {
				writeFile(t, filepath.Join(dir, name), []byte(content))
			}
			wd, _ := os.Getwd()
			if err := os.Chdir(filepath.Dir(dir)); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			res, err := Generate(context.Background(), Config{Dir: "p", Out: "out", ImportPath: "x/out", Strict: tt.strict})
			if err == nil {
				t.Fatalf("Generate succeeded, want errors")
			}
			if diff := cmp.Diff(tt.want, res.Diagnostics.Error()); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
