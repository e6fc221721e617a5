package generated_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/generated"
	"github.com/promptgen/promptgen/runtime"
)

// The behaviour tests of the generated package: every
// testdata/<prompt key>/<scenario>.json is a feed, and <scenario>.want.txt
// next to it is what real Jinja2 renders for it, written by
//
//	/usr/bin/python3 gen/testdata/render/golden.py --prompts   (or make golden)
//
// never by promptgen.

// prompts lists every generated prompt. TestFixtures fails when a generated
// prompt is missing here, so add new prompts as prompt[FeedType](Value).
var prompts = []promptCase{
	prompt[generated.PlanStepsFeed](generated.PlanSteps),
	prompt[generated.TicketDigestFeed](generated.TicketDigest),
	prompt[generated.ChatmlFeed](generated.Chatml),
	prompt[generated.DraftReplyFeed](generated.DraftReply),
	prompt[generated.SummarizeCustomerInteractionFeed](generated.SummarizeCustomerInteraction),
	prompt[generated.TriageTicketFeed](generated.TriageTicket),
	prompt[generated.NextActionFeed](generated.NextAction),
	prompt[generated.WeatherFeed](generated.Weather),
	prompt[generated.ExtractEntitiesFeed](generated.ExtractEntities),
	prompt[generated.ThinkFeed](generated.Think),
	fragment("fragments/tool_instructions", generated.ToolInstructionsFragment),
}

// fragmentRenderer adapts a generated fragment function to renderer.
type fragmentRenderer[F any] struct {
	key    string
	render func(F) (string, error)
}

func (r fragmentRenderer[F]) Key() string                { return r.key }
func (r fragmentRenderer[F]) Render(f F) (string, error) { return r.render(f) }
func (r fragmentRenderer[F]) AppendRender(dst []byte, f F) ([]byte, error) {
	s, err := r.render(f)
	return append(dst, s...), err
}

// fragment is the promptCase of a fragment: key is its path in the
// prompts tree, as in the "// source:" line of its file.
func fragment[F any](key string, render func(F) (string, error)) promptCase {
	return prompt[F](fragmentRenderer[F]{key, render})
}

// renderer is the API that the generated value of each prompt has.
type renderer[F any] interface {
	Key() string
	Render(F) (string, error)
	AppendRender([]byte, F) ([]byte, error)
}

// promptCase is one generated prompt, with its feed type erased.
type promptCase struct {
	key string
	// check renders the feed in JSON and compares the output with want.
	check func(t *testing.T, feed []byte, want string)
}

func prompt[F any](p renderer[F]) promptCase {
	return promptCase{key: p.Key(), check: func(t *testing.T, feed []byte, want string) {
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
		v, ok := any(&f).(interface{ Validate() error })
		if !ok {
			t.Fatalf("%T has no Validate method", &f)
		}
		if err := v.Validate(); err != nil {
			t.Errorf("Validate: %v", err)
		}

		got, err := p.Render(f)
		if err != nil {
			t.Errorf("Render: %v", err)
		} else if got != want {
			t.Errorf("Render differs from Jinja2 (-want +got):\n%s", cmp.Diff(want, got))
		}
		b, err := p.AppendRender(nil, f)
		if err != nil {
			t.Errorf("AppendRender: %v", err)
		} else if string(b) != want {
			t.Errorf("AppendRender(nil) differs from Jinja2 (-want +got):\n%s", cmp.Diff(want, string(b)))
		}
		const prefix = "prefix:"
		b, err = p.AppendRender([]byte(prefix), f)
		if err == nil && string(b) != prefix+want {
			t.Errorf("AppendRender(%q) differs from Jinja2 (-want +got):\n%s", prefix, cmp.Diff(prefix+want, string(b)))
		}
	}}
}

// TestFixtures renders every fixture of every prompt and compares the
// output with Jinja2's byte for byte. Every generated prompt must be in
// prompts and have fixtures, and every fixture directory must be a prompt's.
func TestFixtures(t *testing.T) {
	byKey := map[string]promptCase{}
	for _, p := range prompts {
		if _, dup := byKey[p.key]; dup {
			t.Errorf("prompt %s is listed twice in prompts", p.key)
		}
		byKey[p.key] = p
	}
	generatedFiles := generatedKeys(t)
	for _, key := range slices.Sorted(maps.Keys(generatedFiles)) {
		if _, ok := byKey[key]; !ok && messagesPrompts[key] == nil {
			t.Errorf("%s renders prompt %s, which is not in the prompts list of render_test.go", generatedFiles[key], key)
		}
	}

	dirs := fixtureDirs(t)
	for _, key := range slices.Sorted(maps.Keys(dirs)) {
		if setOf(key) != nil || messagesPrompts[key] != nil {
			continue // TestSetFixtures or TestMessagesFixtures checks it
		}
		if _, ok := byKey[key]; !ok {
			t.Errorf("testdata/%s has fixtures but there is no prompt %s", key, key)
		}
	}
	for _, p := range prompts {
		if !dirs[p.key] {
			t.Errorf("prompt %s has no fixtures: add testdata/%s/<scenario>.json and run make golden", p.key, p.key)
			continue
		}
		feeds, err := filepath.Glob(filepath.Join("testdata", filepath.FromSlash(p.key), "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, feed := range feeds {
			scenario := strings.TrimSuffix(filepath.Base(feed), ".json")
			t.Run(p.key+"/"+scenario, func(t *testing.T) {
				in, err := os.ReadFile(feed)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(strings.TrimSuffix(feed, ".json") + ".want.txt")
				if err != nil {
					t.Fatalf("%v (run make golden)", err)
				}
				p.check(t, in, string(want))
			})
		}
	}
}

// generatedKeys returns the keys of the prompts that this package renders,
// read from the "// source:" line that promptgen writes at the top of each
// file, mapped to the file's name.
func generatedKeys(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		if sc.Scan() && sc.Text() == "// Code generated by promptgen. DO NOT EDIT." && sc.Scan() {
			// "// source: prompts/support/draft_reply.yaml": the path
			// inside the prompts directory, without extension, is the key.
			if src, ok := strings.CutPrefix(sc.Text(), "// source: "); ok && !strings.HasSuffix(src, "/promptset.yaml") {
				_, rel, _ := strings.Cut(src, "/")
				keys[strings.TrimSuffix(rel, path.Ext(rel))] = name
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(keys) == 0 {
		t.Fatal("found no generated prompt files")
	}
	return keys
}

// fixtureDirs returns the set of prompt keys that have a directory of
// *.json fixtures under testdata.
func fixtureDirs(t *testing.T) map[string]bool {
	t.Helper()
	dirs := map[string]bool{}
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(p) == ".json" {
			rel, err := filepath.Rel("testdata", filepath.Dir(p))
			if err != nil {
				return err
			}
			dirs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestValidate checks that Validate reports every unset required variable,
// nested ones by their path from the top of the feed.
func TestValidate(t *testing.T) {
	f := generated.TicketDigestFeed{
		Team:       "Billing",
		Escalation: &generated.TicketDigestEscalation{Owner: "Alan"},
		Tickets:    []generated.TicketDigestTicketsItem{{ID: "T-1", Title: "a", Customer: "c"}, {Title: "b"}},
	}
	var got []string
	for _, err := range f.Validate().(interface{ Unwrap() []error }).Unwrap() {
		got = append(got, flatten(err)...)
	}
	want := []string{"lead", "period", "escalation.reason", "tickets[1].id", "tickets[1].customer"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variables reported (-want +got):\n%s", diff)
	}
	f = generated.TicketDigestFeed{Team: "t", Lead: "l", Period: "p", Tickets: []generated.TicketDigestTicketsItem{}}
	if err := f.Validate(); err != nil {
		t.Errorf("complete feed: %v", err)
	}
}

// flatten lists the variables of the *runtime.Error values in err.
func flatten(err error) []string {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var vars []string
		for _, e := range j.Unwrap() {
			vars = append(vars, flatten(e)...)
		}
		return vars
	}
	var re *runtime.Error
	if errors.As(err, &re) {
		return []string{re.Var}
	}
	return []string{err.Error()}
}
