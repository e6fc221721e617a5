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

// TestSymlinks: every symbolic link in the prompts tree is an error at the
// link, whatever its name and wherever it points (outside the tree, inside
// it, nowhere, in a loop), and nothing is read through one. Hidden ones
// are skipped unread.
func TestSymlinks(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(t.TempDir(), "abs-secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, abs, []byte(secret))
	symlinkTree(t, map[string]string{
		"ok.jinja":               "ok",
		".lib/b.jinja":           secret,
		"set/main/default.jinja": `d{% include "c" %}`,
		"set/components/c.jinja": "C",
	}, map[string]string{
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
		"alias.jinja":                ".lib/b.jinja",  // inside the tree
		"lib":                        ".lib",          // a directory inside the tree
		"set/main/Same.jinja":        "default.jinja", // in the same directory
		"set/components/l.md":        "c.jinja",       // a component
		"agent/main/default.jinja.x": "y",
	})
	writeFile(t, filepath.Join("p", "set", "promptset.yaml"), nil)
	_, got := generateP(t)
	const link = ": symbolic link (promptgen follows no links)"
	want := strings.Join([]string{
		"p/LICENSE" + link,
		"p/abs.jinja" + link,
		"p/agent/main/default.jinja.x" + link,
		"p/agent/promptset.yaml" + link,
		"p/alias.jinja" + link,
		"p/broken.jinja" + link,
		"p/lib" + link,
		"p/loop1.jinja" + link,
		"p/loop2.jinja" + link,
		"p/rel.jinja" + link,
		"p/set/components/l.md" + link,
		"p/set/main/Same.jinja" + link,
		"p/set/main/leak.jinja" + link,
		"p/shared" + link,
		"p/sub/up" + link,
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// The prompts directory itself may not be a link, nor may a directory on
// a relative path to it; above an absolute path, the directories are the
// machine's.
func TestSymlinkedPromptsDir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "elsewhere", "p", "a.jinja"), []byte(secret))
	for link, target := range map[string]string{"p": "elsewhere/p", "up": "elsewhere"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	t.Chdir(dir)
	for in, want := range map[string]string{
		"p":                           "load: p: symbolic link (promptgen follows no links)",
		"up/p":                        "load: up: symbolic link (promptgen follows no links)",
		filepath.Join(dir, "up", "p"): "",
	} {
		res, err := Generate(context.Background(), Config{Dir: in, Out: "out", ImportPath: "x/out"})
		switch {
		case want == "" && err != nil:
			t.Errorf("-in %s: %v", in, err)
		case want != "" && (err == nil || err.Error() != want || res != nil):
			t.Errorf("-in %s: %v, %v; want %q", in, res, err, want)
		}
	}
}
