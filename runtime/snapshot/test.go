package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// Prompt is a generated prompt, fragment or template set that Test
// renders; make one with Of, Fragment or Set.
type Prompt struct {
	key string
	// paths are a set's template paths; nil for a prompt.
	paths []string
	// render renders the template at path (a set's) or the prompt ("").
	render func(path, name string, feed []byte) (string, error)
}

// Renderer is what the generated value of a prompt has.
type Renderer[F any] interface {
	Key() string
	Render(F) (string, error)
}

// SetRenderer is what a generated template set type has.
type SetRenderer[F any] interface {
	Paths() []string
	Resolve(key string, opts ...runtime.Option) runtime.Resolution
	Render(key string, f F, opts ...runtime.Option) (string, error)
}

// Of is a generated prompt: snapshot.Of(generated.DraftReply).
func Of[F any](p Renderer[F]) Prompt {
	return Fragment(p.Key(), p.Render)
}

// Fragment is a generated fragment function, under its key in the prompts
// tree: snapshot.Fragment("fragments/tool_instructions",
// generated.ToolInstructionsFragment).
func Fragment[F any](key string, render func(F) (string, error)) Prompt {
	return Prompt{key: key, render: func(_, _ string, feed []byte) (string, error) {
		f, err := decode[F](feed)
		if err != nil {
			return "", err
		}
		return render(f)
	}}
}

// Set is a generated template set, under its key in the prompts tree:
// snapshot.Set[generated.AgentFeed]("agent", generated.NewAgent). The
// snapshots of its template at path P (main/BrowseLink.enterprise) are in
// <dir>/<key>/<P>; each is rendered as Render renders the key in P with
// P's namespace as the type and P's version as the version, the settings
// under which P is the first path tried. The set's default_template is
// rendered as the system default, under settings that no path matches. A
// feed named <name>@<N>.json renders with the predefined variables N.
func Set[F any, S SetRenderer[F]](key string, newSet func(...runtime.Option) S) Prompt {
	return Prompt{key: key, paths: newSet().Paths(), render: func(p, caseName string, feed []byte) (string, error) {
		f, err := decode[F](feed)
		if err != nil {
			return "", err
		}
		ns, file := "", p
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			ns, file = p[:i], p[i+1:]
		}
		name, version, _ := strings.Cut(file, ".")
		opts := []runtime.Option{runtime.WithType(ns), runtime.WithVersion(version)}
		if p == systemDefault {
			name = "none"
			opts = []runtime.Option{runtime.WithType(name), runtime.WithDefaultName(name)}
		}
		if _, predefined, ok := strings.Cut(caseName, "@"); ok {
			opts = append(opts, runtime.WithPredefined(predefined))
		}
		s := newSet(opts...)
		if r := s.Resolve(name); r.Path != p {
			return "", fmt.Errorf("key %q with type %q and version %q resolves to %q, not %q", name, ns, version, r.Path, p)
		}
		return s.Render(name, f)
	}}
}

// systemDefault is the path of a set's default_template.
const systemDefault = "default_template"

// decode decodes a feed as promptgen render does: one JSON object, whose
// every key is a field.
func decode[F any](feed []byte) (F, error) {
	var f F
	dec := json.NewDecoder(bytes.NewReader(feed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("decoding the feed: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return f, errors.New("decoding the feed: data after the JSON object")
	}
	return f, nil
}

// lookup returns the prompt whose snapshots are under key, and the
// template path in it for a set.
func lookup(prompts []Prompt, key string) (Prompt, string, bool) {
	for _, p := range prompts {
		if p.paths == nil && p.key == key {
			return p, "", true
		}
		if rest, ok := strings.CutPrefix(key, p.key+"/"); ok && p.paths != nil && slices.Contains(p.paths, rest) {
			return p, rest, true
		}
	}
	return Prompt{}, "", false
}

// Test renders every case in dir with the prompts given and compares the
// text with its snapshot: a change is an error showing the unified diff. A
// case of no prompt given, a prompt without cases, a snapshot without a
// feed, a feed without a snapshot and a failed render are errors too.
// `promptgen test -update` writes the snapshots.
func Test(t testing.TB, dir string, prompts ...Prompt) {
	t.Helper()
	cases, orphans, err := Find(dir)
	if err != nil {
		t.Errorf("snapshots: %v", err)
		return
	}
	for _, o := range orphans {
		t.Errorf("%s has no feed beside it: delete it, or run promptgen test -update", o)
	}
	tested := map[string]bool{}
	for _, c := range cases {
		p, path, ok := lookup(prompts, c.Key)
		if !ok {
			t.Errorf("%s: no prompt %q was given to snapshot.Test", c.FeedFile(), c.Key)
			continue
		}
		tested[p.key] = true
		if msg := check(c, p, path); msg != "" {
			t.Errorf("%s: %s", c, msg)
		}
	}
	for _, p := range prompts {
		if !tested[p.key] {
			t.Errorf("%q has no snapshots: add %s/%s/<name>.json and run promptgen test -update", p.key, dir, p.key)
		}
	}
}

// check renders case c with p and returns what is wrong, or "".
func check(c Case, p Prompt, path string) string {
	feed, err := c.ReadFeed()
	if err != nil {
		return err.Error()
	}
	got, err := p.render(path, c.Name, feed)
	if err != nil {
		return fmt.Sprintf("%s: %v", c.FeedFile(), err)
	}
	diff, err := c.Compare(got)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s has no snapshot: run promptgen test -update to write it", c.FeedFile())
	case err != nil:
		return err.Error()
	case diff != "":
		return "the text differs from its snapshot (promptgen test -update accepts it):\n" + diff
	}
	return ""
}
