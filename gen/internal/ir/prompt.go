package ir

// Prompt is the checked, typed form of one prompt: the emitters' only
// input for it. Every type is resolved, every name decided and every
// position rendered.
type Prompt struct {
	Spec     *PromptSpec
	Name     string  // exported Go name, e.g. SummarizeCustomerInteraction
	TypeName string  // exported type of the prompt value, <Name>Prompt
	Feed     *Type   // the feed struct
	Structs  []*Type // named struct types in emit order, Feed first
	Body     []Node
	Locals   []*Local // set targets of the template's top scope
	// NumLocals is how many Go locals the checker named (name_1 to
	// name_N); emit numbers its temporaries after them, so that a local
	// and a temporary never share a Go name.
	NumLocals int
	// StaticSize is the number of literal bytes, the first size hint.
	StaticSize int
	// Output is what ParseOutput returns; nil when the prompt declares
	// neither outputFormat nor outputSchema.
	Output *Output
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
	Spec *SectionSpec
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
	// FromRender: the content is the prompt's Render.
	FromRender bool
}

// Example is one checked example, its values as JSON text.
type Example struct {
	Input string // the input_vars, as the feed decodes them
	// Output is the expected output as the output type decodes it, or the
	// text itself when the output is text.
	Output string
}
