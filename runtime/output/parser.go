package output

import (
	"errors"
	"strings"
	"sync"
)

// Parser reads the completions of one prompt: a generated ParseOutput
// holds one. It keeps the schema's JSON and compiles it to a Shape on the
// first answer that needs repair, so that a package of many prompts does
// not pay for it when it is initialised. It is safe for concurrent use.
type Parser struct {
	val    Validator
	strict bool
	shape  func() (*Shape, error)
	// extract, when set, turns an answer in another format into its JSON
	// document, which is decoded as it is.
	extract func(completion string) ([]byte, error)
}

// NewParser returns the parser of outputs of the JSON Schema schemaJSON
// ("" for any JSON value), validated by val (nil for none). Options set
// the default of every parse, which each call's options can change.
func NewParser(schemaJSON string, val Validator, opts ...ParseOption) *Parser {
	c := config(opts)
	if schemaJSON == "" {
		schemaJSON = "true"
	}
	return &Parser{val: val, strict: c.strict,
		shape: sync.OnceValues(func() (*Shape, error) { return CompileShape(schemaJSON) })}
}

// NewDocParser returns the parser of answers in another format than JSON,
// which extract (yamlout.Extract) turns into a JSON document; it is
// decoded and validated by val as it is: the options have no effect, and
// Fixes receives none.
func NewDocParser(extract func(completion string) ([]byte, error), val Validator) *Parser {
	return &Parser{val: val, extract: extract}
}

// ParseOption changes how a Parser reads one completion.
type ParseOption func(*parseConfig)

type parseConfig struct {
	strict, lenient bool
	fixes           *[]Fix
}

func config(opts []ParseOption) parseConfig {
	var c parseConfig
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Strict parses as Parse does: only JSON, found bare, fenced or in prose,
// that decodes as it is. It is the prompt's default with
// `outputParsing: strict`.
func Strict() ParseOption { return func(c *parseConfig) { c.strict, c.lenient = true, false } }

// Lenient parses as ParseLenient does, led by the schema: the default,
// unless the prompt says `outputParsing: strict`.
func Lenient() ParseOption { return func(c *parseConfig) { c.strict, c.lenient = false, true } }

// Fixes stores in *dst the repairs the parse made to reach the value:
// none when the answer was JSON of the schema, or when the parse failed.
func Fixes(dst *[]Fix) ParseOption { return func(c *parseConfig) { c.fixes = dst } }

// ParseWith parses completion with p into a T: leniently (ParseLenient)
// unless p or opts ask for strict parsing (Parse). A nil error means the
// value satisfies the schema.
func ParseWith[T any](p *Parser, completion string, opts ...ParseOption) (T, error) {
	c := config(opts)
	if c.fixes != nil {
		*c.fixes = nil
	}
	if p.extract != nil {
		var v T
		doc, err := p.extract(completion)
		if err == nil {
			err = Decode(doc, &v, p.val)
		}
		return v, err
	}
	strict := p.strict && !c.lenient || c.strict
	v, err := Parse[T](completion, p.val)
	var fixes []Fix
	if err != nil && !strict && len(completion) <= MaxCompletion {
		shape, serr := p.shape()
		if serr != nil {
			return v, serr
		}
		var lv T
		doc, lfixes, lerr := repair(completion, shape.root)
		if lerr == nil {
			lerr = Decode(doc, &lv, p.val)
		}
		var violations Errors
		switch {
		case lerr == nil:
			v, fixes, err = lv, lfixes, nil
		case !errors.As(err, &violations):
			// The JSON could not be read: what the repair found is news.
			v, err = lv, lerr
		}
		// Otherwise the JSON was read and breaks the schema: its
		// violations, all of them, say more than the repair's first.
	}
	if c.fixes != nil && err == nil {
		*c.fixes = fixes
	}
	return v, err
}

// ToolArguments is the text of a tool call's arguments as a generated
// ParseToolCall reads it: an empty text is an empty object.
func ToolArguments(text string) string {
	if strings.TrimSpace(text) == "" {
		return "{}"
	}
	return text
}
