package gen

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/promptgen/promptgen/schema"
)

// TestTypeDepthLimit generates prompts whose variables nest exactly
// types.MaxDepth levels, then one more, which fails at the field that passes
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

// TestMacroExpansionLimit checks the bound on expanded macros: a macro
// whose body is 500 template nodes (100 ifs printing a filtered value)
// expands for 20 calls, and the 21st is an error at that call. Larger
// shapes fail as fast and in bounded memory; they took 13.5 s and 213 MB
// (100 ifs, 400 calls) and more than 300 s and 2 GB (2,000 ifs, 999
// calls) when the bound was on the number of calls.
func TestMacroExpansionLimit(t *testing.T) {
	wide := func(ifs, calls int) string {
		return "{% macro m(x) %}" + strings.Repeat("{% if x %}{{ x|upper }}{% endif %}", ifs) + "{% endmacro %}" + strings.Repeat("{{ m(y) }}", calls)
	}
	fanOut := "{% macro m0(v) %}{{ v }}{% endmacro %}" // each m<i> calls m<i-1> ten times
	for i := 1; i <= 6; i++ {
		fanOut += fmt.Sprintf("{%% macro m%d(v) %%}%s{%% endmacro %%}", i, strings.Repeat(fmt.Sprintf("{{ m%d(v) }}", i-1), 10))
	}
	fanOut += "{{ m6(x) }}"
	over := func(macro string) string {
		return "the macro calls expand to more than 10000 template nodes with this call of " + strconv.Quote(macro) +
			" (promptgen copies the body of a macro at each call, and calls in bodies multiply)"
	}
	if _, err := generate(mapFS(map[string]string{"p.jinja": wide(100, 20)}), "p", Config{Pkg: "out", ImportPath: "x/out"}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	tests := []struct {
		name, template, want string
	}{
		{"one call over", wide(100, 21), "p/p.jinja:1:3634: " + over("m")},
		{"100 ifs, 400 calls", wide(100, 400), "p/p.jinja:1:3634: " + over("m")},
		// Each call is 10,000 nodes: the second is over.
		{"2,000 ifs, 999 calls", wide(2000, 999), "p/p.jinja:1:68044: " + over("m")},
		{"a million calls", fanOut, "p/p.jinja:1:92: " + over("m0") + ` (in the call of macro "m1" at 1:277)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := generate(mapFS(map[string]string{"p.jinja": tt.template}), "p", Config{Pkg: "out", ImportPath: "x/out"})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || err.Error() != tt.want {
					t.Errorf("error %v\nwant %s", err, tt.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no error after %v", time.Since(start))
			}
			runtime.ReadMemStats(&after)
			if d, alloc := time.Since(start), after.TotalAlloc-before.TotalAlloc; d > 5*time.Second || alloc > 200<<20 {
				t.Errorf("took %v and allocated %d MB", d, alloc>>20)
			}
		})
	}
}
