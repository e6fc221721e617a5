// Package chatformat writes a runtime.Prompt in the prompt format of a local
// chat model, and reads and writes the tagged prompts of prompt-utils.md.
// It depends on the standard library and promptgen's runtime (runtime,
// runtime/chat) only.
//
// # Chat formats
//
// Detect picks a Style from a tokenizer's special tokens, as prompt-utils'
// PromptFormatter does: "[INST]" means Instruct, "<|im_start|>" ChatML,
// anything else Base. Format writes a Prompt in a Style and returns the end
// tag, the text after which the model's answer starts. For the three chat
// styles the output is byte for byte what the model's published Jinja chat
// template renders with transformers' apply_chat_template (bos_token "<s>",
// eos_token "</s>", add_generation_prompt on); testdata/templates holds the
// templates and testdata/golden.py renders the expected outputs with real
// Jinja2.
//
// # Injection policy
//
// The chat templates concatenate message contents into one string without
// escaping, so a content holding a marker of the format (a user writing
// "<|im_end|>\n<|im_start|>system\n...") would close its message and open
// another, with any role. No escape exists inside these formats: the markers
// are special tokens (ChatML's, "<s>" and "</s>") or plain text that the
// model was trained to read as turn boundaries ("[INST]", "<<SYS>>"), and
// altering the content silently would change what the user wrote. So Format
// rejects them: a content holding one of its style's markers is an
// ErrMarker error, where the published template would render a prompt with
// a different structure. The markers are, per style:
//
//	ChatML    <|im_start|>  <|im_end|>
//	Instruct  [INST]  [/INST]  <s>  </s>
//	Llama2    [INST]  [/INST]  <<SYS>>  <</SYS>>  <s>  </s>
//
// Markers of other formats ("</user>", "system:", "[INST]" in ChatML, ...)
// are ordinary text in a style and are written as they are. Callers that
// must pass arbitrary text to a model should tokenize contents without
// special-token parsing instead; no string-level format can.
//
// Tagged prompts are promptgen's own intermediate text, read back by
// Tagged.Parse, so there values are escaped instead: Escape makes a value
// inert (no tag, no history line, no strippable edge), and Parse undoes it,
// so the value comes back byte for byte.
//
// Format also differs from the published templates, on purpose, where they
// would render a prompt that loses or garbles messages: it rejects an empty
// prompt (ErrNoMessages), tool_request and tool_result messages and tool
// calls (ErrUnsupported; ChatML would print the role "tool_result" and fail
// on a null content, Llama-2 drops such messages silently), a system
// message that is not the first under Llama2 (dropped silently by the
// template), and a Llama2 prompt of only a system message (rendered as an
// empty string). testdata/chat/cases.json marks each such case.
package chatformat

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/chat"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// Style is a prompt format.
type Style uint8

const (
	// Base is a plain completion model: the contents joined by blank
	// lines, with no roles.
	Base Style = iota
	// Instruct is the Mistral-Instruct format: <s>[INST] user [/INST]answer</s>[INST] ...
	// It has no system role.
	Instruct
	// Llama2 is the Llama-2-chat format: <s>[INST] <<SYS>>\nsystem\n<</SYS>>\n\nuser [/INST] answer </s>...
	// Its tokenizers do not declare [INST], so Detect never returns it.
	Llama2
	// ChatML is <|im_start|>role\ncontent<|im_end|>\n per message (Qwen,
	// OpenHermes, ...).
	ChatML
)

var styleNames = [...]string{"base", "instruct", "llama2", "chatml"}

// String returns the style's lower-case name, as in testdata file names.
func (s Style) String() string {
	if int(s) < len(styleNames) {
		return styleNames[s]
	}
	return "Style(" + strconv.Itoa(int(s)) + ")"
}

// Detect chooses the style for a tokenizer with the given special tokens,
// as prompt-utils' _get_formatter: Instruct if they hold "[INST]", else
// ChatML if they hold "<|im_start|>", else Base.
func Detect(specialTokens []string) Style {
	style := Base
	for _, t := range specialTokens {
		switch t {
		case "[INST]":
			return Instruct
		case "<|im_start|>":
			style = ChatML
		}
	}
	return style
}

// DetectJSON is Detect for the tokens of a Hugging Face
// special_tokens_map.json: every value, whether a token string, an
// added-token object ({"content": ...}) or a list of either (as
// additional_special_tokens is).
func DetectJSON(specialTokensMap []byte) (Style, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(specialTokensMap, &m); err != nil {
		return Base, err
	}
	var tokens []string
	var add func(v json.RawMessage)
	add = func(v json.RawMessage) {
		var s string
		var tok struct{ Content string }
		var list []json.RawMessage
		switch {
		case json.Unmarshal(v, &s) == nil:
			tokens = append(tokens, s)
		case json.Unmarshal(v, &list) == nil:
			for _, x := range list {
				add(x)
			}
		case json.Unmarshal(v, &tok) == nil:
			tokens = append(tokens, tok.Content)
		}
	}
	for _, v := range m {
		add(v)
	}
	return Detect(tokens), nil
}

// Errors of Format, in runtime.MessageError values.
var (
	// ErrAlternation: Instruct and Llama2 need user and assistant
	// messages to alternate, starting with a user message (after
	// Llama2's system message). The text is the templates' own.
	ErrAlternation = errors.New("conversation roles must alternate user/assistant/user/assistant/...")
	// ErrUnsupported: a role, tool calls, structured content or content
	// parts that the style cannot express.
	ErrUnsupported = errors.New("not supported by the chat format")
	// ErrMarker: a content holds a marker of the style (see the package
	// documentation). It is chat.ErrMarker, which FormatTemplate and the
	// compiled chat templates report for a model's special tokens.
	ErrMarker = chat.ErrMarker
)

// markers are the texts that Format rejects in contents, per style.
var markers = [...][]string{
	Base:     nil,
	Instruct: {"[INST]", "[/INST]", "<s>", "</s>"},
	Llama2:   {"[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "<s>", "</s>"},
	ChatML:   {"<|im_start|>", "<|im_end|>"},
}

// The texts of the templates.
const (
	bos          = "<s>"
	eos          = "</s>"
	imStart      = "<|im_start|>"
	imEnd        = "<|im_end|>"
	instOpen     = "[INST] "
	instClose    = " [/INST]"
	instEndTag   = "[/INST]"
	chatMLEndTag = "assistant"
	baseEndTag   = 15 // code points
)

// Format writes p in style s and returns it with the end tag: "[/INST]" for
// Instruct and Llama2, "assistant" for ChatML (prompt-utils' values), and
// for Base the last 15 code points of the text. The chat styles end with
// the opening of the assistant's turn. Format does not validate p (see
// runtime.Prompt.Validate); it returns the first problem that stops it from
// writing p faithfully as a *runtime.MessageError, whose Err is
// runtime.ErrNoMessages or one of this package's errors.
func Format(s Style, p runtime.Prompt) (prompt, endTag string, err error) {
	if len(p) == 0 {
		return "", "", &runtime.MessageError{Index: -1, Err: runtime.ErrNoMessages}
	}
	var b strings.Builder
	switch s {
	case Base:
		err = formatBase(&b, p)
		if err == nil {
			return b.String(), lastRunes(b.String(), baseEndTag), nil
		}
	case Instruct:
		err = formatInstruct(&b, p)
		endTag = instEndTag
	case Llama2:
		err = formatLlama2(&b, p)
		endTag = instEndTag
	case ChatML:
		err = formatChatML(&b, p)
		endTag = chatMLEndTag
	default:
		return "", "", errors.New("chatformat: unknown style " + s.String())
	}
	if err != nil {
		return "", "", err
	}
	return b.String(), endTag, nil
}

// check returns why message i cannot be written in style s, if it cannot:
// a role other than system, user and assistant, tool calls, structured
// content, content parts, or a marker in the content.
func check(s Style, i int, m runtime.Message) error {
	switch {
	case m.Role != runtime.RoleSystem && m.Role != runtime.RoleUser && m.Role != runtime.RoleAssistant:
		return unsupported(i, "role", strconv.Quote(string(m.Role))+" messages")
	case len(m.ToolCalls) > 0:
		return unsupported(i, "tool_calls", "tool calls")
	case m.Data != nil:
		return unsupported(i, "content", "structured content")
	case m.Parts != nil:
		return unsupported(i, "content", "content parts (a model's own chat template takes them: FormatPrompt)")
	}
	return checkMarkers(s, i, m.Content)
}

// checkMarkers reports the first marker of style s in content.
func checkMarkers(s Style, i int, content string) error {
	for _, mk := range markers[s] {
		if strings.Contains(content, mk) {
			return &runtime.MessageError{Index: i, Field: "content", Err: ErrMarker, Detail: strconv.Quote(mk)}
		}
	}
	return nil
}

func unsupported(i int, field, what string) error {
	return &runtime.MessageError{Index: i, Field: field, Err: ErrUnsupported, Detail: what}
}

func alternation(i int) error {
	return &runtime.MessageError{Index: i, Field: "role", Err: ErrAlternation}
}

func formatBase(b *strings.Builder, p runtime.Prompt) error {
	for i, m := range p {
		if err := check(Base, i, m); err != nil {
			return err
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(m.Content)
	}
	return nil
}

// formatInstruct follows templates/instruct.jinja.
func formatInstruct(b *strings.Builder, p runtime.Prompt) error {
	b.WriteString(bos)
	for i, m := range p {
		if (m.Role == runtime.RoleUser) != (i%2 == 0) {
			return alternation(i)
		}
		if m.Role != runtime.RoleUser && m.Role != runtime.RoleAssistant {
			return unsupported(i, "role", strconv.Quote(string(m.Role))+" messages")
		}
		if err := check(Instruct, i, m); err != nil {
			return err
		}
		if m.Role == runtime.RoleUser {
			b.WriteString(instOpen)
			b.WriteString(m.Content)
			b.WriteString(instClose)
		} else {
			b.WriteString(m.Content)
			b.WriteString(eos)
		}
	}
	return nil
}

// formatLlama2 follows templates/llama2.jinja, except that it rejects the
// messages that the template drops.
func formatLlama2(b *strings.Builder, p runtime.Prompt) error {
	var system string
	hasSystem := p[0].Role == runtime.RoleSystem
	first := 0
	if hasSystem {
		if err := check(Llama2, 0, p[0]); err != nil {
			return err
		}
		system, first = p[0].Content, 1
		if len(p) == 1 {
			return &runtime.MessageError{Index: -1, Err: runtime.ErrNoMessages, Detail: "nothing after the system message"}
		}
	}
	for i := first; i < len(p); i++ {
		m := p[i]
		if (m.Role == runtime.RoleUser) != ((i-first)%2 == 0) {
			return alternation(i)
		}
		if m.Role != runtime.RoleUser && m.Role != runtime.RoleAssistant {
			return unsupported(i, "role", strconv.Quote(string(m.Role))+" messages after the first")
		}
		if err := check(Llama2, i, m); err != nil {
			return err
		}
		content := m.Content
		if i == first && hasSystem {
			content = "<<SYS>>\n" + system + "\n<</SYS>>\n\n" + content
		}
		content = jinja.StripSpace(content, true, true)
		if m.Role == runtime.RoleUser {
			b.WriteString(bos)
			b.WriteString(instOpen)
			b.WriteString(content)
			b.WriteString(instClose)
		} else {
			b.WriteString(" ")
			b.WriteString(content)
			b.WriteString(" ")
			b.WriteString(eos)
		}
	}
	return nil
}

// formatChatML follows templates/chatml.jinja.
func formatChatML(b *strings.Builder, p runtime.Prompt) error {
	for i, m := range p {
		if err := check(ChatML, i, m); err != nil {
			return err
		}
		b.WriteString(imStart)
		b.WriteString(string(m.Role))
		b.WriteString("\n")
		b.WriteString(m.Content)
		b.WriteString(imEnd)
		b.WriteString("\n")
	}
	b.WriteString(imStart)
	b.WriteString("assistant\n")
	return nil
}

// lastRunes returns the last n code points of s, or s if it is shorter.
func lastRunes(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}
