package output

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps each output package to the standard library and
// its one field library: generated packages import them.
func TestDependencies(t *testing.T) {
	for pkg, lib := range map[string]string{
		".":         "github.com/santhosh-tekuri/jsonschema/v5",
		"./yamlout": "gopkg.in/yaml.v3",
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range strings.Fields(string(out)) {
			first, _, _ := strings.Cut(dep, "/")
			if strings.Contains(first, ".") && dep != lib && !strings.HasPrefix(dep, "github.com/promptgen/promptgen/runtime/") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
