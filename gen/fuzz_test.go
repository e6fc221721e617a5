package gen

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"
)

// FuzzGenerate runs the whole pipeline on one arbitrary prompt file. It
// never panics, fails exactly when it reports an error, and whatever it
// accepts becomes Go source that parses (jennifer formats every file and
// fails on invalid syntax) and, for a sample, compiles.
func FuzzGenerate(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"testdata/render/cases/*/prompt.yaml", "testdata/golden/*/prompts/*.yaml", "../prompts/*/*.yaml"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, matches...)
	}
	// Prompts with output schemas and examples.
	outputs, _ := filepath.Glob("testdata/golden/output_*/prompts/*.yaml")
	seeds = append(seeds, outputs...)
	for _, name := range seeds {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var compiled time.Time // when an accepted input was last compiled
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := generate(fstest.MapFS{"p.yaml": {Data: data}}, "prompts", Config{Pkg: "out", ImportPath: "pgtest/out"})
		switch {
		case err == nil && res.Diagnostics.HasErrors():
			t.Fatalf("no error, but diagnostics:\n%s", res.Diagnostics)
		case err != nil && !res.Diagnostics.HasErrors():
			t.Fatalf("error without diagnostics: %v", err)
		case err == nil && time.Since(compiled) >= compileEvery:
			compiled = time.Now()
			mod := newTempModule(t)
			writeResult(t, filepath.Join(mod, "out"), res)
			goCmd(t, mod, "build", "./out")
		}
	})
}

// compileEvery spaces FuzzGenerate's compiles: it compiles the first input
// a process accepts (so a crasher found by fuzzing reproduces), then at
// most one in this time, which keeps the fuzzer fast.
const compileEvery = 10 * time.Second
