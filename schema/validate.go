package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"gopkg.in/yaml.v3"

	"github.com/promptgen/promptgen/runtime/output"
)

// compiled is a schema compiled by jsonschema/v5.
type compiled struct{ s *jsonschema.Schema }

// schemaURL names the in-memory schema; it never leads to a load.
const schemaURL = "promptgen:schema.json"

// Violation is one way a JSON document breaks a schema.
type Violation struct {
	Pointer string // JSON pointer to the value in the document
	Keyword string // the schema keyword that failed: required, enum, type, ...
	Message string
}

// compileJSON compiles the JSON text of a schema, returning the errors of
// an invalid one with JSON pointers into the schema.
func compileJSON(doc []byte, draft Draft) (*compiled, []Violation) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if draft == Draft7 {
		c.Draft = jsonschema.Draft7
	}
	c.LoadURL = func(url string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("not loading %q: only references inside the schema are supported", url)
	}
	output.RegisterPropertyCase(c)
	if err := c.AddResource(schemaURL, bytes.NewReader(doc)); err != nil {
		return nil, []Violation{{Message: err.Error()}}
	}
	s, err := c.Compile(schemaURL)
	if err == nil {
		return &compiled{s}, nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) { // the schema breaks the draft's meta-schema
		return nil, violations(ve)
	}
	msg := err.Error()
	if se := (*jsonschema.SchemaError)(nil); errors.As(err, &se) && se.Err != nil {
		msg = se.Err.Error()
	}
	return nil, []Violation{{Message: "invalid schema: " + strings.TrimPrefix(msg, "jsonschema: ")}}
}

// violations flattens a validation error into its leaves, sorted.
func violations(ve *jsonschema.ValidationError) []Violation {
	var out []Violation
	var walk func(*jsonschema.ValidationError)
	walk = func(ve *jsonschema.ValidationError) {
		if len(ve.Causes) == 0 {
			loc := strings.TrimSuffix(ve.KeywordLocation, "/false")
			out = append(out, Violation{
				Pointer: ve.InstanceLocation,
				Keyword: loc[strings.LastIndexByte(loc, '/')+1:],
				Message: ve.Message,
			})
		}
		for _, c := range ve.Causes {
			walk(c)
		}
	}
	walk(ve)
	sortViolations(out)
	return out
}

// Validate checks a JSON document against the schema. It returns nil when
// doc is valid, and an error when doc is not JSON.
func (s *Schema) Validate(doc []byte) ([]Violation, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	return s.validate(v)
}

func (s *Schema) validate(v any) ([]Violation, error) {
	err := s.compiled.s.Validate(v)
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return violations(ve), nil
	}
	return nil, err
}

// ValidateNode checks a value written in YAML, such as an example's
// expected_output mapping, against the schema, and reports each violation
// at the position of the offending YAML node, with path (the node's path
// in the file) extended by the violation's pointer. A string node is the
// string value itself: a caller holding JSON text in a string should call
// Validate instead.
func (s *Schema) ValidateNode(n *yaml.Node, path string) Diagnostics {
	b := &builder{opts: s.opts}
	v, ok := b.jsonValue(n, path, "the value")
	if !ok {
		return b.diags.sorted()
	}
	vs, err := s.validate(v)
	if err != nil {
		b.errorf(n, path, "%v", err)
	}
	for _, v := range vs {
		b.errorf(nodeAt(n, v.Pointer), path+dotted(v.Pointer), "%s", v.Message)
	}
	return b.diags.sorted()
}
