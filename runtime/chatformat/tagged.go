package chatformat

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// Tagged reads and writes the tagged prompts of prompt-utils.md: text in
// which <tag>...</tag> blocks hold the question, the chat history, the
// documents and so on. Parse follows the original implementation's regular
// expressions exactly, tags matching case-insensitively as Python's re does
// (testdata/golden.py runs them for the expected results), with two
// additions: the text is unescaped (see Escape), and history lines name a
// Speaker, which maps to a role.
//
// The zero value recognises no tags; DefaultTagged has prompt-utils'
// settings.
type Tagged struct {
	// Tags are the recognised tag names, in lower case (prompt-utils'
	// SUPPORTED_INPUT_VARIABLES). Other tags are left in the text.
	Tags []string
	// Roles maps a tag to the role of its content; other recognised tags
	// are system messages (prompt-utils' tag_roles). The tag named
	// HistoryTag is expanded instead.
	Roles map[string]runtime.Role
	// Speakers are the names that start history lines ("User: hi").
	// History writes the first speaker of a role.
	Speakers []Speaker
}

// Speaker maps a name that starts history lines to a role.
type Speaker struct {
	Name string
	Role runtime.Role
}

// HistoryTag is the tag whose content is a chat history, one
// "Speaker: message" line per message.
const HistoryTag = "history"

// DefaultTagged returns prompt-utils' settings: its twelve supported
// variables as tags; question and condensed_question are user messages,
// documents assistant messages; history lines are spoken by "User" (user)
// and "AI" (assistant).
func DefaultTagged() *Tagged {
	return &Tagged{
		Tags: []string{"question", "history", "documents", "context", "submission_text", "rubric_text",
			"summary", "analysis", "additional_comments", "condense_output", "retriever_output",
			"condensed_question"},
		Roles: map[string]runtime.Role{
			"question":           runtime.RoleUser,
			"documents":          runtime.RoleAssistant,
			"condensed_question": runtime.RoleUser,
		},
		Speakers: []Speaker{{"User", runtime.RoleUser}, {"AI", runtime.RoleAssistant}},
	}
}

// ErrHistoryLine: a line of a history is not "Speaker: message" with a
// known speaker.
var ErrHistoryLine = errors.New("malformed history line")

// Parse reads a tagged prompt into messages (prompt-utils'
// _tuplize_tagged_prompt). Each <tag>content</tag> block of a recognised
// tag, up to the first closing tag of the same name, becomes a message of
// the tag's role, and the text between blocks a system message; contents
// and texts are stripped of surrounding white space (Python's str.strip),
// empty texts are dropped, and the result is unescaped (see Escape). A
// history block becomes one message per line, of its speaker's role; an
// empty history, no message (the original adds an empty system message).
// Unknown and unclosed tags stay in the text.
func (t *Tagged) Parse(text string) (runtime.Prompt, error) {
	p := runtime.Prompt{}
	pos := 0
	s := scanner{t: t, text: text}
	for {
		m, ok := s.next()
		if !ok {
			break
		}
		p = appendSystem(p, text[pos:m.start])
		tag := jinja.Lower(text[m.nameStart:m.nameEnd])
		content := jinja.StripSpace(text[m.contentStart:m.contentEnd], true, true)
		if tag == HistoryTag {
			var err error
			if p, err = t.appendHistory(p, content); err != nil {
				return nil, err
			}
		} else {
			role, ok := t.Roles[tag]
			if !ok {
				role = runtime.RoleSystem
			}
			p = append(p, runtime.Message{Role: role, Content: unescape(content)})
		}
		pos = m.end
	}
	return appendSystem(p, text[pos:]), nil
}

func appendSystem(p runtime.Prompt, text string) runtime.Prompt {
	if text = jinja.StripSpace(text, true, true); text != "" {
		p = append(p, runtime.Message{Role: runtime.RoleSystem, Content: unescape(text)})
	}
	return p
}

// appendHistory expands a history block (history_utils.tuplize_history).
func (t *Tagged) appendHistory(p runtime.Prompt, content string) (runtime.Prompt, error) {
	for n, line := range jinja.SplitLines(content, false) {
		name, msg, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, historyError(n, line, `want "Speaker: message"`)
		}
		role, ok := t.speakerRole(name)
		if !ok {
			return nil, historyError(n, line, "unknown speaker "+strconv.Quote(name))
		}
		p = append(p, runtime.Message{Role: role, Content: unescape(msg)})
	}
	return p, nil
}

func historyError(n int, line, why string) error {
	return &historyLineError{line: n + 1, text: line, why: why}
}

type historyLineError struct {
	line      int
	text, why string
}

func (e *historyLineError) Error() string {
	return "history line " + strconv.Itoa(e.line) + ": " + ErrHistoryLine.Error() + ": " + strconv.Quote(e.text) + ": " + e.why
}

func (e *historyLineError) Unwrap() error { return ErrHistoryLine }

func (t *Tagged) speakerRole(name string) (runtime.Role, bool) {
	for _, s := range t.Speakers {
		if s.Name == name {
			return s.Role, true
		}
	}
	return "", false
}

// Strip removes every opening and closing tag of a recognised tag and
// unescapes the rest (prompt-utils' _strip_tags).
func (t *Tagged) Strip(text string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '/' {
			j++
		}
		if end, ok := t.tagEnd(text, j); ok {
			b.WriteString(text[last:i])
			last = end
			i = last - 1
		}
	}
	b.WriteString(text[last:])
	return unescape(b.String())
}

// History writes messages as the content of a history block: one
// "Speaker: content" line each, the content escaped (Escape), so that
// Parse reads the same messages back. A role without a speaker, tool
// calls, structured content, content parts, and an empty content (which
// the format cannot hold) are errors.
func (t *Tagged) History(msgs []runtime.Message) (string, error) {
	var b strings.Builder
	for i, m := range msgs {
		name, ok := "", false
		for _, s := range t.Speakers {
			if s.Role == m.Role {
				name, ok = s.Name, true
				break
			}
		}
		switch {
		case !ok:
			return "", unsupported(i, "role", "no speaker for "+strconv.Quote(string(m.Role))+" messages")
		case name == "" || strings.Contains(name, ": ") || Escape(name) != name:
			return "", unsupported(i, "role", "the speaker name "+strconv.Quote(name)+" cannot start a history line")
		case len(m.ToolCalls) > 0:
			return "", unsupported(i, "tool_calls", "tool calls")
		case m.Data != nil:
			return "", unsupported(i, "content", "structured content")
		case m.Parts != nil:
			return "", unsupported(i, "content", "content parts")
		case m.Content == "":
			return "", &runtime.MessageError{Index: i, Field: "content", Err: runtime.ErrEmptyContent}
		}
		b.WriteString(name)
		b.WriteString(": ")
		b.WriteString(Escape(m.Content))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// Format is prompt-utils' format_prompt for a tagged prompt text: it
// returns the prompt for style s and its end tag. ChatML parses the text
// into messages (Parse) and formats them (Format); Instruct and Llama2
// strip the tags and return "[INST] text [/INST]", rejecting a text that
// holds a marker of the style; Base strips the tags and returns the text
// with its last 15 code points as the end tag. With stripHTML, the
// contents are also stripped of HTML (StripHTML) first.
//
// Unlike the original, which strips the tags before parsing them, ChatML
// gets one message per block; and ChatML is the generic template of
// testdata/templates, not the tokenizer's own.
func (t *Tagged) Format(s Style, text string, stripHTML bool) (prompt, endTag string, err error) {
	if s == ChatML {
		p, err := t.Parse(text)
		if err != nil {
			return "", "", err
		}
		if stripHTML {
			for i := range p {
				p[i].Content = StripHTML(p[i].Content)
			}
		}
		return Format(ChatML, p)
	}
	text = t.Strip(text)
	if stripHTML {
		text = StripHTML(text)
	}
	switch s {
	case Base:
		return text, lastRunes(text, baseEndTag), nil
	case Instruct, Llama2:
		if err := checkMarkers(s, -1, text); err != nil {
			return "", "", err
		}
		return instOpen + text + instClose, instEndTag, nil
	}
	return "", "", errors.New("chatformat: unknown style " + s.String())
}

// Escape makes value inert in a tagged prompt, wherever it is put: inside
// a block, in a history line after "Speaker: ", or between blocks. It
// writes & as &amp;, < as &lt;, every line break (as Python's
// str.splitlines breaks lines) and the white space at either end of value
// as a decimal reference &#N;. Parse and Strip unescape exactly these
// forms, once, so the value comes back byte for byte. Generated code that
// renders a tagged prompt escapes every feed value with it, as html/template
// escapes values in HTML.
func Escape(value string) string {
	lead := len(value) - len(jinja.StripSpace(value, true, false))
	trail := len(jinja.StripSpace(value, false, true))
	var b strings.Builder
	last := 0
	for i := 0; i < len(value); {
		r, size := utf8.DecodeRuneInString(value[i:])
		var esc string
		switch {
		case r == '&':
			esc = "&amp;"
		case r == '<':
			esc = "&lt;"
		case isLineBreak(r) || i < lead || i >= trail: // white space, by the bounds
			esc = "&#" + strconv.Itoa(int(r)) + ";"
		}
		if esc != "" {
			if b.Len() == 0 {
				b.Grow(len(value) + 16)
			}
			b.WriteString(value[last:i])
			b.WriteString(esc)
			last = i + size
		}
		i += size
	}
	if last == 0 {
		return value
	}
	b.WriteString(value[last:])
	return b.String()
}

// unescape undoes Escape: &amp;, &lt; and &#N; with one to seven digits
// naming a Unicode scalar value, in one pass from the left. Everything else
// is left as it is.
func unescape(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for ; i < len(s); i++ {
		if s[i] != '&' {
			continue
		}
		r, n := unescapeAt(s[i:])
		if n == 0 {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteRune(r)
		last = i + n
		i = last - 1
	}
	b.WriteString(s[last:])
	return b.String()
}

// unescapeAt decodes the reference at the start of s, or returns n == 0.
func unescapeAt(s string) (r rune, n int) {
	switch {
	case strings.HasPrefix(s, "&amp;"):
		return '&', 5
	case strings.HasPrefix(s, "&lt;"):
		return '<', 4
	case !strings.HasPrefix(s, "&#"):
		return 0, 0
	}
	j := 2
	for j < len(s) && j < 2+7 && '0' <= s[j] && s[j] <= '9' {
		r = r*10 + rune(s[j]-'0')
		j++
	}
	if j == 2 || j == len(s) || s[j] != ';' || r > unicode.MaxRune || 0xD800 <= r && r <= 0xDFFF {
		return 0, 0
	}
	return r, j + 1
}

// isLineBreak reports whether Python's str.splitlines breaks lines at r.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// A match is one <tag>content</tag> block, by byte offsets.
type match struct {
	start, end               int // the block
	nameStart, nameEnd       int // the tag's name in the opening tag
	contentStart, contentEnd int
}

// scanner finds the blocks of a text from left to right, as re.finditer
// finds the matches of <(tag1|tag2|...)>(.*?)</\1> with re.DOTALL and
// re.IGNORECASE.
type scanner struct {
	t    *Tagged
	text string
	pos  int
	// unclosed maps a tag name, as its closing tag must match it, to the
	// offset after which that closing tag does not occur, so that a text
	// of many unclosed tags is scanned in linear time.
	unclosed map[string]int
}

func (s *scanner) next() (match, bool) {
	for i := s.pos; i < len(s.text); i++ {
		k := strings.IndexByte(s.text[i:], '<')
		if k < 0 {
			break
		}
		i += k
		for _, tag := range s.t.Tags {
			n, ok := matchTag(s.text[i+1:], tag)
			cs := i + 1 + n + 1
			if !ok || cs > len(s.text) || s.text[cs-1] != '>' {
				continue
			}
			name := s.text[i+1 : cs-1]
			ce, end, ok := s.close(cs, name)
			if !ok {
				continue
			}
			s.pos = end
			return match{start: i, end: end, nameStart: i + 1, nameEnd: cs - 1, contentStart: cs, contentEnd: ce}, true
		}
	}
	s.pos = len(s.text)
	return match{}, false
}

// close finds the first </name> at or after from, matching name as a
// backreference does under re.IGNORECASE: code point by code point, equal
// after simple lower-casing. It returns the offsets of the closing tag's
// start and end.
func (s *scanner) close(from int, name string) (start, end int, ok bool) {
	key := foldKey(name)
	if after, seen := s.unclosed[key]; seen && from >= after {
		return 0, 0, false
	}
	for i := from; ; i++ {
		k := strings.Index(s.text[i:], "</")
		if k < 0 {
			break
		}
		i += k
		if n, ok := matchBackref(s.text[i+2:], name); ok && i+2+n < len(s.text) && s.text[i+2+n] == '>' {
			return i, i + 2 + n + 1, true
		}
	}
	if s.unclosed == nil {
		s.unclosed = map[string]int{}
	}
	s.unclosed[key] = from
	return 0, 0, false
}

func foldKey(name string) string {
	return strings.Map(unicode.ToLower, name)
}

// matchTag matches the tag name tag at the start of s as Python's re
// matches the literal under re.IGNORECASE, and returns the number of
// bytes matched. An ASCII letter matches both of its cases, and also
// U+0130 and U+0131 for i, U+212A (Kelvin sign) for k and U+017F (long s)
// for s; any other character only itself.
func matchTag(s, tag string) (int, bool) {
	n := 0
	for i := 0; i < len(tag); {
		want, wsize := utf8.DecodeRuneInString(tag[i:])
		i += wsize
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if r != want && !foldsTo(r, want) {
			return 0, false
		}
		n += size
	}
	return n, true
}

// foldsTo reports whether r matches the ASCII letter want under Python's
// re.IGNORECASE.
func foldsTo(r, want rune) bool {
	if want >= utf8.RuneSelf || !unicode.IsLetter(want) {
		return false
	}
	lower := unicode.ToLower(want)
	switch {
	case r < utf8.RuneSelf:
		return unicode.ToLower(r) == lower
	case lower == 'i':
		return r == 0x130 || r == 0x131
	case lower == 'k':
		return r == 0x212A
	case lower == 's':
		return r == 0x17F
	}
	return false
}

// matchBackref matches the text of group at the start of s as a
// backreference does under re.IGNORECASE, and returns the number of bytes
// matched.
func matchBackref(s, group string) (int, bool) {
	n := 0
	for _, g := range group {
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if unicode.ToLower(r) != unicode.ToLower(g) {
			return 0, false
		}
		n += size
	}
	return n, true
}

// tagEnd matches a recognised tag name followed by ">" at text[i:], and
// returns the offset after the ">".
func (t *Tagged) tagEnd(text string, i int) (int, bool) {
	for _, tag := range t.Tags {
		if n, ok := matchTag(text[i:], tag); ok && i+n < len(text) && text[i+n] == '>' {
			return i + n + 1, true
		}
	}
	return 0, false
}
