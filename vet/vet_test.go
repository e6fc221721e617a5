package vet_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptgen/promptgen/gen"
	"github.com/promptgen/promptgen/internal/testmod"
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
	dir := testmod.New(t, "example.com/app")

	res, err := gen.Generate(context.Background(), gen.Config{Dir: "testdata/prompts", Out: filepath.Join(dir, "pg"), ImportPath: "example.com/app/pg"})
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	for _, f := range res.Files {
		testmod.WriteFile(t, filepath.Join(dir, "pg", f.Name), f.Content)
	}
	if err := os.CopyFS(dir, os.DirFS("testdata/src")); err != nil {
		t.Fatal(err)
	}
	return dir
}
