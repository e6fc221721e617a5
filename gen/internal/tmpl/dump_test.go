package tmpl

import (
	"fmt"
	"strconv"
	"strings"
)

// dump renders nodes as compact S-expressions for comparing parse results.
func dump(nodes []Node) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = dumpNode(n)
	}
	return strings.Join(parts, " ")
}

func dumpNode(n Node) string {
	switch n := n.(type) {
	case *Text:
		return "(text " + strconv.Quote(n.Value) + ")"
	case *Output:
		return "(out " + dumpExpr(n.X) + ")"
	case *If:
		s := "(if"
		for _, b := range n.Branches {
			s += " (cond " + dumpExpr(b.Cond) + body(b.Body) + ")"
		}
		if n.Else != nil {
			s += " (else" + body(n.Else) + ")"
		}
		return s + ")"
	case *For:
		s := "(for " + dumpNames(n.Targets) + " " + dumpExpr(n.Iter)
		if n.Filter != nil {
			s += " (filter " + dumpExpr(n.Filter) + ")"
		}
		s += " (body" + body(n.Body) + ")"
		if n.Else != nil {
			s += " (else" + body(n.Else) + ")"
		}
		return s + ")"
	case *Set:
		target := dumpNames(n.Targets)
		if n.NS != nil {
			target = "(. " + n.NS.Name + " " + n.Attr + ")"
		}
		if n.Value != nil {
			return "(set " + target + " " + dumpExpr(n.Value) + ")"
		}
		return "(set " + target + " (body" + body(n.Body) + "))"
	case *Include:
		return "(include " + dumpExpr(n.Name) + ")"
	case *LoopControl:
		if n.Break {
			return "(break)"
		}
		return "(continue)"
	case *Generation:
		return "(generation" + body(n.Body) + ")"
	case *FilterBlock:
		return "(filter " + dumpExpr(n.Filter) + body(n.Body) + ")"
	case *Macro:
		params := make([]string, len(n.Params))
		for i, p := range n.Params {
			params[i] = p.Name
			if n.Defaults[i] != nil {
				params[i] += "=" + dumpExpr(n.Defaults[i])
			}
		}
		return "(macro " + n.Name.Name + " (" + strings.Join(params, " ") + ")" + body(n.Body) + ")"
	case *CallBlock:
		return "(call " + dumpExpr(n.Call) + " " + dump([]Node{n.Caller}) + ")"
	}
	return fmt.Sprintf("?%T", n)
}

func body(nodes []Node) string {
	if len(nodes) == 0 {
		return ""
	}
	return " " + dump(nodes)
}

func dumpNames(names []*Name) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n.Name
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func dumpExpr(x Expr) string {
	switch x := x.(type) {
	case nil:
		return "_"
	case *Name:
		return x.Name
	case *Const:
		return dumpConst(x.Value)
	case *List:
		return "[" + dumpExprs(x.Items) + "]"
	case *Tuple:
		return sexp("tuple", x.Items...)
	case *Dict:
		s := "(dict"
		for i := range x.Keys {
			s += " (" + dumpExpr(x.Keys[i]) + " " + dumpExpr(x.Values[i]) + ")"
		}
		return s + ")"
	case *Attr:
		return "(. " + dumpExpr(x.X) + " " + x.Name + ")"
	case *Index:
		return sexp("[]", x.X, x.Index)
	case *Slice:
		return sexp("[:]", x.X, x.Lo, x.Hi, x.Step)
	case *Unary:
		return sexp(x.Op, x.X)
	case *Binary:
		return sexp(x.Op, x.X, x.Y)
	case *CondExpr:
		return sexp("?:", x.Cond, x.Then, x.Else)
	case *Filter:
		return callSexp("| "+x.Name, append([]Expr{x.X}, x.Args...), x.Kwargs)
	case *Test:
		op := "is"
		if x.Not {
			op = "is-not"
		}
		return sexp(op+" "+x.Name, append([]Expr{x.X}, x.Args...)...)
	case *Call:
		return callSexp("call", append([]Expr{x.Fn}, x.Args...), x.Kwargs)
	}
	return fmt.Sprintf("?%T", x)
}

func dumpConst(v any) string {
	switch v := v.(type) {
	case nil:
		return "none"
	case string:
		return strconv.Quote(v)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	}
	return fmt.Sprint(v)
}

func dumpExprs(xs []Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = dumpExpr(x)
	}
	return strings.Join(parts, " ")
}

func sexp(head string, args ...Expr) string {
	if len(args) == 0 {
		return "(" + head + ")"
	}
	return "(" + head + " " + dumpExprs(args) + ")"
}

func callSexp(head string, args []Expr, kwargs []Kwarg) string {
	s := sexp(head, args...)
	for _, kw := range kwargs {
		s = s[:len(s)-1] + " " + kw.Name + "=" + dumpExpr(kw.Value) + ")"
	}
	return s
}

// walk calls fn with every node, expression and name span under nodes, in
// source order. Names within Attr, Filter, Test and Kwarg are labelled
// "name"; nodes are labelled with their type.
func walk(nodes []Node, fn func(label string, span Span)) {
	w := walker{fn}
	w.nodes(nodes)
}

type walker struct{ fn func(string, Span) }

func (w walker) nodes(nodes []Node) {
	for _, n := range nodes {
		w.node(n)
	}
}

func label(v any) string { return strings.TrimPrefix(fmt.Sprintf("%T", v), "*tmpl.") }

func (w walker) node(n Node) {
	switch n := n.(type) {
	case *Text:
		w.fn("Text", n.Span)
	case *Output:
		w.fn("Output", n.Span)
		w.exprs(n.X)
	case *If:
		w.fn("If", n.Span)
		for _, b := range n.Branches {
			w.exprs(b.Cond)
			w.nodes(b.Body)
		}
		w.nodes(n.Else)
	case *For:
		w.fn("For", n.Span)
		for _, t := range n.Targets {
			w.exprs(t)
		}
		w.exprs(n.Iter, n.Filter)
		w.nodes(n.Body)
		w.nodes(n.Else)
	case *Set:
		w.fn("Set", n.Span)
		for _, t := range n.Targets {
			w.exprs(t)
		}
		if n.NS != nil {
			w.exprs(n.NS)
			w.fn("name", n.AttrSpan)
		}
		w.exprs(n.Value)
		w.nodes(n.Body)
	case *LoopControl:
		w.fn("LoopControl", n.Span)
	case *Generation:
		w.fn("Generation", n.Span)
		w.nodes(n.Body)
	case *FilterBlock:
		w.fn("FilterBlock", n.Span)
		w.exprs(n.Filter)
		w.nodes(n.Body)
	case *Macro:
		w.fn("Macro", n.Span)
		w.exprs(n.Name)
		for i, p := range n.Params {
			w.exprs(p, n.Defaults[i])
		}
		w.nodes(n.Body)
	case *CallBlock:
		w.fn("CallBlock", n.Span)
		w.exprs(n.Call)
		w.nodes([]Node{n.Caller})
	case *Include:
		w.fn("Include", n.Span)
		w.exprs(n.Name)
	}
}

func (w walker) exprs(xs ...Expr) {
	for _, x := range xs {
		if x != nil {
			w.expr(x)
		}
	}
}

func (w walker) kwargs(kwargs []Kwarg) {
	for _, kw := range kwargs {
		w.fn("name", kw.NameSpan)
		w.exprs(kw.Value)
	}
}

func (w walker) expr(x Expr) {
	w.fn(label(x), x.Pos())
	switch x := x.(type) {
	case *List:
		w.exprs(x.Items...)
	case *Tuple:
		w.exprs(x.Items...)
	case *Dict:
		for i := range x.Keys {
			w.exprs(x.Keys[i], x.Values[i])
		}
	case *Attr:
		w.exprs(x.X)
		w.fn("name", x.NameSpan)
	case *Index:
		w.exprs(x.X, x.Index)
	case *Slice:
		w.exprs(x.X, x.Lo, x.Hi, x.Step)
	case *Unary:
		w.exprs(x.X)
	case *Binary:
		w.exprs(x.X, x.Y)
	case *CondExpr:
		w.exprs(x.Then, x.Cond, x.Else)
	case *Filter:
		w.exprs(x.X)
		w.fn("name", x.NameSpan)
		w.exprs(x.Args...)
		w.kwargs(x.Kwargs)
	case *Test:
		w.exprs(x.X)
		w.fn("name", x.NameSpan)
		w.exprs(x.Args...)
	case *Call:
		w.exprs(x.Fn)
		w.exprs(x.Args...)
		w.kwargs(x.Kwargs)
	}
}
