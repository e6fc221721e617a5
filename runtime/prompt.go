package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
)

// Role is the role of a Message.
type Role string

// The roles of ArtStandardPrompt.
const (
	RoleSystem      Role = "system"       // instructions; only as the first message
	RoleUser        Role = "user"         // the user's text
	RoleAssistant   Role = "assistant"    // the model's text, possibly with tool calls
	RoleToolRequest Role = "tool_request" // tool calls the model asked for
	RoleToolResult  Role = "tool_result"  // the output of one tool call
)

// Message is one message of a Prompt. Content is text; a user or a
// tool_result message may carry content parts (text and images) in Parts
// instead, and a tool_request or a tool_result structured content in Data.
type Message struct {
	Role Role
	// Content is the message's text. In JSON it is "content" as a string;
	// empty content is written as null.
	Content string
	// Parts are a user or tool_result message's content as a list of text
	// and image parts, in place of Content. In JSON it is "content" as a list; a
	// non-nil empty Parts is written as [] (and is invalid).
	Parts []Part
	// Data is structured content, a JSON object, in place of Content: a
	// tool_result's output or a tool_request's own representation of its
	// calls. In JSON it is "content" as an object.
	Data json.RawMessage
	// Name optionally names the author; for a tool_result, the tool that ran.
	Name string
	// ToolCalls are the calls that a tool_request message (or, as in
	// ART and OpenAI, an assistant message) asks for.
	ToolCalls []ToolCall
	// ToolCallID ties a tool_result to the call it answers.
	ToolCallID string
}

// ToolCall is one tool call. Its JSON form is ART's and OpenAI's:
// {"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}},
// where arguments is a string holding a JSON object.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // the arguments as the text of a JSON object
}

// Prompt is ART's ArtStandardPrompt (art-standard-prompt.md): the
// provider-agnostic message list that generated Messages(feed) methods
// return and that provider adapters translate. Its JSON form is a list of
// ART's ArtStandardMessage objects (role, content, name, tool_calls,
// tool_call_id, with OpenAI's nested tool call object), published as a JSON
// Schema in schema/artstandardprompt.schema.json.
type Prompt []Message

// Kinds of problems that Validate and UnmarshalJSON report, for errors.Is.
var (
	ErrNoMessages          = errors.New("prompt has no messages")
	ErrMalformed           = errors.New("malformed")
	ErrUnknownRole         = errors.New("unknown role")
	ErrMissingField        = errors.New("missing")
	ErrFieldNotAllowed     = errors.New("not allowed")
	ErrEmptyContent        = errors.New("empty content")
	ErrSystemNotFirst      = errors.New("system message after the first turn")
	ErrInvalidArguments    = errors.New("arguments are not a JSON object")
	ErrDuplicateToolCallID = errors.New("duplicate tool call id")
	// ErrUnmatchedToolResult: a tool_result answers no tool call of an
	// earlier message, or a call that an earlier tool_result answered.
	ErrUnmatchedToolResult = errors.New("tool result matches no pending tool call")
)

// MessageError is one problem of a Prompt.
type MessageError struct {
	Index  int    // the message's index; -1 when the problem is the prompt's, or the message was decoded on its own
	Field  string // the JSON field concerned, e.g. "tool_calls[1].function.arguments"; "" for the whole message
	Err    error  // what kind of problem: one of the Err variables above
	Detail string // specifics, such as the unknown role
}

func (e *MessageError) Error() string {
	var b strings.Builder
	if e.Index >= 0 {
		b.WriteString("message ")
		b.WriteString(strconv.Itoa(e.Index))
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

func (e *MessageError) Unwrap() error { return e.Err }

// MessageErrors are the problems of a Prompt, in message order.
type MessageErrors []*MessageError

func (es MessageErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As see every problem.
func (es MessageErrors) Unwrap() []error {
	errs := make([]error, len(es))
	for i, e := range es {
		errs[i] = e
	}
	return errs
}

// UserPrompt returns text, a prompt rendered with err, as one user message,
// validated: what the Messages method of a prompt without messages or a
// system template returns. On err it returns nil and err.
func UserPrompt(text string, err error) (Prompt, error) {
	if err != nil {
		return nil, err
	}
	msgs := Prompt{{Role: RoleUser, Content: text}}
	if err := msgs.Validate(); err != nil {
		return msgs, err
	}
	return msgs, nil
}

// Validate returns every problem of p as MessageErrors, or nil. Rules:
//
//   - p has at least one message; every role is one of the five Role
//     constants; a system message may only be the first;
//   - only user and tool_result messages carry content parts: a
//     non-empty list of text
//     parts with non-empty text and image parts, each a valid Image (see
//     Image for URLs, media types, base64 and size bounds);
//   - system and user messages have non-empty text; an assistant message
//     has text, tool calls or both; a tool_request has tool calls; a
//     tool_result has text, structured content or content parts, and a
//     tool_call_id;
//   - only assistant and tool_request messages carry tool calls, only
//     tool_result messages a tool_call_id, only tool_request and
//     tool_result messages structured content, which is a JSON object;
//   - every tool call has an id and a name, and its arguments are the text
//     of a JSON object.
//
// The JSON Schema checks all of these. Three rules relate messages to each
// other and only Validate checks them: tool call ids are unique across the
// prompt; a tool_result's tool_call_id names a call of an earlier message;
// no two tool_results answer the same call.
func (p Prompt) Validate() error {
	var errs MessageErrors
	add := func(i int, field string, err error, detail string) {
		errs = append(errs, &MessageError{Index: i, Field: field, Err: err, Detail: detail})
	}
	if len(p) == 0 {
		add(-1, "", ErrNoMessages, "")
	}
	callAt := map[string]int{}     // tool call id → index of its message
	answeredBy := map[string]int{} // tool call id → index of its tool_result
	for i, m := range p {
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant, RoleToolRequest, RoleToolResult:
		case "":
			add(i, "role", ErrMissingField, "")
		default:
			add(i, "role", ErrUnknownRole, strconv.Quote(string(m.Role)))
		}
		if m.Role == RoleSystem && i > 0 {
			add(i, "role", ErrSystemNotFirst, "")
		}

		if isKnownRole(m.Role) {
			checkContent(i, m, add)
		}

		// Tool calls.
		switch {
		case m.Role == RoleToolRequest && len(m.ToolCalls) == 0:
			add(i, "tool_calls", ErrMissingField, "")
		case len(m.ToolCalls) > 0 && m.Role != RoleToolRequest && m.Role != RoleAssistant && isKnownRole(m.Role):
			add(i, "tool_calls", ErrFieldNotAllowed, "tool calls on "+withArticle(m.Role)+" message")
		}
		for j, c := range m.ToolCalls {
			field := "tool_calls[" + strconv.Itoa(j) + "]"
			if c.ID == "" {
				add(i, field+".id", ErrMissingField, "")
			} else if k, dup := callAt[c.ID]; dup {
				add(i, field+".id", ErrDuplicateToolCallID, strconv.Quote(c.ID)+" (first in message "+strconv.Itoa(k)+")")
			} else {
				callAt[c.ID] = i
			}
			if c.Name == "" {
				add(i, field+".function.name", ErrMissingField, "")
			}
			if !isJSONObject([]byte(c.Arguments)) {
				add(i, field+".function.arguments", ErrInvalidArguments, strconv.Quote(truncate(c.Arguments, 40)))
			}
		}

		// Tool results.
		switch {
		case m.Role == RoleToolResult && m.ToolCallID == "":
			add(i, "tool_call_id", ErrMissingField, "")
		case m.Role == RoleToolResult:
			k, called := callAt[m.ToolCallID]
			prev, answered := answeredBy[m.ToolCallID]
			switch {
			case !called || k >= i:
				add(i, "tool_call_id", ErrUnmatchedToolResult, strconv.Quote(m.ToolCallID)+" is the id of no earlier tool call")
			case answered:
				add(i, "tool_call_id", ErrUnmatchedToolResult, strconv.Quote(m.ToolCallID)+" was answered by message "+strconv.Itoa(prev))
			default:
				answeredBy[m.ToolCallID] = i
			}
		case m.ToolCallID != "" && isKnownRole(m.Role):
			add(i, "tool_call_id", ErrFieldNotAllowed, "tool_call_id on "+withArticle(m.Role)+" message")
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// checkContent checks the content of message i, whose role is known.
func checkContent(i int, m Message, add func(i int, field string, err error, detail string)) {
	if m.Parts != nil {
		checkParts(i, m, add)
		return
	}
	structured := m.Role == RoleToolRequest || m.Role == RoleToolResult
	switch {
	case m.Data != nil && !structured:
		add(i, "content", ErrFieldNotAllowed, "structured content on "+withArticle(m.Role)+" message")
	case m.Data != nil && !isJSONObject(m.Data):
		add(i, "content", ErrMalformed, "structured content is not a JSON object")
	case m.Data != nil && m.Content != "":
		add(i, "content", ErrFieldNotAllowed, "both text and structured content")
	}
	switch m.Role {
	case RoleSystem, RoleUser, RoleToolResult:
		if m.Content == "" && m.Data == nil {
			add(i, "content", ErrEmptyContent, "")
		}
	case RoleAssistant:
		if m.Content == "" && m.Data == nil && len(m.ToolCalls) == 0 {
			add(i, "content", ErrEmptyContent, "an assistant message needs text or tool calls")
		}
	}
}

// withArticle puts "a" or "an" before a known role.
func withArticle(r Role) string {
	if r == RoleAssistant {
		return "an " + string(r)
	}
	return "a " + string(r)
}

func isKnownRole(r Role) bool {
	switch r {
	case RoleSystem, RoleUser, RoleAssistant, RoleToolRequest, RoleToolResult:
		return true
	}
	return false
}

// isJSONObject reports whether b is exactly one JSON object, with optional
// white space around it.
func isJSONObject(b []byte) bool {
	return json.Valid(b) && bytes.TrimLeft(b, " \t\r\n")[0] == '{'
}

// truncate shortens s to at most n bytes for an error message, without
// splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// The JSON forms of Message and ToolCall.
type (
	jsonMessage struct {
		Role       Role            `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name,omitempty"`
		ToolCalls  []jsonToolCall  `json:"tool_calls,omitempty"`
		ToolCallID string          `json:"tool_call_id,omitempty"`
	}
	jsonToolCall struct {
		ID       string       `json:"id"`
		Type     string       `json:"type"`
		Function jsonFunction `json:"function"`
	}
	jsonFunction struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
)

// MarshalJSON writes m as an ArtStandardMessage. Empty fields other than
// role and content are left out; content is a list when m has Parts, and
// null when m has neither text, parts nor structured content.
func (m Message) MarshalJSON() ([]byte, error) {
	w := jsonMessage{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
	switch {
	case m.Parts != nil:
		parts, err := marshalParts(m.Parts)
		if err != nil {
			return nil, err
		}
		w.Content = parts
	case m.Data != nil:
		w.Content = m.Data
	case m.Content != "":
		s, err := json.Marshal(m.Content)
		if err != nil {
			return nil, err
		}
		w.Content = s
	default:
		w.Content = json.RawMessage("null")
	}
	for _, c := range m.ToolCalls {
		w.ToolCalls = append(w.ToolCalls, jsonToolCall{ID: c.ID, Type: "function", Function: jsonFunction{Name: c.Name, Arguments: c.Arguments}})
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an ArtStandardMessage strictly: an unknown field, a
// value of the wrong JSON type, a null other than content's or a tool call
// type other than "function" is an ErrMalformed MessageError. Problems of
// the values themselves are left to Prompt.Validate.
func (m *Message) UnmarshalJSON(data []byte) error {
	var out Message
	var errs MessageErrors
	bad := func(field, detail string) {
		errs = append(errs, &MessageError{Index: -1, Field: field, Err: ErrMalformed, Detail: detail})
	}
	fields, ok := object(data)
	if !ok {
		bad("", "want an object")
		return errs
	}
	for _, k := range sortedKeys(fields) {
		v := fields[k]
		switch k {
		case "role":
			var s string
			if !decodeString(v, &s) {
				bad(k, "want a string")
			}
			out.Role = Role(s)
		case "content":
			switch v[0] {
			case '"':
				json.Unmarshal(v, &out.Content) // valid: the object parsed
			case '[':
				out.Parts = decodeParts(v, bad)
			case '{':
				out.Data = append(json.RawMessage(nil), v...)
			case 'n':
			default:
				bad(k, "want a string, a list of parts, an object or null")
			}
		case "name":
			if !decodeString(v, &out.Name) {
				bad(k, "want a string")
			}
		case "tool_call_id":
			if !decodeString(v, &out.ToolCallID) {
				bad(k, "want a string")
			}
		case "tool_calls":
			var calls []json.RawMessage
			if v[0] != '[' || json.Unmarshal(v, &calls) != nil {
				bad(k, "want an array")
				continue
			}
			if len(calls) > 0 {
				out.ToolCalls = make([]ToolCall, len(calls))
			}
			for j, c := range calls {
				decodeToolCall(c, &out.ToolCalls[j], k+"["+strconv.Itoa(j)+"]", bad)
			}
		default:
			bad(k, "unknown field")
		}
	}
	if len(errs) > 0 {
		return errs
	}
	*m = out
	return nil
}

func decodeToolCall(data json.RawMessage, c *ToolCall, path string, bad func(field, detail string)) {
	fields, ok := object(data)
	if !ok {
		bad(path, "want an object")
		return
	}
	for _, k := range sortedKeys(fields) {
		v := fields[k]
		switch k {
		case "id":
			if !decodeString(v, &c.ID) {
				bad(path+".id", "want a string")
			}
		case "type":
			var s string
			if !decodeString(v, &s) || s != "function" {
				bad(path+".type", `want "function"`)
			}
		case "function":
			fn, ok := object(v)
			if !ok {
				bad(path+".function", "want an object")
				continue
			}
			for _, fk := range sortedKeys(fn) {
				switch fk {
				case "name":
					if !decodeString(fn[fk], &c.Name) {
						bad(path+".function.name", "want a string")
					}
				case "arguments":
					if !decodeString(fn[fk], &c.Arguments) {
						bad(path+".function.arguments", "want a string holding a JSON object")
					}
				default:
					bad(path+".function."+fk, "unknown field")
				}
			}
		default:
			bad(path+"."+k, "unknown field")
		}
	}
}

// object decodes a JSON object into its members, or reports false.
func object(data []byte) (map[string]json.RawMessage, bool) {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != '{' {
		return nil, false
	}
	var fields map[string]json.RawMessage
	return fields, json.Unmarshal(data, &fields) == nil
}

// decodeString decodes the JSON string v into *s; null and other types are
// reported as false.
func decodeString(v json.RawMessage, s *string) bool {
	return len(v) > 0 && v[0] == '"' && json.Unmarshal(v, s) == nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// UnmarshalJSON reads a JSON array of messages, reporting the malformed
// fields of every message as MessageErrors. On error p is left unchanged;
// null leaves it unchanged too.
func (p *Prompt) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return &MessageError{Index: -1, Err: ErrMalformed, Detail: "want an array of messages"}
	}
	out := make(Prompt, len(raws))
	var errs MessageErrors
	for i, raw := range raws {
		err := out[i].UnmarshalJSON(raw)
		var mes MessageErrors
		if errors.As(err, &mes) {
			for _, e := range mes {
				e.Index = i
			}
			errs = append(errs, mes...)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	*p = out
	return nil
}
