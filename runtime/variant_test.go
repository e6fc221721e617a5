package runtime_test

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// The code below stands in for the rest of a generated set type (see the
// design note in set.go), around the "agent" test set of set_test.go.

// AgentFeed is the feed of every template of the set.
type AgentFeed struct {
	UserInput    string
	Context      string
	ActionResult string
}

// Agent resolves and renders the templates of the agent set.
type Agent struct{ m runtime.Manager }

func NewAgent(opts ...runtime.Option) *Agent {
	return &Agent{m: runtime.NewManager(&_agentTable, setDefaults, opts...)}
}

func (a *Agent) Resolve(key string, opts ...runtime.Option) runtime.Resolution {
	return a.m.Resolve(key, opts...)
}

func (a *Agent) Switch(opts ...runtime.Option) *Agent { return &Agent{m: a.m.Switch(opts...)} }

func (a *Agent) Render(key string, f AgentFeed, opts ...runtime.Option) (string, error) {
	r := a.m.Resolve(key, opts...)
	if r.Err != nil {
		return "", r.Err
	}
	c := &_agentComponents[r.ID]
	return _agentRender(r.ID, &f, runtime.VariantFor(c.names, c.versions, r.Settings.Version))
}

func (a *Agent) Variants(key string, f AgentFeed) iter.Seq2[runtime.Variant, string] {
	return func(yield func(runtime.Variant, string) bool) {
		r := a.m.Resolve(key)
		if r.Err != nil {
			yield(runtime.Variant{Err: r.Err}, "")
			return
		}
		c := &_agentComponents[r.ID]
		for v := range runtime.Product(c.names, c.versions) {
			s, err := _agentRender(r.ID, &f, v)
			v.Err = err
			if !yield(v, s) {
				return
			}
		}
	}
}

func (a *Agent) InferenceConfig(key string) runtime.InferenceConfig {
	r := a.m.Resolve(key)
	c := runtime.InferenceConfig{RootSpace: r.Settings.RootSpace, TemplateKey: key}
	if r.Err == nil {
		c.Model, c.Parameters = _agentModel(r.ID)
	}
	return c
}

// _agentComponents lists, per template id, the versioned components the
// template includes: the spec's pair for main/default, an unversioned
// preamble with an end_customers version for main/BrowseLink.
var _agentComponents = [len(_agentPaths)]struct {
	names    []string
	versions [][]string
}{
	7:  {[]string{"preamble"}, [][]string{{"", "end_customers"}}},
	10: {[]string{"response_instructions", "system_preamble"}, [][]string{{"structured", "freeform"}, {"concise", "detailed"}}},
}

var errMissing = errors.New("required variable is not set")

func _agentRender(id int, f *AgentFeed, v runtime.Variant) (string, error) {
	var b strings.Builder
	switch id {
	case 7: // main/BrowseLink
		switch v.Versions[0] {
		case "end_customers":
			b.WriteString("You are ACME's customer assistant.")
		default:
			b.WriteString("You are a helpful assistant.")
		}
		b.WriteString("\n\nYou navigated to " + f.Context + ".\n\nUser: " + f.UserInput)
	case 9: // main/Search
		if f.ActionResult == "" {
			return "", &runtime.Error{Prompt: "agent/main/Search", Pos: "prompts/agent/main/Search.jinja:1:25", Var: "action_result", Err: runtime.ErrMissing}
		}
		b.WriteString("Search results:\n" + f.ActionResult + "\n\nUser: " + f.UserInput)
	case 10: // main/default
		switch v.Versions[1] {
		case "concise":
			b.WriteString("You are a CFD assistant.")
		case "detailed":
			b.WriteString("You are a helpful AI assistant specializing in CFD...")
		}
		b.WriteString("\n\n" + f.UserInput + "\n\n")
		switch v.Versions[0] {
		case "structured":
			b.WriteString("Use XML tags for your response.")
		case "freeform":
			b.WriteString("Respond naturally.")
		}
	default:
		fmt.Fprintf(&b, "%s: %s", _agentPaths[id], f.UserInput)
	}
	return b.String(), nil
}

func _agentModel(id int) (string, map[string]any) {
	switch id {
	case 7:
		return "claude-3-haiku", map[string]any{"temperature": 0.2}
	}
	return "", nil
}

// TestVariants follows template-manager.md, "Versioned Components": two
// components of two versions each give "all combinations (2 x 2 = 4
// prompts)", in itertools.product order.
func TestVariants(t *testing.T) {
	a := NewAgent()
	var got []string
	for v, s := range a.Variants("", AgentFeed{UserInput: "Mesh?"}) {
		if v.Err != nil {
			t.Fatal(v.Err)
		}
		got = append(got, v.String()+" | "+s)
	}
	want := []string{
		"response_instructions=structured system_preamble=concise | You are a CFD assistant.\n\nMesh?\n\nUse XML tags for your response.",
		"response_instructions=structured system_preamble=detailed | You are a helpful AI assistant specializing in CFD...\n\nMesh?\n\nUse XML tags for your response.",
		"response_instructions=freeform system_preamble=concise | You are a CFD assistant.\n\nMesh?\n\nRespond naturally.",
		"response_instructions=freeform system_preamble=detailed | You are a helpful AI assistant specializing in CFD...\n\nMesh?\n\nRespond naturally.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Variants:\n%q\nwant\n%q", got, want)
	}

	// Stopping early stops rendering.
	n := 0
	for range a.Variants("", AgentFeed{UserInput: "x"}) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break after %d variants", n)
	}

	// A template without versioned components has one variant: itself.
	got = nil
	for v, s := range a.Variants("reflection/Review", AgentFeed{UserInput: "x"}) {
		got = append(got, fmt.Sprintf("%q %v | %s", v.String(), v.Versions, s))
	}
	if want := []string{`"" [] | reflection/Review: x`}; !slices.Equal(got, want) {
		t.Errorf("unversioned template: %q; want %q", got, want)
	}

	// An unversioned component is one of the variants.
	got = nil
	for v := range a.Variants("BrowseLink", AgentFeed{}) {
		got = append(got, v.String())
	}
	if want := []string{"preamble", "preamble=end_customers"}; !slices.Equal(got, want) {
		t.Errorf("BrowseLink variants %q; want %q", got, want)
	}
}

func TestVariantsErrors(t *testing.T) {
	var errs []error
	for v, s := range NewAgent().Variants("Search", AgentFeed{}) {
		if s != "" {
			t.Errorf("failed variant rendered %q", s)
		}
		errs = append(errs, v.Err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], runtime.ErrMissing) {
		t.Errorf("render error: %v", errs)
	}

	// A key that resolves nowhere yields one variant carrying the error.
	errs = nil
	for v, s := range specAgent().Variants("nowhere/X", AgentFeed{}) {
		if s != "" {
			t.Errorf("unresolved key rendered %q", s)
		}
		errs = append(errs, v.Err)
	}
	var re *runtime.ResolveError
	if len(errs) != 1 || !errors.As(errs[0], &re) {
		t.Errorf("Variants(nowhere/X): %v", errs)
	}
}

// specAgent is an Agent over the spec's set, which has no global default.
// (Its ids are not the agent set's: use it only for keys that fail.)
func specAgent() *Agent {
	return &Agent{m: runtime.NewManager(_specTable, setDefaults)}
}

// TestRenderComponentVersion: Render uses the component version matching
// the manager's version, else the unversioned one, else the first.
func TestRenderComponentVersion(t *testing.T) {
	a := NewAgent()
	f := AgentFeed{UserInput: "hi", Context: "acme.com"}
	for _, c := range []struct {
		name string
		a    *Agent
		key  string
		opts []runtime.Option
		want string
	}{
		{"unversioned component without a version", a, "BrowseLink", nil,
			"You are a helpful assistant.\n\nYou navigated to acme.com.\n\nUser: hi"},
		{"component version matching the manager's version", a.Switch(version("end_customers")), "BrowseLink", nil,
			"You are ACME's customer assistant.\n\nYou navigated to acme.com.\n\nUser: hi"},
		{"component version matching a per-call version", a, "BrowseLink", opts(version("end_customers")),
			"You are ACME's customer assistant.\n\nYou navigated to acme.com.\n\nUser: hi"},
		{"unversioned component when no version matches", a.Switch(version("v9")), "BrowseLink", nil,
			"You are a helpful assistant.\n\nYou navigated to acme.com.\n\nUser: hi"},
		{"first version of a component without unversioned content", a, "", nil,
			"You are a CFD assistant.\n\nhi\n\nUse XML tags for your response."},
		{"component version named like a variant", a.Switch(version("detailed")), "SubmitForm", nil,
			"You are a helpful AI assistant specializing in CFD...\n\nhi\n\nUse XML tags for your response."},
	} {
		got, err := c.a.Render(c.key, f, c.opts...)
		if err != nil || got != c.want {
			t.Errorf("%s: Render(%q) = %q, %v; want %q", c.name, c.key, got, err, c.want)
		}
	}
	var re *runtime.ResolveError
	if _, err := specAgent().Render("nowhere/X", f); !errors.As(err, &re) {
		t.Errorf("Render of an unresolvable key: %v", err)
	}
}

func TestVariantFor(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	versions := [][]string{{"", "v1"}, {"v1", "v2"}, {"x", "y"}, nil}
	for _, c := range []struct {
		version string
		want    []string
	}{
		{"", []string{"", "v1", "x", ""}},
		{"v1", []string{"v1", "v1", "x", ""}},
		{"v2", []string{"", "v2", "x", ""}},
		{"y", []string{"", "v1", "y", ""}},
	} {
		v := runtime.VariantFor(names, versions, c.version)
		if !slices.Equal(v.Versions, c.want) {
			t.Errorf("VariantFor(%q) = %q; want %q", c.version, v.Versions, c.want)
		}
	}
	if v := runtime.VariantFor(nil, nil, "v1"); v.Versions != nil || v.String() != "" {
		t.Errorf("no components: %+v", v)
	}
}

func TestProduct(t *testing.T) {
	var got []string
	for v := range runtime.Product([]string{"a", "b", "c"}, [][]string{{"1", "2"}, nil, {"x", "y", "z"}}) {
		got = append(got, v.String())
	}
	want := []string{"a=1 b c=x", "a=1 b c=y", "a=1 b c=z", "a=2 b c=x", "a=2 b c=y", "a=2 b c=z"}
	if !slices.Equal(got, want) {
		t.Errorf("Product = %q; want %q", got, want)
	}
	// Each variant owns its versions.
	var kept []runtime.Variant
	for v := range runtime.Product([]string{"a"}, [][]string{{"1", "2"}}) {
		kept = append(kept, v)
	}
	if kept[0].Versions[0] != "1" || kept[1].Versions[0] != "2" || kept[1].Version("a") != "2" || kept[1].Version("zz") != "" {
		t.Errorf("kept variants %+v", kept)
	}
	n := 0
	for range runtime.Product(nil, nil) {
		n++
	}
	if n != 1 {
		t.Errorf("Product of nothing yields %d variants; want 1", n)
	}
}

// TestInferenceConfig follows template-manager.md, Stage 5: the config
// carries the active root space, and the template key when there is one.
func TestInferenceConfig(t *testing.T) {
	a := NewAgent(root("action_agent"))
	c := a.InferenceConfig("BrowseLink")
	if c.RootSpace != "action_agent" || c.TemplateKey != "BrowseLink" {
		t.Errorf("InferenceConfig = %+v", c)
	}
	// action_agent/main/BrowseLink has no model; main/BrowseLink has.
	c = a.Switch(root("")).InferenceConfig("BrowseLink")
	if c.RootSpace != "" || c.Model != "claude-3-haiku" || !maps.Equal(c.Parameters, map[string]any{"temperature": 0.2}) {
		t.Errorf("InferenceConfig = %+v", c)
	}
	// "if self.states.last_anchor_action_type: config[TEMPLATE_KEY] = ..."
	var st runtime.AnchorState
	if c := a.InferenceConfig(st.LastAnchorActionType()); c.TemplateKey != "" || c.RootSpace != "action_agent" {
		t.Errorf("InferenceConfig before any anchor action = %+v", c)
	}
}

// TestConcurrentAgent shares one generated-style set value between
// goroutines that render with per-call overrides and switch; run with -race.
func TestConcurrentAgent(t *testing.T) {
	shared := NewAgent()
	f := AgentFeed{UserInput: "hi", Context: "acme.com"}
	plain, _ := shared.Render("BrowseLink", f)
	ent, _ := shared.Render("BrowseLink", f, version("end_customers"))
	if plain == ent {
		t.Fatalf("versions render alike: %q", plain)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				var got, want string
				switch (g + i) % 3 {
				case 0:
					got, _ = shared.Render("BrowseLink", f)
					want = plain
				case 1:
					got, _ = shared.Render("BrowseLink", f, version("end_customers"))
					want = ent
				case 2:
					got, _ = shared.Switch(version("end_customers")).Render("BrowseLink", f)
					want = ent
				}
				if got != want {
					t.Errorf("goroutine %d: %q; want %q", g, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got, _ := shared.Render("BrowseLink", f); got != plain {
		t.Errorf("shared set changed: %q", got)
	}
}
