package nolink

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree makes, in a new working directory, a directory "real" holding
// "dir/f.txt", a file "secret.txt", and the links "link" to real,
// "real/dir/lf.txt" to secret.txt and "real/ld" to real/dir. It returns
// the directory's absolute path.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	for name, content := range map[string]string{"real/dir/f.txt": "f", "secret.txt": "secret"} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link": "real", "real/dir/lf.txt": "../../secret.txt", "real/ld": "dir"} {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	return dir
}

// linkAt asserts that err is ErrLink naming link.
func linkAt(t *testing.T, what string, err error, link string) {
	t.Helper()
	if want := link + ": " + ErrLink.Error(); err == nil || !errors.Is(err, ErrLink) || err.Error() != want {
		t.Errorf("%s: err = %v, want %q", what, err, want)
	}
}

func TestLstat(t *testing.T) {
	dir := tree(t)
	for _, tc := range []struct{ root, name, link string }{
		{"link", ".", "link"},
		{"link/dir", "f.txt", "link"},
		{"real/ld", ".", filepath.Join("real", "ld")},
		{"real", "ld/f.txt", filepath.Join("real", "ld")},
		{"real", "dir/lf.txt", filepath.Join("real", "dir", "lf.txt")},
		{filepath.Join(dir, "link"), ".", filepath.Join(dir, "link")},
		{filepath.Join(dir, "real"), "ld", filepath.Join(dir, "real", "ld")},
	} {
		_, err := Lstat(tc.root, tc.name)
		linkAt(t, tc.root+" "+tc.name, err, tc.link)
	}
	// An absolute root is the user's up to its last element.
	if info, err := Lstat(filepath.Join(dir, "link", "dir"), "f.txt"); err != nil || info.Size() != 1 {
		t.Errorf("below a link above an absolute root: %v, %v", info, err)
	}
	if _, err := Lstat("real", "nope/f.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing directory: %v", err)
	}
	if _, err := Lstat("real", "../secret.txt"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("a name leaving the root: %v", err)
	}
}

func TestReadWrite(t *testing.T) {
	tree(t)
	if b, err := ReadFile("real", "dir/f.txt"); err != nil || string(b) != "f" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	_, err := ReadFile("real", "dir/lf.txt")
	linkAt(t, "ReadFile of a link", err, filepath.Join("real", "dir", "lf.txt"))
	_, err = ReadFile("real", "ld/f.txt")
	linkAt(t, "ReadFile through a link", err, filepath.Join("real", "ld"))
	_, err = ReadDir("link", ".")
	linkAt(t, "ReadDir of a link", err, "link")
	entries, err := ReadDir("real", "dir")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name()+" "+e.Type().String())
	}
	if want := []string{"f.txt ----------", "lf.txt L---------"}; err != nil || !slices.Equal(names, want) {
		t.Errorf("ReadDir = %q, %v; want %q", names, err, want)
	}

	linkAt(t, "WriteFile to a link", WriteFile("real", "dir/lf.txt", []byte("x"), 0o644), filepath.Join("real", "dir", "lf.txt"))
	linkAt(t, "WriteFile through a link", WriteFile("real", "ld/new.txt", []byte("x"), 0o644), filepath.Join("real", "ld"))
	if b, _ := os.ReadFile("secret.txt"); string(b) != "secret" {
		t.Errorf("secret.txt = %q", b)
	}
	if _, err := os.Lstat(filepath.Join("real", "dir", "new.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WriteFile wrote through a link (%v)", err)
	}
	if err := WriteFile("real", "dir/new.txt", []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join("real", "dir", "new.txt")); string(b) != "new" {
		t.Errorf("new.txt = %q", b)
	}

	linkAt(t, "MkdirAll below a link", MkdirAll(filepath.Join("link", "a", "b"), 0o755), "link")
	if err := MkdirAll(filepath.Join("real", "a", "b"), 0o755); err != nil {
		t.Errorf("MkdirAll: %v", err)
	}
}

func TestWalkDir(t *testing.T) {
	tree(t)
	var got []string
	err := WalkDir("real", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			got = append(got, err.Error())
		} else {
			got = append(got, p)
		}
		return nil
	})
	want := []string{"real", filepath.Join("real", "dir"), filepath.Join("real", "dir", "f.txt"),
		filepath.Join("real", "dir", "lf.txt") + ": " + ErrLink.Error(), filepath.Join("real", "ld") + ": " + ErrLink.Error()}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("WalkDir visited %q, %v; want %q", got, err, want)
	}
	err = WalkDir("link", func(p string, d fs.DirEntry, err error) error { return err })
	linkAt(t, "WalkDir of a link", err, "link")
}

// TestDependencies keeps the package on the standard library: runtime/snapshot,
// which users' tests import, depends on it.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if first, _, _ := strings.Cut(dep, "/"); strings.Contains(first, ".") && dep != "github.com/promptgen/promptgen/internal/nolink" {
			t.Errorf("nolink depends on %s", dep)
		}
	}
}
