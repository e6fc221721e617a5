package ir

import "github.com/promptgen/promptgen/gen/internal/src"

// Prompt is the checked, typed form of one prompt: the emitters' only
// input for it. Every type is resolved, every name decided and every
// position rendered.
type Prompt struct {
	// What names and the emitters read of the prompt's file, copied from
	// its spec by NewPrompt; each part of a prompt has its prompt's.
	Key  string  // "support/summarize_customer_interaction", which runtime errors name
	Path string  // the prompt file, as diagnostics show it
	File string  // the file that positions in its templates name
	Pos  src.Pos // the start of the file
	// GoNameOverride is the `go_name:` of the prompt, and GoNamePos the
	// position of its value.
	GoNameOverride string
	GoNamePos      src.Pos
	Description    string
	Model          string
	// Parameters are `parameters:` and ExtraParameters `extra_parameters:`.
	Parameters      []Parameter
	ExtraParameters []Parameter
	// Transformers is set by `jinja: {profile: transformers}`: tojson is
	// transformers' (its indent and key order).
	Transformers bool
	// Fragment marks a fragment: a function, not a prompt value.
	Fragment bool
	// Chat is set by `inputs: chat`, and SpecialTokens are its
	// special_tokens.
	Chat          bool
	SpecialTokens []string
	// Tokenizer counts the tokens of a sectioned prompt, and Markers wraps
	// each section in BEGIN and END lines.
	Tokenizer string
	Markers   bool
	// Filters are the Go filters of `filters:` (the file's, or its set's),
	// which the text/template backend puts in its FuncMap.
	Filters []*GoFilter
	// HasExamples is set when the file has examples; Examples holds those
	// that check.
	HasExamples bool

	Name     string  // exported Go name, e.g. SummarizeCustomerInteraction
	TypeName string  // exported type of the prompt value, <Name>Prompt
	Feed     *Type   // the feed struct
	Structs  []*Type // named struct types in emit order, Feed first
	Body     []Node
	Locals   []*Local // set targets of the template's top scope
	// Funcs are the macros that call themselves, compiled once, which
	// CallFuncs of Body (and of Funcs) call.
	Funcs []*Func
	// NumLocals is how many Go locals the checker named (name_1 to
	// name_N); emit numbers its temporaries after them, so that a local
	// and a temporary never share a Go name.
	NumLocals int
	// StaticSize is the number of literal bytes, the first size hint.
	StaticSize int
	// Output is what ParseOutput returns; nil when the prompt declares
	// neither outputFormat nor outputSchema.
	Output *Output
	DeclaredTools
	// Examples are the checked examples, and ExampleName the type of one.
	Examples    []Example
	ExampleName string
	// Parts are the other templates of the prompt (system and message
	// templates), each checked with the same feed; Messages refer to them.
	Parts []*Prompt
	// Messages is what Messages(feed) builds, in order.
	Messages []*Message
	// IsMessages is set for a prompt with `messages:`; it has no Body and
	// no Render.
	IsMessages bool
	// Sections are the sections of a sectioned prompt, in order, and Head
	// its static head (a part); such a prompt has no Body.
	Sections []*Section
	Head     *Prompt
	// ItemEnds marks the part of a `truncate: items` section: its function
	// also reports where the iterations of its Items loop end.
	ItemEnds bool
}

// Section is one section of a sectioned prompt. Its templates are Parts.
type Section struct {
	Name, Title string
	// Budget is budget_tokens, 0 when absent; Truncate is what rendering
	// does over it (TruncateError, TruncateItems or TruncateText).
	Budget   int
	Truncate string
	// When renders "1" when the section is in; nil when it always is.
	When *Prompt
	Body *Prompt
	// Items is the loop whose iterations `truncate: items` drops.
	Items *For
}

// Message is one message of Messages(feed). Its templates are Parts.
type Message struct {
	Role                      string
	Content, Name, ToolCallID *Prompt      // nil when absent
	Data                      *Prompt      // renders a JSON object; nil when absent
	ToolCalls                 [][3]*Prompt // id, name, arguments
	// Parts are the content parts of a user message; nil when it has none.
	Parts []Part
	// FromRender: the content is the prompt's Render.
	FromRender bool
}

// Part is one content part of a Message: its template renders the text, or
// with Image the image's URL (runtime.ImagePart); or, in place of a
// template, Input is the image input (an image, an optional one or a list)
// whose images the part gives.
type Part struct {
	Image  bool
	Detail string // of an image: auto, low, high or ""
	Text   *Prompt
	Input  *Field
	Pos    src.Pos // of an image input's part: its template
}

// Example is one checked example, its values as JSON text.
type Example struct {
	Input string // the input_vars, as the feed decodes them
	// Output is the expected output as the output type decodes it, or the
	// text itself when the output is text.
	Output string
}

// NewPrompt starts the checked form of a template of prompt p, with feed:
// p's body or one of its parts, or a template or component of a set.
func NewPrompt(p *PromptSpec, feed *Type) *Prompt {
	return &Prompt{
		Key: p.Key, Path: p.Path, File: p.Map.File, Pos: p.Pos, GoNameOverride: p.GoName, GoNamePos: p.GoNamePos,
		Description: p.Description, Model: p.Model, Parameters: p.Parameters, ExtraParameters: p.ExtraParameters,
		Transformers: p.Jinja.Transformers, Fragment: p.Fragment, Chat: p.Chat, SpecialTokens: p.SpecialTokens,
		Tokenizer: p.Tokenizer, Markers: p.Markers, HasExamples: len(p.Examples) > 0,
		DeclaredTools: DeclaredTools{ToolChoice: p.ToolChoice}, Feed: feed, Filters: p.Filters,
	}
}

// NewSection starts the checked form of section s, with body.
func NewSection(s *SectionSpec, body *Prompt) *Section {
	return &Section{Name: s.Name, Title: s.Title, Budget: s.Budget, Truncate: s.Truncate, Body: body}
}
