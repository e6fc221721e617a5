package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Keyword tables, read-only.
var (
	// annotations do not change the type or the checks.
	annotations = []string{"title", "default", "examples", "$comment", "readOnly", "writeOnly", "deprecated",
		"contentEncoding", "contentMediaType"}
	// checkedByGo are the keywords the model carries into Checks.
	checkedByGo = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"}
	// shaping are the keywords that decide the type.
	shaping = []string{"type", "properties", "required", "additionalProperties", "items", "enum", "const",
		"$ref", "oneOf", "anyOf"}
	// schemaOnly are validation keywords that generated checks do not
	// apply; only the compiled schema does.
	schemaOnly = []string{"not", "if", "then", "else", "dependentRequired", "dependentSchemas",
		"dependencies", "propertyNames", "contains", "minContains", "maxContains"}
	// unsupported are keywords whose effect on the type the model cannot
	// express.
	unsupported = []string{"allOf", "patternProperties", "prefixItems", "additionalItems",
		"unevaluatedProperties", "unevaluatedItems", "$anchor", "$dynamicRef", "$dynamicAnchor",
		"$recursiveRef", "$recursiveAnchor", "$vocabulary"}
	// topOnly are keywords allowed only at the top of the schema.
	topOnly = []string{"$schema", "$id", "$defs", "definitions"}

	// kindOfKeyword names the type a keyword applies to.
	kindOfKeyword = map[string]string{
		"properties": "object", "required": "object", "additionalProperties": "object",
		"minProperties": "object", "maxProperties": "object",
		"items": "array", "minItems": "array", "maxItems": "array", "uniqueItems": "array",
		"minLength": "string", "maxLength": "string", "pattern": "string",
		"minimum": "number", "maximum": "number", "exclusiveMinimum": "number",
		"exclusiveMaximum": "number", "multipleOf": "number",
	}
	typeNames = []string{"string", "integer", "number", "boolean", "object", "array", "null"}
)

func isIn(s string, list []string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// builder is the state of one Load call.
type builder struct {
	opts     Options
	top      *yaml.Node      // the schema's own mapping
	defs     map[string]*Def // by pointer
	defNames []string        // the pointers of defs, for did-you-mean
	root     *Def
	unions   []*union // decided once every Def is built
	diags    Diagnostics
	depth    int // of the schema being built: the top and each $defs entry are 1
	// aliasKeys are the keys of the x-aliases entries read: the schema
	// sent to a model leaves them out.
	aliasKeys map[*yaml.Node]bool
	// omit are the mapping keys jsonValue leaves out.
	omit map[*yaml.Node]bool
	// ordered makes jsonValue keep mappings' order (orderedObject).
	ordered bool
}

// MaxDepth bounds how deeply a schema nests: the top schema (and each
// $defs entry) is level 1, and each properties, items,
// additionalProperties, oneOf or anyOf entry one more. The generated code
// for a level grows with its depth (a nested type's name holds its path),
// so the limit keeps cost linear; real schemas nest a few levels, and
// providers' structured outputs allow 5 to 10.
const MaxDepth = 100

// entry is a key of a mapping and its value, aliases resolved.
type entry struct {
	key  string
	k, v *yaml.Node
}

func (b *builder) pos(n *yaml.Node) Pos {
	if b.opts.Pos != nil {
		return b.opts.Pos(n)
	}
	return Pos{File: b.opts.File, Line: n.Line, Col: n.Column}
}

func (b *builder) report(n *yaml.Node, path string, warning bool, format string, args ...any) {
	b.diags = append(b.diags, Diagnostic{Pos: b.pos(n), Path: path, Warning: warning, Msg: fmt.Sprintf(format, args...)})
}

func (b *builder) errorf(n *yaml.Node, path, format string, args ...any) {
	b.report(n, path, false, format, args...)
}

func (b *builder) errorAt(pos Pos, path, format string, args ...any) {
	b.diags = append(b.diags, Diagnostic{Pos: pos, Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (b *builder) warnf(n *yaml.Node, path, format string, args ...any) {
	b.report(n, path, true, format, args...)
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// kindName describes a YAML node for "want" messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int", "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	}
	return "a " + strings.TrimPrefix(n.ShortTag(), "!!")
}

func (b *builder) wrongKind(n *yaml.Node, path, want string) {
	b.errorf(n, path, "got %s, want %s", kindName(n), want)
}

// entries returns the entries of mapping m, reporting duplicate, merge and
// non-string keys.
func (b *builder) entries(m *yaml.Node, path string) []entry {
	var out []entry
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), deref(m.Content[i+1])
		switch {
		case k.ShortTag() == "!!merge":
			b.errorf(k, path, "YAML merge keys are not supported in a schema")
			continue
		case k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str":
			b.errorf(k, path, "got %s as a key, want a string", kindName(k))
			continue
		case seen[k.Value]:
			b.errorf(k, path, "duplicate key %q", k.Value)
			continue
		}
		seen[k.Value] = true
		out = append(out, entry{k.Value, k, v})
	}
	return out
}

// build returns the type of the schema n at path.
func (b *builder) build(n *yaml.Node, path string) *Type {
	n = deref(n)
	t := &Type{Path: path, Pos: b.pos(n), Kind: Raw}
	b.depth++
	defer func() { b.depth-- }()
	switch {
	case b.depth > MaxDepth:
		b.errorf(n, path, "schema nested more than %d levels deep", MaxDepth)
		return t
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" && n.Value == "true":
		b.warnf(n, path, "schema true accepts any value: it is kept as raw JSON")
		return t
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool":
		b.errorf(n, path, "schema false accepts no value")
		return t
	case n.Kind != yaml.MappingNode:
		b.wrongKind(n, path, "a schema mapping")
		return t
	}
	kw := map[string]entry{}
	var order []string // keywords of kw, as written
	rejected := false  // a keyword was reported, so a missing type is no news
	var aliases *entry
	for _, e := range b.entries(n, path) {
		at := path + "." + e.key
		switch {
		case e.key == AliasesKeyword:
			aliases = &e
		case e.key == "description":
			t.Description = b.str(e.v, at)
		case e.key == "format":
			t.Format = b.str(e.v, at)
		case isIn(e.key, annotations):
		case isIn(e.key, topOnly):
			if n != b.top {
				b.errorf(e.k, at, "%q is supported only at the top of the schema", e.key)
			}
		case isIn(e.key, shaping), isIn(e.key, checkedByGo):
			kw[e.key] = e
			order = append(order, e.key)
		case isIn(e.key, schemaOnly):
			b.warnf(e.k, at, "%q is checked by schema validation only, not by generated checks", e.key)
		case isIn(e.key, unsupported):
			b.errorf(e.k, at, "keyword %q is not supported", e.key)
			rejected = true
		default:
			rejected = true
			known := append(append(append(append([]string{"description", "format", AliasesKeyword}, annotations...), checkedByGo...), shaping...), schemaOnly...)
			b.errorf(e.k, at, "unknown keyword %q%s", e.key, DidYouMean(e.key, known))
		}
	}
	if aliases != nil {
		defer b.aliases(t, *aliases, path)
	}
	if ref, ok := kw["$ref"]; ok {
		return b.ref(t, ref, kw, order, path)
	}
	_, oneOf := kw["oneOf"]
	_, anyOf := kw["anyOf"]
	if oneOf || anyOf {
		return b.union(t, kw, order, path)
	}
	name, nullable, ok := b.typeName(n, kw, path, rejected)
	if !ok {
		return t
	}
	t.Nullable = nullable
	for _, k := range order {
		if want, ok := kindOfKeyword[k]; ok && want != name && !(want == "number" && name == "integer") {
			at := path + "." + k
			if want == "number" {
				b.errorf(kw[k].k, at, "%q applies only to types \"integer\" and \"number\"", k)
			} else {
				b.errorf(kw[k].k, at, "%q applies only to type %q", k, want)
			}
			delete(kw, k)
		}
	}
	switch name {
	case "string":
		t.Kind = String
	case "integer":
		t.Kind = Integer
	case "number":
		t.Kind = Number
	case "boolean":
		t.Kind = Boolean
	case "object":
		t.Kind = Object
		b.object(t, n, kw, path)
	case "array":
		t.Kind = Array
		b.array(t, n, kw, path)
	}
	b.enum(t, kw, path)
	b.checks(t, kw, path)
	return t
}

// str returns the string value of n, reporting other kinds.
func (b *builder) str(n *yaml.Node, path string) string {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		b.wrongKind(n, path, "a string")
		return ""
	}
	return n.Value
}

// typeName returns the JSON type of a schema without $ref or oneOf: its
// type keyword (with "null" making it nullable), or the type its other
// keywords imply. ok is false after an error.
func (b *builder) typeName(n *yaml.Node, kw map[string]entry, path string, rejected bool) (name string, nullable, ok bool) {
	e, has := kw["type"]
	if !has {
		if name = impliedType(kw); name == "" && !rejected {
			b.errorf(n, path, "missing %q", "type")
		}
		return name, false, name != ""
	}
	at := path + ".type"
	names := []*yaml.Node{e.v}
	if e.v.Kind == yaml.SequenceNode {
		names = e.v.Content
	}
	for _, c := range names {
		c = deref(c)
		if c.Kind != yaml.ScalarNode || c.ShortTag() != "!!str" {
			b.wrongKind(c, at, "a type name")
			return "", false, false
		}
		if !isIn(c.Value, typeNames) {
			b.errorf(c, at, "unknown type %q%s", c.Value, typeHint(c.Value))
			return "", false, false
		}
		switch {
		case c.Value == "null":
			nullable = true
		case name != "":
			b.errorf(e.v, at, "a list of types other than [T, \"null\"] is not supported (use oneOf)")
			return "", false, false
		default:
			name = c.Value
		}
	}
	if name == "" {
		b.errorf(e.v, at, "type \"null\" alone is not supported")
		return "", false, false
	}
	return name, nullable, true
}

// typeHint suggests the JSON Schema spelling of a type name.
func typeHint(name string) string {
	switch name {
	case "int":
		return ` (did you mean "integer"?)`
	case "float":
		return ` (did you mean "number"?)`
	case "bool":
		return ` (did you mean "boolean"?)`
	}
	return DidYouMean(name, typeNames)
}

// impliedType returns the type that a schema's keywords imply, or "".
func impliedType(kw map[string]entry) string {
	for _, k := range []string{"properties", "additionalProperties", "required", "items"} {
		if _, ok := kw[k]; ok {
			return kindOfKeyword[k]
		}
	}
	var values []*yaml.Node
	if e, ok := kw["enum"]; ok && e.v.Kind == yaml.SequenceNode {
		values = e.v.Content
	} else if e, ok := kw["const"]; ok {
		values = []*yaml.Node{e.v}
	}
	name := ""
	for _, v := range values {
		v = deref(v)
		n := ""
		switch v.ShortTag() {
		case "!!null":
			continue
		case "!!str":
			n = "string"
		case "!!int":
			n = "integer"
		case "!!float":
			n = "number"
		case "!!bool":
			n = "boolean"
		default:
			return ""
		}
		switch {
		case name == "" || name == n:
			name = n
		case name == "integer" && n == "number" || name == "number" && n == "integer":
			name = "number"
		default:
			return ""
		}
	}
	if name != "" {
		return name
	}
	for _, k := range checkedByGo {
		if e := kindOfKeyword[k]; e == "string" || e == "number" {
			if _, ok := kw[k]; ok {
				return e
			}
		}
	}
	return ""
}

// object fills in an object's properties, required set and
// additionalProperties: a Map when it is a schema and there are no
// properties, Raw when nothing describes the members.
func (b *builder) object(t *Type, n *yaml.Node, kw map[string]entry, path string) {
	props, hasProps := kw["properties"]
	if hasProps {
		if props.v.Kind != yaml.MappingNode {
			b.wrongKind(props.v, path+".properties", "a mapping of property schemas")
		} else {
			for _, e := range b.entries(props.v, path+".properties") {
				at := path + ".properties." + e.key
				t.Props = append(t.Props, &Prop{Name: e.key, Type: b.build(e.v, at), Pos: b.pos(e.k)})
			}
		}
	}
	b.required(t, kw, path)
	addl, hasAddl := kw["additionalProperties"]
	switch {
	case !hasAddl:
	case addl.v.Kind == yaml.MappingNode && hasProps:
		b.errorf(addl.k, path+".additionalProperties", "a schema beside %q is not supported (use one of them)", "properties")
	case addl.v.Kind == yaml.MappingNode:
		t.Kind, t.Elem = Map, b.build(addl.v, path+".additionalProperties")
		return
	case addl.v.ShortTag() == "!!bool":
		t.Closed = addl.v.Value == "false"
	default:
		b.wrongKind(addl.v, path+".additionalProperties", "a schema or a boolean")
	}
	if !hasProps && !t.Closed {
		b.warnf(typeKey(n, kw), path, "an object without properties is kept as raw JSON (declare properties, or additionalProperties for a map)")
		t.Kind = Raw
	}
}

// required marks the required properties of t.
func (b *builder) required(t *Type, kw map[string]entry, path string) {
	e, ok := kw["required"]
	if !ok {
		return
	}
	at := path + ".required"
	if e.v.Kind != yaml.SequenceNode {
		b.wrongKind(e.v, at, "a list of property names")
		return
	}
	var names []string
	for _, p := range t.Props {
		names = append(names, p.Name)
	}
	seen := map[string]bool{}
	for i, c := range e.v.Content {
		c = deref(c)
		ati := fmt.Sprintf("%s[%d]", at, i)
		if c.Kind != yaml.ScalarNode || c.ShortTag() != "!!str" {
			b.wrongKind(c, ati, "a property name")
			continue
		}
		if seen[c.Value] {
			b.errorf(c, ati, "%q is listed twice", c.Value)
			continue
		}
		seen[c.Value] = true
		p := t.prop(c.Value)
		if p == nil {
			b.errorf(c, ati, "required property %q is not defined%s", c.Value, DidYouMean(c.Value, names))
			continue
		}
		p.Required = true
	}
}

func (t *Type) prop(name string) *Prop {
	for _, p := range t.Props {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// typeKey returns the node a warning about a schema's type points at: its
// type key, or the schema.
func typeKey(n *yaml.Node, kw map[string]entry) *yaml.Node {
	if e, ok := kw["type"]; ok {
		return e.k
	}
	return n
}

// array fills in an array's element type.
func (b *builder) array(t *Type, n *yaml.Node, kw map[string]entry, path string) {
	items, ok := kw["items"]
	at := path + ".items"
	switch {
	case !ok:
		b.warnf(typeKey(n, kw), path, "an array without items keeps its elements as raw JSON")
		t.Elem = &Type{Kind: Raw, Path: at, Pos: t.Pos}
	case items.v.Kind == yaml.SequenceNode:
		b.errorf(items.k, at, "a list of item schemas (a tuple) is not supported")
		t.Elem = &Type{Kind: Raw, Path: at, Pos: t.Pos}
	default:
		t.Elem = b.build(items.v, at)
	}
}

// enum reads enum and const: scalar values of the schema's type, and null
// when the type allows it.
func (b *builder) enum(t *Type, kw map[string]entry, path string) {
	e, isEnum := kw["enum"]
	c, isConst := kw["const"]
	switch {
	case isEnum && isConst:
		b.errorf(c.k, path+".const", "%q beside %q is not supported", "const", "enum")
		return
	case isConst:
		t.Const = true
		e = entry{key: "const", k: c.k, v: &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{c.v}}}
	case !isEnum:
		return
	case e.v.Kind != yaml.SequenceNode || len(e.v.Content) == 0:
		b.wrongKind(e.v, path+".enum", "a list of values")
		return
	}
	_, hasType := kw["type"]
	nullOK := !hasType || t.Nullable
	seen := map[string]bool{}
	for i, v := range e.v.Content {
		v = deref(v)
		at := path + "." + e.key
		if !isConst {
			at = fmt.Sprintf("%s[%d]", at, i)
		}
		if v.ShortTag() == "!!null" {
			if nullOK {
				t.Nullable = true
			} else {
				b.errorf(v, at, "null is not of type %q (add \"null\" to the type)", t.Kind)
			}
			continue
		}
		val, ok := b.scalar(v, at, t.Kind)
		if !ok {
			continue
		}
		key := fmt.Sprint(val)
		if seen[key] {
			b.errorf(v, at, "duplicate value %s", v.Value)
			continue
		}
		seen[key] = true
		t.Enum = append(t.Enum, val)
	}
}

// scalar returns the enum or const value v as a value of kind k.
func (b *builder) scalar(v *yaml.Node, path string, k Kind) (any, bool) {
	tag := v.ShortTag()
	switch {
	case v.Kind != yaml.ScalarNode:
		b.errorf(v, path, "got %s, want a %s value (enum and const of objects or arrays are not supported)", kindName(v), k)
	case k == String && tag == "!!str":
		return v.Value, true
	case k == Boolean && tag == "!!bool":
		return v.Value == "true", true
	case k == Integer && tag == "!!int", k == Number && (tag == "!!int" || tag == "!!float"):
		return b.number(v, path)
	default:
		b.errorf(v, path, "got %s, want a %s value", kindName(v), k)
	}
	return nil, false
}

// number returns the JSON text of a YAML number.
func (b *builder) number(v *yaml.Node, path string) (json.Number, bool) {
	var f float64
	switch v.ShortTag() {
	case "!!int":
		var i any
		if err := v.Decode(&i); err == nil {
			switch i := i.(type) {
			case int:
				return json.Number(strconv.Itoa(i)), true
			case uint64:
				return json.Number(strconv.FormatUint(i, 10)), true
			}
		}
		if err := v.Decode(&f); err != nil {
			b.errorf(v, path, "invalid number %s", v.Value)
			return "", false
		}
	case "!!float":
		if err := v.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			b.errorf(v, path, "%s is not a JSON number", v.Value)
			return "", false
		}
	default:
		b.wrongKind(v, path, "a number")
		return "", false
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
}

// checks reads the validation keywords into t.Checks.
func (b *builder) checks(t *Type, kw map[string]entry, path string) {
	c := &t.Checks
	for name, dst := range map[string]*json.Number{
		"minimum": &c.Minimum, "maximum": &c.Maximum, "exclusiveMinimum": &c.ExclusiveMinimum,
		"exclusiveMaximum": &c.ExclusiveMaximum, "multipleOf": &c.MultipleOf,
	} {
		e, ok := kw[name]
		if !ok {
			continue
		}
		*dst, _ = b.number(e.v, path+"."+name)
		if f, err := dst.Float64(); name == "multipleOf" && err == nil && f <= 0 {
			b.errorf(e.v, path+"."+name, "got %s, want a number greater than 0", e.v.Value)
			*dst = ""
		}
	}
	for name, dst := range map[string]**int{
		"minLength": &c.MinLength, "maxLength": &c.MaxLength, "minItems": &c.MinItems,
		"maxItems": &c.MaxItems, "minProperties": &c.MinProperties, "maxProperties": &c.MaxProperties,
	} {
		if e, ok := kw[name]; ok {
			n, err := strconv.Atoi(e.v.Value)
			if e.v.ShortTag() != "!!int" || err != nil || n < 0 {
				b.errorf(e.v, path+"."+name, "got %s, want a non-negative integer", describe(e.v))
				continue
			}
			*dst = &n
		}
	}
	if e, ok := kw["pattern"]; ok {
		at := path + ".pattern"
		if p := b.str(e.v, at); p != "" {
			if _, err := regexp.Compile(p); err != nil {
				b.errorf(e.v, at, "invalid pattern: %s (patterns use Go's RE2 syntax)", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			} else {
				c.Pattern = p
			}
		}
	}
	if e, ok := kw["uniqueItems"]; ok {
		if e.v.ShortTag() != "!!bool" {
			b.wrongKind(e.v, path+".uniqueItems", "a boolean")
		} else {
			c.UniqueItems = e.v.Value == "true"
		}
	}
}

// describe shows a scalar's text, or the kind of a collection.
func describe(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return kindName(n)
}
