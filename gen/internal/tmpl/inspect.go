package tmpl

// Inspect visits nodes depth first, in source order: node sees each node
// and expr each expression, before their parts. A method call's callee
// (s.strip in s.strip()) is no expression of its own: expr sees the call,
// then the receiver.
func Inspect(nodes []Node, node func(Node), expr func(Expr)) {
	var x func(Expr)
	xs := func(es ...Expr) {
		for _, e := range es {
			if e != nil {
				x(e)
			}
		}
	}
	kwargs := func(kws []Kwarg) {
		for _, kw := range kws {
			xs(kw.Value)
		}
	}
	x = func(e Expr) {
		expr(e)
		switch e := e.(type) {
		case *List:
			xs(e.Items...)
		case *Tuple:
			xs(e.Items...)
		case *Dict:
			xs(e.Keys...)
			xs(e.Values...)
		case *Attr:
			xs(e.X)
		case *Index:
			xs(e.X, e.Index)
		case *Slice:
			xs(e.X, e.Lo, e.Hi, e.Step)
		case *Unary:
			xs(e.X)
		case *Binary:
			xs(e.X, e.Y)
		case *CondExpr:
			xs(e.Then, e.Cond, e.Else)
		case *Filter:
			xs(e.X)
			xs(e.Args...)
			kwargs(e.Kwargs)
		case *Test:
			xs(e.X)
			xs(e.Args...)
		case *Call:
			if fn, ok := e.Fn.(*Attr); ok {
				xs(fn.X)
			} else {
				xs(e.Fn)
			}
			xs(e.Args...)
			kwargs(e.Kwargs)
		}
	}
	var walk func([]Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			node(n)
			switch n := n.(type) {
			case *Output:
				xs(n.X)
			case *If:
				for _, b := range n.Branches {
					xs(b.Cond)
					walk(b.Body)
				}
				walk(n.Else)
			case *For:
				xs(n.Iter, n.Filter)
				walk(n.Body)
				walk(n.Else)
			case *Set:
				xs(n.Value)
				walk(n.Body)
			case *Generation:
				walk(n.Body)
			case *FilterBlock:
				xs(n.Filter)
				walk(n.Body)
			case *Macro:
				xs(n.Defaults...)
				walk(n.Body)
			case *CallBlock:
				xs(n.Call)
				xs(n.Caller.Defaults...)
				walk(n.Caller.Body)
			case *Include:
				xs(n.Name)
			}
		}
	}
	walk(nodes)
}
