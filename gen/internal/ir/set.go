package ir

import (
	"path"

	"github.com/promptgen/promptgen/gen/internal/src"
)

// PromptSet is a checked template set: emit's only input for it.
type PromptSet struct {
	// What names and the emitters read of promptset.yaml, copied from the
	// spec by NewPromptSet.
	Key  string  // the set's directory in the prompts tree, "" for the tree itself
	Path string  // promptset.yaml as diagnostics show it
	Pos  src.Pos // the start of promptset.yaml
	// GoNameOverride is the set's `go_name:`, and GoNamePos the position
	// of its value.
	GoNameOverride string
	GoNamePos      src.Pos
	Description    string
	// DefaultType and DefaultName are the settings of a new set value.
	DefaultType, DefaultName string

	Name   string // the set's Go type name, e.g. Agent
	Helper string // the prefix of its package-level helpers, e.g. _agent
	Feed   *Type
	// Structs are the named struct types of the feed, Feed first.
	Structs    []*Type
	Templates  []*SetTemplate  // by id: the index in the sorted path table
	Components []*SetComponent // in the order of Set.Components
	Keys       []*SetKey       // sorted by key
	// Predefined are the predefined variable sets, sorted by name.
	Predefined []*Predefined
	DeclaredTools
	// Chat: the feed embeds runtime/chat.Context (`inputs: chat`), whose
	// strings may hold none of SpecialTokens.
	Chat          bool
	SpecialTokens []string
	// Filters are the set's Go filters (`filters:`).
	Filters []*GoFilter
}

// Predefined is one set of predefined_variables, checked against the feed.
type Predefined struct {
	Name   string
	Pos    src.Pos // the name
	GoName string  // its name's constant, decided by names.Sets
	Values []PredefinedField
}

// PredefinedField is the value of one feed field in a Predefined.
type PredefinedField struct {
	Field *Field
	// Value is a string, int64, float64 or bool, as the field's kind
	// wants it, or a []any of them for a list.
	Value any
}

// SetTemplate is one template of a set.
type SetTemplate struct {
	// Path is the template's full path in the set ("main/BrowseLink.enterprise",
	// DefaultTemplatePath for the System one), and Source its file as
	// diagnostics show it.
	Path   string
	Source string
	// System marks the set's default_template, the system fallback after
	// every path of the chain.
	System bool
	Body   *Prompt
	// Versioned lists the versioned components that the template includes,
	// directly or through other components, sorted by name.
	Versioned []*SetComponent
	Model     string      // the template's model, else the set's
	Params    []Parameter // the template's parameters, else the set's
	Extra     []Parameter // the template's extra_parameters, else the set's
	Func      string      // the Go function that renders it
}

// SetComponent is a component of a set: every version of one name in one
// namespace.
type SetComponent struct {
	*Component // Name, Func and the versions' templates
	Namespace  string
	Versions   []*ComponentVersion // the unversioned content first, if any
}

// Versioned reports whether the component has versions to choose from.
func (c *SetComponent) Versioned() bool {
	return len(c.Versions) > 1 || c.Versions[0].Version != ""
}

// VersionNames lists the component's versions, "" for unversioned content.
func (c *SetComponent) VersionNames() []string {
	var vs []string
	for _, v := range c.Versions {
		vs = append(vs, v.Version)
	}
	return vs
}

// ComponentVersion is one version of a component.
type ComponentVersion struct {
	Version string // "" for the unversioned content
	// Full is its path in the set ("main/components/preamble.concise"),
	// and Source its file as diagnostics show it.
	Full   string
	Source string
	Body   *Prompt
	Func   string
}

// SetKey is a typed key constant: one per template name, outside of
// the default names.
type SetKey struct {
	Key         string   // "BrowseLink", "reflection/Review"
	GoName      string   // decided by names.Sets
	Paths       []string // the templates with this key
	Pos         src.Pos  // the first of them
	Override    string   // a template's go_name
	OverridePos src.Pos
}

// Full names the component in messages: "main/components/preamble".
func (c *SetComponent) Full() string { return path.Join(c.Namespace, ComponentsDir, c.Name) }

// NewPromptSet starts the checked form of set s.
func NewPromptSet(s *SetSpec) *PromptSet {
	return &PromptSet{Key: s.Key, Path: s.Path, Pos: s.Pos, GoNameOverride: s.GoName, GoNamePos: s.GoNamePos,
		Description: s.Description, DefaultType: s.DefaultType, DefaultName: s.DefaultName,
		DeclaredTools: DeclaredTools{ToolChoice: s.ToolChoice}, Chat: s.Chat, SpecialTokens: s.SpecialTokens, Filters: s.Filters}
}

// NewSetTemplate starts the checked form of template t of set s: its model,
// parameters and extra parameters are its own, else the set's.
func NewSetTemplate(t *SetTemplateSpec, s *SetSpec) *SetTemplate {
	it := &SetTemplate{Path: t.Path, Source: t.Prompt.Path, System: t.System,
		Model: t.Prompt.Model, Params: t.Prompt.Parameters, Extra: t.Prompt.ExtraParameters}
	if it.Model == "" {
		it.Model = s.Model
	}
	if it.Params == nil {
		it.Params = s.Parameters
	}
	if it.Extra == nil {
		it.Extra = s.ExtraParameters
	}
	return it
}

// NewComponentVersion starts the checked form of component version c.
func NewComponentVersion(c *ComponentSpec) *ComponentVersion {
	return &ComponentVersion{Version: c.Version, Full: c.Full(), Source: c.Prompt.Path}
}
