package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/builtins"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/gen/internal/types"
)

// Printf-style formatting, Python's format % args: the filter format and
// the operator % of a string. The backends have runtime/jinja.Printf do
// it on dynamic values, typed operands converted, so that every flag,
// conversion and error is CPython's; the result is a string.

// formatFilter checks x|format(args...), str(x) % args, or
// x|format(key=value...), str(x) % {key: value...}.
func (c *checker) formatFilter(e *tmpl.Filter) ir.Expr {
	if len(e.Args) > 0 && len(e.Kwargs) > 0 {
		// Jinja2 raises FilterArgumentError.
		c.errorf(e.Span, "filter format takes positional or keyword arguments, not both")
		return c.reject()
	}
	x := c.expr(e.X, usePrint)
	if c.rejected[x] {
		return c.reject()
	}
	c.checkMarkup(x, e.Span, "format of", "which escapes its arguments ("+toPlain+")")
	c.formatOperand(x, e.Span)
	if len(e.Kwargs) > 0 {
		d := &tmpl.Dict{Span: e.Span}
		for _, kw := range e.Kwargs {
			d.Keys = append(d.Keys, &tmpl.Const{Span: kw.NameSpan, Value: kw.Name})
			d.Values = append(d.Values, kw.Value)
		}
		if x.Type().Kind != ir.KindString {
			x = &ir.Dynamic{Op: ir.DynStr, Args: []ir.Expr{x}, T: &ir.Type{Kind: ir.KindString}, Pos: c.posString(e.X.Pos())}
		}
		args := c.expr(d, useValue).(*ir.Dict)
		_, byKey, _ := printfKinds(x)
		for i, v := range args.Values {
			// A tojson or safe result is reported as the dict's element.
			c.formatOperand(v, e.Span)
			hintKind(v.Type(), byKey[e.Kwargs[i].Name])
		}
		return c.printfOp(x, args, e.Span)
	}
	kinds, _, noRepr := printfKinds(x)
	args := []ir.Expr{x}
	for i, a := range e.Args {
		v := c.expr(a, useValue)
		c.formatOperand(v, e.Span)
		if !noRepr {
			c.formatArg(v, e.Span, "%r")
		}
		if i < len(kinds) {
			hintKind(v.Type(), kinds[i])
		}
		args = append(args, v)
	}
	out := &ir.Dynamic{Op: ir.DynFilter, Name: "format", Args: args, T: ir.DynamicType(), Pos: c.posString(e.Span)}
	return c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, e.Span, out)
}

// printf checks format % args, format a string: Python's printf-style
// formatting, whose result is a string.
func (c *checker) printf(format, args ir.Expr, sp tmpl.Span) ir.Expr {
	c.checkMarkup(format, sp, "% on", "which escapes its arguments ("+toPlain+")")
	c.formatOperand(format, sp)
	c.formatOperand(args, sp)
	kinds, byKey, noRepr := printfKinds(format)
	if !noRepr {
		c.formatArg(args, sp, "%r")
	}
	if d, ok := args.(*ir.Dict); ok {
		for _, f := range d.T.Fields {
			hintKind(f.Type, byKey[f.Key])
		}
	} else if len(kinds) == 1 {
		hintKind(args.Type(), kinds[0])
	}
	return c.printfOp(format, args, sp)
}

// printfOp is format % args, its operands checked.
func (c *checker) printfOp(format, args ir.Expr, sp tmpl.Span) ir.Expr {
	out := &ir.Dynamic{Op: ir.DynArith, Name: "%", Args: []ir.Expr{format, args}, T: ir.DynamicType(), Pos: c.posString(sp)}
	return c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, sp, out)
}

// formatArg checks a value that string formatting converts, with a
// format that may have repr, %r or %a (!r or !a of str.format): a tojson
// or safe result is Markup, whose repr prints as Markup('...'), which the
// conversion to a dynamic value keeps (keepMarkup) where it is Markup on
// every render; one that is Markup in some renders only is rejected (a
// typed local is checked again as a dynamic value first, rebindMarkup).
func (c *checker) formatArg(x ir.Expr, sp tmpl.Span, repr string) {
	c.later = append(c.later, func() {
		if c.markup(x) && !c.markups.KeptOperand(x) {
			c.rebindMarkup(x)
			c.errorf(sp, "formatting a value that may or may not be a tojson or safe result is not supported: Jinja2 keeps it as Markup, whose %s prints as Markup('...'), and promptgen keeps it only where it is always Markup (%s)", repr, toPlain)
		}
	})
}

// formatOperand checks an operand of printf-style formatting, which the
// backends convert to a dynamic value: an object or map has none.
func (c *checker) formatOperand(x ir.Expr, sp tmpl.Span) {
	hint(x.Type(), usePrint)
	c.later = append(c.later, func() {
		if !types.OperandConverts(x.Type()) && !c.failedAt(sp) {
			c.errorf(sp, "string formatting of this value (%s) is not supported (only strings, numbers, bools, none, objects, maps, and lists and dicts of them)", x.Type())
		}
	})
}

// modTest is the test even, odd or divisibleby (builtins.ModTest): its %
// is of numbers, not string formatting, which Jinja2 would apply to a
// string (the test of '%d' then compares the string with 0).
func (c *checker) modTest(e *tmpl.Test) tmpl.Expr {
	t := builtins.ModTest(e)
	eq := t
	if u, ok := t.(*tmpl.Unary); ok {
		eq = u.X
	}
	if c.modTests == nil {
		c.modTests = map[*tmpl.Binary]bool{}
	}
	c.modTests[eq.(*tmpl.Binary).X.(*tmpl.Binary)] = true
	return t
}

// isPrintf reports whether e, a % of operands x, formats the string x.
func (c *checker) isPrintf(e *tmpl.Binary, x ir.Expr) bool {
	return e.Op == "%" && x.Type().Kind == ir.KindString && !c.modTests[e]
}

// printfKinds returns the kinds of the values that the conversions of x,
// a constant format, take, in order and by key (ints for d, i, u, x, X,
// o and c, floats for e, f and g, any for s, r and a): a variable used
// only there is inferred so; and noRepr, whether none of them is r or a,
// so that a Markup value prints as its text. It returns nothing for
// another format.
func printfKinds(x ir.Expr) (kinds []ir.Kind, byKey map[string]ir.Kind, noRepr bool) {
	k, ok := x.(*ir.Const)
	if !ok {
		return nil, nil, false
	}
	format, ok := k.Value.(string)
	if !ok {
		return nil, nil, false
	}
	noRepr = true
	byKey = map[string]ir.Kind{}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		if i++; i < len(format) && format[i] == '%' {
			continue
		}
		key := ""
		if i < len(format) && format[i] == '(' {
			end := strings.IndexByte(format[i:], ')')
			if end < 0 {
				return nil, nil, false
			}
			key, i = format[i+1:i+end], i+end+1
		}
		for i < len(format) && strings.IndexByte("-+ #0123456789.hlL", format[i]) >= 0 {
			i++
		}
		if i >= len(format) || format[i] == '*' {
			return nil, nil, false // a width from the values, or an error the render reports
		}
		noRepr = noRepr && format[i] != 'r' && format[i] != 'a'
		kind := ir.KindUnknown
		switch format[i] {
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c':
			kind = ir.KindInt
		case 'e', 'E', 'f', 'F', 'g', 'G':
			kind = ir.KindFloat
		}
		if key != "" {
			byKey[key] = kind
		}
		kinds = append(kinds, kind)
	}
	return kinds, byKey, noRepr
}

// hintKind makes k the kind a value of type t, unknown so far, defaults to.
func hintKind(t *ir.Type, k ir.Kind) {
	if t = t.Resolve(); t.Kind == ir.KindUnknown && k != ir.KindUnknown {
		t.Hint = k
	}
}

// strFormatCall checks x.format(args..., key=value...), Python's
// str.format, which the backends have runtime/jinja.StrFormat do on
// dynamic values, typed operands converted; the result is a string.
func (c *checker) strFormatCall(e *tmpl.Call, fn *tmpl.Attr) ir.Expr {
	x := c.expr(fn.X, usePrint)
	if c.rejected[x] {
		return c.reject()
	}
	if isDynamic(x) {
		x = c.dyn(ir.DynAsString, "", &ir.Type{Kind: ir.KindString}, fn.Span, x)
	}
	var args []ir.Expr
	for _, a := range e.Args {
		args = append(args, c.expr(a, useValue))
	}
	d := &tmpl.Dict{Span: e.Span}
	for _, kw := range e.Kwargs {
		d.Keys = append(d.Keys, &tmpl.Const{Span: kw.NameSpan, Value: kw.Name})
		d.Values = append(d.Values, kw.Value)
	}
	kwargs := c.expr(d, useValue).(*ir.Dict)
	if k := x.Type().Resolve().Kind; k != ir.KindString && k != ir.KindUnknown {
		msg := fmt.Sprintf("format() needs a string, not %s (Jinja2 raises UndefinedError: %s has no such method)", x.Type(), ir.A(k))
		return c.failsWhereRuns(fn.NameSpan, "UndefinedError", msg, append([]ir.Expr{x}, append(args, kwargs)...)...)
	}
	c.constrain(x.Type(), ir.KindString, fn.X.Pos())
	c.checkMarkup(x, e.Span, "format() of", "which escapes its arguments ("+toPlain+")")
	byIndex, byKey := strFormatKinds(x, func(field string) {
		c.errorf(e.Span, "a format field reading an attribute or an index ({%s}) is not supported (Jinja2's sandbox reads it as its getattr and getitem): pass the value itself", field)
	})
	// Markup prints as its text but where !r or !a converts it.
	noRepr := false
	if k, ok := x.(*ir.Const); ok && isConstString(k) {
		format := k.Value.(string)
		noRepr = !strings.Contains(format, "!r") && !strings.Contains(format, "!a")
	}
	for i, a := range append(args, kwargs.Values...) {
		c.formatOperand(a, e.Span)
		if !noRepr {
			c.formatArg(a, e.Span, "!r")
		}
		if i < len(args) {
			hintKind(a.Type(), byIndex[i])
		} else {
			hintKind(a.Type(), byKey[e.Kwargs[i-len(args)].Name])
		}
	}
	out := &ir.Dynamic{Op: ir.DynFilter, Name: "str.format", Args: append([]ir.Expr{x, kwargs}, args...), T: ir.DynamicType(), Pos: c.posString(e.Span)}
	return c.dyn(ir.DynStr, "", &ir.Type{Kind: ir.KindString}, e.Span, out)
}

// strFormatKinds returns the kinds of the values that the fields of x, a
// constant str.format format, take by position and by key, where their
// spec's type says (ints for d, n, b, o, x, X and c, floats for e, f, g
// and %; an int where it groups digits), and calls unsupported with each field that reads an attribute
// or an index. It returns nothing for another format.
func strFormatKinds(x ir.Expr, unsupported func(field string)) (byIndex map[int]ir.Kind, byKey map[string]ir.Kind) {
	k, ok := x.(*ir.Const)
	if !ok {
		return nil, nil
	}
	format, ok := k.Value.(string)
	if !ok {
		return nil, nil
	}
	byIndex, byKey = map[int]ir.Kind{}, map[string]ir.Kind{}
	auto := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '{' {
			continue
		}
		if strings.HasPrefix(format[i:], "{{") {
			i++
			continue
		}
		end := strings.IndexByte(format[i:], '}')
		if end < 0 {
			return byIndex, byKey // an error the render reports
		}
		field := format[i+1 : i+end]
		i += end
		name, spec := field, ""
		if j := strings.IndexAny(field, "!:"); j >= 0 {
			name = field[:j]
			if field[j] == ':' {
				spec = field[j+1:]
			}
		}
		if strings.ContainsAny(name, ".[") {
			unsupported(field)
			continue
		}
		kind := ir.KindUnknown
		if spec != "" && !strings.ContainsAny(field[:len(field)-len(spec)], "!") {
			switch spec[len(spec)-1] {
			case 'd', 'n', 'b', 'o', 'x', 'X', 'c':
				kind = ir.KindInt
			case 'e', 'E', 'f', 'F', 'g', 'G', '%':
				kind = ir.KindFloat
			default:
				if strings.ContainsAny(spec, ",_") { // grouping: a number
					kind = ir.KindInt
				}
			}
		}
		switch n, err := strconv.Atoi(name); {
		case name == "":
			byIndex[auto] = kind
			auto++
		case err == nil:
			byIndex[n] = kind
		default:
			byKey[name] = kind
		}
	}
	return byIndex, byKey
}
