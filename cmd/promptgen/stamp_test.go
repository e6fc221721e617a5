package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGenerateUpToDate checks that generate skips a tree whose stamp shows
// nothing changed, saying so with -v and printing the warnings again, and
// runs again when an input, a flag or an output file changes, and never
// stamps a tree that names Go types.
func TestGenerateUpToDate(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "prompts"), filepath.Join(dir, "generated")
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(in, "a.yaml"), "inputs:\n  name: string\n  unused: string\ntemplate: Hello {{ name }}\n")
	warning := in + "/a.yaml:3:3: warning: input \"unused\" is declared but not used by the template\n"
	generate := func(step, want string, flags ...string) {
		t.Helper()
		code, stdout, stderr := runArgs(append([]string{"generate", "-v", "-in", in, "-out", out}, flags...)...)
		if code != exitOK || stdout != "" || stderr != warning+"promptgen: "+want+"\n" {
			t.Fatalf("%s: exit %d, stdout %q, stderr:\n%s\nwant:\n%s", step, code, stdout, stderr, warning+"promptgen: "+want)
		}
	}
	upToDate := out + " is up to date (nothing in " + in + ", the flags or promptgen changed)"

	generate("first", "wrote 2 files to "+out)
	before, err := os.Stat(filepath.Join(out, "a_prompt.go"))
	if err != nil {
		t.Fatal(err)
	}
	generate("unchanged", upToDate)
	if after, err := os.Stat(filepath.Join(out, "a_prompt.go")); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("an up-to-date generate touched a_prompt.go (%v)", err)
	}

	write(filepath.Join(in, "a.yaml"), "inputs:\n  name: string\n  unused: string\ntemplate: Hi {{ name }}\n")
	generate("input changed", "wrote 1 file to "+out+" (1 unchanged)")
	generate("unchanged again", upToDate)

	if err := os.Remove(filepath.Join(out, "a_prompt.go")); err != nil {
		t.Fatal(err)
	}
	generate("output removed", "wrote 1 file to "+out+" (1 unchanged)")
	write(filepath.Join(out, "a_prompt.go"), "package generated\n")
	generate("output edited", "wrote 1 file to "+out+" (1 unchanged)")
	write(filepath.Join(out, "doc.go"), "// Package generated is documented here.\npackage generated\n")
	generate("doc.go added", "wrote 1 file to "+out+" (1 unchanged)")
	generate("renderer changed", "wrote 1 file to "+out+" (1 unchanged)", "-renderer", "text/template")
	generate("unchanged, text/template", upToDate, "-renderer", "text/template")

	// A file that may name Go types: the output depends on Go code the
	// stamp does not cover.
	write(filepath.Join(in, "b.yaml"), "description: not a goType\ntemplate: B\n")
	generate("goType named", "wrote 1 file to "+out+" (2 unchanged)", "-renderer", "text/template")
	generate("goType named, again", "wrote 0 files to "+out+" (3 unchanged)", "-renderer", "text/template")
	// Go filters too: their functions' signatures shape the output.
	write(filepath.Join(in, "b.yaml"), "description: no Go filters\ntemplate: B\n")
	generate("filters named", "wrote 1 file to "+out+" (2 unchanged)", "-renderer", "text/template")
	generate("filters named, again", "wrote 0 files to "+out+" (3 unchanged)", "-renderer", "text/template")
}
