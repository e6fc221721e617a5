package setcheck

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/load"
)

// checkSetFiles loads and checks the set "agent" in files (path → content).
func checkSetFiles(t *testing.T, strict bool, files map[string]string) ([]*ir.PromptSet, diag.Diagnostics) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	sets, diags := load.Sets(fsys, "p", nil)
	sink := &diag.Sink{List: diags}
	irs := Sets(sets, strict, sink)
	return irs, sink.List.Sorted()
}

// describeFields lists a struct's fields as "key type", nested ones indented.
func describeFields(t *ir.Type, indent string) []string {
	var out []string
	for _, f := range t.Fields {
		ft := f.Type.Resolve()
		opt := ""
		if f.Optional {
			opt = "?"
		}
		out = append(out, fmt.Sprintf("%s%s%s %s", indent, f.Key, opt, ft))
		for ft.Kind == ir.KindList || ft.Kind == ir.KindMap {
			ft = ft.Elem.Resolve()
		}
		if ft.Kind == ir.KindStruct {
			out = append(out, describeFields(ft, indent+"  ")...)
		}
	}
	return out
}

// TestSetFeedUnion: uses that one feed can hold are no conflict (an int
// and a number, a printed and a tested value, fields added by different
// templates), and the union has the types of all of them.
func TestSetFeedUnion(t *testing.T) {
	sets, diags := checkSetFiles(t, false, map[string]string{
		"agent/promptset.yaml":          "",
		"agent/main/default.jinja":      `{{ n + 1 }} {% if flag %}x{% endif %} {{ user.name }} {{ header }}`,
		"agent/main/Search.jinja":       `{{ n * 1.5 }} {{ flag }} {{ user.email | upper }}`,
		"agent/main/Other.jinja":        `{% for t in tags %}{{ t.id + 1 }}{% endfor %} {{ header }}`,
		"agent/components/header.jinja": `{{ title }}{% if user %}!{% endif %}`,
	})
	if diags.HasErrors() || len(sets) != 1 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	got := describeFields(sets[0].Feed, "")
	// Fields come in the order of first use, templates by path first.
	want := []string{
		"tags list of object",
		"  id int",
		"n number",
		"flag? string",
		"user? object",
		"  email string",
		"  name string",
		"title string",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("feed (-want +got):\n%s", diff)
	}
	// Each template and component is checked, and in the union feed.
	s := sets[0]
	if len(s.Templates) != 3 || len(s.Components) != 1 || s.Components[0].Versions[0].Body == nil {
		t.Errorf("set IR: %d templates, %d components", len(s.Templates), len(s.Components))
	}
	for _, tp := range s.Templates {
		if tp.Body == nil || tp.Body.Feed != s.Feed {
			t.Errorf("%s: body %v not checked against the union feed", tp.Path, tp.Body)
		}
	}
}

func TestSetCheckErrors(t *testing.T) {
	files := map[string]string{
		"agent/promptset.yaml":     "inputs:\n  x: string\n  unused: int\n",
		"agent/main/default.jinja": "{{ x }}",
	}
	_, diags := checkSetFiles(t, false, files)
	if want := `p/agent/promptset.yaml:3:3: warning: input "unused" is declared but not used by any template of the set`; diags.Error() != want {
		t.Errorf("unused input:\n%s\nwant\n%s", diags, want)
	}
	// Two versioned components of one name reach one template.
	_, diags = checkSetFiles(t, false, map[string]string{
		"agent/promptset.yaml":              "",
		"agent/main/default.jinja":          "{{ pre }} {{ other }}",
		"agent/main/components/pre.a.jinja": "a",
		"agent/main/components/other.jinja": "{% include 'components/pre' %}",
		"agent/components/pre.b.jinja":      "b",
	})
	if want := `two versioned components named "pre" (components/pre and main/components/pre)`; !strings.Contains(diags.Error(), want) {
		t.Errorf("versioned components:\n%s\nwant %s", diags, want)
	}
}
