package generated_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
)

// The behaviour tests of the generated template sets: each template of a
// set, at full path P (such as main/BrowseLink.enterprise), has fixtures in
// testdata/<set>/<P>/<scenario>.json, with what real Jinja2 renders for it
// in <scenario>.want.txt (golden.py --prompts renders set templates with
// their components as promptgen does). Each fixture is rendered through
// the set's fallback chain, with the settings under which P is the first
// path tried (for default_template, the system default: under which every
// path misses), and with the predefined variables N for a scenario named
// <scenario>@<N>.

// sets lists every generated template set. TestSetFixtures fails when a
// generated set is missing here.
var sets = []setCase{
	templateSet[generated.AgentFeed]("agent", generated.NewAgent),
	templateSet[generated.ChatFormatsFeed]("chat_formats", generated.NewChatFormats),
}

// templateSetAPI is the part of a generated set type that the tests use.
type templateSetAPI[F any] interface {
	Paths() []string
	Resolve(key string, opts ...runtime.Option) runtime.Resolution
	Render(key string, f F, opts ...runtime.Option) (string, error)
	AppendRender(dst []byte, key string, f F, opts ...runtime.Option) ([]byte, error)
}

// setCase is one generated set, with its feed type erased.
type setCase struct {
	dir   string // the set's directory in prompts/
	paths []string
	// check renders the template at path with the feed in JSON and the
	// predefined variables named predefined, and compares the output with
	// want.
	check func(t *testing.T, path string, feed []byte, predefined, want string)
}

func templateSet[F any, S templateSetAPI[F]](dir string, newSet func(...runtime.Option) S) setCase {
	return setCase{dir: dir, paths: newSet().Paths(), check: func(t *testing.T, path string, feed []byte, predefined, want string) {
		t.Helper()
		var f F
		dec := json.NewDecoder(bytes.NewReader(feed))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("decoding the feed: %v", err)
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Fatalf("decoding the feed: data after the JSON object")
		}
		// The namespace as the type and the version make path the first
		// step of the chain: T/K.V, or T/D.V for a default template.
		ns, file := "", path
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			ns, file = path[:i], path[i+1:]
		}
		name, version, _ := strings.Cut(file, ".")
		s := newSet(runtime.WithType(ns), runtime.WithVersion(version), runtime.WithPredefined(predefined))
		key := name
		if path == "default_template" {
			key = "none"
			s = newSet(runtime.WithType(key), runtime.WithDefaultName(key), runtime.WithPredefined(predefined))
		}
		if r := s.Resolve(key); r.Path != path {
			t.Fatalf("Resolve(%q) with type %q, version %q = %q (tried %q); want %s", key, ns, version, r.Path, r.Tried(), path)
		}
		got, err := s.Render(key, f)
		if err != nil {
			t.Errorf("Render: %v", err)
		} else if got != want {
			t.Errorf("Render differs from Jinja2 (-want +got):\n%s", cmp.Diff(want, got))
		}
		const prefix = "prefix:"
		b, err := s.AppendRender([]byte(prefix), key, f)
		if err != nil || string(b) != prefix+want {
			t.Errorf("AppendRender(%q) = %q, %v; want %q", prefix, b, err, prefix+want)
		}
	}}
}

// setOf returns the set whose fixtures are in testdata/<key>, or nil.
func setOf(key string) *setCase {
	for i, s := range sets {
		if strings.HasPrefix(key, s.dir+"/") {
			return &sets[i]
		}
	}
	return nil
}

// TestSetFixtures renders every fixture of every template of every set and
// compares the output with Jinja2's byte for byte. Every generated set
// must be in sets, every template have fixtures, and every fixture
// directory of a set be a template's.
func TestSetFixtures(t *testing.T) {
	listed := map[string]bool{}
	for _, s := range sets {
		listed[s.dir] = true
	}
	for _, dir := range generatedSets(t) {
		if !listed[dir] {
			t.Errorf("set %s is generated but not in the sets list of set_render_test.go", dir)
		}
	}
	dirs := fixtureDirs(t)
	for _, s := range sets {
		paths := map[string]bool{}
		for _, p := range s.paths {
			paths[p] = true
			if !dirs[s.dir+"/"+p] {
				t.Errorf("template %s of set %s has no fixtures: add testdata/%s/%s/<scenario>.json and run make golden", p, s.dir, s.dir, p)
				continue
			}
			feeds, err := filepath.Glob(filepath.Join("testdata", filepath.FromSlash(s.dir+"/"+p), "*.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, feed := range feeds {
				scenario := strings.TrimSuffix(filepath.Base(feed), ".json")
				t.Run(s.dir+"/"+p+"/"+scenario, func(t *testing.T) {
					in, err := os.ReadFile(feed)
					if err != nil {
						t.Fatal(err)
					}
					want, err := os.ReadFile(strings.TrimSuffix(feed, ".json") + ".want.txt")
					if err != nil {
						t.Fatalf("%v (run make golden)", err)
					}
					_, predefined, _ := strings.Cut(scenario, "@")
					s.check(t, p, in, predefined, string(want))
				})
			}
		}
		for key := range dirs {
			if rest, ok := strings.CutPrefix(key, s.dir+"/"); ok && !paths[rest] {
				t.Errorf("testdata/%s has fixtures but set %s has no template %s", key, s.dir, rest)
			}
		}
	}
}

// generatedSets returns the directories of the sets generated here, read
// from the "// source: <prompts>/<dir>/promptset.yaml" line of their files.
func generatedSets(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_set.go")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for i := 0; i < 2 && sc.Scan(); i++ {
			if src, ok := strings.CutPrefix(sc.Text(), "// source: "); ok {
				_, rel, _ := strings.Cut(src, "/")
				if dir, ok := strings.CutSuffix(rel, "/promptset.yaml"); ok {
					dirs = append(dirs, dir)
				}
			}
		}
		f.Close()
	}
	if len(dirs) == 0 {
		t.Fatal("found no generated template sets")
	}
	return dirs
}
