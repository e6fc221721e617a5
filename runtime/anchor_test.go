package runtime_test

import (
	"sync"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// TestAnchorState follows template-manager.md §3.1 and §3.3: an agent with
// anchor_action_types=["BrowseLink", "Search"] in the spec's template set.
func TestAnchorState(t *testing.T) {
	anchors := []string{"BrowseLink", "Search"}
	set := newSpec()
	var st runtime.AnchorState
	for _, step := range []struct {
		name       string
		action     string // "" for no action yet
		anchors    []string
		wantLast   string
		wantAnchor string
		wantPath   string
	}{
		{`§3.3 "Iteration 1 — No prior action: last_anchor_action_type is None → uses main/default"`, "", nil, "", "", "main/default"},
		{`§3.3 "Iteration 2 — After BrowseLink action → finds main/BrowseLink"`, "BrowseLink", anchors, "BrowseLink", "BrowseLink", "main/BrowseLink"},
		{`§3.1 "Non-anchor actions (intermediate steps, logging, etc.) do not change the template selection"`, "Scroll", anchors, "Scroll", "BrowseLink", "main/BrowseLink"},
		{`§3.3 "Iteration 3 — After Search action → finds main/Search"`, "Search", anchors, "Search", "Search", "main/Search"},
		{`§3.1 "if anchor_actions_types and ...": without anchor types no action is an anchor`, "BrowseLink", nil, "BrowseLink", "Search", "main/Search"},
		{`§3.1 an anchor type outside the set's templates resolves to the type default`, "SubmitForm", []string{"SubmitForm"}, "SubmitForm", "SubmitForm", "main/default"},
	} {
		if step.action != "" {
			st.SetLastAction(step.action, step.anchors...)
		}
		last, anchor := st.LastActionType(), st.LastAnchorActionType()
		if last != step.wantLast || anchor != step.wantAnchor {
			t.Errorf("%s: last %q, anchor %q; want %q, %q", step.name, last, anchor, step.wantLast, step.wantAnchor)
		}
		if r := set.Resolve(anchor); r.Path != step.wantPath {
			t.Errorf("%s: key %q resolves to %q, %v; want %q", step.name, anchor, r.Path, r.Err, step.wantPath)
		}
	}
}

func TestAnchorStateConcurrent(t *testing.T) {
	var st runtime.AnchorState
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 500 {
				if i%2 == 0 {
					st.SetLastAction("BrowseLink", "BrowseLink", "Search")
				} else {
					st.SetLastAction("Scroll", "BrowseLink", "Search")
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 500 {
				if a := st.LastAnchorActionType(); a != "" && a != "BrowseLink" {
					t.Errorf("goroutine %d: anchor %q", g, a)
					return
				}
				_ = st.LastActionType()
			}
		}()
	}
	wg.Wait()
	if st.LastAnchorActionType() != "BrowseLink" {
		t.Errorf("anchor %q", st.LastAnchorActionType())
	}
}
