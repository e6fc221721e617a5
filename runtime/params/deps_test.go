package params

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps params to the standard library, so that any
// package can read the table.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if first, _, _ := strings.Cut(dep, "/"); strings.Contains(first, ".") && dep != "github.com/promptgen/promptgen/runtime/params" {
			t.Errorf("params depends on %s", dep)
		}
	}
}
