package ir

import (
	"github.com/promptgen/promptgen/schema"
)

// CheckSchema is one schema (or subschema) of the outputSchema.
type CheckSchema struct {
	Func    string // Go name of its check function, decided when naming
	Pointer string // where it is in the outputSchema, for comments

	Always *bool // a boolean schema: true accepts anything, false nothing
	Ref    *CheckSchema
	OneOf  []*CheckSchema
	AnyOf  []*CheckSchema

	Types   []string // the type keyword, as written
	HasEnum bool     // enum or const
	Const   bool
	Enum    []any // string, json.Number, bool or nil

	MinLength, MaxLength int // -1 when absent
	Pattern              string
	PatternVar           string // Go name of its compiled regexp

	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MultipleOf string // JSON text; "" when absent

	Props      []CheckProp // sorted by name
	Required   []string    // in bit order, at most MaxRequired
	Closed     bool        // additionalProperties: false
	Additional *CheckSchema
	MinProps   int
	MaxProps   int

	Items              *CheckSchema
	MinItems, MaxItems int
	Unique             bool
}

// MaxRequired is the most required properties of one object the checks
// track, in a uint64.
const MaxRequired = 64

type CheckProp struct {
	Name string
	S    *CheckSchema
	Bit  int // index in Required, -1 when optional
}

// Checks are the generated checks of one output.
type Checks struct {
	Root    *CheckSchema
	Schemas []*CheckSchema // every schema that has a function, Root first
}

// Trivial reports whether s accepts every value without reading it.
func (s *CheckSchema) Trivial() bool {
	return s.Always != nil && *s.Always ||
		s.Always == nil && s.Ref == nil && s.OneOf == nil && s.AnyOf == nil && len(s.Types) == 0 && !s.HasEnum &&
			!s.StringChecks() && !s.NumberChecks() && !s.ObjectChecks() && !s.ArrayChecks()
}

func (s *CheckSchema) StringChecks() bool {
	return s.MinLength >= 0 || s.MaxLength >= 0 || s.Pattern != ""
}

func (s *CheckSchema) NumberChecks() bool {
	return s.Minimum != "" || s.Maximum != "" || s.ExclusiveMinimum != "" || s.ExclusiveMaximum != "" || s.MultipleOf != ""
}

func (s *CheckSchema) ObjectChecks() bool {
	return s.Props != nil || s.Closed || s.Additional != nil && !s.Additional.Trivial() || s.MinProps >= 0 || s.MaxProps >= 0
}

func (s *CheckSchema) ArrayChecks() bool {
	return s.Items != nil && !s.Items.Trivial() || s.MinItems >= 0 || s.MaxItems >= 0 || s.Unique
}

// Output formats as ParseOutput reads them.
const (
	FormatJSON = "json"
	FormatYAML = "yaml"
	FormatText = "text" // also xml: the completion is returned as is
)

// Output is what a prompt's completion decodes into.
type Output struct {
	// Format is how ParseOutput reads a completion: formatJSON, formatYAML
	// or formatText.
	Format string
	// RequestFormat is the output format that Request sends: outputFormat
	// as the file writes it (xml stays xml), json for a schema without one.
	RequestFormat string
	// Schema is the outputSchema, nil without one: ParseOutput then
	// returns raw JSON (json, yaml) or the text.
	Schema *schema.Schema
	// Nullable is set when the schema's top allows null besides a value
	// of Go type Name: ParseOutput then returns a pointer, nil for null.
	Nullable bool
	// Strict is set by `outputParsing: strict`: ParseOutput then parses
	// as output.Parse does unless a call asks for output.Lenient.
	Strict bool
	// ParserVar is the package variable of the output.Parser of a JSON
	// or YAML output.
	ParserVar string
	Name      string     // <Prompt>Output
	Types     []*OutType // named types in emit order, the root first
	// SchemaVar is the package variable of the compiled schema.
	SchemaVar string
	// Checks are the generated checks that validate outputs, and
	// ChecksType their Validator; nil when the schema needs the compiled
	// schema.
	Checks     *Checks
	ChecksType string

	Named map[*schema.Type]*OutType // the named type of an inline schema
	Defs  map[*schema.Def]*OutType  // the named type of a Def that has one

	// Partial is <Prompt>Partial, what ParsePartial returns, and Partials
	// the structs it is made of, root first; PartialRoot describes the
	// root when it is no struct (an alias of an output.Field). Set for a
	// JSON output with a schema.
	Partial     string
	Partials    []*PartialType
	PartialRoot *PartialField
}

// PartialType is a struct of a <Prompt>Partial: what is known of an object
// of the output while the answer streams, one output.Field per property.
type PartialType struct {
	Name   string
	Of     *OutType // the output struct
	Fields []PartialField
}

// PartialField is a property of a PartialType.
type PartialField struct {
	OutField
	// Struct is the partial of the property's object, or of the items of
	// its list (List); nil for a value told only when complete.
	Struct *PartialType
	List   bool
}

// OutKind is the kind of a named output type.
type OutKind uint8

const (
	OutStruct  OutKind = iota // an object
	OutEnum                   // a string enum
	OutUnion                  // a oneOf/anyOf told apart by a discriminator
	OutDefined                // type X U: a root or recursive Def of another kind
	OutAlias                  // type X = U: raw JSON or text
)

// OutType is a named Go type of the output.
type OutType struct {
	Name     string
	Kind     OutKind
	T        *schema.Type // nil for an alias without schema
	Doc      string       // the doc comment, without the name
	Fields   []OutField   // outStruct
	Consts   []OutConst   // outEnum
	Variants []OutVariant // outUnion
}

type OutField struct {
	Prop   *schema.Prop
	GoName string
}

// OutConst is one enum value; GoName is "" for a value that makes no Go
// name, which has no constant.
type OutConst struct {
	Value  string
	GoName string
}

type OutVariant struct {
	V      *schema.Variant
	GoName string
}

// Tool is a tool as the emitters read it: one per ToolSpec, shared by the
// prompts that declare it.
type Tool struct {
	Spec *ToolSpec
	// Args are the arguments, lowered and named as an output: <Tool>Args.
	Args   *Output
	GoName string // GetWeather
	Call   string // the call type, <Tool>Call
	Var    string // the package variable of its runtime.Tool
}

// DeclaredTools are the checked tools of a prompt or a template set: its
// tools, its tool_choice, and ToolCall, the name of the interface of
// their calls (<Prompt>ToolCall), which names decides.
type DeclaredTools struct {
	Tools      []*Tool
	ToolChoice string
	ToolCall   string
}
