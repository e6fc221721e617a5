// Package schema reads a JSON Schema (draft 2020-12 or draft-07) written in
// YAML, such as a prompt's outputSchema, into a neutral type model that the
// generator turns into Go types and checks. It reports everything the model
// cannot express as a diagnostic naming the file position and the schema
// path, never as a silent "any"; and it compiles the schema with
// santhosh-tekuri/jsonschema to reject invalid schemas and to validate
// documents such as examples[].expected_output.
//
// # Model
//
// A schema becomes a *Type. Objects keep their properties in the order
// written, which are required, and whether additionalProperties is false
// (Closed). additionalProperties with a schema and no properties is a Map.
// `type: [T, "null"]`, an enum holding null, and oneOf/anyOf with a
// `type: "null"` branch make a type Nullable. const is an Enum of one value
// with Const set. Validation keywords are kept in Checks for generated
// checks; format is kept as information.
//
// $defs and definitions (at the top of the schema) become named Defs, and a
// local $ref ("#", "#/$defs/Name", "#/definitions/Name") is a Ref to one.
// A Def that refers to itself, directly or not, is Recursive, so the
// generator gives it a pointer or slice indirection.
//
// # oneOf and anyOf
//
// Branches of type null only make the result nullable. Then:
//
//  1. one branch left: the union is that branch;
//  2. every branch an object (inline or through $ref) with a required
//     property that has a distinct single string value (const, or an enum of
//     one) in every branch: a Union told apart by that Discriminator (the
//     first such property of the first branch), one Variant per branch;
//  3. every branch a string enum or const: one string enum of all values;
//  4. otherwise Raw (json.RawMessage for the generator), with a warning:
//     the compiled schema still validates it.
package schema

import "encoding/json"

// Kind is the kind of a Type.
type Kind uint8

const (
	String Kind = iota + 1
	Integer
	Number
	Boolean
	Object // a struct: Props
	Array  // a list of Elem
	Map    // string keys to Elem
	Ref    // the named type Ref
	Union  // one of Variants, told apart by Discriminator
	Raw    // any JSON, kept undecoded
)

var kindNames = [...]string{"", "string", "integer", "number", "boolean", "object", "array", "map", "ref", "union", "raw"}

func (k Kind) String() string { return kindNames[k] }

// Type is the model of one schema.
type Type struct {
	Kind        Kind
	Path        string // schema path, e.g. "outputSchema.properties.sentiment"
	Pos         Pos
	Description string
	Nullable    bool   // null is allowed besides the kind's values
	Format      string // the format keyword, as information
	Enum        []any  // allowed values (string, json.Number or bool), in written order
	Const       bool   // Enum comes from const
	Checks      Checks

	Props  []*Prop // Object: in written order
	Closed bool    // Object: additionalProperties is false
	Elem   *Type   // Array, Map

	Ref *Def // Ref

	Discriminator string     // Union: the property that tells variants apart
	Variants      []*Variant // Union
}

// Prop is a property of an object.
type Prop struct {
	Name     string
	Required bool
	Type     *Type
	Pos      Pos // of the property's key
}

// Variant is one branch of a Union: the discriminator's value and the
// branch's type (an Object or a Ref to one).
type Variant struct {
	Value string
	Type  *Type
}

// Def is a named type: an entry of $defs or definitions, or the root of the
// schema (Name "", Pointer "#").
type Def struct {
	Name      string
	Pointer   string // "#/$defs/Name"
	Type      *Type
	Recursive bool // Type refers back to this Def
}

// Checks are the validation keywords of a schema. Numbers keep their JSON
// text; "" and nil mean absent.
type Checks struct {
	Minimum, Maximum                   json.Number
	ExclusiveMinimum, ExclusiveMaximum json.Number
	MultipleOf                         json.Number
	MinLength, MaxLength               *int   // in Unicode code points
	Pattern                            string // RE2 syntax, as Go's regexp compiles it
	MinItems, MaxItems                 *int
	UniqueItems                        bool
	MinProperties, MaxProperties       *int
}
