package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Schema is a Validator backed by a JSON Schema (draft 2020-12 or draft-07)
// compiled by santhosh-tekuri/jsonschema. Compile it once, at package
// initialisation; it is safe for concurrent use.
type Schema struct{ s *jsonschema.Schema }

// schemaURL names the in-memory schema; it never leads to a load.
const schemaURL = "promptgen:output.json"

// CompileSchema compiles a JSON Schema given as JSON text. References to
// anything outside the schema itself are errors: nothing is loaded.
func CompileSchema(schemaJSON string) (*Schema, error) {
	c := jsonschema.NewCompiler()
	c.LoadURL = func(url string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("not loading %q: only references inside the schema are supported", url)
	}
	if err := c.AddResource(schemaURL, strings.NewReader(schemaJSON)); err != nil {
		return nil, err
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, err
	}
	return &Schema{s}, nil
}

// MustCompileSchema is CompileSchema for package-level variables; it panics
// on an invalid schema, which promptgen rejects at generate time.
func MustCompileSchema(schemaJSON string) *Schema {
	s, err := CompileSchema(schemaJSON)
	if err != nil {
		panic("output: " + err.Error())
	}
	return s
}

// Validate checks the JSON document doc against the schema and returns
// Errors; the decoded value is not used.
func (s *Schema) Validate(doc []byte, _ any) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // keep integers exact, as the schema's checks expect
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	err := s.s.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var es Errors
	leaves(ve, &es)
	sortErrors(es)
	return es
}

// leaves appends the causes of ve that have no causes of their own: the
// violations themselves, without the "doesn't validate" summaries above them.
func leaves(ve *jsonschema.ValidationError, es *Errors) {
	if len(ve.Causes) == 0 {
		*es = append(*es, &Error{
			Pointer: ve.InstanceLocation,
			Keyword: keyword(ve.KeywordLocation),
			Message: ve.Message,
		})
	}
	for _, c := range ve.Causes {
		leaves(c, es)
	}
}

// keyword returns the keyword at the end of a keyword location such as
// "/properties/sentiment/enum". A false subschema reports its parent
// keyword ("/additionalProperties/false" is additionalProperties).
func keyword(loc string) string {
	loc = strings.TrimSuffix(loc, "/false")
	return loc[strings.LastIndexByte(loc, '/')+1:]
}
