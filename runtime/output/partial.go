package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
)

// This file is the streaming half of schema-aligned parsing (issue 24 §2):
// what is known of an answer that is still being written, as a generated
// <Prompt>Partial, whose fields are Fields.

// State says what is known of one value of an answer being streamed.
type State uint8

const (
	Absent     State = iota // not begun, or begun but not yet readable (a number, an enum value)
	InProgress              // begun: an object or list still open, a string still growing
	Done                    // complete
)

func (s State) String() string {
	switch s {
	case InProgress:
		return "in progress"
	case Done:
		return "done"
	}
	return "absent"
}

// Field is one value of a partial answer: its state and what is known of
// it. A number, a boolean, an enum value or a value of a union or map is
// known only when done; a string may be known in progress; an object's
// fields and a list's items fill in as they come.
type Field[T any] struct {
	value T
	state State
}

// Get returns what is known of the value, and whether anything is.
func (f Field[T]) Get() (T, bool) { return f.value, f.state != Absent }

// Value returns what is known of the value: the zero value when Absent.
func (f Field[T]) Value() T { return f.value }

// State returns the value's state.
func (f Field[T]) State() State { return f.state }

// Done reports whether the value is complete.
func (f Field[T]) Done() bool { return f.state == Done }

// IsZero reports whether nothing is known, so that a field tagged
// omitzero is left out of the JSON of a partial.
func (f Field[T]) IsZero() bool { return f.state == Absent }

// MarshalJSON encodes what is known.
func (f Field[T]) MarshalJSON() ([]byte, error) { return json.Marshal(f.value) }

// set makes the field known in state s and returns a pointer to its value,
// for the partial builder (through partialField).
func (f *Field[T]) set(s State) any { f.state = s; return &f.value }

type partialField interface{ set(State) any }

// known is what the partial coercion knows of a value: a complete value
// (Done), a string so far, or the members or items of an open container.
type known struct {
	state   State
	value   any               // Done, or a string InProgress: a JSON value as the coercer builds it
	members map[string]*known // an object InProgress, by property name
	items   []*known          // a list InProgress
	// itemsDone counts the items of a list InProgress that are done: the
	// next read of the list starts after them.
	itemsDone int
	// filled is the Field a Done value filled, kept to be copied the next
	// time; for a list InProgress, list is the slice filled so far and
	// listDone how many of its items are done.
	filled   reflect.Value
	list     reflect.Value
	listDone int
}

// partialReader builds partials of one answer as it grows. It keeps what
// it learnt of the reader's nodes, whose identity holds across reads of a
// stream: a complete value is coerced and filled once, an open list keeps
// its complete items, so that each read costs what changed, not the whole
// answer.
type partialReader struct {
	done  map[*loose]*known // complete values
	lists map[*loose]*known // open lists
}

func newPartialReader() *partialReader {
	return &partialReader{done: map[*loose]*known{}, lists: map[*loose]*known{}}
}

// partial maps what the reader read of an answer that may go on onto
// shape s: complete values as the final parse would, open objects and
// lists member by member, a string that may go on as far as it goes.
// textEnd is the length of the text read: a scalar that ends there may go
// on. A value that can never fit the schema is an error; one that cannot
// be read yet is nil.
func (r *partialReader) partial(n *loose, s *shape, ptr string, textEnd int) (*known, error) {
	for s.ref != nil {
		s = s.ref
	}
	container := n.kind == looseObject || n.kind == looseArray
	if n.closed && (container || n.end < textEnd) {
		if k := r.done[n]; k != nil {
			return k, nil
		}
		v, err := (&coercer{}).value(n, s, ptr)
		if err != nil {
			return nil, err
		}
		k := &known{state: Done, value: v}
		r.done[n] = k
		return k, nil
	}
	if len(s.anyOf) > 0 || s.enum != nil {
		return nil, nil // told only when complete
	}
	primary := s.types &^ typeNull
	switch {
	case n.kind == looseObject && primary&typeObject != 0 && s.props != nil:
		k := &known{state: InProgress, members: map[string]*known{}}
		for i, key := range n.keys {
			p, _ := s.property(key)
			if p == nil || k.members[p.name] != nil {
				continue // the final parse decides
			}
			m, err := r.partial(n.elems[i], p.shape, ptr+"/"+escapeToken(p.name), textEnd)
			if err != nil {
				return nil, err
			}
			if m != nil {
				k.members[p.name] = m
			}
		}
		return k, nil
	case n.kind == looseArray && primary&typeArray != 0:
		items := s.items
		if items == nil {
			items = &shape{}
		}
		k := r.lists[n]
		if k == nil {
			k = &known{state: InProgress, items: []*known{}}
			r.lists[n] = k
		}
		// The complete items are known from the last read; the one after
		// them may have grown.
		k.items = k.items[:k.itemsDone]
		for i := k.itemsDone; i < len(n.elems); i++ {
			item, err := r.partial(n.elems[i], items, fmt.Sprintf("%s/%d", ptr, i), textEnd)
			if err != nil {
				return nil, err
			}
			if item == nil {
				break // the last item, not readable yet
			}
			k.items = append(k.items, item)
			if item.state == Done && k.itemsDone == i {
				k.itemsDone++
			}
		}
		return k, nil
	case n.kind == looseString && primary&typeString != 0:
		return &known{state: InProgress, value: n.text}, nil
	}
	return nil, nil
}

// json returns the JSON value of what is known.
func (k *known) json() any {
	switch {
	case k.members != nil:
		m := make(map[string]any, len(k.members))
		for name, v := range k.members {
			m[name] = v.json()
		}
		return m
	case k.items != nil:
		l := make([]any, len(k.items))
		for i, v := range k.items {
			l[i] = v.json()
		}
		return l
	}
	return k.value
}

// member returns what is known of member name of an object.
func (k *known) member(name string) *known {
	if k.members != nil {
		return k.members[name]
	}
	if m, ok := k.value.(map[string]any); ok {
		if v, ok := m[name]; ok {
			return &known{state: Done, value: v}
		}
	}
	return nil
}

// elems returns what is known of the items of a list.
func (k *known) elems() []*known {
	if k.items != nil {
		return k.items
	}
	l, _ := k.value.([]any)
	out := make([]*known, len(l))
	for i, v := range l {
		out[i] = &known{state: Done, value: v}
	}
	return out
}

// partialStructs caches, for each generated partial struct type, its
// fields' indexes and member names (the `output` tag).
var partialStructs sync.Map // reflect.Type → []partialMember

type partialMember struct {
	index int
	name  string
}

// membersOf returns the members of a generated partial struct type, or
// nil when t is not one.
func membersOf(t reflect.Type) []partialMember {
	if t.Kind() != reflect.Struct {
		return nil
	}
	if ms, ok := partialStructs.Load(t); ok {
		return ms.([]partialMember)
	}
	var ms []partialMember
	for i := range t.NumField() {
		if name, ok := t.Field(i).Tag.Lookup("output"); ok {
			ms = append(ms, partialMember{i, name})
		}
	}
	partialStructs.Store(t, ms)
	return ms
}

// fill sets dst, a Field, from what is known of its value.
func fill(dst reflect.Value, k *known) error {
	if k.filled.IsValid() && k.filled.Type() == dst.Type() {
		dst.Set(k.filled)
		return nil
	}
	ptr := reflect.ValueOf(dst.Addr().Interface().(partialField).set(k.state))
	v := ptr.Elem()
	var err error
	switch t := v.Type(); {
	case membersOf(t) != nil:
		err = fillStruct(v, k)
	case t.Kind() == reflect.Slice && k.items != nil:
		err = fillList(v, k)
	case t.Kind() == reflect.Slice && membersOf(t.Elem()) != nil:
		elems := k.elems()
		v.Set(reflect.MakeSlice(t, len(elems), len(elems)))
		for i, e := range elems {
			if err := fillStruct(v.Index(i), e); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.String && isString(k.value):
		// A string in progress grows at each read: set it, not a copy.
		v.SetString(k.value.(string))
	default:
		err = decodeKnown(ptr.Interface(), k)
	}
	if err == nil && k.state == Done {
		k.filled = reflect.New(dst.Type()).Elem()
		k.filled.Set(dst)
	}
	return err
}

// fillList sets v, a slice, from a list in progress: the items filled
// before are kept and new ones appended, so the slice shares its array
// with the partials returned before. A list of values without fields of
// their own to show a state has its complete items only.
func fillList(v reflect.Value, k *known) error {
	t := v.Type()
	structs := membersOf(t.Elem()) != nil
	if !k.list.IsValid() {
		k.list = reflect.MakeSlice(t, 0, len(k.items))
	}
	list := k.list.Slice(0, k.listDone)
	for _, item := range k.items[k.listDone:] {
		if item.state != Done && !structs {
			break
		}
		elem := reflect.New(t.Elem())
		var err error
		if structs {
			err = fillStruct(elem.Elem(), item)
		} else {
			err = decodeKnown(elem.Interface(), item)
		}
		if err != nil {
			return err
		}
		list = reflect.Append(list, elem.Elem())
		if item.state == Done && list.Len() == k.listDone+1 {
			k.listDone++
		}
	}
	k.list = list
	v.Set(list)
	return nil
}

// decodeKnown decodes the JSON of what is known into ptr.
func decodeKnown(ptr any, k *known) error {
	doc, err := json.Marshal(k.json())
	if err != nil {
		return err
	}
	return json.Unmarshal(doc, ptr)
}

// fillStruct sets the Fields of v, a generated partial struct, from what is
// known of the object.
func fillStruct(v reflect.Value, k *known) error {
	for _, m := range membersOf(v.Type()) {
		if mk := k.member(m.name); mk != nil {
			if err := fill(v.Field(m.index), mk); err != nil {
				return err
			}
		}
	}
	return nil
}

// MarshalPartial encodes a generated partial struct: the members known,
// by their exact names. Generated MarshalJSON methods call it.
func MarshalPartial(p any) ([]byte, error) {
	v := reflect.ValueOf(p)
	var b bytes.Buffer
	b.WriteByte('{')
	for _, m := range membersOf(v.Type()) {
		f := v.Field(m.index)
		if f.Interface().(interface{ IsZero() bool }).IsZero() {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.name)
		b.Write(name)
		b.WriteByte(':')
		value, err := json.Marshal(f.Interface())
		if err != nil {
			return nil, err
		}
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ParsePartial returns what is known of an answer of p from text, the part
// of it received so far, as P: a generated <Prompt>Partial. It reads the
// first value of the text that fits the schema so far: a fenced block, or
// else an object or list in the prose, or, when the schema's top is not an
// object, the text. An error means no value of the text can become an
// answer of the schema; more text may bring one.
func ParsePartial[P any](p *Parser, text string) (P, error) {
	var out P
	if len(text) > MaxCompletion {
		return out, ErrTooLarge
	}
	shape, err := p.shape()
	if err != nil {
		return out, err
	}
	a := newAnswerStream(shape.root)
	a.write(text)
	return readPartial[P](newPartialReader(), a, shape.root)
}

// readPartial returns the partial P of the answer a follows, of shape s.
func readPartial[P any](r *partialReader, a *answerStream, s *shape) (P, error) {
	var out P
	k, err := a.partial(r, s)
	if err != nil || k == nil {
		return out, err
	}
	return out, fillRoot(&out, k)
}

// fillRoot sets *out, a generated partial struct or a Field, from what is
// known of the whole answer.
func fillRoot[P any](out *P, k *known) error {
	v := reflect.ValueOf(out).Elem()
	if membersOf(v.Type()) != nil {
		return fillStruct(v, k)
	}
	return fill(v, k)
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}
