package gen

import (
	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// maybeUndefined reports whether x can be Jinja2's undefined at run time:
// an unset optional, an index out of range, first/last of an empty list.
func maybeUndefined(x irExpr) bool {
	switch x := x.(type) {
	case *irField:
		return x.Field.Optional
	case *irLocalRef:
		return x.L.MaybeUndefined
	case *irIndex:
		return true
	case *irCond:
		return x.Else == nil || maybeUndefined(x.Then) || maybeUndefined(x.Else)
	case *irBinary:
		// A value-producing and/or yields one of its operands.
		isLogic := x.Op == "and" || x.Op == "or"
		return isLogic && x.T.resolve().Kind != KindBool && (maybeUndefined(x.X) || maybeUndefined(x.Y))
	case *irCall:
		return x.Kind == callFilter && (x.Name == "first" || x.Name == "last")
	}
	return false
}

// checkPrompt parses and checks one prompt and lowers it to IR. It returns
// nil when the prompt has errors.
func checkPrompt(p *Prompt, strict bool, diags *diagSink) *irPrompt {
	t, err := tmpl.Parse(p.Template, p.Jinja)
	if err != nil {
		if e, ok := err.(*tmpl.Error); ok {
			diags.errorf(p.Map.Pos(e.Span.Start), "%s", e.Msg)
		} else {
			diags.errorf(p.Pos, "%v", err)
		}
		return nil
	}
	if strict && p.Inputs == nil {
		diags.errorf(p.Pos, "prompt %q declares no inputs (-strict requires them)", p.Key)
	}
	feed := p.Inputs
	if feed == nil {
		feed = &Type{Kind: KindStruct}
	}
	before := len(diags.list)
	c := &checker{diags: diags, p: p, feed: feed, used: map[*Field]bool{}}
	c.ir = &irPrompt{Prompt: p, Feed: feed}
	c.scopes = []*scope{{names: map[string]*irLocal{}, locals: &c.ir.Locals}}
	c.ir.Body = c.nodes(t.Body)
	c.ir.NumLocals = c.tmp
	finalize(feed)
	c.checkNoDicts(feed)
	walkIR(c.ir.Body, func(x irExpr) { finalize(x.typ()) })
	for _, l := range c.ir.Locals {
		finalize(l.T)
	}
	for _, f := range c.later {
		f()
	}
	if feed.Declared {
		for _, f := range feed.Fields {
			if !c.used[f] {
				diags.warnf(f.Pos, "input %q is declared but not used by the template", f.Key)
			}
		}
	}
	if hasErrorsSince(diags, before) {
		return nil
	}
	return c.ir
}

func hasErrorsSince(diags *diagSink, n int) bool {
	for _, d := range diags.list[n:] {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// walkIR calls fn for every expression in ns, operands first.
func walkIR(ns []irNode, fn func(irExpr)) {
	expr := func(x irExpr) { walkExpr(x, fn) }
	var nodes func(ns []irNode)
	nodes = func(ns []irNode) {
		for _, n := range ns {
			switch n := n.(type) {
			case *irPrint:
				expr(n.X)
			case *irIf:
				for _, b := range n.Branches {
					expr(b.Cond)
					nodes(b.Body)
				}
				nodes(n.Else)
			case *irFor:
				expr(n.Iter)
				expr(n.Filter)
				nodes(n.Body)
				nodes(n.Else)
			case *irSet:
				expr(n.Value)
				nodes(n.Body)
			}
		}
	}
	nodes(ns)
}

// walkExpr calls fn for x and every expression inside it, operands first.
func walkExpr(x irExpr, fn func(irExpr)) {
	if x == nil {
		return
	}
	switch x := x.(type) {
	case *irField:
		walkExpr(x.Of, fn)
	case *irList:
		for _, it := range x.Items {
			walkExpr(it, fn)
		}
	case *irDict:
		for _, v := range x.Values {
			walkExpr(v, fn)
		}
	case *irDictValue:
		walkExpr(x.Of, fn)
	case *irIndex:
		walkExpr(x.X, fn)
		walkExpr(x.Index, fn)
	case *irSlice:
		walkExpr(x.X, fn)
		walkExpr(x.Lo, fn)
		walkExpr(x.Hi, fn)
		walkExpr(x.Step, fn)
	case *irUnary:
		walkExpr(x.X, fn)
	case *irBinary:
		walkExpr(x.X, fn)
		walkExpr(x.Y, fn)
	case *irCond:
		walkExpr(x.Then, fn)
		walkExpr(x.Cond, fn)
		walkExpr(x.Else, fn)
	case *irCall:
		walkExpr(x.X, fn)
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	}
	fn(x)
}
