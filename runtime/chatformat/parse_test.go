package chatformat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// Reference readers of the chat formats, for the tests: they split a
// formatted prompt at the formats' markers as a model reads it (the first
// marker wins; markers are never content), and fail on anything that is
// not a well-formed sequence of turns. A prompt whose contents moved,
// merged or multiplied reads back as different messages, or not at all.

// msg is a message as read back: role and text.
type msg struct{ Role, Content string }

func pyStrip(s string) string { return jinja.StripSpace(s, true, true) }

// parseFormatted reads back a prompt formatted in style s, without the
// opening of the assistant's turn at its end.
func parseFormatted(s Style, text string) ([]msg, error) {
	switch s {
	case ChatML:
		return parseChatML(text)
	case Instruct:
		return parseInstruct(text)
	case Llama2:
		return parseLlama2(text)
	}
	return nil, fmt.Errorf("no reader for %v", s)
}

func parseChatML(text string) ([]msg, error) {
	var out []msg
	for {
		rest, ok := strings.CutPrefix(text, imStart)
		if !ok {
			return nil, fmt.Errorf("text outside a message: %q", text)
		}
		role, rest, ok := strings.Cut(rest, "\n")
		if !ok {
			return nil, errors.New("role without a line break")
		}
		if rest == "" && role == "assistant" {
			return out, nil // the generation prompt
		}
		content, rest, ok := strings.Cut(rest, imEnd)
		if !ok {
			return nil, errors.New("unclosed message")
		}
		if strings.Contains(content, imStart) || strings.Contains(role, imStart) || strings.Contains(role, imEnd) {
			return nil, errors.New("a message opens inside a message")
		}
		if text, ok = strings.CutPrefix(rest, "\n"); !ok {
			return nil, errors.New("no line break after <|im_end|>")
		}
		out = append(out, msg{role, content})
	}
}

// parseInstruct reads <s>[INST] u [/INST]a</s>[INST] u [/INST]...
func parseInstruct(text string) ([]msg, error) {
	text, ok := strings.CutPrefix(text, bos)
	if !ok {
		return nil, errors.New("no <s>")
	}
	var out []msg
	for text != "" {
		if text, ok = strings.CutPrefix(text, instOpen); !ok {
			return nil, fmt.Errorf("want [INST] at %q", text)
		}
		user, rest, ok := strings.Cut(text, instEndTag)
		if !ok {
			return nil, errors.New("unclosed [INST]")
		}
		if user, ok = strings.CutSuffix(user, " "); !ok {
			return nil, errors.New("no space before [/INST]")
		}
		if err := noMarkers(user, bos, eos, "[INST]"); err != nil {
			return nil, err
		}
		out = append(out, msg{"user", user})
		if rest == "" {
			break // the generation prompt
		}
		answer, rest, ok := strings.Cut(rest, eos)
		if !ok {
			return nil, errors.New("unclosed answer")
		}
		if err := noMarkers(answer, bos, "[INST]", instEndTag); err != nil {
			return nil, err
		}
		out = append(out, msg{"assistant", answer})
		text = rest
	}
	return out, nil
}

// parseLlama2 reads <s>[INST] <<SYS>>\ns\n<</SYS>>\n\nu [/INST] a </s><s>[INST] ...
func parseLlama2(text string) ([]msg, error) {
	var out []msg
	for first := true; text != ""; first = false {
		rest, ok := strings.CutPrefix(text, bos+instOpen)
		if !ok {
			return nil, fmt.Errorf("want <s>[INST] at %q", text)
		}
		user, rest, ok := strings.Cut(rest, instEndTag)
		if !ok {
			return nil, errors.New("unclosed [INST]")
		}
		if user, ok = strings.CutSuffix(user, " "); !ok {
			return nil, errors.New("no space before [/INST]")
		}
		if sys, ok := strings.CutPrefix(user, "<<SYS>>\n"); ok && first {
			system, after, ok := strings.Cut(sys, "\n<</SYS>>")
			if !ok {
				return nil, errors.New("unclosed <<SYS>>")
			}
			if err := noMarkers(system, "<<SYS>>", bos, eos, "[INST]"); err != nil {
				return nil, err
			}
			out = append(out, msg{"system", system})
			user = strings.TrimPrefix(after, "\n\n")
		}
		if err := noMarkers(user, "<<SYS>>", "<</SYS>>", bos, eos, "[INST]"); err != nil {
			return nil, err
		}
		out = append(out, msg{"user", user})
		if rest == "" {
			break
		}
		answer, after, ok := strings.Cut(rest, eos)
		if !ok {
			return nil, errors.New("unclosed answer")
		}
		if answer, ok = strings.CutPrefix(answer, " "); !ok {
			return nil, errors.New("no space before the answer")
		}
		if answer, ok = strings.CutSuffix(answer, " "); !ok {
			return nil, errors.New("no space after the answer")
		}
		if err := noMarkers(answer, bos, "[INST]", instEndTag, "<<SYS>>", "<</SYS>>"); err != nil {
			return nil, err
		}
		out = append(out, msg{"assistant", answer})
		text = after
	}
	return out, nil
}

func noMarkers(s string, markers ...string) error {
	for _, m := range markers {
		if strings.Contains(s, m) {
			return fmt.Errorf("%q inside a message", m)
		}
	}
	return nil
}

func sys(s string) runtime.Message  { return runtime.Message{Role: runtime.RoleSystem, Content: s} }
func user(s string) runtime.Message { return runtime.Message{Role: runtime.RoleUser, Content: s} }
func asst(s string) runtime.Message { return runtime.Message{Role: runtime.RoleAssistant, Content: s} }
