package gen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// TestDiagnostics runs every testdata/diag/<case>.txtar: its files are a
// prompts directory "p", its "stderr" section the exact diagnostics
// expected. A comment line "flags: -strict" turns on strict mode.
func TestDiagnostics(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "diag", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(archives) == 0 {
		t.Fatal("no diag cases")
	}
	for _, file := range archives {
		file, _ := filepath.Abs(file) // the test changes directory
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var want *txtar.File
			for i, f := range a.Files {
				if f.Name == "stderr" {
					want = &a.Files[i]
					continue
				}
				writeFile(t, filepath.Join(dir, "p", f.Name), f.Data)
			}
			if want == nil {
				t.Fatalf("%s has no stderr section", file)
			}
			t.Chdir(dir)
			strict := bytes.Contains(a.Comment, []byte("flags: -strict"))
			res, err := Generate(context.Background(), Config{Dir: "p", Out: "out", ImportPath: "x/out", Strict: strict})
			if err == nil {
				t.Fatal("Generate succeeded, want errors")
			}
			got := res.Diagnostics.Error() + "\n"
			if got == string(want.Data) {
				return
			}
			if *update {
				want.Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			t.Errorf("diagnostics (-want +got):\n%s\nto accept: go test ./gen -run 'TestDiagnostics/%s$' -update",
				cmp.Diff(string(want.Data), got), t.Name()[len("TestDiagnostics/"):])
		})
	}
}
