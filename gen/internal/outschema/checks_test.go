package outschema

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/load"
	"golang.org/x/tools/txtar"
)

type checksCorpus struct {
	name string
	fsys fs.FS
}

// checksCorpora are the prompts whose outputSchemas the checks are tested
// on: the example prompts and testdata/checks/*.txtar, whose .jsonl
// sections hold documents for gen's TestChecksAgree.
func checksCorpora(t *testing.T) []checksCorpus {
	corpora := []checksCorpus{{"prompts", os.DirFS("../../../prompts")}}
	archives, err := filepath.Glob(filepath.Join("testdata", "checks", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no testdata/checks/*.txtar: %v", err)
	}
	for _, file := range archives {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".jsonl") {
				fsys[f.Name] = &fstest.MapFile{Data: f.Data}
			}
		}
		corpora = append(corpora, checksCorpus{strings.TrimSuffix(filepath.Base(file), ".txtar"), fsys})
	}
	return corpora
}

// TestLowerChecks: the generated checks replace the compiled schema for
// every outputSchema of the corpora, but those of the prompts named
// fallback*, which use a keyword the checks do not support.
func TestLowerChecks(t *testing.T) {
	for _, c := range checksCorpora(t) {
		tools, toolDiags := load.Tools(c.fsys, "prompts")
		specs, loadDiags := load.Prompts(c.fsys, "prompts", tools)
		loadDiags = append(toolDiags, loadDiags...)
		if loadDiags.HasErrors() {
			t.Fatalf("%s: %v", c.name, loadDiags)
		}
		for _, p := range specs {
			sink := &diag.Sink{}
			o := Lower(p, sink)
			if sink.List.HasErrors() {
				t.Errorf("%s/%s: %v", c.name, p.Key, sink.List)
			}
			if o == nil || o.Schema == nil {
				continue
			}
			fallback := strings.HasPrefix(path.Base(p.Key), "fallback")
			switch {
			case fallback && o.Checks != nil:
				t.Errorf("%s/%s: checks were lowered, want the compiled schema", c.name, p.Key)
			case !fallback && o.Checks == nil:
				t.Errorf("%s/%s: no checks were lowered", c.name, p.Key)
			}
		}
	}
}
