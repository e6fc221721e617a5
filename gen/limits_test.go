package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/schema"
)

// TestTypeDepthLimit generates prompts whose variables nest exactly
// maxTypeDepth levels, then one more, which fails at the field that passes
// the limit. Every value is a level: in a.b, a is 1 and b is 2.
func TestTypeDepthLimit(t *testing.T) {
	const deep = "nested more than 100 levels deep (objects and lists inside one another)"
	chain := func(n int) string { return "{{ a" + strings.Repeat(".b", n-1) + " }}" }
	sets := func(n int) string { // a is a list of lists, n levels with the string in it
		s := "{% set v1 = a[0] %}"
		for i := 2; i < n; i++ {
			s += fmt.Sprintf("{%% set v%d = v%d[0] %%}", i, i-1)
		}
		return s + fmt.Sprintf("{{ v%d }}", n-1)
	}
	locals := func(n int) string { // l1 is a list of ints, 2 levels; l<k> k+1
		s := "{% set l1 = [1] %}"
		for i := 2; i < n; i++ {
			s += fmt.Sprintf("{%% set l%d = [l%d] %%}", i, i-1)
		}
		return s + fmt.Sprintf("{{ l%d }}", n-1)
	}
	inputs := func(n int) string { // declared: a holds objects n-1 deep, then a string
		s := "{type: string}"
		for range n - 1 {
			s = "{type: object, properties: {b: " + s + "}, required: [b]}"
		}
		return "template: '{{ a }}'\ninputs: {a: " + s + "}\n"
	}
	tests := []struct {
		name  string
		files func(n int) map[string]string
		want  string // the error one level over the limit
	}{
		{"attribute chain", func(n int) map[string]string { return map[string]string{"p.jinja": chain(n)} },
			`p/p.jinja:1:204: "b" is ` + deep},
		{"lists through set", func(n int) map[string]string { return map[string]string{"p.jinja": sets(n)} },
			`p/p.jinja:1:13: "a" is ` + deep},
		{"local values", func(n int) map[string]string { return map[string]string{"p.jinja": locals(n)} },
			`p/p.jinja:1:1: the value of "l100" is ` + deep},
		{"declared inputs", func(n int) map[string]string { return map[string]string{"p.yaml": inputs(n)} },
			`p/p.yaml:2:3110: "b" is ` + deep},
		{"template set", func(n int) map[string]string {
			return map[string]string{"promptset.yaml": "", "main/default.jinja": chain(n)}
		}, `p/main/default.jinja:1:204: "b" is ` + deep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := generate(mapFS(tt.files(schema.MaxDepth)), "p", Config{Pkg: "out", ImportPath: "x/out"})
			if err != nil {
				t.Fatalf("at the limit: %v", err)
			}
			if len(res.Files) < 2 {
				t.Fatalf("at the limit: %d files", len(res.Files))
			}
			_, err = generate(mapFS(tt.files(schema.MaxDepth+1)), "p", Config{Pkg: "out", ImportPath: "x/out"})
			if err == nil || err.Error() != tt.want {
				t.Errorf("over the limit: %v\nwant %s", err, tt.want)
			}
		})
	}
}
