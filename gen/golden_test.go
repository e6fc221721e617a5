package gen

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/gen/internal/emit"
	"golang.org/x/tools/go/packages"
	"gopkg.in/yaml.v3"
)

// update rewrites expected outputs (golden want/ files, diag stderr
// sections) instead of comparing with them. Inputs are never touched.
var update = flag.Bool("update", false, "rewrite expected outputs of golden and diag tests")

// goldenConfig is a golden case's optional promptgen.yaml.
type goldenConfig struct {
	Pkg      string   `yaml:"pkg"`
	Renderer Renderer `yaml:"renderer"`
	Strict   bool     `yaml:"strict"`
}

// TestGolden generates every testdata/golden/<case>/prompts and compares
// the files with want/*.go and the diagnostics with want.stderr (absent
// when there are none). All want packages are then vetted, and so
// type-checked, in one temporary module.
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	mod := newTempModule(t)
	for _, dir := range cases {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			cfg := readGoldenConfig(t, dir)
			res, err := Generate(context.Background(), Config{
				Dir:        filepath.Join(dir, "prompts"),
				Out:        name,
				Pkg:        cfg.Pkg,
				ImportPath: "pgtest/" + name,
				Renderer:   cfg.Renderer,
				Strict:     cfg.Strict,
			})
			if err != nil && !res.Diagnostics.HasErrors() {
				t.Fatalf("generate: %v", err)
			}
			want := map[string][]byte{}
			wantFiles, _ := filepath.Glob(filepath.Join(dir, "want", "*.go"))
			for _, f := range wantFiles {
				want[filepath.Base(f)] = readFile(t, f)
			}
			got := map[string][]byte{}
			for _, f := range res.Files {
				got[f.Name] = f.Content
				writeFile(t, filepath.Join(mod, name, f.Name), f.Content)
			}
			var stderr []byte
			if len(res.Diagnostics) > 0 {
				stderr = []byte(res.Diagnostics.Error() + "\n")
			}
			wantStderr, _ := os.ReadFile(filepath.Join(dir, "want.stderr"))
			if *update {
				updateGolden(t, dir, got, stderr)
				return
			}
			fix := "to accept: go test ./gen -run 'TestGolden/" + name + "$' -update"
			if !bytes.Equal(stderr, wantStderr) {
				t.Errorf("diagnostics (-want +got):\n%s\n%s", cmp.Diff(string(wantStderr), string(stderr)), fix)
			}
			for _, n := range unionKeys(want, got) {
				if !bytes.Equal(want[n], got[n]) {
					t.Errorf("%s (-want +got):\n%s\n%s", n, cmp.Diff(string(want[n]), string(got[n])), fix)
				}
			}
		})
	}
	if !t.Failed() && !*update {
		goCmd(t, mod, "vet", "./...")
	}
}

func readGoldenConfig(t *testing.T, dir string) goldenConfig {
	t.Helper()
	var cfg goldenConfig
	b, err := os.ReadFile(filepath.Join(dir, "promptgen.yaml"))
	if os.IsNotExist(err) {
		return cfg
	}
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("%s/promptgen.yaml: %v", dir, err)
	}
	return cfg
}

// updateGolden replaces want/ with got and writes or removes want.stderr.
func updateGolden(t *testing.T, dir string, got map[string][]byte, stderr []byte) {
	t.Helper()
	wantDir := filepath.Join(dir, "want")
	if err := os.RemoveAll(wantDir); err != nil {
		t.Fatal(err)
	}
	for n, b := range got {
		writeFile(t, filepath.Join(wantDir, n), b)
	}
	stderrFile := filepath.Join(dir, "want.stderr")
	if len(stderr) == 0 {
		if err := os.Remove(stderrFile); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return
	}
	writeFile(t, stderrFile, stderr)
}

func unionKeys(ms ...map[string][]byte) []string {
	var keys []string
	for _, m := range ms {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// TestGeneratedUpToDate regenerates prompts/ in memory and compares the
// result with the checked-in generated/ (hand-written _test.go files
// there are not generated and are left out).
func TestGeneratedUpToDate(t *testing.T) {
	res, err := Generate(context.Background(), Config{Dir: "../prompts", Out: "../generated"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	got := map[string][]byte{}
	for _, f := range res.Files {
		got[f.Name] = f.Content
	}
	want := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join("..", "generated", "*.go"))
	for _, f := range files {
		b := readFile(t, f)
		if bytes.HasPrefix(b, []byte("// "+emit.Header)) {
			want[filepath.Base(f)] = b
		}
	}
	for _, n := range unionKeys(want, got) {
		if !bytes.Equal(want[n], got[n]) {
			t.Errorf("generated/%s is stale (-checked in +generated):\n%s\nrun: make generate", n, cmp.Diff(string(want[n]), string(got[n])))
		}
	}
}

// TestGenerateIsReproducible generates the same prompts from two copies in
// different directories, twice each, and requires identical bytes.
func TestGenerateIsReproducible(t *testing.T) {
	var runs [][]File
	for _, parent := range []string{t.TempDir(), filepath.Join(t.TempDir(), "deeper", "still")} {
		dir := filepath.Join(parent, "prompts")
		copyTree(t, "../prompts", dir)
		for range 2 {
			res, err := Generate(context.Background(), Config{Dir: dir, Out: filepath.Join(parent, "generated"), ImportPath: "example.com/x/generated"})
			if err != nil {
				t.Fatalf("generate: %v", err)
			}
			runs = append(runs, res.Files)
		}
	}
	for i, r := range runs[1:] {
		if diff := cmp.Diff(runs[0], r); diff != "" {
			t.Errorf("run %d differs from run 0 (-run0 +run%d):\n%s", i+1, i+1, diff)
		}
	}
}

// TestGenerateSameOnEveryCPUCount generates the prompts, and a tree of
// prompts in error, with one CPU and with four: the prompt files load and
// check, and the files emit, on every CPU, and nothing that comes out may
// depend on how many.
func TestGenerateSameOnEveryCPUCount(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	bad := t.TempDir()
	for i := range 12 {
		name, content := fmt.Sprintf("p%02d.yaml", i), fmt.Sprintf("inputs:\n  unused: string\ntemplate: \"{{ x%d | nosuchfilter }}\"\n", i)
		switch i % 3 {
		case 1:
			name, content = fmt.Sprintf("d%d/p%02d.jinja", i%2, i), "{% include 'p00.jinja' %}{{ y + }}"
		case 2:
			content = "template: [\n"
		}
		writeFile(t, filepath.Join(bad, name), []byte(content))
	}
	for _, dir := range []string{"../prompts", bad} {
		var runs []*Result
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			res, err := Generate(context.Background(), Config{Dir: dir, Out: filepath.Join(bad, "generated"), ImportPath: "example.com/x/generated"})
			if res == nil {
				t.Fatalf("%s, %d CPUs: %v", dir, procs, err)
			}
			runs = append(runs, res)
		}
		if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
			t.Errorf("%s: one CPU and four differ (-1 +4):\n%s", dir, diff)
		}
		if dir == bad && len(runs[0].Diagnostics) < 12 {
			t.Errorf("%s: %d diagnostics, want one at least per file:\n%v", dir, len(runs[0].Diagnostics), runs[0].Diagnostics)
		}
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// runGenerated generates the prompts tree dir into package pgtest/out of a
// temporary module, writes files there (paths relative to the module; the
// program to run is run/main.go), vets it all, runs ./run in the module
// and returns what it printed. The tree is copied into the module first,
// so that positions name prompts/...
func runGenerated(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	mod := newTempModule(t)
	prompts := filepath.Join(mod, "prompts")
	copyTree(t, dir, prompts)
	res, err := Generate(context.Background(), Config{Dir: prompts, Out: "out", Pkg: "out", ImportPath: "pgtest/out"})
	if err != nil {
		t.Fatalf("generate: %v\n%v", err, res.Diagnostics)
	}
	writeResult(t, filepath.Join(mod, "out"), res)
	for name, text := range files {
		writeFile(t, filepath.Join(mod, name), []byte(text))
	}
	goCmd(t, mod, "vet", "./...")
	got, err := goRun(mod, "run", "./run")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, got)
	}
	return string(got)
}

// TestRuntimeImportsOnlyStdlib keeps the core runtime, which every
// generated package imports, free of dependencies. internal/nolink, which
// runtime/snapshot reads and writes through, is the module's own, and its
// dependencies are checked as the runtime's are.
func TestRuntimeImportsOnlyStdlib(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps, Dir: ".."}, "./runtime", "./runtime/jinja", "./runtime/ttfuncs", "./runtime/chatformat", "./runtime/chatformat/models",
		"./runtime/chat", "./runtime/params", "./runtime/suggest", "./runtime/snapshot")
	if err != nil {
		t.Fatal(err)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if strings.HasPrefix(p.PkgPath, "github.com/promptgen/promptgen/runtime") || p.PkgPath == "github.com/promptgen/promptgen/internal/nolink" {
			return
		}
		if !isStdlib(p.PkgPath) {
			t.Errorf("runtime depends on %s", p.PkgPath)
		}
	})
}

// isStdlib reports whether path is a standard-library package: its first
// element has no dot, as for every module path outside GOROOT.
func isStdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
