package gen

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHeadlessPrompts generates, with both backends, the prompts of
// testdata/headless, which have no template key (the head of a sectioned
// prompt is optional; a messages prompt has none), and renders their
// fixtures: Jinja2's output, from golden.py --prompts. The text/template
// backend panicked on them: the positions of their sections and messages
// were "not in" the file of the absent template.
func TestHeadlessPrompts(t *testing.T) {
	dir := filepath.Join("testdata", "headless")
	mod := newTempModule(t)
	copyTree(t, filepath.Join(dir, "prompts"), filepath.Join(mod, "prompts"))
	feeds, err := filepath.Glob(filepath.Join(dir, "fixtures", "*", "*.json"))
	if err != nil || len(feeds) < 3 {
		t.Fatalf("fixtures: %v, %v", feeds, err)
	}
	keys := []string{"messages", "sections"}
	var jobs []renderJob
	for _, f := range feeds {
		jobs = append(jobs, renderJob{filepath.Base(filepath.Dir(f)), f})
	}
	outputs := renderAll(t, mod, keys, jobs)
	for i, j := range jobs {
		want := string(readFile(t, strings.TrimSuffix(j.feed, ".json")+".want.txt"))
		for bi, b := range backends {
			got := outputs[bi][i]
			if j.key == "messages" { // JSON, compared as values
				var w, g any
				if err := json.Unmarshal([]byte(want), &w); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(got), &g); err != nil {
					t.Errorf("%s: %s: %q is not JSON: %v", b.renderer, j.feed, got, err)
				} else if d := cmp.Diff(w, g); d != "" {
					t.Errorf("%s: %s (-want +got):\n%s", b.renderer, j.feed, d)
				}
			} else if got != want {
				t.Errorf("%s: %s (-want +got):\n%s", b.renderer, j.feed, cmp.Diff(want, got))
			}
		}
	}
}
