// Package testmod makes temporary Go modules that require this checkout
// (a replace directive to it), for the tests that compile and run
// generated code: one place for the go.mod they share.
package testmod

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Root is the directory of this checkout: the module promptgen.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// New makes module path in a temporary directory, requiring this checkout
// with its go.sum, and returns the directory.
func New(t testing.TB, path string) string {
	t.Helper()
	dir := t.TempDir()
	gomod := "module " + path + "\n\ngo 1.26\n\nrequire github.com/promptgen/promptgen v0.0.0\n\nreplace github.com/promptgen/promptgen => " + Root() + "\n"
	WriteFile(t, filepath.Join(dir, "go.mod"), []byte(gomod))
	WriteFile(t, filepath.Join(dir, "go.sum"), ReadFile(t, filepath.Join(Root(), "go.sum")))
	return dir
}

// Go runs the go command in dir, a module made by New, and returns its
// combined output. Missing requirements are added to go.mod as needed.
func Go(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	return cmd.CombinedOutput()
}

// WriteFile writes b to path, making its directory.
func WriteFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns the content of path.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
