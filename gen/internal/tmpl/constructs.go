package tmpl

import (
	"maps"
	"slices"
)

// Constructs names the constructs that nodes use, sorted: each statement
// ("statement for", "statement for-else", ...), operator ("operator +",
// "operator unary -"), filter ("filter truncate"), test ("test defined"),
// method ("method strip()") and call ("call range()"), and literals,
// attributes, subscripts, slices, conditional expressions and keyword
// arguments. The differential fuzzer counts its cases by them.
func Constructs(nodes []Node) []string {
	found := map[string]bool{}
	addConstructs(found, nodes)
	return slices.Sorted(maps.Keys(found))
}

func addConstructs(found map[string]bool, nodes []Node) {
	var expr func(e Expr)
	exprs := func(es ...Expr) {
		for _, e := range es {
			if e != nil {
				expr(e)
			}
		}
	}
	kwargs := func(kws []Kwarg) {
		for _, kw := range kws {
			found["keyword arguments"] = true
			expr(kw.Value)
		}
	}
	expr = func(e Expr) {
		switch e := e.(type) {
		case *List:
			found["list literal"] = true
			exprs(e.Items...)
		case *Tuple:
			exprs(e.Items...)
		case *Dict:
			found["dict literal"] = true
			exprs(e.Keys...)
			exprs(e.Values...)
		case *Attr:
			found["attribute"] = true
			expr(e.X)
		case *Index:
			found["subscript"] = true
			exprs(e.X, e.Index)
		case *Slice:
			found["slice"] = true
			exprs(e.X, e.Lo, e.Hi, e.Step)
		case *Unary:
			found["operator unary "+e.Op] = true
			expr(e.X)
		case *Binary:
			found["operator "+e.Op] = true
			exprs(e.X, e.Y)
		case *CondExpr:
			found["conditional expression"] = true
			exprs(e.Then, e.Cond, e.Else)
		case *Filter:
			found["filter "+e.Name] = true
			exprs(e.X)
			exprs(e.Args...)
			kwargs(e.Kwargs)
		case *Test:
			found["test "+e.Name] = true
			exprs(e.X)
			exprs(e.Args...)
		case *Call:
			switch fn := e.Fn.(type) {
			case *Attr:
				found["method "+fn.Name+"()"] = true
				expr(fn.X)
			case *Name:
				found["call "+fn.Name+"()"] = true
			default:
				expr(fn)
			}
			exprs(e.Args...)
			kwargs(e.Kwargs)
		}
	}
	for _, n := range nodes {
		switch n := n.(type) {
		case *Output:
			expr(n.X)
		case *If:
			found["statement if"] = true
			if len(n.Branches) > 1 {
				found["statement elif"] = true
			}
			for _, b := range n.Branches {
				expr(b.Cond)
				addConstructs(found, b.Body)
			}
			addConstructs(found, n.Else)
		case *For:
			found["statement for"] = true
			if n.Else != nil {
				found["statement for-else"] = true
			}
			exprs(n.Iter, n.Filter)
			addConstructs(found, n.Body)
			addConstructs(found, n.Else)
		case *Set:
			switch {
			case n.NS != nil:
				found["statement set of a namespace attribute"] = true
			case n.Value == nil:
				found["statement set block"] = true
			default:
				found["statement set"] = true
			}
			exprs(n.Value)
			addConstructs(found, n.Body)
		case *LoopControl:
			found["statement break or continue"] = true
		case *Generation:
			found["statement generation"] = true
			addConstructs(found, n.Body)
		case *FilterBlock:
			found["statement filter"] = true
			expr(n.Filter)
			addConstructs(found, n.Body)
		case *Macro:
			found["statement macro"] = true
			exprs(n.Defaults...)
			addConstructs(found, n.Body)
		case *Include:
			found["statement include"] = true
		}
	}
}
