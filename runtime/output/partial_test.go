package output

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promptgen/promptgen/runtime/internal/costtest"
)

// What generated code makes of streamSchema.
const streamSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string"},
    "count": {"type": "integer"},
    "mood": {"enum": ["up", "down"]},
    "tags": {"type": "array", "items": {"type": "string"}},
    "items": {"type": "array", "items": {"type": "object", "properties": {"title": {"type": "string"}, "done": {"type": "boolean"}}, "required": ["title"]}}
  },
  "required": ["name", "count"]
}`

type streamOut struct {
	Name  string       `json:"name"`
	Count int          `json:"count"`
	Mood  *string      `json:"mood,omitempty"`
	Tags  []string     `json:"tags,omitempty"`
	Items []streamItem `json:"items,omitempty"`
}

type streamItem struct {
	Title string `json:"title"`
	Done  *bool  `json:"done,omitempty"`
}

type streamPartial struct {
	Name  Field[string]              `output:"name"`
	Count Field[int]                 `output:"count"`
	Mood  Field[string]              `output:"mood"`
	Tags  Field[[]string]            `output:"tags"`
	Items Field[[]streamItemPartial] `output:"items"`
}

func (p streamPartial) MarshalJSON() ([]byte, error) { return MarshalPartial(p) }

type streamItemPartial struct {
	Title Field[string] `output:"title"`
	Done  Field[bool]   `output:"done"`
}

func (p streamItemPartial) MarshalJSON() ([]byte, error) { return MarshalPartial(p) }

var streamParser = NewParser(streamSchema, MustCompileSchema(streamSchema))

// TestParsePartial checks what is known, and in which state, at points of
// an answer being written.
func TestParsePartial(t *testing.T) {
	tests := []struct {
		text, want string
		states     map[string]State // of the top's fields
	}{
		{``, `{}`, nil},
		{"Sure:\n```json\n{\"na", `{}`, nil},
		{`{"name": "Al`, `{"name":"Al"}`, map[string]State{"name": InProgress}},
		{`{"name": "Alice"`, `{"name":"Alice"}`, map[string]State{"name": InProgress}},
		{`{"name": "Alice", "count": 12`, `{"name":"Alice"}`, map[string]State{"name": Done, "count": Absent}},
		// 12, may go on as 12,345: the number is not known yet.
		{`{"name": "Alice", "count": 12,`, `{"name":"Alice"}`, map[string]State{"name": Done, "count": Absent}},
		{`{"name": "Alice", "count": 12, `, `{"name":"Alice","count":12}`, map[string]State{"count": Done}},
		{`{"name": "Alice", "count": 12, mood: DOW`, `{"name":"Alice","count":12}`, map[string]State{"mood": Absent}},
		{`{"name": "Alice", "count": 12, mood: DOWN, tags: ["a", "b`, `{"name":"Alice","count":12,"mood":"down","tags":["a"]}`,
			map[string]State{"mood": Done, "tags": InProgress}},
		{`{"name": "Alice", "count": 12, "items": [{"title": "x", "done": true}, {"title": "y`,
			`{"name":"Alice","count":12,"items":[{"title":"x","done":true},{"title":"y"}]}`, map[string]State{"items": InProgress}},
	}
	for _, tt := range tests {
		p, err := ParsePartial[streamPartial](streamParser, tt.text)
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		got, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%q: got %s, want %s", tt.text, got, tt.want)
		}
		states := map[string]State{"name": p.Name.State(), "count": p.Count.State(), "mood": p.Mood.State(), "tags": p.Tags.State(), "items": p.Items.State()}
		for field, want := range tt.states {
			if states[field] != want {
				t.Errorf("%q: %s is %v, want %v", tt.text, field, states[field], want)
			}
		}
	}
	last, _ := ParsePartial[streamPartial](streamParser, tests[len(tests)-1].text)
	items := last.Items.Value()
	if !items[0].Title.Done() || items[1].Title.State() != InProgress || items[1].Done.State() != Absent {
		t.Errorf("item states: %v %v %v", items[0].Title.State(), items[1].Title.State(), items[1].Done.State())
	}

	if _, err := ParsePartial[streamPartial](streamParser, `{"name": "a", "count": "many",`); err == nil {
		t.Error(`"many" for an integer: got no error`)
	}
}

// TestStream feeds answers byte by byte: no prefix of an answer that
// parses is an error, what is known only grows, and after End the partial
// is the value End returned.
func TestStream(t *testing.T) {
	answers := []string{
		`{"name": "Alice", "count": 12, "mood": "up", "tags": ["a", "b"], "items": [{"title": "x", "done": true}, {"title": "y"}]}`,
		"Here you go:\n```json\n{name: 'Bob', count: \"1,200\", mood: 'DOWN: sad', items: [{title: \"t\", done: \"yes, true\"},],}\n```\nAnything else?",
		"{\"name\": \"Eve\", // the user\n \"count\": 3, \"tags\": \"solo\"}",
	}
	for _, answer := range answers {
		s := NewStream[streamPartial, streamOut](streamParser)
		prevLen := 0
		for i := range len(answer) {
			if _, err := s.WriteString(answer[i : i+1]); err != nil {
				t.Fatal(err)
			}
			p, err := s.Partial()
			if err != nil {
				t.Fatalf("%q after %q: %v", answer, answer[:i+1], err)
			}
			b, _ := json.Marshal(p)
			if len(b) < prevLen-1 { // a string in progress may lose a trailing quote it took for its end
				t.Errorf("%q after %q: known shrank to %s", answer, answer[:i+1], b)
			}
			prevLen = len(b)
		}
		v, err := s.End()
		if err != nil {
			t.Fatalf("%q: End: %v", answer, err)
		}
		want, _ := ParseWith[streamOut](streamParser, answer)
		if d := cmp.Diff(want, v); d != "" {
			t.Errorf("%q: End differs from ParseWith (-want +got)\n%s", answer, d)
		}
		p, err := s.Partial()
		gotJSON, _ := json.Marshal(p)
		wantJSON, _ := json.Marshal(v)
		if err != nil || string(gotJSON) != string(wantJSON) {
			t.Errorf("%q: final partial %s (%v), want %s", answer, gotJSON, err, wantJSON)
		}
		if !p.Name.Done() || !p.Count.Done() {
			t.Errorf("%q: final partial not done: %v %v", answer, p.Name.State(), p.Count.State())
		}
		if _, err := s.WriteString("x"); err == nil {
			t.Errorf("write after End: no error")
		}
	}
}

// FuzzParsePartial: no text makes ParsePartial panic, and the partial of
// a text whose final parse succeeds is no error.
func FuzzParsePartial(f *testing.F) {
	for _, s := range []string{`{"name": "Al`, "```json\n{\"items\": [{\"title\": \"x\"}, {", `{name: 'a', count: "1,2`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePartial[streamPartial](streamParser, s)
		if err != nil {
			return
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatalf("%q: the partial does not encode: %v", s, err)
		}
	})
}

// TestParsePartialLinear: hostile texts cost time in proportion to their
// length (costtest.Linear: CPU time, best of runs).
func TestParsePartialLinear(t *testing.T) {
	for name, unit := range map[string]string{
		"brackets": "[", "quotes": `"`, "comments": "/*", "items": `{"items": [` + strings.Repeat(`{"title": "t"}, `, 4),
		"open objects": `{"items": [{"title": `,
	} {
		costtest.Linear(t, name, 1<<15, func(n int) string { return strings.Repeat(unit, n/len(unit)) },
			func(s string) { ParsePartial[streamPartial](streamParser, s) })
	}
}

// TestStreamLinear: an answer fed in 1-byte chunks, with a partial after
// each, costs time in proportion to its length: a list of objects, a long
// string, a long line of prose before the value, and values of the prose
// that do not fit.
func TestStreamLinear(t *testing.T) {
	for name, input := range map[string]func(n int) string{
		"items": func(n int) string {
			return `{"name": "a", "count": 1, "items": [` + strings.Repeat(`{"title": "step", "done": true}, `, n/32) + `{"title": "last"}]}`
		},
		"string":       func(n int) string { return `{"name": "` + strings.Repeat("a", n) + `", "count": 1}` },
		"prose":        func(n int) string { return strings.Repeat("word ", n/5) + `{"name": "a", "count": 1}` },
		"misfits":      func(n int) string { return strings.Repeat(`{"count": "x"} `, n/15) + `{"name": "a", "count": 1}` },
		"fenced lines": func(n int) string { return "```\n" + strings.Repeat("x", n) + "\n```\n" + `{"name": "a", "count": 1}` },
	} {
		costtest.Linear(t, name, 2000, input, func(answer string) {
			s := NewStream[streamPartial, streamOut](streamParser)
			for i := range len(answer) {
				s.WriteString(answer[i : i+1])
				s.Partial()
			}
		})
	}
}
