package vet_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the analyzer off the generator: it reads what it
// needs from the generated package's types, never from gen or its stages
// (nor their libraries), so linters can import it cheaply.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/promptgen/promptgen/gen" || strings.HasPrefix(dep, "github.com/promptgen/promptgen/gen/") ||
			strings.HasPrefix(dep, "github.com/dave/jennifer") || dep == "golang.org/x/tools/go/packages" {
			t.Errorf("vet depends on %s", dep)
		}
	}
}
