package difffuzz

// The generator's inputs: a random schema, written as a prompt file's
// inputs in one of the three forms (inferred, shorthand, JSON Schema).

import "gopkg.in/yaml.v3"

// schema makes the intended inputs. Shorthand spells scalars, lists of
// scalars and `object` (fields inferred from the template).
func (g *generator) schema(shorthand bool) []*field {
	var out []*field
	used := map[string]bool{}
	for range g.r.IntN(6) {
		name := g.pick(inputNames)
		if used[name] || shorthand && name == "type" { // type: object would make inputs a JSON Schema
			continue
		}
		used[name] = true
		f := &field{name: name, t: g.randType(2, shorthand), optional: g.chance(0.35)}
		if shorthand && f.t.kind == kindList {
			f.optional = false // a shorthand list cannot be marked optional
		}
		out = append(out, f)
	}
	return out
}

func (g *generator) randType(depth int, shorthand bool) *valueType {
	var t *valueType
	// A number is inferred an int when an int meets it: intended only
	// when declared.
	elem := func() *valueType {
		for {
			e := g.randType(depth-1, shorthand)
			if (e.kind != kindList || g.on("list-of-lists")) && (!shorthand || e.scalar()) {
				return e
			}
		}
	}
	g.choose(
		choice{5, true, func() { t = typeString }},
		choice{4, true, func() { t = typeInt }},
		choice{2, g.declared, func() { t = typeFloat }},
		choice{2, true, func() { t = typeBool }},
		choice{3, depth > 0, func() { t = listOf(elem()) }},
		choice{3, depth > 0, func() { t = g.objectType(depth-1, shorthand) }},
		choice{1, depth > 0 && !shorthand && g.on("map-input"), func() { t = &valueType{kind: kindMap, elem: elem()} }},
	)
	return t
}

// objectType makes an object type. In shorthand it is `object`, whose
// fields the template's uses infer, so its intended fields are scalars.
func (g *generator) objectType(depth int, shorthand bool) *valueType {
	t := &valueType{kind: kindObject}
	used := map[string]bool{}
	for range 1 + g.r.IntN(4) {
		name := g.pick(fieldNames)
		if g.on("field-dict-method") && g.chance(0.05) {
			name = g.pick(dictMethods)
		}
		if used[name] {
			continue
		}
		used[name] = true
		ft := g.randType(depth, shorthand)
		if shorthand && !ft.scalar() {
			ft = typeString
		}
		t.fields = append(t.fields, &field{name: name, t: ft, optional: g.chance(0.3)})
	}
	return t
}

// promptFile writes the case as a YAML prompt file.
func (g *generator) promptFile(c *Case, mode string) []byte {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) { doc.Content = append(doc.Content, yamlScalar(k), v) }
	opts := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for _, o := range []struct {
		name string
		on   bool
	}{{"trim_blocks", c.Env.TrimBlocks && !c.Env.Profile}, {"lstrip_blocks", c.Env.LstripBlocks && !c.Env.Profile}, {"keep_trailing_newline", c.Env.KeepTrailingNewline}} {
		if o.on {
			opts.Content = append(opts.Content, yamlScalar(o.name), yamlScalar("true"))
		}
	}
	if c.Env.Profile {
		opts.Content = append(opts.Content, yamlScalar("profile"), yamlScalar("transformers"))
	}
	if len(opts.Content) > 0 {
		add("jinja", opts)
	}
	switch mode {
	case "chat":
		add("inputs", yamlScalar("chat"))
	case "shorthand":
		in := &yaml.Node{Kind: yaml.MappingNode}
		for _, f := range g.inputs {
			in.Content = append(in.Content, yamlScalar(f.name), g.shorthandNode(f))
		}
		if len(in.Content) > 0 {
			add("inputs", in)
		}
	case "schema":
		add("inputs", g.schemaNode(&valueType{kind: kindObject, fields: g.inputs}))
	}
	tn := yamlScalar(c.Template)
	if g.on("yaml-quoted") && g.chance(0.3) {
		tn.Style = yaml.DoubleQuotedStyle
	}
	add("template", tn)
	b, err := yaml.Marshal(doc)
	if err != nil {
		panic(err)
	}
	// yaml.v3 writes some strings (a leading newline, a tab starting a
	// line) as block scalars it reads back differently or not at all.
	var back struct{ Template string }
	if err := yaml.Unmarshal(b, &back); err != nil || back.Template != c.Template {
		tn.Style = yaml.DoubleQuotedStyle
		if b, err = yaml.Marshal(doc); err != nil {
			panic(err)
		}
	}
	return b
}

func yamlScalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

var (
	shorthandNames = map[valueKind]string{kindString: "string", kindInt: "int", kindFloat: "number", kindBool: "bool", kindObject: "object"}
	schemaNames    = map[valueKind]string{kindString: "string", kindInt: "integer", kindFloat: "number", kindBool: "boolean",
		kindList: "array", kindObject: "object", kindMap: "object"}
)

func (g *generator) shorthandNode(f *field) *yaml.Node {
	if f.t.kind == kindList {
		return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{yamlScalar(shorthandNames[f.t.elem.kind])}}
	}
	s := shorthandNames[f.t.kind]
	switch {
	case f.optional && g.chance(0.2):
		// A mapping is a JSON Schema, which spells the type names out.
		return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
			yamlScalar("type"), yamlScalar(schemaNames[f.t.kind]), yamlScalar("optional"), yamlScalar("true")}}
	case f.optional:
		s += "?"
	}
	return yamlScalar(s)
}

// schemaNode writes t as a JSON Schema. An optional property is left out
// of required, or is nullable.
func (g *generator) schemaNode(t *valueType) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	if g.chance(0.3) {
		m.Style = yaml.FlowStyle
	}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, yamlScalar(k), v) }
	add("type", yamlScalar(schemaNames[t.kind]))
	switch t.kind {
	case kindList:
		add("items", g.schemaNode(t.elem))
	case kindMap:
		add("additionalProperties", g.schemaNode(t.elem))
	case kindObject:
		props := &yaml.Node{Kind: yaml.MappingNode}
		req := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, f := range t.fields {
			fn := g.schemaNode(f.t)
			switch {
			case f.optional && g.on("nullable-type") && g.chance(0.25):
				fn.Content[1] = &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
					fn.Content[1], {Kind: yaml.ScalarNode, Value: "null", Style: yaml.DoubleQuotedStyle}}}
				req.Content = append(req.Content, yamlScalar(f.name))
			case !f.optional:
				req.Content = append(req.Content, yamlScalar(f.name))
			}
			props.Content = append(props.Content, yamlScalar(f.name), fn)
		}
		add("properties", props)
		if len(req.Content) > 0 {
			add("required", req)
		}
	}
	return m
}
