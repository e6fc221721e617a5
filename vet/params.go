package vet

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"

	"github.com/promptgen/promptgen/runtime/params"
	"github.com/promptgen/promptgen/schema"
	"golang.org/x/tools/go/types/typeutil"
)

// parameterSetters are runtime's helpers that set one parameter, by the
// parameter they set (a test holds this to what they do).
var parameterSetters = map[string]string{
	"Temperature": "temperature",
	"TopP":        "top_p",
	"MaxTokens":   "max_tokens",
}

// parameter checks a call of runtime.WithParameter or of a helper that
// sets one parameter, when its arguments are constant.
func (c *checker) parameter(call *ast.CallExpr) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath || fn.Signature().Recv() != nil {
		return
	}
	if name, ok := parameterSetters[fn.Name()]; ok && len(call.Args) == 1 {
		p, _ := params.Lookup(name)
		c.parameterValue(p, call.Args[0])
		return
	}
	if fn.Name() != "WithParameter" || len(call.Args) != 2 {
		return
	}
	tv := c.pass.TypesInfo.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	name := constant.StringVal(tv.Value)
	p, ok := params.Lookup(name)
	if !ok {
		c.pass.ReportRangef(call.Args[0], "unknown model parameter %q%s", name, knownHint(name))
		return
	}
	c.parameterValue(p, call.Args[1])
}

// knownHint suggests the known parameter closest to name, or lists them
// all when none is close.
func knownHint(name string) string {
	if hint := schema.DidYouMean(name, params.Names()); hint != "" {
		return hint
	}
	names := params.Names()
	q := make([]byte, 0, 16*len(names))
	for i, n := range names {
		if i > 0 {
			q = append(q, ", "...)
		}
		q = strconv.AppendQuote(q, n)
	}
	return " (known: " + string(q) + ")"
}

// parameterValue checks a constant value for parameter p.
func (c *checker) parameterValue(p params.Param, v ast.Expr) {
	tv := c.pass.TypesInfo.Types[v]
	if tv.IsNil() || tv.Value == nil {
		return // nil removes the parameter; other values are known at run time only
	}
	var val any
	switch tv.Value.Kind() {
	case constant.Int:
		if i, exact := constant.Int64Val(tv.Value); exact {
			val = i
		} else {
			val, _ = constant.Float64Val(tv.Value)
		}
	case constant.Float:
		val, _ = constant.Float64Val(tv.Value)
	case constant.String:
		val = constant.StringVal(tv.Value)
	case constant.Bool:
		val = constant.BoolVal(tv.Value)
	default:
		return
	}
	if err := p.Check(val); err != nil {
		c.pass.ReportRangef(v, "%v", err)
	}
}
