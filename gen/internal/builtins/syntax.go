package builtins

import (
	"slices"

	"github.com/promptgen/promptgen/gen/internal/tmpl"
)

// CannotFail reports whether evaluating x never fails in Jinja2: a
// literal, a variable (undefined is a value), a ~ of them, or a list or
// dict literal of them.
func CannotFail(x tmpl.Expr) bool {
	switch x := x.(type) {
	case *tmpl.Const, *tmpl.Name:
		return true
	case *tmpl.Unary:
		_, ok := x.X.(*tmpl.Const)
		return ok && x.Op != "not"
	case *tmpl.Binary:
		return x.Op == "~" && CannotFail(x.X) && CannotFail(x.Y) // str() of anything
	case *tmpl.List:
		return !slices.ContainsFunc(x.Items, func(it tmpl.Expr) bool { return !CannotFail(it) })
	case *tmpl.Dict:
		return !slices.ContainsFunc(x.Values, func(it tmpl.Expr) bool { return !CannotFail(it) })
	}
	return false
}

// IsLiteral reports whether a default is a constant, which Jinja2's
// evaluation in the macro's frame cannot change: a literal scalar, or a
// signed number.
func IsLiteral(d tmpl.Expr) bool {
	if u, ok := d.(*tmpl.Unary); ok && (u.Op == "-" || u.Op == "+") {
		k, ok := u.X.(*tmpl.Const)
		if !ok {
			return false
		}
		switch k.Value.(type) {
		case int64, float64:
			return true
		}
		return false
	}
	_, ok := d.(*tmpl.Const)
	return ok
}

// ModTest is the test even, odd or divisibleby(num) as Jinja2 defines it:
// x % 2 == 0, x % 2 == 1, x % num == 0.
func ModTest(e *tmpl.Test) tmpl.Expr {
	num, rest := tmpl.Expr(&tmpl.Const{Span: e.NameSpan, Value: int64(2)}), int64(0)
	switch e.Name {
	case "odd":
		rest = 1
	case "divisibleby":
		num = e.Args[0]
	}
	mod := &tmpl.Binary{Span: e.Span, Op: "%", X: e.X, Y: num}
	return Negated(e, &tmpl.Binary{Span: e.Span, Op: "==", X: mod, Y: &tmpl.Const{Span: e.NameSpan, Value: rest}})
}

// Negated is x, the condition test e stands for, negated when e is a
// "is not" test.
func Negated(e *tmpl.Test, x tmpl.Expr) tmpl.Expr {
	if e.Not {
		return &tmpl.Unary{Span: e.Span, Op: "not", X: x}
	}
	return x
}

// ComparisonTests are Jinja2's tests that compare, by the operator they
// apply: select('equalto', x) keeps the items == x.
var ComparisonTests = map[string]string{
	"==": "==", "eq": "==", "equalto": "==", "!=": "!=", "ne": "!=",
	"<": "<", "lt": "<", "lessthan": "<", "<=": "<=", "le": "<=",
	">": ">", "gt": ">", "greaterthan": ">", ">=": ">=", "ge": ">=", "in": "in",
}

// SameAs is the test that the test sameas v is: Python's identity, which
// is the value of none, true and false only; "" for any other v.
func SameAs(v tmpl.Expr) string {
	if k, ok := v.(*tmpl.Const); ok {
		switch k.Value {
		case nil:
			return "none"
		case true:
			return "true"
		case false:
			return "false"
		}
	}
	return ""
}

// DictLiteral is dict(k=v, ...), called with keyword arguments only, as
// Jinja2 defines it: the dict literal {'k': v, ...}.
func DictLiteral(e *tmpl.Call) *tmpl.Dict {
	lit := &tmpl.Dict{Span: e.Span}
	for _, kw := range e.Kwargs {
		lit.Keys = append(lit.Keys, &tmpl.Const{Span: kw.NameSpan, Value: kw.Name})
		lit.Values = append(lit.Values, kw.Value)
	}
	return lit
}

// CaptureFilter copies filter chain f, the filter of a {% filter %} block,
// with the name that holds the block's output as its innermost operand,
// positioned at the innermost filter's name: Jinja2 applies the chain to
// the output.
func CaptureFilter(f *tmpl.Filter, captured string) *tmpl.Filter {
	out := *f
	if inner, ok := f.X.(*tmpl.Filter); ok {
		out.X = CaptureFilter(inner, captured)
	} else {
		out.X = &tmpl.Name{Span: f.NameSpan, Name: captured}
	}
	return &out
}

// IsMethodCall says whether e calls the method name without arguments.
func IsMethodCall(e tmpl.Expr, name string) bool {
	call, ok := e.(*tmpl.Call)
	if !ok || len(call.Args) != 0 {
		return false
	}
	a, ok := call.Fn.(*tmpl.Attr)
	return ok && a.Name == name
}
