package gen

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestStageImports keeps the stages apart: each package under gen/internal
// may import only the standard library, the libraries listed for it and the
// stages listed for it. In particular nothing below gen imports gen.
func TestStageImports(t *testing.T) {
	const mod = "github.com/promptgen/promptgen/"
	allowed := map[string][]string{
		"gen/internal/src":    {},
		"gen/internal/tmpl":   {"runtime/suggest"},
		"gen/internal/ir":     {"gen/internal/src", "gen/internal/tmpl", "schema", "gopkg.in/yaml.v3"},
		"gen/internal/names":  {"gen/internal/ir", "gen/internal/diag", "gen/internal/src", "schema"},
		"gen/internal/diag":   {"gen/internal/src"},
		"gen/internal/ttemit": {"gen/internal/ir"},
		"gen/internal/bind": {"gen/internal/ir", "gen/internal/diag", "gen/internal/src", "gen/internal/names", "schema",
			"golang.org/x/tools/go/packages"},
		// runtime/jinja: the strftime directives that generate time accepts
		// are those the runtime formats (jinja.CheckStrftime).
		"gen/internal/check": {"gen/internal/ir", "gen/internal/src", "gen/internal/tmpl", "gen/internal/diag", "gen/internal/names",
			"gen/internal/types", "gen/internal/idtrack", "gen/internal/builtins", "schema", "runtime/jinja"},
		// builtins: Jinja2's filters, tests, methods and Markup as data and
		// pure rules, which check applies; no stage.
		"gen/internal/builtins": {"gen/internal/ir", "gen/internal/tmpl"},
		// idtrack: Jinja2's frames (a port of idtracking.py), over the syntax.
		"gen/internal/idtrack": {"gen/internal/tmpl"},
		// setcheck: the checks of a template set around its bodies, each
		// checked by check (check does not import it).
		"gen/internal/setcheck": {"gen/internal/check", "gen/internal/ir", "gen/internal/src", "gen/internal/tmpl", "gen/internal/diag",
			"gen/internal/names", "gen/internal/types", "schema"},
		// promptcheck: the checks of a prompt file around its templates,
		// each checked by check (check does not import it).
		"gen/internal/promptcheck": {"gen/internal/check", "gen/internal/ir", "gen/internal/src", "gen/internal/tmpl", "gen/internal/diag",
			"gen/internal/types"},
		// types: the algebra of ir.Type, which check infers with; no stage.
		"gen/internal/types": {"gen/internal/ir", "schema"},
		// runtime: a static image URL is checked as Validate checks it.
		"gen/internal/load": {"gen/internal/ir", "gen/internal/src", "gen/internal/tmpl", "gen/internal/diag",
			"schema", "runtime", "runtime/params", "gopkg.in/yaml.v3", "internal/nolink", "internal/par"},
		// runtime: an example's image input is checked as Validate checks it.
		"gen/internal/outschema": {"gen/internal/ir", "gen/internal/src", "gen/internal/diag", "schema", "runtime", "gopkg.in/yaml.v3"},
		// The writer of the files and its two backends: emit calls them,
		// never the reverse.
		"gen/internal/emit": {"gen/internal/ir", "gen/internal/names", "gen/internal/goemit", "gen/internal/ttemit",
			"schema", "github.com/dave/jennifer/jen"},
		"gen/internal/goemit": {"gen/internal/ir", "github.com/dave/jennifer/jen"},
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./internal/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		allow, ok := allowed[pkg]
		if !ok {
			t.Errorf("%s: no import rule; add it to TestStageImports", pkg)
			continue
		}
		seen++
		for _, dep := range fields[1:] {
			first, _, _ := strings.Cut(dep, "/")
			if !strings.Contains(first, ".") {
				continue // the standard library
			}
			if !slices.Contains(allow, strings.TrimPrefix(dep, mod)) {
				t.Errorf("%s imports %s", pkg, dep)
			}
		}
	}
	if seen != len(allowed) {
		t.Errorf("go list found %d of the %d stages", seen, len(allowed))
	}
}
