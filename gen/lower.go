package gen

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// maybeUndefined reports whether x can be Jinja2's undefined at run time:
// an unset optional, an index out of range, first/last of an empty list.
func maybeUndefined(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.FieldRef:
		return x.Field.Optional
	case *ir.LocalRef:
		return x.L.MaybeUndefined
	case *ir.Index:
		return true
	case *ir.Cond:
		return x.Else == nil || maybeUndefined(x.Then) || maybeUndefined(x.Else)
	case *ir.Binary:
		// An and/or yields one of its operands; a left one only when true,
		// and so defined.
		if !x.Value {
			return false
		}
		maybe := false
		branchOn(x.X, func(leaf ir.Expr, truthy bool) {
			if truthy != (x.Op == "or") {
				maybe = maybe || maybeUndefined(x.Y)
			} else if !truthy {
				maybe = maybe || maybeUndefined(leaf)
			}
		})
		return maybe
	case *ir.Call:
		if x.Kind == ir.CallFilter && x.Name == "truncate" {
			return maybeUndefined(x.X) // Jinja2 returns an undefined operand
		}
		return x.Kind == ir.CallFilter && (x.Name == "first" || x.Name == "last")
	}
	return false
}

// outOfRange returns the position of x when only an index out of range
// can make it undefined: an index, or first or last of a defined list or
// string. A list or dict literal that is stored holds no Undefined: such an
// element fails the render there instead, where the checker rejects other
// elements that may be undefined.
func outOfRange(x ir.Expr) string {
	switch x := x.(type) {
	case *ir.Index:
		return x.Pos
	case *ir.Call:
		if x.Kind == ir.CallFilter && (x.Name == "first" || x.Name == "last") && !maybeUndefined(x.X) {
			return x.Pos
		}
	}
	return ""
}

// checkPrompt parses and checks one prompt and lowers it to IR. It returns
// nil when the prompt has errors. All templates of a prompt (the template,
// the system template, every message's templates) share one feed.
func checkPrompt(p *Prompt, strict bool, diags *diagSink) *irPrompt {
	feed := p.Inputs
	if feed == nil {
		feed = &ir.Type{Kind: ir.KindStruct}
	}
	before := len(diags.list)
	c := &checker{diags: diags, p: p, feed: feed, used: map[*ir.Field]bool{}}
	irp := &irPrompt{Prompt: p, Feed: feed}
	parsed := true
	part := func(t *TemplateSpec) *irPrompt {
		if t == nil {
			return nil
		}
		x := c.part(t.Text, t.Map)
		if x == nil {
			parsed = false
			return nil
		}
		irp.Parts = append(irp.Parts, x)
		return x
	}
	if p.Messages == nil {
		main := c.part(p.Template, p.Map)
		if main == nil {
			return nil
		}
		irp.Body, irp.Locals, irp.NumLocals, irp.StaticSize = main.Body, main.Locals, main.NumLocals, main.StaticSize
		if p.System != nil {
			irp.Messages = append(irp.Messages, &irMessage{Role: "system", Content: part(p.System)})
		}
		irp.Messages = append(irp.Messages, &irMessage{Role: "user", FromRender: true})
	} else {
		irp.IsMessages = true
		for _, m := range p.Messages {
			im := &irMessage{Role: m.Role, Content: part(m.Content), Name: part(m.Name), ToolCallID: part(m.ToolCallID), Data: part(m.Data)}
			for _, tc := range m.ToolCalls {
				im.ToolCalls = append(im.ToolCalls, [3]*irPrompt{part(tc.ID), part(tc.Name), part(tc.Arguments)})
			}
			irp.Messages = append(irp.Messages, im)
		}
	}
	if !parsed {
		return nil
	}
	if strict && p.Inputs == nil {
		diags.errorf(p.Pos, "prompt %q declares no inputs (-strict requires them)", p.Key)
	}
	c.ir = irp
	bodies := append([]*irPrompt{irp}, irp.Parts...)
	if !checkTypeDepth(p, feed, bodies, diags) {
		return nil
	}
	finalize(feed)
	c.checkNoDicts(feed)
	for _, b := range bodies {
		walkIR(b.Body, func(x ir.Expr) { finalize(x.Type()) })
		for _, l := range b.Locals {
			finalize(l.T)
		}
	}
	c.markUndefined()
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
	checkAllowed(p.Variables, feed, c.used, diags)
	if hasErrorsSince(diags, before) {
		return nil
	}
	return irp
}

// part parses and checks one template of the prompt with the checker's
// feed; it returns nil when the template does not parse.
func (c *checker) part(text string, m SourceMap) *irPrompt {
	t, err := tmpl.Parse(text, c.p.Jinja)
	if err != nil {
		if e, ok := err.(*tmpl.Error); ok {
			c.diags.errorf(m.Pos(e.Span.Start), "%s", e.Msg)
		} else {
			c.diags.errorf(c.p.Pos, "%v", err)
		}
		return nil
	}
	x := &irPrompt{Prompt: c.p, Feed: c.feed}
	c.ir, c.m = x, &m
	defer func() { c.m = nil }()
	c.template(t.Body, x)
	x.NumLocals = c.tmp
	return x
}

// checkAllowed reports the feed variables that `variables: allowed` does
// not list, as warnings or, with `unknown: error`, errors.
func checkAllowed(v *VariablesSpec, feed *ir.Type, used map[*ir.Field]bool, diags *diagSink) {
	if v == nil {
		return
	}
	for _, f := range feed.Fields {
		if feed.Declared && !used[f] || slices.Contains(v.Allowed, f.Key) {
			continue
		}
		report := diags.warnf
		if v.Error {
			report = diags.errorf
		}
		report(f.Pos, "variable %q is not in variables.allowed%s", f.Key, schema.DidYouMean(f.Key, v.Allowed))
	}
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
func walkIR(ns []ir.Node, fn func(ir.Expr)) {
	expr := func(x ir.Expr) { walkExpr(x, fn) }
	var nodes func(ns []ir.Node)
	nodes = func(ns []ir.Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *ir.Print:
				expr(n.X)
			case *ir.If:
				for _, b := range n.Branches {
					expr(b.Cond)
					nodes(b.Body)
				}
				nodes(n.Else)
			case *ir.For:
				expr(n.Iter)
				for _, a := range n.Dictsort {
					expr(a)
				}
				expr(n.Filter)
				nodes(n.Body)
				nodes(n.Else)
			case *ir.Set:
				expr(n.Value)
				nodes(n.Body)
			}
		}
	}
	nodes(ns)
}

// walkExpr calls fn for x and every expression inside it, operands first.
func walkExpr(x ir.Expr, fn func(ir.Expr)) {
	if x == nil {
		return
	}
	switch x := x.(type) {
	case *ir.FieldRef:
		walkExpr(x.Of, fn)
	case *ir.List:
		for _, it := range x.Items {
			walkExpr(it, fn)
		}
	case *ir.Dict:
		for _, v := range x.Values {
			walkExpr(v, fn)
		}
	case *ir.DictValue:
		walkExpr(x.Of, fn)
	case *ir.Index:
		walkExpr(x.X, fn)
		walkExpr(x.Index, fn)
	case *ir.Slice:
		walkExpr(x.X, fn)
		walkExpr(x.Lo, fn)
		walkExpr(x.Hi, fn)
		walkExpr(x.Step, fn)
	case *ir.Unary:
		walkExpr(x.X, fn)
	case *ir.Binary:
		walkExpr(x.X, fn)
		walkExpr(x.Y, fn)
	case *ir.Cond:
		walkExpr(x.Then, fn)
		walkExpr(x.Cond, fn)
		walkExpr(x.Else, fn)
	case *ir.Call:
		walkExpr(x.X, fn)
		for _, a := range x.Args {
			walkExpr(a, fn)
		}
	}
	fn(x)
}
