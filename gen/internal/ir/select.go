package ir

import "slices"

// Select is X|select(...), reject, selectattr or rejectattr (Name): the
// items of the list X for which Cond, read with Item bound to each, is
// true (false for Reject). Cond is the test the filter names, applied to
// the item or to its attribute.
type Select struct {
	Name string
	X    Expr
	Item *Local
	Cond Expr
	// Args are the test's arguments, which Cond reads too: Jinja2
	// evaluates them once, before the items, so they fail even with none.
	Args   []Expr
	Reject bool
	Pos    string
}

func (x *Select) Type() *Type { return x.X.Type() }

// MapFilter is X|map(filter, args...) with a filter's name: the list of
// Elem, the filter applied to Item, read with Item bound to each item of
// X. Args are the filter's arguments, which Elem reads too: Jinja2
// evaluates them once, before the items, so they fail even with none.
type MapFilter struct {
	X    Expr
	Item *Local
	Elem Expr
	Args []Expr
	T    *Type
}

func (x *MapFilter) Type() *Type { return x.T }

// Pulled is the operand of x where x is a generator whose items a
// consumer pulls one by one, as Jinja2 runs them: select and its kin, map
// of a filter, a typed list's map(attribute=), and a dynamic value's
// unique, map(attribute=) and map of a filter (jinja.Gen). Jinja2 does a generator's work on an item only once
// its consumer pulls it, so first does it up to the first item yielded.
func Pulled(x Expr) (Expr, bool) {
	switch x := x.(type) {
	case *Select:
		return x.X, true
	case *MapFilter:
		return x.X, true
	case *Call:
		if x.Kind == CallFilter && x.Name == "map" {
			return x.X, true
		}
	case *Dynamic:
		if x.Op == DynMapFilter || x.Op == DynFilter && (x.Name == "unique" || x.Name == "map") {
			return x.Args[0], true
		}
	}
	return nil, false
}

// GenLinks returns the source of x, a chain of generator filters of
// dynamic values (unique, map of an attribute or of a filter: jinja.Gen),
// and its links from the innermost out; ok is false where x is no such
// link.
func GenLinks(x Expr) (src Expr, links []*Dynamic, ok bool) {
	for {
		d, link := x.(*Dynamic)
		if !link || d.Op != DynMapFilter && (d.Op != DynFilter || d.Name != "unique" && d.Name != "map") {
			slices.Reverse(links)
			return x, links, len(links) > 0
		}
		links = append(links, d)
		x = d.Args[0]
	}
}

// GenFilter returns what jinja.NewGen takes for x, a link of GenLinks:
// the filter ("unique", "map" of an attribute, or "mapfilter") and the
// name of a map's filter.
func (x *Dynamic) GenFilter() (filter, name string) {
	if x.Op == DynMapFilter {
		return "mapfilter", x.Name
	}
	return x.Name, ""
}
