package gen

import "github.com/promptgen/promptgen/gen/internal/ir"

// The IR is the checked, typed form of one prompt. It is emit's only input:
// every type is resolved, every name decided and every position rendered.

type irPrompt struct {
	Prompt   *ir.PromptSpec
	Name     string     // exported Go name, e.g. SummarizeCustomerInteraction
	TypeName string     // unexported type of the prompt value
	Feed     *ir.Type   // the feed struct
	Structs  []*ir.Type // named struct types in emit order, Feed first
	Body     []ir.Node
	Locals   []*ir.Local // set targets of the template's top scope
	// NumLocals is how many Go locals the checker named (name_1 to
	// name_N); emit numbers its temporaries after them, so that a local
	// and a temporary never share a Go name.
	NumLocals int
	// StaticSize is the number of literal bytes, the first size hint.
	StaticSize int
	// Output is what ParseOutput returns; nil when the prompt declares
	// neither outputFormat nor outputSchema.
	Output *irOutput
	// Examples are the checked examples, and ExampleName the type of one.
	Examples    []irExample
	ExampleName string
	// Parts are the other templates of the prompt (system and message
	// templates), each checked with the same feed; Messages refer to them.
	Parts []*irPrompt
	// Messages is what Messages(feed) builds, in order.
	Messages []*irMessage
	// IsMessages is set for a prompt with `messages:`; it has no Body and
	// no Render.
	IsMessages bool
}

// irMessage is one message of Messages(feed). Its templates are Parts.
type irMessage struct {
	Role                      string
	Content, Name, ToolCallID *irPrompt      // nil when absent
	Data                      *irPrompt      // renders a JSON object; nil when absent
	ToolCalls                 [][3]*irPrompt // id, name, arguments
	// FromRender: the content is the prompt's Render.
	FromRender bool
}

// irExample is one checked example, its values as JSON text.
type irExample struct {
	Input string // the input_vars, as the feed decodes them
	// Output is the expected output as the output type decodes it, or the
	// text itself when the output is text.
	Output string
}
