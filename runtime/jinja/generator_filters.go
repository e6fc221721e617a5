package jinja

// A Gen is the work a generator filter of Jinja2 does on each item it
// pulls: unique(case_sensitive, attribute), map(attribute, default) and
// map of a filter. Jinja2 does it only for the items its consumer pulls
// (first stops at the first one yielded), so a later item that fails
// fails nothing there; Next does it for one item.
type Gen struct {
	filter, name string // "unique", "map" (an attribute), or "mapfilter" and the filter's name
	args         []Value
	path         []Value
	seen         []Value         // unique's keys that are not strings
	strs         map[string]bool // unique's string keys, most keys
	out          Value
}

// NewGen is the generator filter named filter ("unique", "map" of an
// attribute, or "mapfilter": map of the filter name) with its
// arguments, as Filter and MapFilter take them.
func NewGen(filter, name string, args ...Value) *Gen {
	g := &Gen{filter: filter, name: name, args: args}
	switch filter {
	case "unique":
		if a := argAt(args, 1); a.kind == stringKind || a.kind == intKind {
			g.path = attrPath(a.String())
		}
		g.strs = map[string]bool{}
	case "map":
		g.path = attrPath(argAt(args, 0).String())
	}
	return g
}

// Items are the items of x the filter iterates: none of a false value
// for map (Jinja2 maps a false value to nothing), x's items otherwise.
func (g *Gen) Items(x Value) ([]Value, error) {
	if g.filter != "unique" && !x.Truth() {
		return nil, nil
	}
	return x.Iter()
}

// Next does the filter's work on item: whether it yields an item for it
// (unique yields no duplicate), which Item then is, or where Jinja2
// raises, the error.
func (g *Gen) Next(item Value) (bool, error) {
	var err error
	switch g.filter {
	case "map":
		g.out, err = getPathDefault(item, g.path, argAt(g.args, 1))
		return err == nil, err
	case "mapfilter":
		g.out, err = Filter(g.name, item, g.args...)
		return err == nil, err
	}
	k, err := getPath(item, g.path)
	if err != nil {
		return false, err
	}
	if !argAt(g.args, 0).Truth() {
		k = ignoreCase(k)
	}
	if u, ok := unhashable(k); ok {
		return false, errInvalid("unhashable type: '%s'", u.typeName())
	}
	g.out = item
	if s, ok := k.Str(); ok {
		dup := g.strs[s]
		g.strs[s] = true
		return !dup, nil
	}
	for _, o := range g.seen {
		if eq, err := EqualMethods(o, k); eq || err != nil {
			return false, err
		}
	}
	g.seen = append(g.seen, k)
	return true, nil
}

// Item is the item Next yielded last.
func (g *Gen) Item() Value { return g.out }

// all is the list of the items g yields for x's.
func (g *Gen) all(x Value) (Value, error) {
	items, err := g.Items(x)
	if err != nil {
		return Value{}, err
	}
	out := make([]Value, 0, len(items))
	for _, it := range items {
		keep, err := g.Next(it)
		if err != nil {
			return Value{}, err
		}
		if keep {
			out = append(out, g.out)
		}
	}
	return ListValue(out...), nil
}
