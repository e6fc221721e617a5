package outschema

// This file checks a prompt's examples at generate time, so that a bad
// example fails the build at its position: every input_vars against the
// feed (unknown variables with a did-you-mean, wrong types, missing
// required variables) and every expected_output against the outputSchema.
// The checked values become the JSON that the generated Examples decodes.
//
// An expected_output is written as YAML, or as a string holding the
// completion: JSON text for outputFormat json, YAML text for yaml. When the
// schema's root is a string, a string is the value itself. For text (and
// xml) outputs, and prompts without outputFormat, it is the text.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/schema"
	"gopkg.in/yaml.v3"
)

// CheckExamples checks the examples of spec against p, its typed form,
// and stores them in p.Examples.
func CheckExamples(spec *ir.PromptSpec, p *ir.Prompt, diags *diag.Sink) {
	for i, ex := range spec.Examples {
		c := &exampleChecker{diags: diags, ex: ex, path: fmt.Sprintf("examples[%d]", i)}
		input, inOK := c.input(p.Feed)
		out, outOK := c.output(p.Output)
		if inOK && outOK {
			p.Examples = append(p.Examples, ir.Example{Input: input, Output: out})
		}
	}
}

type exampleChecker struct {
	diags *diag.Sink
	ex    *ir.ExampleSpec
	path  string // "examples[2]"
	bad   bool   // an error was reported
}

func (c *exampleChecker) errorf(n *yaml.Node, format string, args ...any) {
	c.errorAt(c.ex.PosOf(n), format, args...)
}

func (c *exampleChecker) errorAt(pos src.Pos, format string, args ...any) {
	c.bad = true
	c.diags.Errorf(pos, format, args...)
}

// input checks input_vars against the feed and returns them as JSON.
func (c *exampleChecker) input(feed *ir.Type) (string, bool) {
	path := c.path + ".input_vars"
	n := c.ex.Input
	if n == nil || n.ShortTag() == "!!null" {
		var required []string
		for _, f := range feed.Fields {
			if !f.Optional {
				required = append(required, strconv.Quote(f.Key))
			}
		}
		switch {
		case len(required) == 0:
			return "{}", true
		case n == nil:
			c.errorAt(c.ex.Pos, "%s: missing key %q (the prompt requires %s)", c.path, "input_vars", strings.Join(required, ", "))
		default:
			c.errorAt(c.ex.InputPos, "%s: missing required variables %s", path, strings.Join(required, ", "))
		}
		return "", false
	}
	c.feedValue(n, feed, path, true)
	if c.bad {
		return "", false
	}
	return c.json(n, path)
}

// feedValue checks value n against feed type t.
func (c *exampleChecker) feedValue(n *yaml.Node, t *ir.Type, path string, top bool) {
	n = deref(n)
	t = t.Resolve()
	tag := n.ShortTag()
	want := ""
	switch t.Kind {
	case ir.KindString:
		if tag != "!!str" {
			want = "a string"
		}
	case ir.KindInt:
		if tag != "!!int" {
			want = "an integer"
		}
	case ir.KindFloat:
		if tag != "!!int" && tag != "!!float" {
			want = "a number"
		}
	case ir.KindBool:
		if tag != "!!bool" {
			want = "true or false"
		}
	case ir.KindList:
		if n.Kind != yaml.SequenceNode {
			want = "a list"
			break
		}
		for i, e := range n.Content {
			c.feedValue(e, t.Elem, fmt.Sprintf("%s[%d]", path, i), false)
		}
	case ir.KindMap:
		if n.Kind != yaml.MappingNode {
			want = "a mapping"
			break
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			c.feedValue(n.Content[i+1], t.Elem, path+"."+n.Content[i].Value, false)
		}
	case ir.KindStruct:
		if n.Kind != yaml.MappingNode {
			want = "a mapping"
			break
		}
		c.feedStruct(n, t, path, top)
	case ir.KindImage:
		if n.Kind != yaml.MappingNode {
			want = describeType(t)
			break
		}
		c.image(n, path)
	}
	if want != "" {
		c.errorf(n, "%s: got %s, want %s", path, ir.YAMLKind(n), want)
	}
}

// feedStruct checks the entries of mapping n against struct type t.
func (c *exampleChecker) feedStruct(n *yaml.Node, t *ir.Type, path string, top bool) {
	noun := "field"
	if top {
		noun = "variable"
	}
	var keys []string
	for _, f := range t.Fields {
		keys = append(keys, f.Key)
	}
	seen := map[string]bool{}
	suggested := map[string]bool{} // by a did-you-mean: not also missing
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			c.errorf(k, "%s: got %s as a key, want a %s name", path, ir.YAMLKind(k), noun)
			continue
		}
		if seen[k.Value] {
			c.errorf(k, "%s: duplicate %s %q", path, noun, k.Value)
			continue
		}
		seen[k.Value] = true
		f := t.Field(k.Value)
		if f == nil {
			hint := schema.DidYouMean(k.Value, keys)
			c.errorf(k, "%s: unknown %s %q%s", path, noun, k.Value, hint)
			for _, key := range keys {
				suggested[key] = suggested[key] || hint == fmt.Sprintf(" (did you mean %q?)", key)
			}
			continue
		}
		at := path + "." + k.Value
		if v.ShortTag() == "!!null" {
			if !f.Optional {
				c.errorf(v, "%s: got null, want %s (the %s is required)", at, describeType(f.Type), noun)
			}
			continue
		}
		if !f.Optional && v.ShortTag() == "!!str" && v.Value == "" && f.Type.Resolve().Kind == ir.KindString {
			c.errorf(v, "%s: the empty string leaves required %s %q unset", at, noun, f.Key)
			continue
		}
		c.feedValue(v, f.Type, at, false)
	}
	for _, f := range t.Fields {
		if !f.Optional && !seen[f.Key] && !suggested[f.Key] {
			c.errorf(n, "%s: missing required %s %q", path, noun, f.Key)
		}
	}
}

// image checks the value of an image input, mapping n: the fields of
// runtime.Image as JSON names them, an image that its Validate accepts.
func (c *exampleChecker) image(n *yaml.Node, path string) {
	text, ok := c.json(n, path)
	if !ok {
		return
	}
	var img runtime.Image
	d := json.NewDecoder(strings.NewReader(text))
	d.DisallowUnknownFields()
	if err := d.Decode(&img); err != nil {
		c.errorf(n, "%s: %s (want %s)", path, strings.TrimPrefix(err.Error(), "json: "), describeType(&ir.Type{Kind: ir.KindImage}))
		return
	}
	var errs runtime.MessageErrors
	if errors.As(img.Validate(), &errs) {
		for _, e := range errs {
			e.Field = strings.TrimSuffix(path+"."+e.Field, ".")
			c.errorf(n, "%s", e)
		}
	}
}

// describeType names a feed type in messages.
func describeType(t *ir.Type) string {
	switch t.Resolve().Kind {
	case ir.KindString:
		return "a string"
	case ir.KindInt:
		return "an integer"
	case ir.KindFloat:
		return "a number"
	case ir.KindBool:
		return "true or false"
	case ir.KindList:
		return "a list"
	case ir.KindMap, ir.KindStruct:
		return "a mapping"
	case ir.KindImage:
		return "an image: a mapping with url, or media_type and data, and an optional detail"
	}
	return "a value"
}

// output checks expected_output against the output and returns it as the
// generated Examples reads it.
func (c *exampleChecker) output(o *ir.Output) (string, bool) {
	n := c.ex.Output
	if n == nil {
		return "", false
	}
	path := c.path + ".expected_output"
	if o == nil || o.Format == ir.FormatText {
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
			hint := ""
			if o == nil {
				hint = " (set outputFormat to json or yaml for structured output)"
			}
			c.errorf(n, "%s: got %s, want the text of the completion%s", path, ir.YAMLKind(n), hint)
			return "", false
		}
		return n.Value, true
	}
	asText := n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" && !(o.Schema != nil && rootIsString(o.Schema))
	if !asText {
		if o.Schema != nil {
			for _, d := range o.Schema.ValidateNode(n, path) {
				c.errorAt(src.Pos{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col}, "%s: %s", d.Path, d.Msg)
			}
			if c.bad {
				return "", false
			}
		}
		return c.json(n, path)
	}
	// A completion's text, JSON or YAML: errors point at the string.
	var doc []byte
	switch o.Format {
	case ir.FormatJSON:
		var v any
		dec := json.NewDecoder(strings.NewReader(n.Value))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			c.errorf(n, "%s: invalid JSON: %v", path, err)
			return "", false
		}
		if dec.More() {
			c.errorf(n, "%s: invalid JSON: more than one value", path)
			return "", false
		}
		doc = []byte(n.Value)
	case ir.FormatYAML:
		var inner yaml.Node
		if err := yaml.Unmarshal([]byte(n.Value), &inner); err != nil || len(inner.Content) == 0 {
			msg := "empty document"
			if err != nil {
				msg = strings.TrimPrefix(err.Error(), "yaml: ")
			}
			c.errorf(n, "%s: invalid YAML: %s", path, msg)
			return "", false
		}
		s, ok := c.json(inner.Content[0], path)
		if !ok {
			return "", false
		}
		doc = []byte(s)
	}
	if o.Schema != nil {
		vs, err := o.Schema.Validate(doc)
		if err != nil {
			c.errorf(n, "%s: %v", path, err)
		}
		for _, v := range vs {
			c.errorf(n, "%s%s: %s", path, dottedPointer(v.Pointer), v.Message)
		}
		if c.bad {
			return "", false
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		c.errorf(n, "%s: invalid JSON: %v", path, err)
		return "", false
	}
	b, err := json.Marshal(integralNumbers(v))
	if err != nil {
		c.errorf(n, "%s: %v", path, err)
		return "", false
	}
	return string(b), true
}

// integralNumbers rewrites the numbers of v that have an integer value
// in int64 range as integers ("1.0" and "1e2" become "1" and "100"), so
// that they decode into the int fields of the output types as JSON
// Schema's "integer" accepts them.
func integralNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok && r.IsInt() && r.Num().IsInt64() {
			return json.Number(r.Num().String())
		}
	case []any:
		for i := range v {
			v[i] = integralNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = integralNumbers(v[k])
		}
	}
	return v
}

// rootIsString reports whether a schema's root, through references, is a
// string, so that a string example is the value and not JSON text.
func rootIsString(s *schema.Schema) bool {
	t := s.Root.Type
	for i := 0; t.Kind == schema.Ref && i < 100; i++ {
		t = t.Ref.Type
	}
	return t.Kind == schema.String
}

// dottedPointer turns a JSON pointer into a path suffix: "/a/0" is ".a[0]".
func dottedPointer(p string) string {
	if p == "" {
		return ""
	}
	var b strings.Builder
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(tok); err == nil {
			fmt.Fprintf(&b, "[%s]", tok)
		} else {
			b.WriteString("." + tok)
		}
	}
	return b.String()
}

// json returns YAML value n as compact JSON text.
func (c *exampleChecker) json(n *yaml.Node, path string) (string, bool) {
	v, ok := c.jsonValue(n, path, 0)
	if !ok {
		return "", false
	}
	b, err := json.Marshal(v)
	if err != nil {
		c.errorf(n, "%s: %v", path, err)
		return "", false
	}
	return string(b), true
}

// jsonValue converts YAML value n to a JSON value.
func (c *exampleChecker) jsonValue(n *yaml.Node, path string, depth int) (any, bool) {
	if depth > ir.MaxYAMLDepth {
		c.errorf(n, "%s: nested more than %d levels deep", path, ir.MaxYAMLDepth)
		return nil, false
	}
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
				c.errorf(k, "%s: got %s as a key, want a string", path, ir.YAMLKind(k))
				return nil, false
			}
			v, ok := c.jsonValue(n.Content[i+1], path+"."+k.Value, depth+1)
			if !ok {
				return nil, false
			}
			m[k.Value] = v
		}
		return m, true
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, e := range n.Content {
			v, ok := c.jsonValue(e, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if !ok {
				return nil, false
			}
			l[i] = v
		}
		return l, true
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, true
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b, true
		}
	case "!!int":
		var i any
		if n.Decode(&i) == nil {
			switch i := i.(type) {
			case int:
				return json.Number(strconv.Itoa(i)), true
			case uint64:
				return json.Number(strconv.FormatUint(i, 10)), true
			}
		}
		c.errorf(n, "%s: invalid integer %s", path, n.Value)
		return nil, false
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
		}
		c.errorf(n, "%s: %s is not a JSON number", path, n.Value)
		return nil, false
	}
	return n.Value, true
}

// deref follows YAML aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}
