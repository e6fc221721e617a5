package gen

import "github.com/promptgen/promptgen/gen/internal/tmpl"

// TemplateConstructs names the constructs a template uses, as promptgen
// parses it, sorted: each statement ("statement for"), operator
// ("operator +"), filter ("filter truncate"), test, method ("method
// strip()") and call, and literals, attributes, subscripts, slices,
// conditional expressions and keyword arguments. transformers parses it
// in the transformers profile (jinja: {profile: transformers}), which adds
// loop controls and the generation block; err is the syntax error of a
// template promptgen does not parse. The differential fuzzer
// (internal/difffuzz) counts its cases by construct.
func TemplateConstructs(template string, transformers bool) ([]string, error) {
	t, err := tmpl.Parse(template, tmpl.Options{Transformers: transformers})
	if err != nil {
		return nil, err
	}
	return tmpl.Constructs(t.Body), nil
}
