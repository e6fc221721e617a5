package runtime

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promptgen/promptgen/runtime/suggest"
)

// Tool is a tool a prompt declares, as Request carries it to the
// adapters: its name, what it does, and the JSON Schema of its arguments
// (an object). Generated Tools methods return them.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	// Strict asks the provider to hold the arguments to the schema
	// (OpenAI's strict function calling).
	Strict bool `json:"strict,omitempty"`
}

// UnknownToolError is the error of a generated ParseToolCall for a call
// of a tool the prompt does not declare.
type UnknownToolError struct {
	Name  string   // the tool the call names
	Tools []string // the prompt's tools
}

func (e *UnknownToolError) Error() string {
	if len(e.Tools) == 0 {
		return fmt.Sprintf("call of tool %q, and no tools are declared", e.Name)
	}
	return fmt.Sprintf("call of tool %q, which is not declared (the tools: %s)%s",
		e.Name, strings.Join(e.Tools, ", "), suggest.DidYouMean(e.Name, e.Tools))
}
