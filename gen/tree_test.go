package gen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// secret is the content of files outside the prompts tree: it must never
// reach a result.
const secret = "TOP SECRET {{ x }}"

// symlinkTree makes, in a new directory, a prompts tree "p" with files
// (path → content) and links (path → target), and a file "secret.txt" and
// a directory "shared" (holding a prompt) next to it. It changes into the
// directory.
func symlinkTree(t *testing.T, files, links map[string]string) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "secret.txt"), []byte(secret))
	writeFile(t, filepath.Join(dir, "shared", "s.jinja"), []byte(secret))
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		writeFile(t, filepath.Join(dir, "p", name), []byte(content))
	}
	for name, target := range links {
		p := filepath.Join(dir, "p", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	t.Chdir(dir)
}

// generateP runs Generate on "p" and returns its diagnostics, one a line,
// failing the test if secret shows in them or in a generated file.
func generateP(t *testing.T) (*Result, string) {
	t.Helper()
	res, _ := Generate(context.Background(), Config{Dir: "p", Out: "out", ImportPath: "x/out"})
	got := res.Diagnostics.Error()
	for _, f := range res.Files {
		if strings.Contains(string(f.Content), "TOP SECRET") {
			t.Errorf("%s holds the content of a file outside the tree", f.Name)
		}
	}
	if strings.Contains(got, "TOP SECRET") {
		t.Error("diagnostics show the content of a file outside the tree")
	}
	return res, got
}

func TestSymlinksLeavingTheTree(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(t.TempDir(), "abs-secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, abs, []byte(secret))
	symlinkTree(t, map[string]string{"ok.jinja": "ok"}, map[string]string{
		"abs.jinja":                  abs,
		"rel.jinja":                  "../secret.txt",
		"LICENSE":                    "../secret.txt",       // not a prompt file, still refused
		"shared":                     "../shared",           // a directory
		"agent/promptset.yaml":       "../../secret.txt",    // a set's settings
		"set/main/leak.jinja":        "../../../secret.txt", // inside a set
		".hidden.jinja":              "../secret.txt",       // hidden: not read, not reported
		"set/.cache/x.jinja":         "../../../secret.txt",
		"broken.jinja":               "nowhere.jinja",
		"loop1.jinja":                "loop2.jinja",
		"loop2.jinja":                "loop1.jinja",
		"sub/up":                     "..",
		"sub/self":                   ".",
		"a/to_b":                     "../b",
		"b/to_a":                     "../a",
		"agent/main/default.jinja.x": "y",
	})
	writeFile(t, filepath.Join("p", "set", "promptset.yaml"), nil)
	writeFile(t, filepath.Join("p", "set", "main", "default.jinja"), []byte("d"))
	_, got := generateP(t)
	want := strings.Join([]string{
		"p/LICENSE: symbolic link to outside the prompts tree",
		"p/a/to_b/to_a: symbolic link loop (it leads back to a directory on its own path)",
		"p/abs.jinja: symbolic link to outside the prompts tree",
		"p/agent/main/default.jinja.x: broken symbolic link (its target does not exist)",
		"p/agent/promptset.yaml: symbolic link to outside the prompts tree",
		"p/b/to_a/to_b: symbolic link loop (it leads back to a directory on its own path)",
		"p/broken.jinja: broken symbolic link (its target does not exist)",
		"p/loop1.jinja: too many levels of symbolic links",
		"p/loop2.jinja: too many levels of symbolic links",
		"p/rel.jinja: symbolic link to outside the prompts tree",
		"p/set/main/leak.jinja: symbolic link to outside the prompts tree",
		"p/shared: symbolic link to outside the prompts tree",
		"p/sub/self: symbolic link loop (it leads back to a directory on its own path)",
		"p/sub/up: symbolic link loop (it leads back to a directory on its own path)",
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestSymlinksInsideTheTree(t *testing.T) {
	symlinkTree(t, map[string]string{
		".lib/a.jinja":              "A {{ x }}",
		".lib/b.jinja":              "B",
		"set/promptset.yaml":        "",
		"set/main/default.jinja":    `D {{ y }}{% include "c" %}{% include "l" %}`,
		"set/components/c.jinja":    "C",
		"set/main/Other.jinja.orig": "",
	}, map[string]string{
		"alias.jinja":         ".lib/b.jinja",
		"lib":                 ".lib", // a hidden directory, under a name that is not
		"set/main/Same.jinja": "default.jinja",
		"set/main/Up.jinja":   "../../.lib/b.jinja", // leaves the set, not the tree
		"set/components/l.md": "c.jinja",
		"deep/er/back.jinja":  "../../set/components/c.jinja",
	})
	res, got := generateP(t)
	if got != "" {
		t.Fatalf("diagnostics:\n%s", got)
	}
	var names []string
	for _, f := range res.Files {
		names = append(names, f.Name)
	}
	want := []string{"alias_prompt.go", "deep_er_back_prompt.go", "lib_a_prompt.go", "lib_b_prompt.go", "promptgen.go", "set_set.go"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// The prompts directory itself may be a link, to anywhere.
func TestSymlinkedPromptsDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "elsewhere", "a.jinja"), []byte("A"))
	if err := os.Symlink("elsewhere", filepath.Join(dir, "p")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	t.Chdir(dir)
	res, got := generateP(t)
	if got != "" || len(res.Files) != 2 {
		t.Errorf("diagnostics %q, %d files", got, len(res.Files))
	}
}
