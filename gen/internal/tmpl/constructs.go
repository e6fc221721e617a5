package tmpl

import (
	"maps"
	"slices"
)

// generatorFilters are the filters that yield a generator or an iterator
// in Jinja2 (reverse of a list).
var generatorFilters = map[string]bool{"select": true, "reject": true, "selectattr": true, "rejectattr": true,
	"map": true, "unique": true, "reverse": true, "batch": true, "slice": true, "items": true}

// Constructs names the constructs that nodes use, sorted: each statement
// ("statement for", "statement for-else", ...), operator ("operator +",
// "operator unary -"), filter ("filter truncate"), test ("test defined"),
// method ("method strip()") and call ("call range()"), and literals,
// attributes, subscripts, slices, conditional expressions and keyword
// arguments, and generator filters tested for truth or as a conditional's
// arm. The differential fuzzer counts its cases by them.
func Constructs(nodes []Node) []string {
	found := map[string]bool{}
	kwargs := func(kws []Kwarg) {
		if len(kws) > 0 {
			found["keyword arguments"] = true
		}
	}
	// tested notes a generator filter whose truth e tests (Jinja2 finds it
	// true, even empty).
	var tested func(e Expr)
	tested = func(e Expr) {
		switch e := e.(type) {
		case *Binary:
			if e.Op == "and" || e.Op == "or" {
				tested(e.X)
				tested(e.Y)
			}
		case *Filter:
			if generatorFilters[e.Name] {
				found["generator filter tested for truth"] = true
			}
		}
	}
	var macros []*Macro
	Inspect(nodes, func(n Node) {
		switch n := n.(type) {
		case *If:
			found["statement if"] = true
			if len(n.Branches) > 1 {
				found["statement elif"] = true
			}
			for _, b := range n.Branches {
				tested(b.Cond)
			}
		case *For:
			found["statement for"] = true
			if n.Filter != nil {
				tested(n.Filter)
			}
			if len(n.Targets) > 1 {
				found["unpacking into several targets"] = true
			}
			if n.Else != nil {
				found["statement for-else"] = true
			}
		case *Set:
			if len(n.Targets) > 1 {
				found["unpacking into several targets"] = true
			}
			switch {
			case n.NS != nil:
				found["statement set of a namespace attribute"] = true
			case n.Value == nil:
				found["statement set block"] = true
			default:
				found["statement set"] = true
			}
		case *LoopControl:
			found["statement break or continue"] = true
		case *Generation:
			found["statement generation"] = true
		case *FilterBlock:
			found["statement filter"] = true
		case *Macro:
			found["statement macro"] = true
			macros = append(macros, n)
		case *CallBlock:
			found["statement call"] = true
		case *Include:
			found["statement include"] = true
		}
	}, func(e Expr) {
		switch e := e.(type) {
		case *List:
			found["list literal"] = true
		case *Dict:
			found["dict literal"] = true
		case *Tuple:
			found["tuple literal"] = true
		case *Attr:
			found["attribute"] = true
		case *Index:
			found["subscript"] = true
		case *Slice:
			found["slice"] = true
		case *Unary:
			found["operator unary "+e.Op] = true
			if e.Op == "not" {
				tested(e.X)
			}
		case *Binary:
			found["operator "+e.Op] = true
		case *CondExpr:
			found["conditional expression"] = true
			tested(e.Cond)
			for _, arm := range []Expr{e.Then, e.Else} {
				if f, ok := arm.(*Filter); ok && generatorFilters[f.Name] {
					found["generator filter as a conditional's arm"] = true
				}
			}
		case *Filter:
			found["filter "+e.Name] = true
			kwargs(e.Kwargs)
		case *Test:
			found["test "+e.Name] = true
		case *Call:
			switch fn := e.Fn.(type) {
			case *Attr:
				found["method "+fn.Name+"()"] = true
			case *Name:
				found["call "+fn.Name+"()"] = true
			}
			kwargs(e.Kwargs)
		}
	})
	if len(SelfCalling(macros)) > 0 {
		found["macro that calls itself"] = true
	}
	return slices.Sorted(maps.Keys(found))
}

// SelfCalling returns the names of the macros of defs that call
// themselves, directly or through others of defs.
func SelfCalling(defs []*Macro) map[string]bool {
	names := map[string]bool{}
	for _, d := range defs {
		names[d.Name.Name] = true
	}
	calls := map[string][]string{}
	for _, d := range defs {
		Inspect(d.Body, func(Node) {}, func(e Expr) {
			if call, ok := e.(*Call); ok {
				if fn, ok := call.Fn.(*Name); ok && names[fn.Name] {
					calls[d.Name.Name] = append(calls[d.Name.Name], fn.Name)
				}
			}
		})
	}
	out := map[string]bool{}
	for name := range names {
		seen := map[string]bool{}
		stack := slices.Clone(calls[name])
		for len(stack) > 0 {
			callee := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if callee == name {
				out[name] = true
				break
			}
			if !seen[callee] {
				seen[callee] = true
				stack = append(stack, calls[callee]...)
			}
		}
	}
	return out
}
