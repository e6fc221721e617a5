package gen

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/promptgen/promptgen/gen/internal/goemit"
	"github.com/promptgen/promptgen/gen/internal/ttemit"
)

// SetPreview is a template set made ready to render from JSON data without
// compiling anything (promptgen render SET -key K): the resolver's settings
// and paths, the text/template translation of every template and component
// version that -renderer=text/template embeds, and the set's feed type
// built with reflect in the shape of the generated <Set>Feed.
//
// To render, parse every Body into one association of templates named by
// Prompt (template.New(...).New(Prompt).Parse(Source)), resolve a key with
// a runtime.Manager over Paths, and execute the template of the chosen id
// with ttfuncs.ExecuteVariant and the runtime.VariantFor of its versioned
// components under the version of the settings.
type SetPreview struct {
	SetInfo
	Feed       reflect.Type  // a struct type
	Templates  []PreviewBody // by id: Templates[i] is the template at Paths[i]
	Components []PreviewBody // every version of every component
	// Predefined are the set's predefined variables, sorted by name: each
	// is a JSON object of feed values, which Render puts in the fields the
	// feed leaves at their zero value.
	Predefined []PreviewPredefined
	ChatPreview
}

// PreviewPredefined is one set of predefined variables of a SetPreview.
type PreviewPredefined struct {
	Name string
	JSON []byte // an object of the feed's JSON keys
}

// PreviewBody is one template or component version of a SetPreview.
type PreviewBody struct {
	Prompt string // its prompt key, e.g. agent/main/BrowseLink: its template's name
	File   string // its file as generated code names it
	Source string // text/template source, for runtime/ttfuncs
	// Components and Versions list the versioned components that a
	// template includes, directly or not, with their versions ("" for the
	// unversioned content), as runtime.VariantFor takes them.
	Components []string
	Versions   [][]string
}

// LoadSetPreview loads and checks the template set in directory key of
// cfg.Dir; errors outside it do not matter. The diagnostics are those of
// the set's files; err is non-nil when they have errors or key names no set.
func LoadSetPreview(cfg Config, key string) (*SetPreview, Diagnostics, error) {
	prog, err := compileSet(cfg, key, false)
	if err != nil {
		return nil, nil, err
	}
	diags := prog.diags
	if diags.HasErrors() || len(prog.sets) == 0 {
		return nil, diags, diags
	}
	ps := prog.sets[0]
	if err := previewGoFilters(fmt.Sprintf("template set %q", key), ps.Filters); err != nil {
		return nil, diags, err
	}
	sp := &SetPreview{SetInfo: *setInfo(prog.setSpecs[0]), Feed: goemit.ReflectType(ps.Feed),
		ChatPreview: chatPreview(ps.Chat, ps.SpecialTokens, ps.Tools)}
	for _, t := range ps.Templates {
		b := PreviewBody{Prompt: t.Body.Key, File: t.Body.File, Source: ttemit.Translate(t.Body)}
		for _, c := range t.Versioned {
			b.Components = append(b.Components, c.Name)
			b.Versions = append(b.Versions, c.VersionNames())
		}
		sp.Templates = append(sp.Templates, b)
	}
	for _, p := range ps.Predefined {
		values := map[string]any{}
		for _, v := range p.Values {
			values[v.Field.Key] = v.Value
		}
		b, err := json.Marshal(values)
		if err != nil {
			return nil, diags, fmt.Errorf("internal error: predefined variables %q: %w", p.Name, err)
		}
		sp.Predefined = append(sp.Predefined, PreviewPredefined{Name: p.Name, JSON: b})
	}
	for _, c := range ps.Components {
		for _, v := range c.Versions {
			sp.Components = append(sp.Components, PreviewBody{Prompt: v.Body.Key, File: v.Body.File, Source: ttemit.Translate(v.Body)})
		}
	}
	return sp, diags, nil
}
