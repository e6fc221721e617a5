package runtime_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// agentFeed stands in for a generated set feed; Merge is what promptgen
// generates for it: one helper call per field.
type agentFeed struct {
	UserInput   string
	Context     string
	Attachments []string
	Knowledge   map[string]any
	Turn        int
	Verbose     bool
	Note        *string
}

func (f *agentFeed) Merge(other agentFeed, s runtime.ConflictStrategy) {
	runtime.MergeString(&f.UserInput, other.UserInput, s)
	runtime.MergeString(&f.Context, other.Context, s)
	runtime.MergeSlice(&f.Attachments, other.Attachments, s)
	runtime.MergeMap(&f.Knowledge, other.Knowledge, s)
	runtime.MergeValue(&f.Turn, other.Turn, s)
	runtime.MergeValue(&f.Verbose, other.Verbose, s)
	runtime.MergeValue(&f.Note, other.Note, s)
}

func ptr(s string) *string { return &s }

func feedsEqual(a, b agentFeed) bool {
	return a.UserInput == b.UserInput && a.Context == b.Context &&
		slices.Equal(a.Attachments, b.Attachments) && maps.Equal(a.Knowledge, b.Knowledge) &&
		a.Turn == b.Turn && a.Verbose == b.Verbose &&
		(a.Note == b.Note || a.Note != nil && b.Note != nil && *a.Note == *b.Note)
}

// TestMerge covers the spec's table of feed_conflict_resolution strategies
// (template-manager.md, "Step 2: Merge Knowledge").
func TestMerge(t *testing.T) {
	existing := agentFeed{
		UserInput: "hi", Context: "page A", Attachments: []string{"a.pdf"},
		Knowledge: map[string]any{"k": "old", "only_old": 1}, Turn: 1, Note: ptr("n1"),
	}
	knowledge := agentFeed{
		Context: "doc B", Attachments: []string{"b.pdf"},
		Knowledge: map[string]any{"k": "new"}, Turn: 2, Verbose: true, Note: ptr("n2"),
	}
	for _, c := range []struct {
		name string
		s    runtime.ConflictStrategy
		want agentFeed
	}{
		{`"FEED_ONLY (default): Knowledge replaces existing feed values"`, runtime.FeedOnly, agentFeed{
			UserInput: "hi", Context: "doc B", Attachments: []string{"b.pdf"},
			Knowledge: map[string]any{"k": "new"}, Turn: 2, Verbose: true, Note: ptr("n2"),
		}},
		{`"ATTRIBUTE_ONLY: Existing values take priority"`, runtime.AttributeOnly, agentFeed{
			UserInput: "hi", Context: "page A", Attachments: []string{"a.pdf"},
			Knowledge: map[string]any{"k": "old", "only_old": 1}, Turn: 1, Verbose: true, Note: ptr("n1"),
		}},
		{`"MERGE: Values are concatenated with \n\n separator"`, runtime.Merge, agentFeed{
			UserInput: "hi", Context: "page A\n\ndoc B", Attachments: []string{"a.pdf", "b.pdf"},
			Knowledge: map[string]any{"k": "new", "only_old": 1}, Turn: 2, Verbose: true, Note: ptr("n1\n\nn2"),
		}},
		{"an unknown strategy acts as FeedOnly", runtime.ConflictStrategy(9), agentFeed{
			UserInput: "hi", Context: "doc B", Attachments: []string{"b.pdf"},
			Knowledge: map[string]any{"k": "new"}, Turn: 2, Verbose: true, Note: ptr("n2"),
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := existing
			f.Attachments = slices.Grow(slices.Clone(existing.Attachments), 4) // spare capacity must not be shared
			f.Knowledge = maps.Clone(existing.Knowledge)
			k := knowledge
			f.Merge(k, c.s)
			if !feedsEqual(f, c.want) {
				t.Errorf("got  %+v\nwant %+v", f, c.want)
			}
			if !feedsEqual(k, knowledge) || *k.Note != "n2" {
				t.Errorf("Merge modified its argument: %+v", k)
			}
			if len(existing.Knowledge) != 2 || existing.Knowledge["k"] != "old" || *existing.Note != "n1" {
				t.Errorf("Merge modified the existing values: %+v", existing)
			}
		})
	}
}

// TestMergeUnset: a field only one side sets is kept under every strategy,
// as the spec's feeds hold only non-empty values.
func TestMergeUnset(t *testing.T) {
	for _, s := range []runtime.ConflictStrategy{runtime.FeedOnly, runtime.AttributeOnly, runtime.Merge} {
		f := agentFeed{UserInput: "hi", Attachments: []string{"a"}}
		f.Merge(agentFeed{Context: "ctx", Knowledge: map[string]any{"x": 1}, Note: ptr("n")}, s)
		want := agentFeed{UserInput: "hi", Context: "ctx", Attachments: []string{"a"}, Knowledge: map[string]any{"x": 1}, Note: ptr("n")}
		if !feedsEqual(f, want) {
			t.Errorf("%v: got %+v", s, f)
		}
	}
}

func TestMergeSliceDoesNotAlias(t *testing.T) {
	backing := make([]int, 1, 8)
	backing[0] = 1
	dst := backing
	runtime.MergeSlice(&dst, []int{2}, runtime.Merge)
	other := append(backing, 3)
	if dst[1] != 2 || other[1] != 3 {
		t.Errorf("merged slice shares its array: dst %v, other %v", dst, other)
	}
}

func TestConflictStrategyString(t *testing.T) {
	for s, want := range map[runtime.ConflictStrategy]string{
		runtime.FeedOnly: "FeedOnly", runtime.AttributeOnly: "AttributeOnly", runtime.Merge: "Merge", 7: "ConflictStrategy(7)",
	} {
		if got := s.String(); got != want {
			t.Errorf("%d.String() = %q; want %q", s, got, want)
		}
	}
	var zero runtime.ConflictStrategy
	if zero != runtime.FeedOnly {
		t.Error("the zero strategy is not FeedOnly")
	}
}
