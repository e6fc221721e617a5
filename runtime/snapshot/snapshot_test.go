package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"support/reply/b.json":                    "{}",
		"support/reply/b.want.txt":                "B",
		"support/reply/a.json":                    "{}",
		"support/reply/gone.want.txt":             "left by a renamed feed",
		"agent/main/BrowseLink.enterprise/x.json": "{}",
		"agent/main/notes.md":                     "not a snapshot file",
		"support/.hidden/c.json":                  "{}",
		"config.json":                             "another test's data",
	})
	cases, orphans, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cases {
		got = append(got, c.String())
	}
	want := []string{"agent/main/BrowseLink.enterprise/x", "support/reply/a", "support/reply/b"}
	if !slices.Equal(got, want) {
		t.Errorf("cases %q, want %q", got, want)
	}
	if wantOrphans := []string{filepath.Join(dir, "support", "reply", "gone.want.txt")}; !slices.Equal(orphans, wantOrphans) {
		t.Errorf("orphans %q, want %q", orphans, wantOrphans)
	}
	if c := cases[1]; c.FeedFile() != filepath.Join(dir, "support", "reply", "a.json") || c.WantFile() != filepath.Join(dir, "support", "reply", "a.want.txt") {
		t.Errorf("files of %s: %s, %s", c, c.FeedFile(), c.WantFile())
	}
	if _, _, err := Find(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Find of a missing directory: %v", err)
	}
}

func TestCompareAndUpdate(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"p/a.json": "{}", "p/a.want.txt": "Hello\nAda\n"})
	c := Case{Dir: dir, Key: "p", Name: "a"}
	if diff, err := c.Compare("Hello\nAda\n"); diff != "" || err != nil {
		t.Errorf("Compare of the same text = %q, %v", diff, err)
	}
	label := strings.TrimLeft(filepath.ToSlash(c.WantFile()), "/")
	diff, err := c.Compare("Hello\nGrace\n")
	want := "--- a/" + label + "\n+++ b/" + label + "\n@@ -1,2 +1,2 @@\n Hello\n-Ada\n+Grace\n"
	if err != nil || diff != want {
		t.Errorf("Compare = %q, %v; want %q", diff, err, want)
	}
	if wrote, err := c.Update("Hello\nAda\n"); wrote || err != nil {
		t.Errorf("Update with the same text = %v, %v; want no write", wrote, err)
	}
	if wrote, err := c.Update("Hello\nGrace"); !wrote || err != nil {
		t.Errorf("Update = %v, %v", wrote, err)
	}
	if b, _ := os.ReadFile(c.WantFile()); string(b) != "Hello\nGrace" {
		t.Errorf("snapshot after Update: %q", b)
	}
	missing := Case{Dir: dir, Key: "p", Name: "new"}
	if _, err := missing.Compare("x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Compare without a snapshot: %v", err)
	}
}

// recorder is a testing.TB that records the errors of Test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

type greetFeed struct {
	Name string `json:"name"`
}

func greet(f greetFeed) (string, error) {
	if f.Name == "" {
		return "", errors.New("name is missing")
	}
	return "Hello " + f.Name + "\n", nil
}

// greeting has the methods of a generated prompt.
type greeting struct{}

func (greeting) Key() string                        { return "support/greet" }
func (greeting) Render(f greetFeed) (string, error) { return greet(f) }

func TestTest(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"support/greet/ada.json":       `{"name": "Ada"}`,
		"support/greet/ada.want.txt":   "Hello Ada\n",
		"support/greet/grace.json":     `{"name": "Grace"}`,
		"support/greet/grace.want.txt": "Hi Grace\n",
		"support/greet/new.json":       `{"name": "Alan"}`,
		"support/greet/typo.json":      `{"nme": "Alan"}`,
		"support/greet/empty.json":     `{}`,
		"support/greet/empty.want.txt": "",
		"support/greet/old.want.txt":   "Hello Old\n",
		"support/gone/a.json":          `{}`,
		"fragments/sign/a.json":        `{"name": "Ada"}`,
		"fragments/sign/a.want.txt":    "Hello Ada\n",
	})
	r := &recorder{TB: t}
	Test(r, dir, Of(greeting{}), Fragment("fragments/sign", greet), Fragment("fragments/unused", greet))
	label := strings.TrimLeft(filepath.ToSlash(filepath.Join(dir, "support", "greet", "grace.want.txt")), "/")
	want := []string{
		filepath.Join(dir, "support", "greet", "old.want.txt") + " has no feed beside it: delete it, or run promptgen test -update",
		filepath.Join(dir, "support", "gone", "a.json") + `: no prompt "support/gone" was given to snapshot.Test`,
		"support/greet/empty: " + filepath.Join(dir, "support", "greet", "empty.json") + ": name is missing",
		"support/greet/grace: the text differs from its snapshot (promptgen test -update accepts it):\n" +
			"--- a/" + label + "\n+++ b/" + label + "\n@@ -1 +1 @@\n-Hi Grace\n+Hello Grace\n",
		"support/greet/new: " + filepath.Join(dir, "support", "greet", "new.json") + " has no snapshot: run promptgen test -update to write it",
		"support/greet/typo: " + filepath.Join(dir, "support", "greet", "typo.json") + `: decoding the feed: json: unknown field "nme"`,
		`"fragments/unused" has no snapshots: add ` + dir + "/fragments/unused/<name>.json and run promptgen test -update",
	}
	if !slices.Equal(r.errors, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(r.errors, "\n"), strings.Join(want, "\n"))
	}

	ok := &recorder{TB: t}
	Test(ok, filepath.Join(dir, "fragments"), Fragment("sign", greet))
	if len(ok.errors) > 0 {
		t.Errorf("errors for matching snapshots: %q", ok.errors)
	}
}

// agentSet has the methods of a generated template set, resolving with
// the runtime's Manager; a template renders its path and the feed.
type agentSet struct{ m runtime.Manager }

var agentPaths = []string{"action_agent/main/default", "main/BrowseLink", "main/BrowseLink.enterprise", "main/default"}

func newAgentSet(opts ...runtime.Option) *agentSet {
	return &agentSet{runtime.NewManager(runtime.MapTable("agent", agentPaths, -1), runtime.Settings{Type: "main", DefaultName: "default"}, opts...)}
}

func (a *agentSet) Paths() []string { return agentPaths }

func (a *agentSet) Resolve(key string, opts ...runtime.Option) runtime.Resolution {
	return a.m.Resolve(key, opts...)
}

func (a *agentSet) Render(key string, f greetFeed, opts ...runtime.Option) (string, error) {
	r := a.m.Resolve(key, opts...)
	if r.Err != nil {
		return "", r.Err
	}
	return r.Path + " (" + r.Settings.Version + "): " + f.Name + "\n", nil
}

// TestTestSet: the snapshots of a set's template are rendered through the
// set's resolution, with the settings that make the template's path the
// first one tried.
func TestTestSet(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent/main/BrowseLink.enterprise/a.json":     `{"name": "Ada"}`,
		"agent/main/BrowseLink.enterprise/a.want.txt": "main/BrowseLink.enterprise (enterprise): Ada\n",
		"agent/action_agent/main/default/a.json":      `{"name": "Ada"}`,
		"agent/action_agent/main/default/a.want.txt":  "action_agent/main/default (): Ada\n",
		"agent/main/Search/a.json":                    `{"name": "Ada"}`,
	})
	r := &recorder{TB: t}
	Test(r, dir, Set("agent", newAgentSet))
	want := []string{filepath.Join(dir, "agent", "main", "Search", "a.json") + `: no prompt "agent/main/Search" was given to snapshot.Test`}
	if !slices.Equal(r.errors, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(r.errors, "\n"), strings.Join(want, "\n"))
	}
}

// TestSymlinks: a link among the snapshots (a snapshot, a feed, a
// directory, the directory itself) fails Find, so Test, with an error
// naming it; Compare and Update refuse a snapshot that is a link. Nothing
// is read or written through a link.
func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	victim := filepath.Join(dir, "outside", "victim.txt")
	writeFiles(t, dir, map[string]string{
		"outside/victim.txt":            `{"name": "TOP SECRET"}`,
		"outside/snaps/x/a.json":        `{"name": "Ada"}`,
		"outside/snaps/x/a.want.txt":    "Hello Ada\n",
		"want/support/greet/a.json":     `{"name": "Ada"}`,
		"feed/support/greet/a.want.txt": "Hello Ada\n",
		"sub/support/other/a.json":      `{"name": "Ada"}`,
	})
	for link, target := range map[string]string{
		"want/support/greet/a.want.txt": victim,
		"feed/support/greet/a.json":     victim,
		"sub/support/greet":             filepath.Join(dir, "outside", "snaps", "x"),
		"root":                          filepath.Join(dir, "outside", "snaps"),
	} {
		if err := os.Symlink(target, filepath.FromSlash(link)); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	suffix := ": symbolic link (promptgen follows no links)"
	for snaps, want := range map[string]string{
		"want": filepath.Join("want", "support", "greet", "a.want.txt") + suffix,
		"feed": filepath.Join("feed", "support", "greet", "a.json") + suffix,
		"sub":  filepath.Join("sub", "support", "greet") + suffix,
		"root": "root" + suffix,
	} {
		if _, _, err := Find(snaps); err == nil || err.Error() != want {
			t.Errorf("Find(%q) = %v, want %q", snaps, err, want)
		}
		r := &recorder{TB: t}
		Test(r, snaps, Of(greeting{}))
		if len(r.errors) != 1 || r.errors[0] != "snapshots: "+want {
			t.Errorf("Test(%q): %q, want %q", snaps, r.errors, "snapshots: "+want)
		}
	}
	c := Case{Dir: "want", Key: "support/greet", Name: "a"}
	wantErr := filepath.Join("want", "support", "greet", "a.want.txt") + suffix
	if diff, err := c.Compare("Hello Ada\n"); diff != "" || err == nil || err.Error() != wantErr {
		t.Errorf("Compare = %q, %v; want %q", diff, err, wantErr)
	}
	if _, err := c.Update("Hello Ada\n"); err == nil || err.Error() != wantErr {
		t.Errorf("Update: %v, want %q", err, wantErr)
	}
	c = Case{Dir: "feed", Key: "support/greet", Name: "a"}
	if _, err := c.ReadFeed(); err == nil || err.Error() != filepath.Join("feed", "support", "greet", "a.json")+suffix {
		t.Errorf("ReadFeed: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != `{"name": "TOP SECRET"}` {
		t.Errorf("victim.txt = %q", b)
	}
}
