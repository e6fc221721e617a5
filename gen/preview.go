package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/promptgen/promptgen/gen/internal/bind"
	"github.com/promptgen/promptgen/gen/internal/check"
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/load"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/ttemit"
)

// Preview is one prompt made ready to render from JSON data without
// compiling anything (promptgen render): the text/template translation that
// -renderer=text/template embeds, and a feed type built with reflect in the
// shape of the generated <Name>Feed (the same fields, json tags and
// pointers), so JSON decodes into it as into the generated struct.
type Preview struct {
	Key    string
	File   string       // the prompt file as generated code names it
	Source string       // text/template source, for runtime/ttfuncs
	Feed   reflect.Type // a struct type
	// Sections are the sections of a sectioned prompt, whose Source is
	// then its head; Tokenizer names the encoding of their budgets.
	Sections  []PreviewSection
	Tokenizer string
	Markers   bool
	// Chat is set for a prompt with `inputs: chat`: its data is a chat
	// context, whose keys the template does not read are ignored, and no
	// string of which may hold one of SpecialTokens (special_tokens).
	Chat          bool
	SpecialTokens []string
}

// PreviewSection is one section of a sectioned prompt, its templates
// translated as Preview.Source is.
type PreviewSection struct {
	Name, Title string
	// When renders "1" when the section is in; "" when it always is.
	When   string
	Source string
	Budget int
	// Truncate is items, text or error; Items marks the source that
	// records its loop's iterations (runtime/ttfuncs.ExecuteItems).
	Truncate string
	Items    bool
}

// LoadPreview loads the prompts of cfg.Dir and checks the one named key;
// errors in other prompts do not matter. The diagnostics are those of the
// prompt's file; err is non-nil when it has errors or key names no prompt.
func LoadPreview(cfg Config, key string) (*Preview, Diagnostics, error) {
	t, err := openTree(cfg.Dir)
	if err != nil {
		return nil, nil, err
	}
	prompts, loadDiags := load.Prompts(t.fsys, t.base)
	p, didYouMean := find(prompts, func(p *ir.PromptSpec) string { return p.Key }, key)
	// The prompt's file, by its key, also when it failed to load.
	sink := &diag.Sink{List: t.keep(loadDiags, func(rel string) bool { return load.PromptKey(rel) == key })}
	if p == nil && !sink.List.HasErrors() {
		if set := setHolding(t.fsys, key); set != "" {
			return nil, nil, fmt.Errorf("%q is in the template set %q (LoadSetPreview loads sets)", key, set)
		}
		return nil, nil, fmt.Errorf("no prompt %q in %s%s", key, cfg.Dir, didYouMean)
	}
	var irp *ir.Prompt
	if p != nil {
		bind.Run(bind.PackagesLoader(context.Background()), cfg.previewPackagesDir(), []*ir.PromptSpec{p}, nil, sink)
		irp = check.Prompt(p, cfg.Strict, sink)
	}
	if irp != nil {
		names.Prompts([]*ir.Prompt{irp}, sink)
	}
	diags := t.show(sink.List.Sorted())
	if diags.HasErrors() || irp == nil {
		return nil, diags, diags
	}
	if irp.IsMessages {
		return nil, diags, fmt.Errorf("%q is a messages prompt: render supports single-template prompts only", key)
	}
	pv := &Preview{Key: key, File: irp.Spec.Map.File, Feed: reflectType(irp.Feed), Tokenizer: irp.Spec.Tokenizer, Markers: irp.Spec.Markers,
		Chat: irp.Spec.Chat, SpecialTokens: irp.Spec.SpecialTokens}
	if irp.Sections == nil {
		pv.Source = ttemit.Translate(irp)
		return pv, diags, nil
	}
	pv.Source = ttemit.Translate(irp.Head)
	for _, sec := range irp.Sections {
		ps := PreviewSection{Name: sec.Spec.Name, Title: sec.Spec.Title, Source: ttemit.Translate(sec.Body),
			Budget: sec.Spec.Budget, Truncate: sec.Spec.Truncate, Items: sec.Items != nil}
		if sec.When != nil {
			ps.When = ttemit.Translate(sec.When)
		}
		pv.Sections = append(pv.Sections, ps)
	}
	return pv, diags, nil
}

// reflectType is the Go type that emit generates for t.
func reflectType(t *ir.Type) reflect.Type {
	switch t = t.Resolve(); t.Kind {
	case ir.KindString:
		return reflect.TypeFor[string]()
	case ir.KindInt:
		return reflect.TypeFor[int]()
	case ir.KindFloat:
		return reflect.TypeFor[float64]()
	case ir.KindBool:
		return reflect.TypeFor[bool]()
	case ir.KindList:
		return reflect.SliceOf(reflectType(t.Elem))
	case ir.KindMap:
		return reflect.MapOf(reflect.TypeFor[string](), reflectType(t.Elem))
	case ir.KindStruct:
		fields := make([]reflect.StructField, len(t.Fields))
		for i, f := range t.Fields {
			ft := reflectType(f.Type)
			tag := f.Key
			if f.Optional {
				tag += ",omitempty"
				if ir.IsPointerKind(f.Type) {
					ft = reflect.PointerTo(ft)
				}
			}
			fields[i] = reflect.StructField{Name: f.GoName, Type: ft, Tag: reflect.StructTag(`json:"` + tag + `"`)}
		}
		return reflect.StructOf(append(fields, unreadableFields(t)...))
	case ir.KindDynamic:
		// Kept as JSON: runtime/ttfuncs reads it as a runtime/jinja.Value,
		// keys in order (gen names no runtime type).
		return reflect.TypeFor[json.RawMessage]()
	}
	return reflect.TypeFor[any]()
}
