// Package output turns an LLM completion into a typed, validated value: it
// finds the JSON in the reply (bare, fenced or wrapped in prose), decodes it
// and validates it, reporting each violation with a JSON pointer so that a
// caller can build a retry prompt. Generated ParseOutput methods call it.
//
// A completion whose outputFormat is text needs none of this: it is used as
// is. YAML completions are extracted by the yamlout sub-package and then go
// through Decode like JSON.
package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// Error is one way an output breaks its schema.
type Error struct {
	Pointer string // JSON pointer (RFC 6901) to the value: "/action_items/2"; "" is the whole document
	Keyword string // the schema keyword that failed: required, enum, type, additionalProperties, ...; or duplicate, properties, number (see Checker); or ambiguous, truncated (lenient parsing)
	Message string // what is wrong, short enough to quote back to the model
}

func (e *Error) Error() string {
	if e.Pointer == "" {
		return e.Message
	}
	return e.Pointer + ": " + e.Message
}

// Unwrap makes an Error of a value the answer ends inside (keyword
// truncated) an ErrTruncated.
func (e *Error) Unwrap() error {
	if e.Keyword == "truncated" {
		return ErrTruncated
	}
	return nil
}

// Errors holds every violation found in one output, sorted by pointer.
type Errors []*Error

// Unwrap returns the errors, for errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sortErrors orders es by pointer, keyword and message, so that the same
// output always yields the same retry prompt, and drops repeated errors.
func sortErrors(es Errors) Errors {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		if a.Keyword != b.Keyword {
			return a.Keyword < b.Keyword
		}
		return a.Message < b.Message
	})
	return slices.CompactFunc(es, func(a, b *Error) bool { return *a == *b })
}

// Validator checks an extracted output. doc is the JSON document and v the
// value decoded from it, or nil when doc does not fit the Go type. Validate
// returns nil, Errors, or another error, and must neither modify nor retain
// doc. Generated checks and Schema implement it; implementations must be
// safe for concurrent use.
type Validator interface {
	Validate(doc []byte, v any) error
}

// Parse extracts the JSON value of completion, decodes it into a T and
// validates it with val, which may be nil. It extracts as Extract does,
// except that when T is a struct or a map it searches the text only for
// objects, and when T is a slice only for arrays: a markdown "[ ]" or a
// citation "[1]" before the answer is then not taken for it.
func Parse[T any](completion string, val Validator) (T, error) {
	var v T
	doc, err := extract(completion, openingOf(reflect.TypeFor[T]()))
	if err == nil {
		// Decode and val only read doc, so it can share the completion's
		// memory instead of copying it.
		err = Decode(unsafe.Slice(unsafe.StringData(doc), len(doc)), &v, val)
	}
	return v, err
}

// Decode decodes the JSON document doc into v, a pointer, and validates it
// with val, which may be nil. A value of the wrong JSON type is reported as
// an *Error with keyword "type", unless val reports the problem first.
func Decode(doc []byte, v any, val Validator) error {
	err := json.Unmarshal(doc, v)
	var typeErr *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &typeErr) {
		return err
	}
	if val != nil {
		decoded := v
		if err != nil {
			decoded = nil
		}
		if verr := val.Validate(doc, decoded); verr != nil {
			return verr
		}
	}
	if typeErr != nil {
		return Errors{{
			Pointer: pointerAt(doc, typeErr.Offset),
			Keyword: "type",
			Message: "got " + typeErr.Value + ", want " + jsonType(typeErr.Type),
		}}
	}
	return nil
}

// openingOf returns the byte that opens the JSON value a Go type decodes
// from, or 0 when it may be anything.
func openingOf(t reflect.Type) byte {
	switch t.Kind() {
	case reflect.Pointer:
		return openingOf(t.Elem())
	case reflect.Struct, reflect.Map:
		return '{'
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 { // json.RawMessage, or []byte in base64
			return 0
		}
		return '['
	}
	return 0
}

// jsonType names the JSON type that decodes into Go type t.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "object"
}

// escapeToken escapes a member name for a JSON pointer (RFC 6901).
var escapeToken = strings.NewReplacer("~", "~0", "/", "~1").Replace

// pointerAt returns the JSON pointer of the value of doc, a valid JSON
// document, that ends at offset (a scalar) or opens just before it (an
// object or array): where json.UnmarshalTypeError.Offset points.
func pointerAt(doc []byte, offset int64) string {
	type frame struct {
		object bool
		name   string // the current member's name in an object
		index  int    // the current element's index in an array
		key    bool   // the next token of an object is a member name
	}
	var stack []frame
	pointer := func() string {
		var b strings.Builder
		for _, f := range stack {
			b.WriteByte('/')
			if f.object {
				b.WriteString(escapeToken(f.name))
			} else {
				b.WriteString(strconv.Itoa(f.index))
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			return pointer() // not reached for a valid doc: point at what is known
		}
		if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].key {
			if d, ok := tok.(json.Delim); !ok || d != '}' {
				stack[n-1].name, stack[n-1].key = tok.(string), false
				continue
			}
		}
		if dec.InputOffset() >= offset {
			return pointer()
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: move the parent to its next member.
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].key = true
			} else {
				stack[n-1].index++
			}
		}
	}
}
