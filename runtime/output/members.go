package output

import (
	"encoding/json"
	"errors"
)

// Member is a member of a JSON object that encoding/json cannot name in a
// struct tag ("5" is fine, but not "k\"e\"y", "a,b", "😀" or ""): the
// generated JSON methods of an output struct read and write such members
// by their exact names with DecodeMembers and AppendMembers.
type Member struct {
	Name  string
	Value any  // a pointer to the field, for DecodeMembers; its value, for AppendMembers
	Omit  bool // AppendMembers leaves the member out (an optional field unset)
}

// DecodeMembers decodes the members of the JSON object doc that ms name
// into their Values. Members doc lacks are left alone; a doc that is null
// decodes nothing.
func DecodeMembers(doc []byte, ms ...Member) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(doc, &members); err != nil {
		return err
	}
	for _, m := range ms {
		if raw, ok := members[m.Name]; ok {
			if err := json.Unmarshal(raw, m.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// AppendMembers adds the members ms to obj, the JSON encoding of an
// object, before its closing brace.
func AppendMembers(obj []byte, ms ...Member) ([]byte, error) {
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, errors.New("output: AppendMembers of a value that is not an object")
	}
	out := obj[:len(obj)-1]
	for _, m := range ms {
		if m.Omit {
			continue
		}
		name, err := json.Marshal(m.Name)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, name...), ':'), value...)
	}
	return append(out, '}'), nil
}
