package output

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Stream reads an answer as it arrives, in chunks: Partial says what is
// known so far as a P (a generated <Prompt>Partial), End parses the whole
// answer as ParseOutput does into an O (the <Prompt>Output). A generated
// Stream method on the prompt returns one. It is not safe for concurrent
// use.
type Stream[P, O any] struct {
	parser *Parser
	shape  *shape
	answer *answerStream
	reader *partialReader
	// changed is set when the text grew since partial was computed.
	changed bool
	partial P
	err     error
	ended   bool
}

// NewStream returns a stream of an answer that p parses.
func NewStream[P, O any](p *Parser) *Stream[P, O] {
	s := &Stream[P, O]{parser: p, reader: newPartialReader()}
	if shape, err := p.shape(); err != nil {
		s.err = err
	} else {
		s.shape, s.answer = shape.root, newAnswerStream(shape.root)
	}
	return s
}

// Write appends a chunk of the answer. It fails only after End.
func (s *Stream[P, O]) Write(chunk []byte) (int, error) {
	return s.WriteString(string(chunk))
}

// WriteString appends a chunk of the answer: its cost is the chunk's
// length, whatever the chunks. It fails only after End.
func (s *Stream[P, O]) WriteString(chunk string) (int, error) {
	switch {
	case s.ended:
		return 0, errStreamEnded
	case s.answer == nil:
		return 0, s.err
	case s.answer.text.Len()+len(chunk) > MaxCompletion:
		return 0, ErrTooLarge
	}
	s.answer.write(chunk)
	s.changed = s.changed || chunk != ""
	return len(chunk), nil
}

// Partial returns what is known of the answer so far. An error means the
// text received already cannot become an answer of the schema; more text
// may bring one. After End, it is the whole answer, every value done: the
// value End returned, as a P. It costs what changed since the last call:
// complete values are read once, and the slices of lists grow in place,
// so a partial shares memory with the next ones and must not be modified.
func (s *Stream[P, O]) Partial() (P, error) {
	if s.changed {
		s.partial, s.err = readPartial[P](s.reader, s.answer, s.shape)
		s.changed = false
	}
	return s.partial, s.err
}

// End parses the whole answer as ParseOutput does, with the same options,
// and returns the value; later writes fail.
func (s *Stream[P, O]) End(opts ...ParseOption) (O, error) {
	s.ended = true
	var text string
	if s.answer != nil {
		text = s.answer.text.String()
	}
	v, err := ParseWith[O](s.parser, text, opts...)
	s.changed = false
	var p P
	s.partial, s.err = p, err
	if err == nil {
		s.err = fillRoot(&s.partial, &known{state: Done, value: jsonValue(v)})
	}
	return v, err
}

// jsonValue is v as the coercer's JSON values, for filling a partial.
func jsonValue(v any) any {
	doc, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if dec.Decode(&out) != nil {
		return nil
	}
	return out
}

var errStreamEnded = errors.New("output: write to a stream after End")
