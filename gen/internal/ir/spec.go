package ir

import (
	"path"

	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
	"gopkg.in/yaml.v3"
)

// PromptSpec is one standalone prompt file, as loaded.
type PromptSpec struct {
	// Path is the file's path as shown in diagnostics (slash-separated,
	// relative to the working directory).
	Path string
	// Key is the path inside the input directory without extension, e.g.
	// "support/summarize_customer_interaction".
	Key string
	Pos src.Pos // start of the file

	Description string
	Model       string
	// Parameters are `parameters:`, checked against runtime/params;
	// ExtraParameters are `extra_parameters:`, a provider's own knobs sent
	// as they are.
	Parameters      []Parameter
	ExtraParameters []Parameter
	Jinja           tmpl.Options
	ToolDecl        // tools: and tool_choice:
	// OutputFormat is json, text, yaml or xml; "" when not set.
	OutputFormat string
	// OutputParsing is lenient or strict; "" when not set (lenient), and
	// OutputParsingPos the position of its key.
	OutputParsing    string
	OutputParsingPos src.Pos
	// GoName is the `go_name:` override of the prompt's Go name, and
	// GoNamePos the position of its value.
	GoName    string
	GoNamePos src.Pos
	// Template is the template source and Map locates its bytes in the file.
	Template string
	Map      src.SourceMap
	// Includable are the plain template files of the prompts tree by
	// their path in it ("agent/tools.j2"), which {% include %} may name:
	// one map, shared by the prompts of a load.
	Includable map[string]*PromptSpec
	// Inputs is the declared feed (a struct type), nil when the file
	// declares no inputs.
	Inputs *Type
	// Chat is set by `inputs: chat`: the feed is runtime/chat.Context and
	// the other variables the template reads (Inputs is nil).
	// SpecialTokens are its `special_tokens`, the model's, which rendering
	// rejects in any string of the chat context.
	Chat          bool
	SpecialTokens []string
	// OutputSchema is the loaded `outputSchema`, nil when the file has
	// none or it has errors; OutputSchemaPos is the position of its key.
	OutputSchema    *schema.Schema
	OutputSchemaPos src.Pos
	// Examples are the entries of `examples`, checked against the feed and
	// the output once the feed is typed.
	Examples []*ExampleSpec
	// Messages are the entries of `messages`; a prompt with messages has
	// no Template.
	Messages []*MessageSpec
	// System is the `system:` template of a single-template prompt: its
	// Messages start with a system message; nil when absent.
	System *TemplateSpec
	// Variables is the `variables:` setting, nil when absent.
	Variables *VariablesSpec
	// Sections are the entries of `sections:` (a sectioned prompt: the
	// Template, when present, is its static head); Tokenizer names the
	// encoding that counts their tokens and Markers wraps each in
	// <!-- BEGIN: name --> and <!-- END: name --> lines.
	Sections  []*SectionSpec
	Tokenizer string
	Markers   bool
	// Filters are the `filters:` of the file, or of the set the template
	// belongs to, sorted by name.
	Filters []*GoFilter
	// Fragment marks a named reusable text block (a file of a fragments/
	// folder, or an entry of a set's `fragments:`): it generates a function
	// <Name>Fragment(<Name>FragmentParams) (string, error), not a prompt value.
	Fragment bool
}

// TemplateSpec is one template string of a prompt file.
type TemplateSpec struct {
	Text string
	Map  src.SourceMap
	Pos  src.Pos // the key
}

// SectionSpec is one entry of `sections:`.
type SectionSpec struct {
	Pos   src.Pos // the entry
	Name  string
	Title string
	// When is the expression that keeps the section in; nil when absent.
	When *TemplateSpec
	// Budget is budget_tokens, 0 when absent; Truncate is items, text or
	// error, what rendering does over the budget.
	Budget      int
	Truncate    string
	TruncatePos src.Pos
	Template    *TemplateSpec
}

// Truncate modes of a section over its budget.
const (
	TruncateError = "error"
	TruncateItems = "items"
	TruncateText  = "text"
)

// MessageSpec is one entry of `messages`. Content, Name and ToolCallID are
// templates rendered with the prompt's feed; the message boundaries are the
// entries themselves.
type MessageSpec struct {
	Pos        src.Pos // the entry
	Role       string  // system, user, assistant, tool_request or tool_result
	Content    *TemplateSpec
	Name       *TemplateSpec
	ToolCallID *TemplateSpec
	// Data is a tool_result's structured content: a template that renders
	// a JSON object (runtime.Message.Data).
	Data      *TemplateSpec
	ToolCalls []*ToolCallSpec
	// Parts are a user message's `content`: text and image parts in
	// place of its template (runtime.Message.Parts).
	Parts []*PartSpec
}

// PartSpec is one part of a message's `content`: a text template, or with
// Image a template that renders the image's https or data URL, and its
// detail (auto, low or high; "" when not given).
type PartSpec struct {
	Pos      src.Pos
	Image    bool
	Detail   string
	Template *TemplateSpec
}

// ToolCallSpec is one entry of a message's `tool_calls`.
type ToolCallSpec struct {
	Pos                 src.Pos
	ID, Name, Arguments *TemplateSpec
}

// VariablesSpec is the `variables:` setting (prompt-utils'
// ValidatedPromptTemplate): the variables a template may use.
type VariablesSpec struct {
	Allowed    []string
	AllowedPos src.Pos
	// Error makes a variable outside Allowed an error, not a warning.
	Error bool
}

// ExampleSpec is one entry of `examples`: YAML nodes, read once the feed and
// output types are known.
type ExampleSpec struct {
	Pos src.Pos // the entry
	// Input is the input_vars mapping and Output the expected_output
	// value; nil when absent.
	Input, Output *yaml.Node
	// InputPos and OutputPos are the positions of their keys.
	InputPos, OutputPos src.Pos
	// posOf returns the position of a node of the file.
	PosOf func(*yaml.Node) src.Pos
}

// Parameter is one entry of `parameters`, in file order.
type Parameter struct {
	Key   string
	Value any // string, int64, float64, bool, nil, []any or []Param (nested map)
	Pos   src.Pos
}

// ToolsDir is the folder of shared tools at the prompts root: one YAML
// file per tool, which prompts name in `tools:`.
const ToolsDir = "tools"

// ToolSpec is a tool as loaded: declared inline in a prompt, or shared,
// from a file of ToolsDir.
type ToolSpec struct {
	Name        string
	Pos         src.Pos // of the name (inline) or the file's start (shared)
	Description string
	// Parameters is the JSON Schema of the arguments, an object; nil for
	// a tool without arguments.
	Parameters *schema.Schema
	Strict     bool
	Shared     bool
}

// ToolDecl is the tools of a prompt or a template set: `tools:`, in order,
// and `tool_choice:` (auto, none, required or a tool's name; "" when not
// set) with the position of its value.
type ToolDecl struct {
	Tools         []ToolUse
	ToolChoice    string
	ToolChoicePos src.Pos
}

// ToolUse is an entry of a prompt's `tools:`: an inline tool, or the name
// of a shared one, which load resolves.
type ToolUse struct {
	Name string    // a shared tool's name, as written
	Tool *ToolSpec // nil until load resolves Name
	Pos  src.Pos   // of the entry
}

// FragmentsDir is the folder of fragments, at the prompts root or in a set.
const FragmentsDir = "fragments"

// ComponentsDir is the directory (and the inline key) of a namespace's components.
const ComponentsDir = "components"

// SetSpec is one template set as loaded.
type SetSpec struct {
	Key  string  // the set's directory inside the prompts tree, e.g. "agent"
	Path string  // promptset.yaml as shown in diagnostics
	Pos  src.Pos // the start of promptset.yaml

	Description string
	GoName      string // `go_name:`, and GoNamePos the position of its value
	GoNamePos   src.Pos
	DefaultType string // "main" unless promptset.yaml says otherwise
	DefaultName string // "default" unless promptset.yaml says otherwise
	Model       string // the default model of the set's templates
	// Parameters and ExtraParameters are the defaults of templates that
	// have none, each on its own.
	Parameters      []Parameter
	ExtraParameters []Parameter
	Jinja           tmpl.Options
	Inputs          *Type // the declared feed, nil when inferred
	// Chat is set by `inputs: chat`, as in a prompt file (PromptSpec.Chat),
	// for every template and component; SpecialTokens are its
	// `special_tokens`.
	Chat          bool
	SpecialTokens []string
	// Filters are the set's `filters:`, which its templates, components
	// and fragments share.
	Filters []*GoFilter
	// Autobind lists the packages whose struct types bind the set's inputs
	// declared as plain objects, by name (`autobind:`).
	Autobind []GoPackage
	// Variables is the `variables:` setting, applied to every template and
	// component of the set; nil when absent.
	Variables *VariablesSpec
	// Predefined are the entries of `predefined_variables`, in file order.
	Predefined []*PredefinedSpec
	// ToolDecl is the tools of every template of the set.
	ToolDecl

	Templates  []*SetTemplateSpec // sorted by Path
	Components []*ComponentSpec   // sorted by Namespace, Name, then versions in order
	// Fragments are the set's fragments (its fragments/ folder and the
	// `fragments:` map), keyed <set>/fragments/<name>; they generate
	// functions of the package, as the fragments of the prompts root.
	Fragments []*PromptSpec
}

// SetTemplateSpec is one template of a set.
type SetTemplateSpec struct {
	// Path is the template's full path in the set, as the fallback chain
	// names it: "main/BrowseLink.enterprise".
	Path                     string
	Namespace, Name, Version string
	// GoName is the `go_name:` of its key constant, if any.
	GoName    string
	GoNamePos src.Pos
	// System marks the set's `default_template`, the system fallback
	// after every path of the chain; its Path is DefaultTemplatePath.
	System bool
	// Prompt holds the template and where it comes from. Its Key is the
	// set's key and Path joined ("agent/main/BrowseLink.enterprise").
	Prompt *PromptSpec
}

// DefaultTemplatePath is the path that names a set's default_template in
// its path table, in resolutions and in fixtures. No key reaches it: the
// generated lookup finds it at the empty path, after every step of the
// chain.
const DefaultTemplatePath = "default_template"

// PredefinedSpec is one entry of `predefined_variables`: a name and values
// for some fields of the set's feed.
type PredefinedSpec struct {
	Name   string
	Pos    src.Pos // the name
	Values []PredefinedValue
}

// PredefinedValue is one field of a PredefinedSpec, as written.
type PredefinedValue struct {
	Key   string
	Pos   src.Pos // the key
	Value *Literal
}

// Literal is a value written in YAML: a scalar, a list or a mapping.
type Literal struct {
	Pos   src.Pos
	Kind  LiteralKind
	Value any        // a scalar's: string, int64, float64, bool or nil
	Items []*Literal // a list's
}

// LiteralKind tells the shapes of a Literal apart.
type LiteralKind uint8

const (
	LiteralScalar LiteralKind = iota
	LiteralList
	LiteralMapping
	LiteralBad // reported when loaded
)

// ComponentSpec is one version of a component ("" for unversioned content).
type ComponentSpec struct {
	Namespace, Name, Version string
	Prompt                   *PromptSpec
}

// Full returns the component's path in the set, as diagnostics name it:
// "main/components/preamble.concise".
func (c *ComponentSpec) Full() string {
	p := path.Join(c.Namespace, ComponentsDir, c.Name)
	if c.Version != "" {
		p += "." + c.Version
	}
	return p
}

// setFile is the name of the file that makes a directory a template set.
const SetFile = "promptset.yaml"
