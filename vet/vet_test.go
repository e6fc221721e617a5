package vet_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/vet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzer runs the analyzer over testdata/src, in a module that uses a
// package generated from testdata/prompts, and checks its `// want`
// comments: every diagnostic expected, and no other.
func TestAnalyzer(t *testing.T) {
	dir := testModule(t)
	analysistest.Run(t, dir, vet.Analyzer, "./feeds", "./keys", "./params")
}

// testModule writes a module example.com/app that requires this checkout:
// the package generated from testdata/prompts as example.com/app/pg, and a
// copy of testdata/src.
func testModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/app\n\ngo 1.26\n\nrequire github.com/promptgen/promptgen v0.0.0\n\nreplace github.com/promptgen/promptgen => " + root + "\n"
	write(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), sum)

	res, err := gen.Generate(context.Background(), gen.Config{Dir: "testdata/prompts", Out: filepath.Join(dir, "pg"), ImportPath: "example.com/app/pg"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	for _, f := range res.Files {
		write(t, filepath.Join(dir, "pg", f.Name), f.Content)
	}
	if err := os.CopyFS(dir, os.DirFS("testdata/src")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
