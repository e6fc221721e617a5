package runtime_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/promptgen/promptgen/runtime"
)

// The code below stands in for what promptgen generates for a template set
// (see the design note in set.go): a sorted path table and a switch over
// full paths.

// _agentPaths are the templates of the test set "agent": the spec's
// templates (template-manager.md, "Template Dictionary Structure"), a global
// default, versions at each level, two root spaces and a template at the
// set's root level. The longest is longer than 32 bytes, so the lookup's
// string conversion cannot use the compiler's small stack buffer.
var _agentPaths = [...]string{
	"BrowseLink",
	"action_agent/main/BrowseLink",
	"action_agent/main/Search.enterprise",
	"action_agent/main/default",
	"action_agent/main/default.enterprise",
	"default",
	"default.enterprise",
	"main/BrowseLink",
	"main/BrowseLink.enterprise",
	"main/Search",
	"main/default",
	"main/default.end_customers",
	"reflection/Review",
	"reflection/default",
	"specialized_agent/reflection/default",
}

// _agentTable has the shape promptgen generates: the directories of the
// template paths (up to their last '/'), a switch over the lengths and
// Path.Is for each string of that length, then the names, a switch on the
// name, or on its parts before and after each '.' with a version.
var _agentTable = runtime.Table{Set: "agent", Paths: _agentPaths[:], Dir: _agentDir, Name: _agentName}

func _agentDir(p runtime.Path) int {
	switch p.Len() {
	case 0:
		return 0
	case 5:
		if p.Is("main/") {
			return 2
		}
	case 11:
		if p.Is("reflection/") {
			return 3
		}
	case 18:
		if p.Is("action_agent/main/") {
			return 1
		}
	case 29:
		if p.Is("specialized_agent/reflection/") {
			return 4
		}
	}
	return -1
}

func _agentName(dir int, name, version string) (int, bool) {
	if version != "" {
		switch name {
		case "BrowseLink":
			if dir == 2 && version == "enterprise" {
				return 8, true
			}
		case "Search":
			if dir == 1 && version == "enterprise" {
				return 2, true
			}
		case "default":
			if version == "end_customers" && dir == 2 {
				return 11, true
			}
			if version == "enterprise" {
				switch dir {
				case 0:
					return 6, true
				case 1:
					return 4, true
				}
			}
		}
		return 0, false
	}
	switch name {
	case "Search":
		if dir == 2 {
			return 9, true
		}
	case "Review":
		if dir == 3 {
			return 12, true
		}
	case "default":
		switch dir {
		case 0:
			return 5, true
		case 1:
			return 3, true
		case 2:
			return 10, true
		case 3:
			return 13, true
		case 4:
			return 14, true
		}
	case "BrowseLink":
		switch dir {
		case 0:
			return 0, true
		case 1:
			return 1, true
		case 2:
			return 7, true
		}
	case "Search.enterprise":
		if dir == 1 {
			return 2, true
		}
	case "default.enterprise":
		switch dir {
		case 0:
			return 6, true
		case 1:
			return 4, true
		}
	case "BrowseLink.enterprise":
		if dir == 2 {
			return 8, true
		}
	case "default.end_customers":
		if dir == 2 {
			return 11, true
		}
	}
	return 0, false
}

// _specPaths are exactly the templates of the spec's dictionary, which has
// no global default: a key of a type without a default resolves nowhere.
var _specPaths = [...]string{"main/BrowseLink", "main/Search", "main/default", "reflection/default"}

var _specTable = runtime.MapTable("spec", _specPaths[:], -1)

var setDefaults = runtime.Settings{Type: "main", DefaultName: "default"}

func newAgent(opts ...runtime.Option) *runtime.Manager {
	m := runtime.NewManager(&_agentTable, setDefaults, opts...)
	return &m
}

func newSpec(opts ...runtime.Option) *runtime.Manager {
	m := runtime.NewManager(_specTable, setDefaults, opts...)
	return &m
}

// _fallbackPaths are the spec's templates and its system fallback,
// self.default_template (template-manager.md §3.2, step 4), whose path in
// the table is the name generated code gives it.
var _fallbackPaths = [...]string{"default_template", "main/BrowseLink", "main/Search", "main/default", "reflection/default"}

var _fallbackTable = runtime.MapTable("fallback", _fallbackPaths[:], 0)

// newFallback is the spec's set with a system default template, which
// only the empty Path reaches.
func newFallback(opts ...runtime.Option) *runtime.Manager {
	m := runtime.NewManager(_fallbackTable, setDefaults, opts...)
	return &m
}

var (
	root       = runtime.WithRootSpace
	typ        = runtime.WithType
	version    = runtime.WithVersion
	dflt       = runtime.WithDefaultName
	predefined = runtime.WithPredefined
	noOption   []runtime.Option
)

func opts(o ...runtime.Option) []runtime.Option { return o }

// notFound marks a row whose key resolves nowhere.
const notFound = "(error)"

type resolveCase struct {
	name  string
	spec  bool // resolve in the spec's set, else in the agent set
	opts  []runtime.Option
	key   string
	path  string // notFound for an error
	level runtime.Level
	tried []string
}

var resolveCases = []resolveCase{
	// template-manager.md §3.2, without a root space.
	{name: `§3.2 "1. Try: main/BrowseLink (exact match in active type)"`, spec: true,
		key: "BrowseLink", path: "main/BrowseLink", level: runtime.LevelKey,
		tried: []string{"main/BrowseLink"}},
	{name: `§3.2 "2. Try: main/default (default in active type)"`, spec: true,
		key: "SubmitForm", path: "main/default", level: runtime.LevelDefault,
		tried: []string{"main/SubmitForm", "main/default"}},
	{name: `§3.2 "3. Try: default (global default)"`,
		opts: opts(typ("support")), key: "SubmitForm", path: "default", level: runtime.LevelGlobal,
		tried: []string{"support/SubmitForm", "support/default", "default"}},
	{name: `§3.2 "4. Use: self.default_template (system fallback)": without one, an error naming every path (DESIGN §4)`, spec: true,
		opts: opts(typ("support")), key: "SubmitForm", path: notFound,
		tried: []string{"support/SubmitForm", "support/default", "default"}},

	// template-manager.md §3.2, with the root space "action_agent".
	{name: `§3.2 root "1. Try: action_agent/main/BrowseLink"`,
		opts: opts(root("action_agent")), key: "BrowseLink", path: "action_agent/main/BrowseLink", level: runtime.LevelRootKey,
		tried: []string{"action_agent/main/BrowseLink"}},
	{name: `§3.2 root "2. Try: action_agent/main/default"`,
		opts: opts(root("action_agent")), key: "SubmitForm", path: "action_agent/main/default", level: runtime.LevelRootDefault,
		tried: []string{"action_agent/main/SubmitForm", "action_agent/main/default"}},
	{name: `§3.2 root "3. Try: main/BrowseLink"`,
		opts: opts(root("specialized_agent")), key: "BrowseLink", path: "main/BrowseLink", level: runtime.LevelKey,
		tried: []string{"specialized_agent/main/BrowseLink", "specialized_agent/main/default", "main/BrowseLink"}},
	{name: `§3.2 root "4. Try: main/default"`,
		opts: opts(root("specialized_agent")), key: "SubmitForm", path: "main/default", level: runtime.LevelDefault,
		tried: []string{"specialized_agent/main/SubmitForm", "specialized_agent/main/default", "main/SubmitForm", "main/default"}},
	{name: `§3.2 root "5. Try: default"`,
		opts: opts(root("specialized_agent"), typ("support")), key: "SubmitForm", path: "default", level: runtime.LevelGlobal,
		tried: []string{"specialized_agent/support/SubmitForm", "specialized_agent/support/default", "support/SubmitForm", "support/default", "default"}},
	{name: `§3.2 root "6. Use: self.default_template": without one, an error naming every path (DESIGN §4)`, spec: true,
		opts: opts(root("action_agent"), typ("support")), key: "SubmitForm", path: notFound,
		tried: []string{"action_agent/support/SubmitForm", "action_agent/support/default", "support/SubmitForm", "support/default", "default"}},

	// template-manager.md §3.3, in the spec's own set.
	{name: `§3.3 "Iteration 1 — No prior action: resolves None → uses main/default"`, spec: true,
		key: "", path: "main/default", level: runtime.LevelDefault,
		tried: []string{"main/default"}},
	{name: `§3.3 "Iteration 2 — After BrowseLink: resolves BrowseLink → finds main/BrowseLink"`, spec: true,
		key: "BrowseLink", path: "main/BrowseLink", level: runtime.LevelKey,
		tried: []string{"main/BrowseLink"}},
	{name: `§3.3 "Iteration 3 — After Search: resolves Search → finds main/Search"`, spec: true,
		key: "Search", path: "main/Search", level: runtime.LevelKey,
		tried: []string{"main/Search"}},

	// template-manager.md §4.1.
	{name: `§4.1 "first looks for BrowseLink.enterprise"`,
		opts: opts(version("enterprise")), key: "BrowseLink", path: "main/BrowseLink.enterprise", level: runtime.LevelKeyVersion,
		tried: []string{"main/BrowseLink.enterprise"}},
	{name: `§4.1 "before falling back to BrowseLink"`,
		opts: opts(version("enterprise")), key: "Search", path: "main/Search", level: runtime.LevelKey,
		tried: []string{"main/Search.enterprise", "main/Search"}},

	// DESIGN §4: the whole chain, in order.
	{name: `DESIGN §4 "R/T/K.V, R/T/K, R/T/default.V, R/T/default, T/K.V, T/K, T/default.V, T/default, default.V, default"`, spec: true,
		opts: opts(root("R"), typ("T"), version("V")), key: "K", path: notFound,
		tried: []string{"R/T/K.V", "R/T/K", "R/T/default.V", "R/T/default", "T/K.V", "T/K", "T/default.V", "T/default", "default.V", "default"}},
	{name: `DESIGN §4 "R steps skipped when no root space"`, spec: true,
		opts: opts(typ("T"), version("V")), key: "K", path: notFound,
		tried: []string{"T/K.V", "T/K", "T/default.V", "T/default", "default.V", "default"}},
	{name: "DESIGN §4 V steps skipped when no version", spec: true,
		opts: opts(root("R"), typ("T")), key: "K", path: notFound,
		tried: []string{"R/T/K", "R/T/default", "T/K", "T/default", "default"}},

	// A match at each versioned and unversioned level.
	{name: "level R/T/K.V",
		opts: opts(root("action_agent"), version("enterprise")), key: "Search", path: "action_agent/main/Search.enterprise", level: runtime.LevelRootKeyVersion,
		tried: []string{"action_agent/main/Search.enterprise"}},
	{name: "level R/T/K under a version",
		opts: opts(root("action_agent"), version("enterprise")), key: "BrowseLink", path: "action_agent/main/BrowseLink", level: runtime.LevelRootKey,
		tried: []string{"action_agent/main/BrowseLink.enterprise", "action_agent/main/BrowseLink"}},
	{name: "level R/T/default.V",
		opts: opts(root("action_agent"), version("enterprise")), key: "SubmitForm", path: "action_agent/main/default.enterprise", level: runtime.LevelRootDefaultVersion,
		tried: []string{"action_agent/main/SubmitForm.enterprise", "action_agent/main/SubmitForm", "action_agent/main/default.enterprise"}},
	{name: "level R/T/default under a version",
		opts: opts(root("action_agent"), version("end_customers")), key: "SubmitForm", path: "action_agent/main/default", level: runtime.LevelRootDefault,
		tried: []string{"action_agent/main/SubmitForm.end_customers", "action_agent/main/SubmitForm", "action_agent/main/default.end_customers", "action_agent/main/default"}},
	{name: "level T/K.V below a root space",
		opts: opts(root("specialized_agent"), version("enterprise")), key: "BrowseLink", path: "main/BrowseLink.enterprise", level: runtime.LevelKeyVersion,
		tried: []string{"specialized_agent/main/BrowseLink.enterprise", "specialized_agent/main/BrowseLink", "specialized_agent/main/default.enterprise", "specialized_agent/main/default", "main/BrowseLink.enterprise"}},
	{name: "level T/default.V",
		opts: opts(version("end_customers")), key: "SubmitForm", path: "main/default.end_customers", level: runtime.LevelDefaultVersion,
		tried: []string{"main/SubmitForm.end_customers", "main/SubmitForm", "main/default.end_customers"}},
	{name: "level T/default under a version",
		opts: opts(version("enterprise")), key: "SubmitForm", path: "main/default", level: runtime.LevelDefault,
		tried: []string{"main/SubmitForm.enterprise", "main/SubmitForm", "main/default.enterprise", "main/default"}},
	{name: "level default.V",
		opts: opts(typ("support"), version("enterprise")), key: "SubmitForm", path: "default.enterprise", level: runtime.LevelGlobalVersion,
		tried: []string{"support/SubmitForm.enterprise", "support/SubmitForm", "support/default.enterprise", "support/default", "default.enterprise"}},
	{name: "level default under a version",
		opts: opts(typ("support"), version("v9")), key: "SubmitForm", path: "default", level: runtime.LevelGlobal,
		tried: []string{"support/SubmitForm.v9", "support/SubmitForm", "support/default.v9", "support/default", "default.v9", "default"}},

	// Namespaced keys: the key's namespace replaces the type.
	{name: `namespaced key "reflection/Review" (DESIGN §4)`,
		key: "reflection/Review", path: "reflection/Review", level: runtime.LevelKey,
		tried: []string{"reflection/Review"}},
	{name: "namespaced key falls back to its own namespace's default, not the active type's",
		key: "reflection/Plan", path: "reflection/default", level: runtime.LevelDefault,
		tried: []string{"reflection/Plan", "reflection/default"}},
	{name: "namespaced key overrides a switched type too",
		opts: opts(typ("support")), key: "reflection/Review", path: "reflection/Review", level: runtime.LevelKey,
		tried: []string{"reflection/Review"}},
	{name: "namespaced key under a root space: R/ns/default comes before ns/K, as R/T/default before T/K",
		opts: opts(root("specialized_agent")), key: "reflection/Review", path: "specialized_agent/reflection/default", level: runtime.LevelRootDefault,
		tried: []string{"specialized_agent/reflection/Review", "specialized_agent/reflection/default"}},
	{name: "namespaced key with a version",
		opts: opts(version("enterprise")), key: "reflection/Review", path: "reflection/Review", level: runtime.LevelKey,
		tried: []string{"reflection/Review.enterprise", "reflection/Review"}},
	{name: "namespaced key of a namespace the set lacks goes to the global default",
		key: "nowhere/Review", path: "default", level: runtime.LevelGlobal,
		tried: []string{"nowhere/Review", "nowhere/default", "default"}},
	{name: "namespaced key in the spec's set, which has no global default", spec: true,
		opts: opts(root("R"), version("V")), key: "nowhere/Review", path: notFound,
		tried: []string{"R/nowhere/Review.V", "R/nowhere/Review", "R/nowhere/default.V", "R/nowhere/default", "nowhere/Review.V", "nowhere/Review", "nowhere/default.V", "nowhere/default", "default.V", "default"}},
	{name: "fully qualified key without a root space finds its template exactly",
		key: "action_agent/main/BrowseLink", path: "action_agent/main/BrowseLink", level: runtime.LevelKey,
		tried: []string{"action_agent/main/BrowseLink"}},
	{name: "empty namespace means the active type",
		key: "/BrowseLink", path: "main/BrowseLink", level: runtime.LevelKey,
		tried: []string{"main/BrowseLink"}},
	{name: "namespace with an empty name means that namespace's default",
		key: "reflection/", path: "reflection/default", level: runtime.LevelDefault,
		tried: []string{"reflection/default"}},
	{name: "namespaced default name",
		key: "reflection/default", path: "reflection/default", level: runtime.LevelDefault,
		tried: []string{"reflection/default"}},

	// Keys and names.
	{name: "key equal to the default name is tried once, at the default level",
		opts: opts(root("action_agent"), version("enterprise")), key: "default", path: "action_agent/main/default.enterprise", level: runtime.LevelRootDefaultVersion,
		tried: []string{"action_agent/main/default.enterprise"}},
	{name: "a key is never split at '.'",
		key: "BrowseLink.enterprise", path: "main/BrowseLink.enterprise", level: runtime.LevelKey,
		tried: []string{"main/BrowseLink.enterprise"}},
	{name: "default name switched (§4.2 default_template_name)",
		opts: opts(dflt("Search")), key: "SubmitForm", path: "main/Search", level: runtime.LevelDefault,
		tried: []string{"main/SubmitForm", "main/Search"}},
	{name: "switched default name applies to the global step too", spec: true,
		opts: opts(typ("support"), dflt("fallback")), key: "SubmitForm", path: notFound,
		tried: []string{"support/SubmitForm", "support/fallback", "fallback"}},
	{name: "key named default is an ordinary name under another default name",
		opts: opts(dflt("Search")), key: "default", path: "main/default", level: runtime.LevelKey,
		tried: []string{"main/default"}},
	{name: "default name holding a '/': its path splits there, not after the type",
		opts: opts(typ("support"), dflt("main/default")), key: "SubmitForm", path: "main/default", level: runtime.LevelGlobal,
		tried: []string{"support/SubmitForm", "support/main/default", "main/default"}},
	{name: "default name holding a '/' under a root space",
		opts: opts(root("action_agent"), typ(""), dflt("main/default"), version("enterprise")), key: "SubmitForm", path: "action_agent/main/default.enterprise", level: runtime.LevelRootDefaultVersion,
		tried: []string{"action_agent/SubmitForm.enterprise", "action_agent/SubmitForm", "action_agent/main/default.enterprise"}},
	{name: "version holding a '/'",
		opts: opts(version("x/enterprise")), key: "BrowseLink", path: "main/BrowseLink", level: runtime.LevelKey,
		tried: []string{"main/BrowseLink.x/enterprise", "main/BrowseLink"}},
	{name: "empty default name means default",
		opts: opts(dflt("")), key: "SubmitForm", path: "main/default", level: runtime.LevelDefault,
		tried: []string{"main/SubmitForm", "main/default"}},

	// Types.
	{name: "missing type: a type the set lacks falls through to the global default",
		opts: opts(typ("support"), root("action_agent")), key: "BrowseLink", path: "default", level: runtime.LevelGlobal,
		tried: []string{"action_agent/support/BrowseLink", "action_agent/support/default", "support/BrowseLink", "support/default", "default"}},
	{name: "switched type (§4.2 active_template_type reflection)",
		opts: opts(typ("reflection")), key: "BrowseLink", path: "reflection/default", level: runtime.LevelDefault,
		tried: []string{"reflection/BrowseLink", "reflection/default"}},
	{name: "empty type selects the set's root level",
		opts: opts(typ("")), key: "BrowseLink", path: "BrowseLink", level: runtime.LevelKey,
		tried: []string{"BrowseLink"}},
	{name: "empty type: the type default is the global default, tried once",
		opts: opts(typ(""), version("enterprise")), key: "Search", path: "default.enterprise", level: runtime.LevelGlobalVersion,
		tried: []string{"Search.enterprise", "Search", "default.enterprise"}},
	{name: "empty type under a root space",
		opts: opts(typ(""), root("action_agent")), key: "Search", path: "default", level: runtime.LevelGlobal,
		tried: []string{"action_agent/Search", "action_agent/default", "Search", "default"}},
	{name: "empty type and empty key",
		opts: opts(typ("")), key: "", path: "default", level: runtime.LevelGlobal,
		tried: []string{"default"}},
}

func TestResolve(t *testing.T) {
	for _, tc := range resolveCases {
		t.Run(tc.name, func(t *testing.T) {
			m := newAgent()
			set := "agent"
			if tc.spec {
				m, set = newSpec(), "spec"
			}
			r := m.Resolve(tc.key, tc.opts...)
			if tc.path == notFound {
				var re *runtime.ResolveError
				if !errors.As(r.Err, &re) {
					t.Fatalf("Resolve(%q) = %q at %v, err %v; want a *ResolveError", tc.key, r.Path, r.Level, r.Err)
				}
				if re.Set != set || re.Key != tc.key || !slices.Equal(re.Tried, tc.tried) {
					t.Errorf("ResolveError = %+v; want set %q, key %q, tried %q", re, set, tc.key, tc.tried)
				}
				if r.Path != "" || r.ID != -1 {
					t.Errorf("failed resolution has Path %q, ID %d", r.Path, r.ID)
				}
			} else {
				if r.Err != nil {
					t.Fatalf("Resolve(%q): %v", tc.key, r.Err)
				}
				if r.Path != tc.path || r.Level != tc.level {
					t.Errorf("Resolve(%q) = %q at %v; want %q at %v", tc.key, r.Path, r.Level, tc.path, tc.level)
				}
				paths := _agentPaths[:]
				if tc.spec {
					paths = _specPaths[:]
				}
				if paths[r.ID] != r.Path {
					t.Errorf("ID %d is %q, not %q", r.ID, paths[r.ID], r.Path)
				}
			}
			if got := r.Tried(); !slices.Equal(got, tc.tried) {
				t.Errorf("Tried() = %q; want %q", got, tc.tried)
			}
			if r.Key != tc.key {
				t.Errorf("Key = %q; want %q", r.Key, tc.key)
			}
		})
	}
}

// TestResolveSystemDefault runs every case of the spec's set in the same
// set with a system default (template-manager.md §3.2: "4. Use:
// self.default_template (system fallback)"): a key that resolved still
// resolves to the same template at the same step, and a key that matched
// nothing resolves to the system default, after the same paths.
func TestResolveSystemDefault(t *testing.T) {
	for _, tc := range resolveCases {
		if !tc.spec {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			r := newFallback().Resolve(tc.key, tc.opts...)
			if r.Err != nil {
				t.Fatalf("Resolve(%q): %v", tc.key, r.Err)
			}
			path, level, tried := tc.path, tc.level, tc.tried
			if tc.path == notFound {
				path, level, tried = "default_template", runtime.LevelSystemDefault, append(slices.Clone(tc.tried), "default_template")
			}
			if r.Path != path || r.Level != level || _fallbackPaths[r.ID] != path {
				t.Errorf("Resolve(%q) = %q (id %d) at %v; want %q at %v", tc.key, r.Path, r.ID, r.Level, path, level)
			}
			if got := r.Tried(); !slices.Equal(got, tried) {
				t.Errorf("Tried() = %q; want %q", got, tried)
			}
			if n := testing.AllocsPerRun(100, func() { r = newFallback().Resolve(tc.key, tc.opts...) }); n != 0 {
				t.Errorf("Resolve allocates %v times", n)
			}
		})
	}
	// The system default is the last step: a global default comes first.
	if r := newFallback().Resolve("", typ("")); r.Path != "default_template" || r.Level != runtime.LevelSystemDefault {
		t.Errorf("empty key at the root: %q at %v", r.Path, r.Level)
	}
	if l := runtime.LevelSystemDefault; l.String() != "system default" || l.Versioned() {
		t.Errorf("LevelSystemDefault: %q, versioned %v", l.String(), l.Versioned())
	}
}

func TestResolveErrorMessage(t *testing.T) {
	r := newSpec().Resolve("Plan", typ("support"), root("action_agent"))
	want := `spec: no template for key "Plan" (tried action_agent/support/Plan, action_agent/support/default, support/Plan, support/default, default)`
	if r.Err == nil || r.Err.Error() != want {
		t.Errorf("error = %v\nwant    %s", r.Err, want)
	}
}

func TestPredefinedErrorMessage(t *testing.T) {
	err := &runtime.PredefinedError{Set: "agent", Name: "acm", Known: []string{"acme", "consumer"}}
	want := `agent: no predefined variables "acm" (have acme, consumer)`
	if err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
	err = &runtime.PredefinedError{Set: "spec", Name: "acme"}
	if want := `spec: no predefined variables "acme" (the set has none)`; err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

func TestSettings(t *testing.T) {
	m := newAgent(root("action_agent"), version("enterprise"), dflt(""))
	want := runtime.Settings{RootSpace: "action_agent", Type: "main", Version: "enterprise", DefaultName: "default"}
	if got := m.Settings(); got != want {
		t.Errorf("Settings() = %+v; want %+v", got, want)
	}
	// Options apply in order; later ones win.
	m = newAgent(typ("a"), typ("b"), version("x"), version(""))
	if got := m.Settings(); got.Type != "b" || got.Version != "" {
		t.Errorf("Settings() = %+v; want type b, no version", got)
	}
	m = newAgent(predefined("acme"))
	if got := m.Settings(); got.Predefined != "acme" || got.Type != "main" {
		t.Errorf("Settings() = %+v; want predefined acme", got)
	}
	if sw := m.Switch(predefined("")); sw.Settings().Predefined != "" {
		got := sw.Settings()
		t.Errorf("WithPredefined(\"\") leaves %+v", got)
	}
	if zero := runtime.NewManager(&_agentTable, runtime.Settings{}); zero.Settings() != (runtime.Settings{DefaultName: "default"}) {
		got := zero.Settings()
		t.Errorf("zero defaults give %+v", got)
	}
}

// TestSwitch follows template-manager.md §4.2: "switch() does not modify the
// original TemplateManager — it returns a new copy."
func TestSwitch(t *testing.T) {
	orig := newAgent()
	refl := orig.Switch(typ("reflection"))
	ver := orig.Switch(version("end_customers"))
	spec := orig.Switch(root("specialized_agent"))
	dn := orig.Switch(dflt("Search"))

	for _, c := range []struct {
		name string
		m    *runtime.Manager
		key  string
		want string
	}{
		{`original is unchanged`, orig, "SubmitForm", "main/default"},
		{`switch(active_template_type="reflection")`, &refl, "SubmitForm", "reflection/default"},
		{`switch(template_version="end_customers")`, &ver, "SubmitForm", "main/default.end_customers"},
		{`switch(active_template_root_space="specialized_agent")`, &spec, "SubmitForm", "main/default"},
		{`switch(active_template_root_space="specialized_agent") with reflection`, &spec, "reflection/SubmitForm", "specialized_agent/reflection/default"},
		{`switch(default_template_name="Search")`, &dn, "SubmitForm", "main/Search"},
	} {
		if r := c.m.Resolve(c.key); r.Path != c.want {
			t.Errorf("%s: Resolve(%q) = %q, %v; want %q", c.name, c.key, r.Path, r.Err, c.want)
		}
	}
	pre := orig.Switch(predefined("acme"))
	if s := pre.Settings(); s.Predefined != "acme" {
		t.Errorf(`switch(predefined_variables="acme"): %+v`, s)
	}
	if orig.Settings() != newAgent().Settings() {
		t.Errorf("Switch changed the original: %+v", orig.Settings())
	}
	// Switching a switched manager keeps the earlier switch.
	both := refl.Switch(version("enterprise"))
	if s := both.Settings(); s.Type != "reflection" || s.Version != "enterprise" {
		t.Errorf("chained Switch: %+v", s)
	}
}

// TestPerCallOverride follows template-manager.md §4.3: per-call
// active_template_type and active_template_root_space "without modifying
// the manager".
func TestPerCallOverride(t *testing.T) {
	m := newAgent()
	if r := m.Resolve("SubmitForm", typ("reflection")); r.Path != "reflection/default" || r.Settings.Type != "reflection" {
		t.Errorf("per-call type: %q, settings %+v", r.Path, r.Settings)
	}
	if r := m.Resolve("BrowseLink", root("action_agent")); r.Path != "action_agent/main/BrowseLink" {
		t.Errorf("per-call root space: %q", r.Path)
	}
	if r := m.Resolve("SubmitForm"); r.Path != "main/default" || r.Settings != m.Settings() {
		t.Errorf("after per-call overrides: %q, settings %+v", r.Path, r.Settings)
	}
	// The predefined variable set (§4.2 predefined_variables) is a setting
	// like the others: the resolution carries it for the renderer.
	if r := m.Resolve("BrowseLink", predefined("acme")); r.Settings.Predefined != "acme" || r.Path != "main/BrowseLink" {
		t.Errorf("per-call predefined: %q, settings %+v", r.Path, r.Settings)
	}
	acme := m.Switch(predefined("acme"))
	if r := acme.Resolve("BrowseLink", predefined("")); r.Settings.Predefined != "" {
		t.Errorf("clearing predefined per call: %+v", r.Settings)
	}
	// An override can also clear a setting for the call.
	v := m.Switch(version("enterprise"), root("action_agent"))
	if r := v.Resolve("BrowseLink", version(""), root("")); r.Path != "main/BrowseLink" {
		t.Errorf("clearing per call: %q", r.Path)
	}
}

func TestLevel(t *testing.T) {
	var names []string
	for l := runtime.LevelRootKeyVersion; l <= runtime.LevelGlobal; l++ {
		names = append(names, l.String())
		if want := l%2 == 0; l.Versioned() != want {
			t.Errorf("%v.Versioned() = %v", l, l.Versioned())
		}
	}
	want := []string{"R/T/K.V", "R/T/K", "R/T/D.V", "R/T/D", "T/K.V", "T/K", "T/D.V", "T/D", "D.V", "D"}
	if !slices.Equal(names, want) {
		t.Errorf("levels %q; want %q", names, want)
	}
	if s := runtime.Level(11).String(); s != "Level(11)" || runtime.Level(11).Versioned() {
		t.Errorf("Level(11) = %q", s)
	}
}

func TestPath(t *testing.T) {
	for _, c := range []struct {
		p    runtime.Path
		want string
	}{
		{runtime.Path{Name: "default"}, "default"},
		{runtime.Path{Name: "default", Version: "v"}, "default.v"},
		{runtime.Path{Type: "main", Name: "K"}, "main/K"},
		{runtime.Path{Root: "r", Type: "t", Name: "k", Version: "v"}, "r/t/k.v"},
		{runtime.Path{Root: "r", Name: "k"}, "r/k"},
		{runtime.Path{Root: "org/team", Type: "a/b", Name: "k"}, "org/team/a/b/k"},
	} {
		if got := c.p.String(); got != c.want || c.p.Len() != len(c.want) {
			t.Errorf("%+v: String() = %q, Len() = %d; want %q", c.p, got, c.p.Len(), c.want)
		}
	}
}

// pathParts are the parts TestLookupShapesAgree and TestPathIs combine:
// every part of the test sets' paths, parts that join into the same path
// in another split (a namespace of two segments, a name with a dot), near
// misses, and parts holding a separator.
var pathParts = []string{"", "main", "action_agent", "action_agent/main", "specialized_agent", "reflection", "BrowseLink", "BrowseLink.enterprise", "Search", "Search.enterprise", "Review", "default", "default.enterprise", "enterprise", "end_customers", "main/BrowseLink", "mai", "main/", "Browselink", "defaulT", "x"}

// forEachPath calls f with every Path of pathParts.
func forEachPath(f func(runtime.Path)) {
	for _, r := range pathParts {
		for _, t := range pathParts {
			for _, n := range pathParts {
				for _, v := range pathParts {
					f(runtime.Path{Root: r, Type: t, Name: n, Version: v})
				}
			}
		}
	}
}

// TestPathIs holds Path.Is to comparing the joined path.
func TestPathIs(t *testing.T) {
	targets := append(slices.Clone(_agentPaths[:]), "", "main/", "/main", ".", "main.x/y")
	forEachPath(func(p runtime.Path) {
		joined := p.String()
		for _, s := range targets {
			if got := p.Is(s); got != (joined == s) {
				t.Fatalf("%+v.Is(%q) = %v; joined it is %q", p, s, got, joined)
			}
		}
	})
}

// TestLookupShapesAgree holds the generated lookup's shape (switches on the
// length, then Path.Is) to the joined paths: Dir to the directories of
// _agentPaths for every combination of parts, however the parts split a
// directory, and Name, in each directory, to the paths for every name.
func TestLookupShapesAgree(t *testing.T) {
	dirs := map[string]int{} // directory → its id in _agentLookup
	ids := map[string]int{}  // template path → id
	for id, p := range _agentPaths {
		dir := p[:strings.LastIndexByte(p, '/')+1]
		d := _agentTable.Dir(runtime.Path{Name: dir})
		if d < 0 {
			t.Fatalf("Dir(%q) = %d", dir, d)
		}
		dirs[dir] = d
		ids[p] = id
	}
	forEachPath(func(p runtime.Path) {
		want, ok := dirs[p.String()]
		if !ok {
			want = -1
		}
		if got := _agentTable.Dir(p); got != want {
			t.Fatalf("Dir(%+v) (%q) = %d; want %d", p, p.String(), got, want)
		}
	})
	for dir, d := range dirs {
		for _, n := range pathParts {
			for _, v := range pathParts {
				wantID, wantOK := ids[dir+runtime.Path{Name: n, Version: v}.String()]
				if strings.Contains(n+v, "/") {
					wantID, wantOK = 0, false // no name holds a '/'
				}
				if id, ok := _agentTable.Name(d, n, v); id != wantID || ok != wantOK {
					t.Fatalf("Name(%q, %q, %q) = %d, %v; want %d, %v", dir, n, v, id, ok, wantID, wantOK)
				}
			}
		}
	}
}

// TestResolveFirstStep holds Resolve's first step, which under settings
// with no root space, version or '/' in the default name tries a key as
// T/K before building the chain, to the walk of the whole chain, which a
// per-call option that changes nothing forces: the same template, step
// and paths tried, for keys that are empty, the default name, namespaced,
// with a '/' or a '.', at a type, the root level, a default name that
// names a template, and under settings where T/K is not the first step.
func TestResolveFirstStep(t *testing.T) {
	keys := []string{"", "default", "Search", "BrowseLink", "BrowseLink.enterprise", "Review", "reflection/Review", "main/BrowseLink", "x/BrowseLink", "/Search", "nope"}
	for _, c := range []struct {
		name string
		m    *runtime.Manager
	}{
		{"agent", newAgent()},
		{"agent at the root level", newAgent(typ(""))},
		{"agent of type reflection", newAgent(typ("reflection"))},
		{"agent with default name Search", newAgent(dflt("Search"))},
		{"agent with a root space", newAgent(root("action_agent"))},
		{"agent with a version", newAgent(version("enterprise"))},
		{"agent with a '/' in the default name", newAgent(dflt("main/default"))},
		{"system default", newFallback()},
		{"system default at the root level", newFallback(typ(""))},
	} {
		for _, key := range keys {
			got := c.m.Resolve(key)
			want := c.m.Resolve(key, predefined(c.m.Settings().Predefined))
			if got.Path != want.Path || got.ID != want.ID || got.Level != want.Level || (got.Err == nil) != (want.Err == nil) || !slices.Equal(got.Tried(), want.Tried()) {
				t.Errorf("%s: Resolve(%q) = %q (%d) at %v, %v; the walk gives %q (%d) at %v, %v",
					c.name, key, got.Path, got.ID, got.Level, got.Err, want.Path, want.ID, want.Level, want.Err)
			}
		}
	}
}

// TestResolveSlashSettings resolves under a version or a default name
// holding a '/', which moves a candidate's directory out of its prefix,
// set at construction, by Switch or for the call, alone or next to a
// per-call option that changes the other.
func TestResolveSlashSettings(t *testing.T) {
	paths := []string{"main/Search.v1/x", "main/a/b", "main/default.v1/x"}
	m := runtime.NewManager(runtime.MapTable("slash", paths, -1), setDefaults)
	ver, def := m.Switch(version("v1/x")), m.Switch(dflt("a/b"))
	for _, c := range []struct {
		name  string
		m     *runtime.Manager
		key   string
		opts  []runtime.Option
		path  string
		level runtime.Level
	}{
		{"per-call version", &m, "Search", opts(version("v1/x")), "main/Search.v1/x", runtime.LevelKeyVersion},
		{"per-call version, default", &m, "Nope", opts(version("v1/x")), "main/default.v1/x", runtime.LevelDefaultVersion},
		{"switched version", &ver, "Search", nil, "main/Search.v1/x", runtime.LevelKeyVersion},
		{"switched version, per-call default name", &ver, "Nope", opts(dflt("default")), "main/default.v1/x", runtime.LevelDefaultVersion},
		{"per-call default name", &m, "Nope", opts(dflt("a/b")), "main/a/b", runtime.LevelDefault},
		{"switched default name", &def, "Nope", nil, "main/a/b", runtime.LevelDefault},
		{"switched default name, per-call version", &def, "Nope", opts(version("v2")), "main/a/b", runtime.LevelDefault},
	} {
		if r := c.m.Resolve(c.key, c.opts...); r.Path != c.path || r.Level != c.level {
			t.Errorf("%s: Resolve(%q) = %q at %v, %v; want %q at %v", c.name, c.key, r.Path, r.Level, r.Err, c.path, c.level)
		}
	}
}

// TestResolveAllocs holds Resolve to zero allocations whenever a key
// resolves, whatever the level, options and key.
func TestResolveAllocs(t *testing.T) {
	m := newAgent(root("specialized_agent"))
	for _, tc := range resolveCases {
		if tc.spec || tc.path == notFound {
			continue
		}
		var r runtime.Resolution
		n := testing.AllocsPerRun(100, func() { r = m.Resolve(tc.key, tc.opts...) })
		if n != 0 {
			t.Errorf("%s: Resolve allocates %v times", tc.name, n)
		}
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	// Options written at the call, through a generated-style wrapper.
	a := NewAgent()
	n := testing.AllocsPerRun(100, func() {
		if r := a.Resolve("reflection/Review", runtime.WithRootSpace("specialized_agent"), runtime.WithVersion("enterprise"), runtime.WithPredefined("acme")); r.Err != nil {
			t.Fatal(r.Err)
		}
	})
	if n != 0 {
		t.Errorf("Resolve with literal options allocates %v times", n)
	}
}

// TestConcurrentManager shares one manager between goroutines that switch
// it and resolve with per-call options; run with -race.
func TestConcurrentManager(t *testing.T) {
	shared := newAgent()
	want := make([]string, len(resolveCases))
	for i, tc := range resolveCases {
		want[i] = shared.Resolve(tc.key, tc.opts...).Path
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				j := (g + i) % len(resolveCases)
				tc := resolveCases[j]
				if tc.spec {
					continue
				}
				if got := shared.Resolve(tc.key, tc.opts...).Path; got != want[j] {
					t.Errorf("goroutine %d: %s: %q; want %q", g, tc.name, got, want[j])
					return
				}
				sw := shared.Switch(version(fmt.Sprint("v", i)), typ("reflection"))
				if got := sw.Resolve("Review").Path; got != "reflection/Review" {
					t.Errorf("switched: %q", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	if shared.Settings() != setDefaults {
		t.Errorf("shared manager changed: %+v", shared.Settings())
	}
}

func BenchmarkResolve(b *testing.B) {
	m := newAgent()
	for _, bc := range []struct {
		name string
		key  string
		opts []runtime.Option
	}{
		{"exact", "BrowseLink", noOption},
		{"exact_versioned", "BrowseLink", opts(version("enterprise"))},
		{"namespaced", "reflection/Review", noOption},
		{"global_default_all_steps", "SubmitForm", opts(root("R"), typ("support"), version("v9"))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r := m.Resolve(bc.key, bc.opts...); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}
