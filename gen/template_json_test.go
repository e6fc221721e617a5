package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"github.com/promptgen/promptgen/runtime/ttfuncs"
)

// feedReflectType returns a Go type of the shape of the struct that emit
// generates for t, built with reflect: the same field names, json tags,
// pointers for optional scalars and objects. A value of it decoded from
// JSON runs a prompt's text/template translation exactly as the generated
// feed does; this is how `promptgen render -data FILE.json` can preview a
// prompt without compiling anything.
func feedReflectType(t *Type) reflect.Type {
	switch t = t.resolve(); t.Kind {
	case KindString:
		return reflect.TypeFor[string]()
	case KindInt:
		return reflect.TypeFor[int]()
	case KindFloat:
		return reflect.TypeFor[float64]()
	case KindBool:
		return reflect.TypeFor[bool]()
	case KindList:
		return reflect.SliceOf(feedReflectType(t.Elem))
	case KindMap:
		return reflect.MapOf(reflect.TypeFor[string](), feedReflectType(t.Elem))
	case KindStruct:
		fields := make([]reflect.StructField, len(t.Fields))
		for i, f := range t.Fields {
			ft := feedReflectType(f.Type)
			tag := f.Key
			if f.Optional {
				tag += ",omitempty"
				if isPointerKind(f.Type) {
					ft = reflect.PointerTo(ft)
				}
			}
			fields[i] = reflect.StructField{Name: f.GoName, Type: ft, Tag: reflect.StructTag(`json:"` + tag + `"`)}
		}
		return reflect.StructOf(fields)
	}
	return reflect.TypeFor[any]()
}

// TestTemplateOnJSON runs the text/template translation of every golden
// case in process, on feeds decoded from the scenarios' JSON into types
// built with reflect, and compares with Jinja2's output: the translation
// does not depend on the generated Go types.
func TestTemplateOnJSON(t *testing.T) {
	cases := loadRenderCases(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	for _, c := range cases {
		copyFile(t, filepath.Join(c.dir, "prompt.yaml"), filepath.Join(dir, c.name+".yaml"))
	}
	prompts, diags := loadPrompts(os.DirFS(dir), "prompts")
	sink := &diagSink{list: diags}
	var checked []*irPrompt
	for _, p := range prompts {
		if ir := checkPrompt(p, false, sink); ir != nil {
			checked = append(checked, ir)
		}
	}
	namePrompts(checked, sink)
	if sink.list.HasErrors() {
		t.Fatal(sink.list)
	}
	n := 0
	for _, p := range checked {
		tmpl, err := template.New(p.Prompt.Key).Funcs(ttfuncs.Funcs()).Parse(translateTemplate(p))
		if err != nil {
			t.Errorf("%s: %v", p.Prompt.Key, err)
			continue
		}
		typ := feedReflectType(p.Feed)
		for _, c := range cases {
			if c.name != p.Prompt.Key {
				continue
			}
			for _, s := range c.scenarios {
				base := filepath.Join(c.dir, s)
				data, err := os.ReadFile(base + ".json")
				if err != nil {
					t.Fatal(err)
				}
				feed := reflect.New(typ)
				d := json.NewDecoder(bytes.NewReader(data))
				d.DisallowUnknownFields()
				if err := d.Decode(feed.Interface()); err != nil {
					t.Fatalf("%s.json: %v", base, err)
				}
				got, err := ttfuncs.Execute(tmpl, nil, p.Prompt.Key, p.Prompt.Map.File, feed.Elem().Interface())
				if err != nil {
					got = []byte("ERROR: " + err.Error())
				}
				want := readFile(t, c.expected(s))
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("%s.json (-want +got):\n%s", base, diff)
				}
				n++
			}
		}
	}
	t.Logf("%d prompts, %d scenarios", len(checked), n)
}
