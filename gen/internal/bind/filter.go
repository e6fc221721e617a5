package bind

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
)

// bindFilter binds the Go function of a `filters:` entry: a function of
// its package (not a method, not generic, not variadic) whose parameters,
// the operand's first, and result are of the types a feed can hold, the
// result alone or with an error. Bound types are the goType ones, so a
// function of the user's struct types takes the feed's values as they are.
func (b *binder) bindFilter(g *ir.GoFilter) {
	pkg := b.pkg(g.Path, g.Pos)
	if pkg == nil {
		return
	}
	fn, ok := pkg.Types.Scope().Lookup(g.Func).(*types.Func)
	if !ok || !fn.Exported() {
		b.sink.Errorf(g.Pos, "package %q has no function %q%s", g.Path, g.Func, schema.DidYouMean(g.Func, exportedFuncs(pkg.Types)))
		return
	}
	sig := fn.Type().(*types.Signature)
	g.Pkg = pkg.Name
	g.Signature = "func " + pkg.Name + "." + g.Func + strings.TrimPrefix(types.TypeString(sig, func(p *types.Package) string { return p.Name() }), "func")
	fail := func(why string) { b.sink.Errorf(g.Pos, "cannot use %s as filter %q: %s", g.Signature, g.Name, why) }
	switch res := sig.Results(); {
	case sig.TypeParams().Len() > 0:
		fail("it is generic")
		return
	case sig.Variadic():
		fail("it is variadic (a filter has a fixed number of arguments)")
		return
	case sig.Params().Len() == 0:
		fail("it takes no parameter for the filtered value")
		return
	case res.Len() == 2 && types.Identical(res.At(1).Type(), types.Universe.Lookup("error").Type()):
		g.Fallible = true
	case res.Len() != 1:
		fail("it must return one value, or a value and an error")
		return
	}
	params := make([]*ir.Type, sig.Params().Len())
	for i := range params {
		t, why := b.filterType(sig.Params().At(i).Type(), g.Pos)
		if why != "" {
			fail("parameter " + paramName(sig, i) + ": " + why)
			return
		}
		params[i] = t
	}
	result, why := b.filterType(sig.Results().At(0).Type(), g.Pos)
	if why != "" {
		fail("its result: " + why)
		return
	}
	for i := 1; i < sig.Params().Len(); i++ {
		name := sig.Params().At(i).Name()
		if name == "_" {
			name = ""
		}
		g.ArgNames = append(g.ArgNames, name)
	}
	g.Params, g.Result = params, result
}

// filterType is valueType for a parameter or the result of a Go filter,
// which says which types a filter may take when t is none of them.
func (b *binder) filterType(t types.Type, pos src.Pos) (*ir.Type, string) {
	ft, why := b.valueType(t, pos)
	if why == readable {
		why = "a filter takes and returns string, int, float64, bool, slices, maps with string keys and structs"
	}
	return ft, why
}

// paramName names parameter i of sig in errors: its name, else its number.
func paramName(sig *types.Signature, i int) string {
	v := sig.Params().At(i)
	if v.Name() != "" && v.Name() != "_" {
		return v.Name() + " (" + typeString(v.Type()) + ")"
	}
	return "#" + strconv.Itoa(i+1) + " (" + typeString(v.Type()) + ")"
}

// exportedFuncs lists the exported functions of pkg, for did-you-mean.
func exportedFuncs(pkg *types.Package) []string {
	var out []string
	for _, n := range pkg.Scope().Names() {
		if _, ok := pkg.Scope().Lookup(n).(*types.Func); ok && token.IsExported(n) {
			out = append(out, n)
		}
	}
	return out
}
