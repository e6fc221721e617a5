package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Schema is a Validator backed by a JSON Schema (draft 2020-12 or draft-07)
// compiled by santhosh-tekuri/jsonschema. Compile it once, at package
// initialisation; it is safe for concurrent use. It checks what the
// Checker checks besides the schema's keywords: no member given twice, no
// member named in another case than its property, no number beyond the
// limits.
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
	RegisterPropertyCase(c)
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
// Errors; the decoded value is not used. A document with numbers beyond
// the limits is not checked against the schema, whose exact arithmetic
// could take minutes on them.
func (s *Schema) Validate(doc []byte, _ any) error {
	var es Errors
	if err := Check(doc, (*Checker).Skip); err != nil && !errors.As(err, &es) {
		return err
	}
	for _, e := range es {
		if e.Keyword == "number" {
			return es
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber() // keep integers exact, as the schema's checks expect
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	err := s.s.Validate(v)
	var ve *jsonschema.ValidationError
	if err != nil && !errors.As(err, &ve) {
		return err
	}
	if ve != nil {
		leaves(ve, &es)
	}
	if len(es) == 0 {
		return nil
	}
	return sortErrors(es)
}

// RegisterPropertyCase adds to c the check that the Checker's Unknown
// makes, for every schema with properties: no member of an object differs
// from a property only in case (encoding/json would decode it as the
// property). The generator validates examples with it too, so that an
// example is valid exactly when ParseOutput accepts it.
func RegisterPropertyCase(c *jsonschema.Compiler) {
	c.RegisterExtension("promptgen-property-case", nil, propertyCase{})
}

type propertyCase struct{}

func (propertyCase) Compile(_ jsonschema.CompilerContext, m map[string]any) (jsonschema.ExtSchema, error) {
	props, _ := m["properties"].(map[string]any)
	if len(props) == 0 {
		return nil, nil
	}
	return properties(slices.Sorted(maps.Keys(props))), nil
}

// properties are the property names of a schema, sorted.
type properties []string

func (p properties) Validate(ctx jsonschema.ValidationContext, v any) error {
	obj, _ := v.(map[string]any)
	var causes []*jsonschema.ValidationError
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		if prop, ok := caseVariant(name, p); ok {
			e := ctx.Error("properties", "%s", caseMessage(name, prop))
			e.InstanceLocation += "/" + escapeToken(name)
			causes = append(causes, e)
		}
	}
	switch len(causes) {
	case 0:
		return nil
	case 1:
		return causes[0]
	}
	e := ctx.Error("properties", "members differ from properties only in case")
	e.Causes = causes
	return e
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
