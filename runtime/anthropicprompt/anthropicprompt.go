// Package anthropicprompt translates a runtime.Prompt and a runtime.Request
// into a request of Anthropic's messages API, typed as the official Go SDK
// (github.com/anthropics/anthropic-sdk-go) types it, so that it goes
// straight to the client:
//
//	params, err := anthropicprompt.Messages(prompt, req)
//	if err != nil { ... }
//	message, err := client.Messages.New(ctx, params)
//	completion := anthropicprompt.Completion(message) // for ParseOutput
//
// It depends on the standard library, promptgen's runtime and the SDK only.
// The result is an ordinary SDK value: set or change any field afterwards
// (the tools the model may call, extended thinking, ...).
//
// # Messages
//
// The messages API takes the system prompt apart and alternates user and
// assistant turns made of content blocks:
//
//   - the prompt's system message, which runtime.Prompt.Validate allows only
//     first, becomes the top-level system field;
//   - user messages become text blocks of a user turn; a user message's
//     content parts become text blocks and image blocks, in order, an
//     image's source being {"type": "url", "url"} or {"type": "base64",
//     "media_type", "data"};
//   - assistant messages become a text block, if they have text, then a
//     tool_use block per tool call ({"id", "name", "input"}, input being the
//     call's arguments object), in an assistant turn;
//   - a tool_request becomes an assistant turn in the same way; its
//     structured content (ART's own record of the calls) is not sent;
//   - a tool_result becomes a tool_result block ({"tool_use_id",
//     "content"}) of a user turn; structured content is sent as its JSON
//     text.
//
// Consecutive messages that land in the same role are merged into one turn,
// in order, so the tool_results that answer one tool_request form the
// single user turn that the API requires after it, and an assistant text
// followed by a tool_request is one assistant turn. The API has no author
// names, so Message.Name is not sent. A prompt of only a system message is
// an error (runtime.ErrNoMessages): the API needs a turn. Tool definitions
// are not part of a prompt: set params.Tools to the tools that the model
// may call; the API may refuse a conversation with tool_use blocks but no
// tools.
//
// Request.Prompt, the rendered text of a template prompt, is not read: pass
// runtime.Prompt{{Role: runtime.RoleUser, Content: req.Prompt}} for one.
//
// # Parameters
//
// Request.Parameters map to fields of the request, as runtime/params lists
// them for Anthropic; a nil value is unset:
//
//	temperature, top_p    a number
//	top_k, max_tokens     an integer
//	stop, stop_sequences  a string or a list of strings: stop_sequences
//	tool_choice           auto, none or required: {"type": "auto"}, {"type": "none"}, {"type": "any"}
//
// The API requires max_tokens: without the parameter it is
// DefaultMaxTokens. Setting both stop and stop_sequences is an error, and
// so is a tool_choice with an output schema, which forces the output tool
// (see below). Any
// other parameter is an ErrUnsupportedParameter error rather than being
// sent as is: the API rejects unknown fields anyway, and a typo or another
// provider's parameter (seed) is better caught before the call. A value of
// the wrong type is an ErrInvalidParameter error. Ranges are left to the
// API.
//
// Request.ExtraParameters, a prompt's extra_parameters, are sent as they
// are (SetExtraFields), over any field of the same name: they carry what
// the API takes beyond the known parameters (thinking, service_tier,
// metadata, ...).
//
// # Tools
//
// Request.Tools (a prompt's `tools:`) are tools with an input_schema;
// Anthropic has no strict mode, so Tool.Strict is not sent. Request.ToolChoice
// auto, none and required are {"type": "auto"}, {"type": "none"} and
// {"type": "any"}; a tool's name forces it ({"type": "tool", "name": ...});
// a tool_choice parameter of the call wins. Tools beside an output schema
// are an error: the schema is a tool the model is made to call. ToolCalls
// reads the tool_use blocks of a response back, for a generated
// ParseToolCall.
//
// # Structured output
//
// When Request.OutputFormat is "json", or "" with an OutputSchema (as for
// generated ParseOutput methods), and the request has an OutputSchema, the
// model is made to answer through a tool: params.Tools holds one tool named
// OutputTool whose input_schema is the output schema, and params.ToolChoice
// forces it. The answer is then the input of that tool_use block, which
// Completion returns. This works with every Claude model and any JSON
// Schema whose root is an object (a tool's input is one; another root type
// is an ErrInvalidSchema error), where the API's own json_schema output
// format (output_config) needs recent models and a restricted schema
// dialect. A forced tool cannot be combined with extended thinking; to use
// output_config instead, clear Tools and ToolChoice and set OutputConfig.
//
// Without an OutputSchema, or with another output format, nothing is added:
// the API has no JSON mode, and the prompt's own instructions ask for the
// format.
package anthropicprompt

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/adapt"
	"github.com/promptgen/promptgen/runtime/params"
)

// DefaultMaxTokens is max_tokens when the Request has no max_tokens
// parameter: the API requires one, and every Claude model can write 4096
// tokens.
const DefaultMaxTokens = 4096

// OutputTool is the name of the tool through which the model gives a
// structured output.
const OutputTool = "output"

// outputToolDescription tells the model what the output tool is for, when
// the schema has no description of its own.
const outputToolDescription = "Give your answer by calling this tool: its input is the answer."

// Errors of Messages, for errors.Is; an invalid prompt gives runtime's
// MessageErrors.
var (
	// ErrNoModel: the Request names no model.
	ErrNoModel = adapt.ErrNoModel
	// ErrUnsupportedParameter: a parameter that Messages does not map.
	ErrUnsupportedParameter = adapt.ErrUnsupportedParameter
	// ErrInvalidParameter: a parameter value of the wrong type, or two
	// parameters for the same field.
	ErrInvalidParameter = adapt.ErrInvalidParameter
	// ErrInvalidSchema: the output schema is not a JSON object, or not the
	// schema of an object.
	ErrInvalidSchema = adapt.ErrInvalidSchema
)

// Messages returns the messages request for p with r's model, parameters
// and output schema. p must be valid (runtime.Prompt.Validate) and hold a
// message besides the system message, and r must name a model. All
// problems of r's parameters and schema are reported together.
func Messages(p runtime.Prompt, r runtime.Request) (anthropic.MessageNewParams, error) {
	var body anthropic.MessageNewParams
	if err := p.Validate(); err != nil {
		return body, fmt.Errorf("anthropicprompt: invalid prompt: %w", err)
	}
	if p[0].Role == runtime.RoleSystem {
		if len(p) == 1 {
			return body, fmt.Errorf("anthropicprompt: %w besides the system message (the messages API needs a turn)", runtime.ErrNoMessages)
		}
		body.System = []anthropic.TextBlockParam{{Text: p[0].Content}}
		p = p[1:]
	}
	if r.Model == "" {
		return anthropic.MessageNewParams{}, fmt.Errorf("anthropicprompt: %w (set one with runtime.WithModel or runtime.WithDefaultModel)", ErrNoModel)
	}
	body.Model = anthropic.Model(r.Model)
	body.Messages = turns(p)
	body.MaxTokens = DefaultMaxTokens
	var errs []error
	if err := setTools(&body, r); err != nil {
		errs = append(errs, err)
	}
	// After the tools: a tool_choice parameter of the call wins over the
	// prompt's.
	if err := setParameters(&body, r.Parameters); err != nil {
		errs = append(errs, err)
	}
	if err := setOutput(&body, r); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return anthropic.MessageNewParams{}, fmt.Errorf("anthropicprompt: %w", errors.Join(errs...))
	}
	if extra := adapt.Extra(r.ExtraParameters); extra != nil {
		body.SetExtraFields(extra)
	}
	return body, nil
}

// turns translates the messages of a valid prompt, without its system
// message, merging consecutive messages of the same role.
func turns(p runtime.Prompt) []anthropic.MessageParam {
	var out []anthropic.MessageParam
	for _, m := range p {
		role := anthropic.MessageParamRoleAssistant
		var blocks []anthropic.ContentBlockParamUnion
		switch m.Role {
		case runtime.RoleUser:
			role = anthropic.MessageParamRoleUser
			if m.Parts == nil {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, p := range m.Parts {
				blocks = append(blocks, contentBlock(p))
			}
		case runtime.RoleToolResult:
			role = anthropic.MessageParamRoleUser
			// Not NewToolResultBlock, which sends "is_error": false.
			blocks = append(blocks, anthropic.ContentBlockParamUnion{OfToolResult: &anthropic.ToolResultBlockParam{
				ToolUseID: m.ToolCallID,
				Content:   toolResultContent(m),
			}})
		default: // an assistant message or a tool_request
			if m.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, json.RawMessage(c.Arguments), c.Name))
			}
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, anthropic.MessageParam{Role: role, Content: blocks})
	}
	return out
}

// toolResultContent is the content of a valid tool_result's block: its
// text or structured content as one text block, or its parts as text and
// image blocks, which a tool_result takes as a user message does.
func toolResultContent(m runtime.Message) []anthropic.ToolResultBlockParamContentUnion {
	if m.Parts == nil {
		content := m.Content
		if m.Data != nil {
			content = adapt.CompactJSON(m.Data)
		}
		return []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: content}}}
	}
	out := make([]anthropic.ToolResultBlockParamContentUnion, len(m.Parts))
	for i, p := range m.Parts {
		b := contentBlock(p)
		out[i] = anthropic.ToolResultBlockParamContentUnion{OfText: b.OfText, OfImage: b.OfImage}
	}
	return out
}

// contentBlock translates a part of a valid user or tool_result message: a text block, or
// an image block with a url or a base64 source. An image's Detail, an
// OpenAI cost hint, has no counterpart in the messages API and is left out.
func contentBlock(p runtime.Part) anthropic.ContentBlockParamUnion {
	switch {
	case p.Image == nil:
		return anthropic.NewTextBlock(p.Text)
	case p.Image.URL != "":
		return anthropic.NewImageBlock(anthropic.URLImageSourceParam{URL: p.Image.URL})
	}
	return anthropic.NewImageBlockBase64(p.Image.MediaType, p.Image.Data)
}

// supported lists the parameters that setParameters maps, for errors: those
// that runtime/params gives Anthropic.
var supported = adapt.Supported(params.Anthropic)

// toolChoices maps the values of tool_choice, OpenAI's words, to the
// messages API's tool choices.
var toolChoices = map[string]func() anthropic.ToolChoiceUnionParam{
	"auto": func() anthropic.ToolChoiceUnionParam {
		return anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{}}
	},
	"none": func() anthropic.ToolChoiceUnionParam {
		return anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
	},
	"required": func() anthropic.ToolChoiceUnionParam {
		return anthropic.ToolChoiceUnionParam{OfAny: &anthropic.ToolChoiceAnyParam{}}
	},
}

func setParameters(req *anthropic.MessageNewParams, ps map[string]any) error {
	var errs []error
	stopKey := ""
	for _, p := range adapt.Params(ps) {
		var err error
		switch p.Key {
		case "temperature":
			err = setNumber(&req.Temperature, p)
		case "top_p":
			err = setNumber(&req.TopP, p)
		case "top_k":
			var n int64
			if n, err = adapt.Integer(p); err == nil {
				req.TopK = anthropic.Int(n)
			}
		case "max_tokens":
			var n int64
			if n, err = adapt.Integer(p); err == nil {
				req.MaxTokens = n
			}
		case "stop", "stop_sequences":
			if stopKey != "" {
				err = adapt.Conflict(stopKey, p.Key)
				break
			}
			stopKey = p.Key
			var list []string
			if list, _, err = adapt.Strings(p); err == nil {
				req.StopSequences = list
			}
		case "tool_choice":
			var s string
			if s, err = adapt.Enum(p); err == nil {
				req.ToolChoice = toolChoices[s]()
			}
		default:
			err = adapt.Unsupported(p.Key, supported)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func setNumber(field *param.Opt[float64], p adapt.Param) error {
	f, err := adapt.Number(p)
	if err == nil {
		*field = anthropic.Float(f)
	}
	return err
}

// setOutput adds the forced output tool when r's output is JSON with a
// schema.
func setOutput(body *anthropic.MessageNewParams, r runtime.Request) error {
	if len(r.OutputSchema) == 0 || (r.OutputFormat != "json" && r.OutputFormat != "") {
		return nil
	}
	if r.Parameters["tool_choice"] != nil {
		return fmt.Errorf("parameter %q: %w: the output schema forces the output tool (remove tool_choice, or the schema)", "tool_choice", ErrInvalidParameter)
	}
	if len(r.Tools) > 0 {
		return fmt.Errorf("%w: tools with an output schema: the schema is sent as a tool the model is made to call, so it would never call the others (ask for the output in a later turn)", ErrInvalidParameter)
	}
	tool, err := toolParam(OutputTool, "", r.OutputSchema)
	if err != nil {
		return err
	}
	if !tool.Description.Valid() {
		tool.Description = anthropic.String(outputToolDescription)
	}
	body.Tools = []anthropic.ToolUnionParam{{OfTool: &tool}}
	body.ToolChoice = anthropic.ToolChoiceParamOfTool(OutputTool)
	return nil
}

// setTools declares r's tools and sets tool_choice: auto, none, required
// (the API's any), or a tool's name, which forces that tool. Anthropic has
// no strict mode: Strict is not sent.
func setTools(body *anthropic.MessageNewParams, r runtime.Request) error {
	for _, t := range r.Tools {
		tool, err := toolParam(t.Name, t.Description, t.Parameters)
		if err != nil {
			return fmt.Errorf("tool %q: %w", t.Name, err)
		}
		body.Tools = append(body.Tools, anthropic.ToolUnionParam{OfTool: &tool})
	}
	switch c := r.ToolChoice; {
	case c == "":
	case toolChoices[c] != nil:
		body.ToolChoice = toolChoices[c]()
	default:
		body.ToolChoice = anthropic.ToolChoiceParamOfTool(c)
	}
	return nil
}

// toolParam is a tool named name whose input has the JSON Schema
// schemaJSON, an object; without a description, the schema's, if any.
func toolParam(name, description string, schemaJSON json.RawMessage) (anthropic.ToolParam, error) {
	schema, err := adapt.SchemaObject(schemaJSON)
	if err != nil {
		return anthropic.ToolParam{}, err
	}
	if t, ok := schema["type"]; ok && t != "object" {
		return anthropic.ToolParam{}, fmt.Errorf("%w: the root is not an object (type %v), and a tool's input must be one", ErrInvalidSchema, t)
	}
	// The schema goes in as it is written, so that the request's bytes are
	// the same at every call (the provider's prompt cache keys on them; the
	// SDK writes extra fields in map order), with the "type": "object" the
	// API wants when it has none.
	raw := schemaJSON
	if _, ok := schema["type"]; !ok {
		schema["type"] = "object"
		if raw, err = json.Marshal(schema); err != nil {
			return anthropic.ToolParam{}, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
		}
	}
	input := param.Override[anthropic.ToolInputSchemaParam](json.RawMessage(raw))
	tool := anthropic.ToolParam{Name: name, InputSchema: input}
	if d, ok := schema["description"].(string); ok && description == "" {
		description = d
	}
	if description != "" {
		tool.Description = anthropic.String(description)
	}
	return tool, nil
}

// Completion returns the completion of m that a prompt's ParseOutput
// reads: the input of m's call of OutputTool, as JSON text, when m has one
// (a structured-output request); otherwise the text of m's text blocks,
// concatenated.
func Completion(m *anthropic.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range m.Content {
		switch c.Type {
		case "tool_use":
			if c.Name == OutputTool {
				return string(c.Input)
			}
		case "text":
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// ToolCalls returns the tool calls of m, a response, for a generated
// ParseToolCall: its tool_use blocks but the call of OutputTool, with
// their input as the arguments' JSON text; nil when the model called no
// tool.
func ToolCalls(m *anthropic.Message) []runtime.ToolCall {
	if m == nil {
		return nil
	}
	var calls []runtime.ToolCall
	for _, c := range m.Content {
		if c.Type == "tool_use" && c.Name != OutputTool {
			calls = append(calls, runtime.ToolCall{ID: c.ID, Name: c.Name, Arguments: string(c.Input)})
		}
	}
	return calls
}
