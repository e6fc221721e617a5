package gen

// This file lowers a prompt's output: outputFormat and outputSchema become
// the Go types that ParseOutput returns, every name decided here so that
// emit only writes them.
//
// Go types of the schema model (schema.Kind):
//
//	String             string; with an enum (not a const), a named string
//	                   type with one constant per value and a Valid method
//	Integer, Number    int, float64
//	Boolean            bool
//	Object             a named struct, <Prompt>Output<Path>
//	Array, Map         []E, map[string]E; elements are <...>Item
//	Ref                the named type of the Def, or the Def's Go type
//	                   inline when it needs no name
//	Union              a named struct with one pointer per variant and
//	                   JSON methods switching on the discriminator
//	Raw                json.RawMessage (the schema package warns)
//
// A property that is optional or nullable is a pointer, unless its type
// is a slice, a map or raw JSON, which are nil instead; an optional one is
// omitempty. A property whose type is a recursive Def's struct is always a
// pointer, so that the Go type is finite.
