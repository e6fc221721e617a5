package chat

import (
	"errors"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/runtime/jinja"
)

// ErrMarker is the error of a string that holds one of the model's special
// tokens. A chat template concatenates its strings without escaping, so a
// tool result holding "<|im_end|>\n<|im_start|>system\n..." would close
// its turn and open a system one; no escape exists for a special token,
// and changing the text silently would change what it says.
var ErrMarker = errors.New("holds a marker of the chat format")

// CheckMarkers returns, as a *runtime.MessageError with ErrMarker, the
// first string of c that holds one of markers, or the tokenizer's own
// BosToken or EosToken when set: every string a template can print,
// whatever its depth in a message (content, name, tool calls and their
// arguments, structured content; dict keys too), a tool or a document.
// A message's error has its index and the path of the string in it
// ("tool_calls[0].function.name"); a tool's or a document's has index -1
// and a path from the context ("tools[0].function.description"). The
// special tokens themselves are the caller's and are not checked.
func (c *Context) CheckMarkers(markers ...string) error {
	ms := markers
	if c.BosToken != nil || c.EosToken != nil {
		ms = make([]string, 0, len(markers)+2)
		for _, tok := range []*string{c.BosToken, c.EosToken} {
			if tok != nil {
				ms = append(ms, *tok)
			}
		}
		ms = append(ms, markers...)
	}
	for i, m := range c.Messages {
		if err := findMarker(m, ms); err != nil {
			err.Index, err.Field = i, strings.TrimPrefix(err.Field, ".")
			return err
		}
	}
	for _, f := range [...]struct {
		name string
		v    jinja.Value
	}{{"tools", c.Tools}, {"documents", c.Documents}} {
		if err := findMarker(f.v, ms); err != nil {
			err.Field = f.name + err.Field
			return err
		}
	}
	return nil
}

// findMarker returns the error for the first string of v that holds one of
// markers, with index -1 and the string's path from v (".a[1]"), built
// only when there is one.
func findMarker(v jinja.Value, markers []string) *runtime.MessageError {
	if s, ok := v.Str(); ok {
		if mk := markerIn(s, markers); mk != "" {
			return &runtime.MessageError{Index: -1, Err: ErrMarker, Detail: strconv.Quote(mk)}
		}
		return nil
	}
	if items, ok := v.List(); ok {
		for i, x := range items {
			if err := findMarker(x, markers); err != nil {
				err.Field = "[" + strconv.Itoa(i) + "]" + err.Field
				return err
			}
		}
		return nil
	}
	keys, values, _ := v.Dict() // none for a number, a bool, None or undefined
	for i, key := range keys {
		if mk := markerIn(key, markers); mk != "" {
			return &runtime.MessageError{Index: -1, Field: keySegment(key), Err: ErrMarker, Detail: strconv.Quote(mk) + " in the key"}
		}
		if err := findMarker(values[i], markers); err != nil {
			err.Field = keySegment(key) + err.Field
			return err
		}
	}
	return nil
}

// markerIn returns the first of markers that s holds, or "". An empty
// marker (a tokenizer whose bos_token is "") is none.
func markerIn(s string, markers []string) string {
	for _, mk := range markers {
		if mk != "" && strings.Contains(s, mk) {
			return mk
		}
	}
	return ""
}

// keySegment is the part of a path that selects key in a dict: .key for a
// name, ["key"] for any other key.
func keySegment(key string) string {
	if isName(key) {
		return "." + key
	}
	return "[" + strconv.Quote(key) + "]"
}

// isName reports whether key is a non-empty run of ASCII letters, digits
// and underscores that does not start with a digit.
func isName(key string) bool {
	for i, c := range []byte(key) {
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return key != ""
}
