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
// by testdata/render/golden.py).
type renderCase struct {
	name      string
	scenarios []string // scenario names: <name>.json and <name>.want
}

func loadRenderCases(t *testing.T) (string, []renderCase) {
	t.Helper()
	root := filepath.Join("testdata", "render", "cases")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var cases []renderCase
	for _, d := range dirs {
		files, err := filepath.Glob(filepath.Join(root, d.Name(), "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		c := renderCase{name: d.Name()}
		for _, f := range files {
			c.scenarios = append(c.scenarios, strings.TrimSuffix(filepath.Base(f), ".json"))
		}
		if len(c.scenarios) == 0 {
			t.Fatalf("case %s has no scenarios", d.Name())
		}
		cases = append(cases, c)
	}
	return root, cases
}

// TestRenderGolden generates one package from every golden case, compiles
// and vets it in a temporary module, renders every scenario through the
// generated code and compares with Jinja2's output byte for byte.
func TestRenderGolden(t *testing.T) {
	root, cases := loadRenderCases(t)
	mod := newTempModule(t)
	prompts := filepath.Join(mod, "prompts")
	for _, c := range cases {
		copyFile(t, filepath.Join(root, c.name, "prompt.yaml"), filepath.Join(prompts, c.name+".yaml"))
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
	var args []string
	for _, c := range cases {
		name, _ := exportedName(c.name)
		main.WriteString("\t\tcase " + quote(c.name) + ":\n\t\t\tvar f out." + name + "Feed\n\t\t\tdecode(args[i+1], &f)\n\t\t\ts, err = out." + name + ".Render(f)\n")
		for _, s := range c.scenarios {
			args = append(args, c.name, filepath.Join(root, c.name, s+".json"), filepath.Join(t.TempDir(), c.name+"."+s+".got"))
		}
	}
	main.WriteString("\t\t}\n\t\tif err != nil {\n\t\t\ts = \"ERROR: \" + err.Error()\n\t\t}\n\t\tif err := os.WriteFile(args[i+2], []byte(s), 0o644); err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t}\n}\n")
	writeFile(t, filepath.Join(mod, "main.go"), main.Bytes())

	goCmd(t, mod, "vet", "./...")
	bin := filepath.Join(t.TempDir(), "render")
	goCmd(t, mod, "build", "-o", bin, ".")
	abs := make([]string, len(args))
	for i, a := range args {
		abs[i] = a
		if i%3 == 1 {
			abs[i], _ = filepath.Abs(a)
		}
	}
	cmd := exec.Command(bin, abs...)
	if outb, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render: %v\n%s", err, outb)
	}
	n := 0
	for i := 0; i < len(args); i += 3 {
		want, err := os.ReadFile(strings.TrimSuffix(args[i+1], ".json") + ".want")
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(args[i+2])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s (-want +got):\n%s", args[i+1], cmp.Diff(string(want), string(got)))
		}
		n++
	}
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
