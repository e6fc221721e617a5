package difffuzz

// The generator's inputs: a random schema, written as a prompt file's
// inputs in one of the three forms (inferred, shorthand, JSON Schema).

import "gopkg.in/yaml.v3"

// schema makes the intended inputs. Shorthand spells scalars, lists of
// scalars and `object` (fields inferred from the template).
func (g *fzGen) schema(shorthand bool) []*fzField {
	var out []*fzField
	used := map[string]bool{}
	for range g.r.IntN(6) {
		name := g.pick(fzInputNames)
		if used[name] || shorthand && name == "type" { // type: object would make inputs a JSON Schema
			continue
		}
		used[name] = true
		f := &fzField{name: name, t: g.randType(2, shorthand), optional: g.chance(0.35)}
		if shorthand && f.t.kind == fzList {
			f.optional = false // a shorthand list cannot be marked optional
		}
		out = append(out, f)
	}
	return out
}

func (g *fzGen) randType(depth int, shorthand bool) *fzType {
	var t *fzType
	// A number is inferred an int when an int meets it: intended only
	// when declared.
	elem := func() *fzType {
		for {
			e := g.randType(depth-1, shorthand)
			if (e.kind != fzList || g.on("list-of-lists")) && (!shorthand || e.scalar()) {
				return e
			}
		}
	}
	g.choose(
		choice{5, true, func() { t = fzStr }},
		choice{4, true, func() { t = fzIntT }},
		choice{2, g.declared, func() { t = fzFlt }},
		choice{2, true, func() { t = fzBoolT }},
		choice{3, depth > 0, func() { t = listOf(elem()) }},
		choice{3, depth > 0, func() { t = g.objectType(depth-1, shorthand) }},
		choice{1, depth > 0 && !shorthand && g.on("map-input"), func() { t = &fzType{kind: fzMap, elem: elem()} }},
	)
	return t
}

// objectType makes an object type. In shorthand it is `object`, whose
// fields the template's uses infer, so its intended fields are scalars.
func (g *fzGen) objectType(depth int, shorthand bool) *fzType {
	t := &fzType{kind: fzObject}
	used := map[string]bool{}
	for range 1 + g.r.IntN(4) {
		name := g.pick(fzFieldNames)
		if g.on("field-dict-method") && g.chance(0.05) {
			name = g.pick(fzDictMethods)
		}
		if used[name] {
			continue
		}
		used[name] = true
		ft := g.randType(depth, shorthand)
		if shorthand && !ft.scalar() {
			ft = fzStr
		}
		t.fields = append(t.fields, &fzField{name: name, t: ft, optional: g.chance(0.3)})
	}
	return t
}

// promptFile writes the case as a YAML prompt file.
func (g *fzGen) promptFile(c *Case, mode string) []byte {
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
		add("inputs", g.schemaNode(&fzType{kind: fzObject, fields: g.inputs}))
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
	fzShorthandNames = map[fzKind]string{fzString: "string", fzInt: "int", fzFloat: "number", fzBool: "bool", fzObject: "object"}
	fzSchemaNames    = map[fzKind]string{fzString: "string", fzInt: "integer", fzFloat: "number", fzBool: "boolean",
		fzList: "array", fzObject: "object", fzMap: "object"}
)

func (g *fzGen) shorthandNode(f *fzField) *yaml.Node {
	if f.t.kind == fzList {
		return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{yamlScalar(fzShorthandNames[f.t.elem.kind])}}
	}
	s := fzShorthandNames[f.t.kind]
	switch {
	case f.optional && g.chance(0.2):
		// A mapping is a JSON Schema, which spells the type names out.
		return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
			yamlScalar("type"), yamlScalar(fzSchemaNames[f.t.kind]), yamlScalar("optional"), yamlScalar("true")}}
	case f.optional:
		s += "?"
	}
	return yamlScalar(s)
}

// schemaNode writes t as a JSON Schema. An optional property is left out
// of required, or is nullable.
func (g *fzGen) schemaNode(t *fzType) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	if g.chance(0.3) {
		m.Style = yaml.FlowStyle
	}
	add := func(k string, v *yaml.Node) { m.Content = append(m.Content, yamlScalar(k), v) }
	add("type", yamlScalar(fzSchemaNames[t.kind]))
	switch t.kind {
	case fzList:
		add("items", g.schemaNode(t.elem))
	case fzMap:
		add("additionalProperties", g.schemaNode(t.elem))
	case fzObject:
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
