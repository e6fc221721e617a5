package gen

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// renderCase is one golden template case: a prompt and its scenarios,
// each a JSON feed with the output real Jinja2 produced for it (written
// by testdata/render/golden.py). A divergence case instead has what
// Jinja2 prints in <scenario>.jinja and, hand-written, what promptgen
// prints on purpose in <scenario>.promptgen.
type renderCase struct {
	name       string
	dir        string
	divergence bool
	scenarios  []string // scenario names: <name>.json and its expected output
}

// expected is the file holding a scenario's expected output.
func (c renderCase) expected(scenario string) string {
	ext := ".want"
	if c.divergence {
		ext = ".promptgen"
	}
	return filepath.Join(c.dir, scenario+ext)
}

func loadRenderCases(t *testing.T) []renderCase {
	t.Helper()
	var cases []renderCase
	for _, kind := range []string{"cases", "divergences"} {
		root := filepath.Join("testdata", "render", kind)
		dirs, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			c := renderCase{name: d.Name(), dir: filepath.Join(root, d.Name()), divergence: kind == "divergences"}
			files, err := filepath.Glob(filepath.Join(c.dir, "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				c.scenarios = append(c.scenarios, strings.TrimSuffix(filepath.Base(f), ".json"))
			}
			if len(c.scenarios) == 0 {
				t.Fatalf("case %s has no scenarios", c.dir)
			}
			cases = append(cases, c)
		}
	}
	return cases
}

// TestRenderGolden generates one package from every golden case, compiles
// and vets it in a temporary module, renders every scenario through the
// generated code and compares with Jinja2's output byte for byte.
func TestRenderGolden(t *testing.T) {
	cases := loadRenderCases(t)
	mod := newTempModule(t)
	prompts := filepath.Join(mod, "prompts")
	for _, c := range cases {
		copyFile(t, filepath.Join(c.dir, "prompt.yaml"), filepath.Join(prompts, c.name+".yaml"))
	}
	out := filepath.Join(mod, "out")
	res, err := Generate(context.Background(), Config{Dir: prompts, Out: out, Pkg: "out", ImportPath: "pgtest/out"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	writeResult(t, out, res)

	var main bytes.Buffer
	main.WriteString("package main\n\nimport (\n\t\"encoding/json\"\n\t\"bytes\"\n\t\"fmt\"\n\t\"os\"\n\n\t\"pgtest/out\"\n)\n\n")
	main.WriteString("func decode(path string, v any) {\n\tb, err := os.ReadFile(path)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\td := json.NewDecoder(bytes.NewReader(b))\n\td.DisallowUnknownFields()\n\tif err := d.Decode(v); err != nil {\n\t\tpanic(fmt.Sprint(path, \": \", err))\n\t}\n}\n\n")
	main.WriteString("func main() {\n\targs := os.Args[1:]\n\tfor i := 0; i+2 < len(args); i += 3 {\n\t\tvar s string\n\t\tvar err error\n\t\tswitch args[i] {\n")
	// The program renders triples of arguments: case, feed file, output file.
	type run struct {
		c             renderCase
		scenario, got string
	}
	var runs []run
	var args []string
	for _, c := range cases {
		name, _ := exportedName(c.name)
		main.WriteString("\t\tcase " + quote(c.name) + ":\n\t\t\tvar f out." + name + "Feed\n\t\t\tdecode(args[i+1], &f)\n\t\t\ts, err = out." + name + ".Render(f)\n")
		for _, s := range c.scenarios {
			r := run{c: c, scenario: s, got: filepath.Join(t.TempDir(), c.name+"."+s+".got")}
			feed, _ := filepath.Abs(filepath.Join(c.dir, s+".json"))
			runs = append(runs, r)
			args = append(args, c.name, feed, r.got)
		}
	}
	main.WriteString("\t\t}\n\t\tif err != nil {\n\t\t\ts = \"ERROR: \" + err.Error()\n\t\t}\n\t\tif err := os.WriteFile(args[i+2], []byte(s), 0o644); err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t}\n}\n")
	writeFile(t, filepath.Join(mod, "main.go"), main.Bytes())

	goCmd(t, mod, "vet", "./...")
	bin := filepath.Join(t.TempDir(), "render")
	goCmd(t, mod, "build", "-o", bin, ".")
	cmd := exec.Command(bin, args...)
	if outb, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render: %v\n%s", err, outb)
	}
	for _, r := range runs {
		want := readFile(t, r.c.expected(r.scenario))
		got := readFile(t, r.got)
		if !bytes.Equal(got, want) {
			t.Errorf("%s (-want +got):\n%s", r.c.expected(r.scenario), cmp.Diff(string(want), string(got)))
		}
		if !r.c.divergence {
			continue
		}
		// A divergence must still be one: Jinja2 prints something else.
		if jinja := readFile(t, filepath.Join(r.c.dir, r.scenario+".jinja")); bytes.Equal(jinja, want) {
			t.Errorf("%s: promptgen and Jinja2 agree; move the case to cases/", r.c.expected(r.scenario))
		}
	}
	n := len(runs)
	t.Logf("%d cases, %d scenarios", len(cases), n)
}

func quote(s string) string { return "\"" + s + "\"" }

// newTempModule makes a module that requires this checkout, for compiling
// generated code.
func newTempModule(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module pgtest\n\ngo 1.24\n\nrequire github.com/promptgen/promptgen v0.0.0\n\nreplace github.com/promptgen/promptgen => " + repo + "\n"
	writeFile(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	copyFile(t, filepath.Join(repo, "go.sum"), filepath.Join(dir, "go.sum"))
	return dir
}

func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func writeResult(t *testing.T, dir string, res *Result) {
	t.Helper()
	for _, f := range res.Files {
		writeFile(t, filepath.Join(dir, f.Name), f.Content)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, b)
}
