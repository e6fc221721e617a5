package output

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps runtime/output to the standard library and the
// one JSON Schema library: generated packages import it.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(pkg, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(pkg, "github.com/santhosh-tekuri/jsonschema/v5") &&
			!strings.HasPrefix(pkg, "github.com/promptgen/promptgen/runtime") {
			t.Errorf("runtime/output depends on %s", pkg)
		}
	}
}
