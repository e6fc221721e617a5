package vet_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the analyzer off the generator: it reads what it
// needs from the generated package's types, and imports only the standard
// library, golang.org/x/tools and runtime's tables and resolver (and
// schema's did-you-mean, with schema's YAML library).
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/promptgen/promptgen/"
	for _, dep := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(dep, "/")
		switch {
		case !strings.Contains(first, "."), strings.HasPrefix(dep, "golang.org/x/tools/"):
		case dep == mod+"vet", dep == mod+"runtime", dep == mod+"runtime/params", dep == mod+"schema", dep == "gopkg.in/yaml.v3":
		default:
			t.Errorf("vet depends on %s", dep)
		}
	}
}
