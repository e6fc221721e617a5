// Package openaiprompt translates a runtime.Prompt and a runtime.Request
// into a request of OpenAI's chat completions API, typed as the official Go
// SDK (github.com/openai/openai-go/v3) types it, so that it goes straight to
// the client:
//
//	params, err := openaiprompt.Chat(prompt, req)
//	if err != nil { ... }
//	completion, err := client.Chat.Completions.New(ctx, params)
//
// It depends on the standard library, promptgen's runtime and the SDK only.
// The result is an ordinary SDK value: set or change any field afterwards
// (the tools the model may call, a different response format, ...).
//
// # Messages
//
// Each message of the prompt becomes one message, in order:
//
//   - system, user and assistant messages keep their role, text and author
//     name; a user message's content parts become a list of {"type":
//     "text", "text"} and {"type": "image_url", "image_url": {"url"}}
//     parts, an image given by its bytes as a data URL
//     ("data:image/png;base64,..."). The image's detail is not set (the
//     API's default, auto): set it on the params for another;
//   - a tool_request becomes an assistant message with tool_calls, each
//     {"id", "type": "function", "function": {"name", "arguments"}}, and
//     the tool_request's text, if any, as its content; its structured
//     content (ART's own record of the calls) is not sent;
//   - an assistant message's tool calls are sent the same way;
//   - a tool_result becomes a tool message with its tool_call_id; structured
//     content is sent as its JSON text. The chat API has no name on tool
//     messages, so a tool_result's name is not sent: the tool_call_id
//     already ties it to the call.
//
// Tool definitions are not part of a prompt: set params.Tools to the tools
// that the model may call.
//
// Request.Prompt, the rendered text of a template prompt, is not read: pass
// runtime.Prompt{{Role: runtime.RoleUser, Content: req.Prompt}} for one.
//
// # Parameters
//
// Request.Parameters map to fields of the request, as runtime/params lists
// them for OpenAI; a nil value is unset:
//
//	temperature, top_p, frequency_penalty, presence_penalty  a number
//	max_tokens, max_completion_tokens                       an integer: max_completion_tokens
//	seed, n, top_logprobs                                   an integer
//	logprobs                                                true or false
//	stop                                                    a string or a list of strings
//	logit_bias                                              a map from token IDs to integers
//	reasoning_effort, verbosity                             one of the values runtime/params lists
//	tool_choice                                             auto, none or required
//
// max_tokens is sent as max_completion_tokens, the field that OpenAI
// documents in place of the deprecated max_tokens and the only one its
// reasoning models accept; setting both is an error. Any other parameter is
// an ErrUnsupportedParameter error rather than being sent as is: the API
// rejects unknown fields anyway, and a typo or another provider's parameter
// (top_k) is better caught before the call. A value of the wrong type is an
// ErrInvalidParameter error. Ranges are left to the API.
//
// Request.ExtraParameters, a prompt's extra_parameters, are sent as they
// are (SetExtraFields), over any field of the same name: they carry what
// the API takes beyond the known parameters (service_tier, metadata,
// prompt_cache_key, ...).
//
// # Tools
//
// Request.Tools (a prompt's `tools:`) are function tools: {"type":
// "function", "function": {"name", "description", "parameters",
// "strict"}}. A strict tool's parameters must keep to what strict mode
// accepts (see below), or Chat fails with ErrInvalidSchema rather than the
// API. Request.ToolChoice auto, none or required is sent as is; a tool's
// name forces it ({"type": "function", "function": {"name": ...}}); a
// tool_choice parameter of the call wins. ToolCalls reads the calls of a
// response's message back, for a generated ParseToolCall.
//
// # Structured output
//
// When Request.OutputFormat is "json", or "" with an OutputSchema (as for
// generated ParseOutput methods), the request asks for JSON:
//
//   - with an OutputSchema, response_format is {"type": "json_schema",
//     "json_schema": {"name": "output", "schema": ..., "strict": ...}}. strict
//     is true only when the schema keeps to what OpenAI's strict mode
//     accepts: the root is an object; every object lists all its properties
//     in required and has additionalProperties false; every schema
//     constrains its value (type, $ref, anyOf, enum or const); and only these
//     keywords appear: type, properties, required, additionalProperties,
//     items, enum, const, anyOf, $ref, $defs, definitions, description,
//     title, $schema, $id, pattern, format (date-time, time, date, duration,
//     email, hostname, ipv4, ipv6, uuid), minimum, maximum,
//     exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems.
//     Other schemas are sent with strict false: the model is told the
//     schema but not held to it. Validate the output either way
//     (ParseOutput does);
//   - without one, response_format is {"type": "json_object"}, JSON mode,
//     for which OpenAI requires the word "JSON" in the messages.
//
// Other output formats (text, yaml, xml) leave response_format unset.
package openaiprompt

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/promptgen/promptgen/internal/strictschema"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/internal/adapt"
	"github.com/promptgen/promptgen/runtime/params"
)

// OutputName is the name of the JSON schema in a structured-output request.
const OutputName = "output"

// Errors of Chat, for errors.Is; an invalid prompt gives runtime's
// MessageErrors.
var (
	// ErrNoModel: the Request names no model.
	ErrNoModel = adapt.ErrNoModel
	// ErrUnsupportedParameter: a parameter that Chat does not map.
	ErrUnsupportedParameter = adapt.ErrUnsupportedParameter
	// ErrInvalidParameter: a parameter value of the wrong type, or two
	// parameters for the same field.
	ErrInvalidParameter = adapt.ErrInvalidParameter
	// ErrInvalidSchema: the output schema is not a JSON object.
	ErrInvalidSchema = adapt.ErrInvalidSchema
	// ErrToolResultImage: a tool_result holds an image, which a tool
	// message of chat completions cannot (it takes text parts only). Send
	// the images in a user message after the tool results instead.
	ErrToolResultImage = errors.New("a tool message of chat completions takes text only, not an image (send the images in a user message after the tool results)")
)

// Chat returns the chat completions request for p with r's model,
// parameters and output format. p must be valid (runtime.Prompt.Validate)
// and r must name a model. All problems of r's parameters are reported
// together.
func Chat(p runtime.Prompt, r runtime.Request) (openai.ChatCompletionNewParams, error) {
	var body openai.ChatCompletionNewParams
	if err := p.Validate(); err != nil {
		return body, fmt.Errorf("openaiprompt: invalid prompt: %w", err)
	}
	if r.Model == "" {
		return body, fmt.Errorf("openaiprompt: %w (set one with runtime.WithModel or runtime.WithDefaultModel)", ErrNoModel)
	}
	if err := toolResultImages(p); err != nil {
		return body, fmt.Errorf("openaiprompt: %w", err)
	}
	body.Model = r.Model
	body.Messages = make([]openai.ChatCompletionMessageParamUnion, len(p))
	for i, m := range p {
		body.Messages[i] = message(m)
	}
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
		return openai.ChatCompletionNewParams{}, fmt.Errorf("openaiprompt: %w", errors.Join(errs...))
	}
	if extra := adapt.Extra(r.ExtraParameters); extra != nil {
		body.SetExtraFields(extra)
	}
	return body, nil
}

// toolResultImages reports each image part of a tool_result of valid p as
// a runtime.MessageError of ErrToolResultImage. Moving the images into a
// user message of its own would add a turn the prompt does not have, and
// text to say what the images are; that is the caller's to write.
func toolResultImages(p runtime.Prompt) error {
	var errs runtime.MessageErrors
	for i, m := range p {
		for j, part := range m.Parts {
			if m.Role == runtime.RoleToolResult && part.Image != nil {
				errs = append(errs, &runtime.MessageError{Index: i, Field: "content[" + strconv.Itoa(j) + "]", Err: ErrToolResultImage})
			}
		}
	}
	if errs == nil {
		return nil
	}
	return errs
}

// message translates one message of a valid prompt.
func message(m runtime.Message) openai.ChatCompletionMessageParamUnion {
	var name param.Opt[string]
	if m.Name != "" {
		name = openai.String(m.Name)
	}
	switch m.Role {
	case runtime.RoleSystem:
		s := &openai.ChatCompletionSystemMessageParam{Name: name}
		s.Content.OfString = openai.String(m.Content)
		return openai.ChatCompletionMessageParamUnion{OfSystem: s}
	case runtime.RoleUser:
		u := &openai.ChatCompletionUserMessageParam{Name: name}
		if m.Parts == nil {
			u.Content.OfString = openai.String(m.Content)
		}
		for _, p := range m.Parts {
			u.Content.OfArrayOfContentParts = append(u.Content.OfArrayOfContentParts, contentPart(p))
		}
		return openai.ChatCompletionMessageParamUnion{OfUser: u}
	case runtime.RoleToolResult:
		if m.Parts != nil { // text parts only: toolResultImages rejected images
			text := make([]openai.ChatCompletionContentPartTextParam, len(m.Parts))
			for i, p := range m.Parts {
				text[i] = openai.ChatCompletionContentPartTextParam{Text: p.Text}
			}
			return openai.ToolMessage(text, m.ToolCallID)
		}
		content := m.Content
		if m.Data != nil {
			content = adapt.CompactJSON(m.Data)
		}
		return openai.ToolMessage(content, m.ToolCallID)
	}
	// An assistant message or a tool_request.
	a := &openai.ChatCompletionAssistantMessageParam{Name: name}
	if m.Content != "" {
		a.Content.OfString = openai.String(m.Content)
	}
	for _, c := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       c.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: c.Arguments},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: a}
}

// contentPart translates a part of a valid user message: text, or an
// image_url part whose url is the image's URL or a data URL of its bytes,
// with the image's detail when set.
func contentPart(p runtime.Part) openai.ChatCompletionContentPartUnionParam {
	if p.Image == nil {
		return openai.TextContentPart(p.Text)
	}
	url := p.Image.URL
	if url == "" {
		url = "data:" + p.Image.MediaType + ";base64," + p.Image.Data
	}
	return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url, Detail: p.Image.Detail})
}

// supported lists the parameters that setParameters maps, for errors: those
// that runtime/params gives OpenAI.
var supported = adapt.Supported(params.OpenAI)

func setParameters(req *openai.ChatCompletionNewParams, ps map[string]any) error {
	var errs []error
	maxTokensKey := ""
	for _, p := range adapt.Params(ps) {
		var err error
		switch p.Key {
		case "temperature":
			err = setNumber(&req.Temperature, p)
		case "top_p":
			err = setNumber(&req.TopP, p)
		case "frequency_penalty":
			err = setNumber(&req.FrequencyPenalty, p)
		case "presence_penalty":
			err = setNumber(&req.PresencePenalty, p)
		case "max_tokens", "max_completion_tokens":
			if maxTokensKey != "" {
				err = adapt.Conflict(maxTokensKey, p.Key)
				break
			}
			maxTokensKey = p.Key
			err = setInteger(&req.MaxCompletionTokens, p)
		case "seed":
			err = setInteger(&req.Seed, p)
		case "n":
			err = setInteger(&req.N, p)
		case "top_logprobs":
			err = setInteger(&req.TopLogprobs, p)
		case "logprobs":
			var b bool
			if b, err = adapt.Bool(p); err == nil {
				req.Logprobs = openai.Bool(b)
			}
		case "logit_bias":
			req.LogitBias, err = adapt.TokenBias(p)
		case "reasoning_effort":
			var s string
			if s, err = adapt.Enum(p); err == nil {
				req.ReasoningEffort = shared.ReasoningEffort(s)
			}
		case "verbosity":
			var s string
			if s, err = adapt.Enum(p); err == nil {
				req.Verbosity = openai.ChatCompletionNewParamsVerbosity(s)
			}
		case "tool_choice":
			var s string
			if s, err = adapt.Enum(p); err == nil {
				req.ToolChoice.OfAuto = openai.String(s)
			}
		case "stop":
			var list []string
			var single bool
			if list, single, err = adapt.Strings(p); err == nil {
				if single {
					req.Stop.OfString = openai.String(list[0])
				} else {
					req.Stop.OfStringArray = list
				}
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
		*field = openai.Float(f)
	}
	return err
}

func setInteger(field *param.Opt[int64], p adapt.Param) error {
	n, err := adapt.Integer(p)
	if err == nil {
		*field = openai.Int(n)
	}
	return err
}

// setTools declares r's tools as function tools, with strict when a tool
// asks for it, and sets tool_choice: auto, none, required, or a tool's
// name, which forces that function.
func setTools(body *openai.ChatCompletionNewParams, r runtime.Request) error {
	for _, t := range r.Tools {
		schema, err := adapt.SchemaObject(t.Parameters)
		if err != nil {
			return fmt.Errorf("tool %q: %w", t.Name, err)
		}
		if vs := strictschema.Check(schema); t.Strict && len(vs) > 0 {
			return fmt.Errorf("tool %q: %w: strict mode: %v", t.Name, ErrInvalidSchema, &vs[0])
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		if t.Strict {
			fn.Strict = openai.Bool(true)
		}
		body.Tools = append(body.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	switch c := r.ToolChoice; c {
	case "":
	case "auto", "none", "required":
		body.ToolChoice.OfAuto = openai.String(c)
	default:
		body.ToolChoice.OfFunctionToolChoice = &openai.ChatCompletionNamedToolChoiceParam{
			Function: openai.ChatCompletionNamedToolChoiceFunctionParam{Name: c}}
	}
	return nil
}

// setOutput asks for JSON when r's output is JSON.
func setOutput(body *openai.ChatCompletionNewParams, r runtime.Request) error {
	hasSchema := len(r.OutputSchema) > 0
	if r.OutputFormat != "json" && (r.OutputFormat != "" || !hasSchema) {
		return nil
	}
	if !hasSchema {
		body.ResponseFormat.OfJSONObject = &shared.ResponseFormatJSONObjectParam{}
		return nil
	}
	schema, err := adapt.SchemaObject(r.OutputSchema)
	if err != nil {
		return err
	}
	body.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
		JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
			Name:   OutputName,
			Schema: json.RawMessage(r.OutputSchema),
			Strict: openai.Bool(len(strictschema.Check(schema)) == 0),
		},
	}
	return nil
}

// ToolCalls returns the function calls of m, a completion's message (its
// first choice's, usually), for a generated ParseToolCall; nil when the
// model called no tool.
func ToolCalls(m openai.ChatCompletionMessage) []runtime.ToolCall {
	var calls []runtime.ToolCall
	for _, c := range m.ToolCalls {
		if c.Type == "function" {
			calls = append(calls, runtime.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
	}
	return calls
}
