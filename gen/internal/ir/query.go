package ir

import "strings"

// Queries on the IR that the checker and both backends share.

// MaybeUndefined reports whether x can be Jinja2's undefined at run time:
// an unset optional, an index out of range, first/last of an empty list.
func MaybeUndefined(x Expr) bool {
	if x.Type().Kind == KindDynamic {
		return false // a dynamic value holds its undefined itself
	}
	switch x := x.(type) {
	case *FieldRef:
		return x.Field.Optional
	case *LocalRef:
		return x.L.MaybeUndefined
	case *Index:
		return true
	case *LoopAttr:
		return IsLoopNeighbour(x)
	case *Cond:
		return x.Else == nil || !x.KeyTested && MaybeUndefined(x.Then) || MaybeUndefined(x.Else)
	case *Binary:
		// An and/or yields one of its operands; a left one only when true,
		// and so defined.
		if !x.Value {
			return false
		}
		maybe := false
		BranchOn(x.X, func(leaf Expr, truthy bool) {
			if truthy != (x.Op == "or") {
				maybe = maybe || MaybeUndefined(x.Y)
			} else if !truthy {
				maybe = maybe || MaybeUndefined(leaf)
			}
		})
		return maybe
	case *Call:
		if x.Kind == CallFilter && x.Name == "truncate" {
			return MaybeUndefined(x.X) // Jinja2 returns an undefined operand
		}
		return x.Kind == CallFilter && (x.Name == "first" || x.Name == "last")
	}
	return false
}

// OutOfRange returns the position of x when only an index out of range
// can make it undefined: an index of a list or string (not a map's key),
// or first or last of a defined list or string. A typed list or dict
// literal that is stored holds no Undefined: such an element fails the
// render there instead, where other elements that may be undefined make
// the literal a dynamic value, which holds it.
func OutOfRange(x Expr) string {
	switch x := x.(type) {
	case *Index:
		if x.X.Type().Resolve().Kind == KindMap {
			return "" // a key the map lacks, as an unset optional field
		}
		return x.Pos
	case *Call:
		if x.Kind == CallFilter && (x.Name == "first" || x.Name == "last") && !MaybeUndefined(x.X) {
			return x.Pos
		}
	}
	return ""
}

// BranchOn calls decide for each operand that x can yield, with the truth
// it has where it decides x: both truths, unless it is a constant.
func BranchOn(x Expr, decide func(leaf Expr, truthy bool)) {
	if b, ok := x.(*Binary); ok && b.Value {
		BranchOn(b.X, func(leaf Expr, truthy bool) {
			if truthy == (b.Op == "or") {
				decide(leaf, truthy)
			} else {
				BranchOn(b.Y, decide)
			}
		})
		return
	}
	if k, ok := x.(*Const); ok {
		decide(x, ConstTruth(k))
		return
	}
	decide(x, true)
	decide(x, false)
}

// ConstTruth is Python's truthiness of a constant.
func ConstTruth(k *Const) bool {
	switch v := k.Value.(type) {
	case string:
		return v != ""
	case int64:
		return v != 0
	case float64:
		return v != 0
	case bool:
		return v
	}
	return false
}

// Walk calls fn for every expression in ns, operands first.
func Walk(ns []Node, fn func(Expr)) {
	expr := func(x Expr) { WalkExpr(x, fn) }
	var nodes func(ns []Node)
	nodes = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Print:
				expr(n.X)
			case *If:
				for _, b := range n.Branches {
					expr(b.Cond)
					nodes(b.Body)
				}
				nodes(n.Else)
			case *For:
				expr(n.Iter)
				for _, a := range n.Dictsort {
					expr(a)
				}
				expr(n.Filter)
				nodes(n.Body)
				nodes(n.Else)
			case *Set:
				expr(n.Value)
				nodes(n.Body)
			case *Raise:
				expr(n.Msg)
			}
		}
	}
	nodes(ns)
}

// WalkTargets calls fn for the loop targets and set targets of the
// statements of ns, nested ones too (not those of macro call bodies in
// their expressions).
func WalkTargets(ns []Node, fn func(*Local)) {
	for _, n := range ns {
		switch n := n.(type) {
		case *If:
			for _, b := range n.Branches {
				WalkTargets(b.Body, fn)
			}
			WalkTargets(n.Else, fn)
		case *For:
			for _, l := range append([]*Local{n.Key, n.Value}, append(n.Unpack, n.Locals...)...) {
				if l != nil {
					fn(l)
				}
			}
			WalkTargets(n.Body, fn)
			WalkTargets(n.Else, fn)
		case *Set:
			fn(n.Local)
			WalkTargets(n.Body, fn)
		}
	}
}

// WalkExpr calls fn for x and every expression inside it, operands first.
func WalkExpr(x Expr, fn func(Expr)) {
	if x == nil {
		return
	}
	switch x := x.(type) {
	case *FieldRef:
		WalkExpr(x.Of, fn)
	case *List:
		for _, it := range x.Items {
			WalkExpr(it, fn)
		}
	case *Dict:
		for _, v := range x.Values {
			WalkExpr(v, fn)
		}
	case *DictValue:
		WalkExpr(x.Of, fn)
	case *Index:
		WalkExpr(x.X, fn)
		WalkExpr(x.Index, fn)
	case *Slice:
		WalkExpr(x.X, fn)
		WalkExpr(x.Lo, fn)
		WalkExpr(x.Hi, fn)
		WalkExpr(x.Step, fn)
	case *Unary:
		WalkExpr(x.X, fn)
	case *Strict:
		WalkExpr(x.X, fn)
	case *Binary:
		WalkExpr(x.X, fn)
		WalkExpr(x.Y, fn)
	case *Cond:
		WalkExpr(x.Then, fn)
		WalkExpr(x.Cond, fn)
		WalkExpr(x.Else, fn)
	case *Call:
		WalkExpr(x.X, fn)
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *Dynamic:
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *Strftime:
		WalkExpr(x.Format, fn)
	case *Capture:
		WalkExpr(x.Defined, fn)
		Walk(x.Body, fn)
	case *CallFunc: // not into the function, which WalkFuncs walks once
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
		if x.Caller != nil { // a closure of the call's place
			Walk(x.Caller.Body, fn)
		}
	case *Select:
		WalkExpr(x.X, fn)
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
		WalkExpr(x.Cond, fn)
	case *MapFilter:
		WalkExpr(x.X, fn)
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
		WalkExpr(x.Elem, fn)
	case *LoopCycle:
		for _, a := range x.Args {
			WalkExpr(a, fn)
		}
	case *Range:
		WalkExpr(x.Start, fn)
		WalkExpr(x.Stop, fn)
		WalkExpr(x.Step, fn)
	}
	fn(x)
}

// VarPath names a field access for errors: "customer.name".
func VarPath(x Expr) string {
	switch x := x.(type) {
	case *FieldRef:
		if x.Of == nil {
			return x.Field.Key
		}
		return VarPath(x.Of) + "." + x.Field.Key
	case *LocalRef:
		return x.L.Name
	case *Strict:
		return VarPath(x.X)
	}
	return ""
}

// isFeedPath reports whether x reads a field of the feed through fields
// only (f.a.b): a value no statement of the render assigns.
func isFeedPath(x *FieldRef) bool {
	for x.Of != nil {
		of, ok := x.Of.(*FieldRef)
		if !ok {
			return false
		}
		x = of
	}
	return true
}

// DefinedWhenTrue calls fn for each read of the feed's fields (isFeedPath)
// that x, true, shows defined, an object before its field: Jinja2's
// undefined is false, and what x and y, true, or x is defined read is
// defined. The emitters do not test those again where x holds.
func DefinedWhenTrue(x Expr, fn func(*FieldRef)) {
	switch x := x.(type) {
	case *FieldRef:
		if !isFeedPath(x) {
			return
		}
		if x.Of != nil {
			DefinedWhenTrue(x.Of, fn)
		}
		fn(x)
	case *Binary:
		if x.Op == "and" {
			DefinedWhenTrue(x.X, fn)
			DefinedWhenTrue(x.Y, fn)
		}
	case *Call:
		if x.Kind == CallTest && x.Name == "defined" && !x.Not {
			DefinedWhenTrue(x.X, fn)
		}
	}
}

// IsInline reports whether x is a literal printed where it stands.
func IsInline(x Expr) bool {
	switch x := x.(type) {
	case *List:
		return x.Inline
	case *Dict:
		return x.Inline
	}
	return false
}

// AttrPath is an attribute= path as written: "customer.name".
func AttrPath(path []*Field) string {
	keys := make([]string, len(path))
	for i, f := range path {
		keys[i] = f.Key
	}
	return strings.Join(keys, ".")
}

// LiveList is the local whose list a Live loop iterates.
func LiveList(n *For) *Local { return Unstrict(n.Iter).(*LocalRef).L }

// Unstrict is x without the Strict around it.
func Unstrict(x Expr) Expr {
	if s, ok := x.(*Strict); ok {
		return Unstrict(s.X)
	}
	return x
}
