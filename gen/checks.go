package gen

// This file lowers an outputSchema to the checks that ParseOutput runs
// instead of the compiled schema: Go code that reads the JSON document
// with output.Checker and applies each keyword as jsonschema/v5 does.
// The checks are built from the schema's JSON, keyword by keyword, not
// from the Go type model, so that they agree with the compiled schema on
// every document (a differential test holds them to it). A schema that
// uses a keyword outside the supported set keeps the compiled schema.
