package vet

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// A literal of a feed type is reported only where nothing else can set its
// fields: passed to a call, used as an operand, or stored in a local
// variable whose missing fields are never assigned and whose address never
// escapes. A literal that is returned, sent, stored elsewhere or ranged
// over may be completed by other code, so it is left alone.

// fieldProblem is one required field of a literal that is unset or zero.
type fieldProblem struct {
	field *types.Var
	value ast.Expr // the constant zero value; nil when the field is left out
}

// literal checks one composite literal.
func (c *checker) literal(cur inspector.Cursor, lit *ast.CompositeLit) {
	t := c.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok { // an elided &T in []*T{{...}}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	problems := c.requiredProblems(st, lit)
	if len(problems) == 0 {
		return
	}
	root, path := literalRoot(c.pass.TypesInfo, cur)
	var unsetBy func(field string) bool
	switch root.ParentEdgeKind() {
	case edge.CallExpr_Args:
		if isAddr(root.Node()) {
			return // the callee may fill it in
		}
	case edge.SelectorExpr_X:
		if sel := c.pass.TypesInfo.Selections[root.Parent().Node().(*ast.SelectorExpr)]; sel != nil && (pointerMethod(sel) || validates(sel)) {
			return
		}
	case edge.AssignStmt_Rhs, edge.ValueSpec_Values:
		v := c.assignedLocal(root)
		if v == nil {
			return // stored where other code may complete it
		}
		uses := c.localUses(root, v)
		unsetBy = func(field string) bool { return !uses.mayChange(append(path, field)) }
	case edge.ReturnStmt_Results, edge.SendStmt_Value, edge.RangeStmt_X:
		return
	}
	var missing []string
	for _, p := range problems {
		if unsetBy != nil && !unsetBy(p.field.Name()) {
			continue
		}
		if p.value == nil {
			missing = append(missing, p.field.Name())
			continue
		}
		c.pass.ReportRangef(p.value, "required field %s of %s is set to %s, which Render reports as missing",
			p.field.Name(), c.typeString(t), zeroText(c.pass.TypesInfo, p.value))
	}
	switch len(missing) {
	case 0:
	case 1:
		c.pass.ReportRangef(lit, "%s literal leaves required field %s unset", c.typeString(t), missing[0])
	default:
		c.pass.ReportRangef(lit, "%s literal leaves required fields %s unset", c.typeString(t), strings.Join(missing, ", "))
	}
}

// requiredProblems returns the required fields of st that lit leaves out
// or sets to a constant zero value that means unset.
func (c *checker) requiredProblems(st *types.Struct, lit *ast.CompositeLit) []fieldProblem {
	values := map[string]ast.Expr{}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				values[id.Name] = kv.Value
			}
		} else if i < st.NumFields() {
			values[st.Field(i).Name()] = elt
		}
	}
	var problems []fieldProblem
	for i := range st.NumFields() {
		f := st.Field(i)
		if reflect.StructTag(st.Tag(i)).Get("promptgen") != "required" {
			continue
		}
		v, ok := values[f.Name()]
		switch {
		case !ok && zeroIsMissing(f.Type()):
			problems = append(problems, fieldProblem{field: f})
		case unsetValue(c.pass.TypesInfo, f.Type(), v):
			problems = append(problems, fieldProblem{field: f, value: v})
		}
	}
	return problems
}

// zeroIsMissing reports whether the zero value of a required field of type
// t is missing to Render and Validate: an empty string, a nil list or map,
// or a struct with such a required field. Numbers, bools and other
// structs are always set.
func zeroIsMissing(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice, *types.Map:
		return true
	case *types.Struct:
		for i := range u.NumFields() {
			if reflect.StructTag(u.Tag(i)).Get("promptgen") == "required" && zeroIsMissing(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// unsetValue reports whether v is a constant that a required field of type
// t holds only when unset: "" for a string, nil for a list or map. Zero
// numbers and false are values a template prints, so they are not.
func unsetValue(info *types.Info, t types.Type, v ast.Expr) bool {
	tv, ok := info.Types[v]
	if !ok {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return tv.IsNil()
	case *types.Basic:
		return tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
	}
	return false
}

func zeroText(info *types.Info, v ast.Expr) string {
	if info.Types[v].IsNil() {
		return "nil"
	}
	return `""`
}

// literalRoot walks up from a literal through parentheses, &, and the
// composite literals it is an element of, to the outermost expression. It
// returns that expression's cursor and the path from it to the literal: a
// field name per struct level, "*" per element of a list, array or map.
func literalRoot(info *types.Info, cur inspector.Cursor) (inspector.Cursor, []string) {
	var path []string
	for {
		k, i := cur.ParentEdge()
		switch k {
		case edge.ParenExpr_X:
		case edge.UnaryExpr_X:
			if cur.Parent().Node().(*ast.UnaryExpr).Op != token.AND {
				return cur, reversed(path)
			}
		case edge.KeyValueExpr_Value:
			kv := cur.Parent().Node().(*ast.KeyValueExpr)
			outer := cur.Parent().Parent()
			lit, ok := outer.Node().(*ast.CompositeLit)
			if !ok {
				return cur, reversed(path)
			}
			path = append(path, elementName(info, lit, kv.Key, -1))
			cur = outer
			continue
		case edge.CompositeLit_Elts:
			path = append(path, elementName(info, cur.Parent().Node().(*ast.CompositeLit), nil, i))
		default:
			return cur, reversed(path)
		}
		cur = cur.Parent()
	}
}

// elementName names an element of lit in a path: the field name (by key,
// or by position i) in a struct literal, "*" in any other.
func elementName(info *types.Info, lit *ast.CompositeLit, key ast.Expr, i int) string {
	t := info.TypeOf(lit)
	if t == nil {
		return "*"
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "*"
	}
	if id, ok := key.(*ast.Ident); ok {
		return id.Name
	}
	if i >= 0 && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return "*"
}

func reversed(s []string) []string {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}

func isAddr(n ast.Node) bool {
	for {
		switch x := n.(type) {
		case *ast.ParenExpr:
			n = x.X
		case *ast.UnaryExpr:
			return x.Op == token.AND
		default:
			return false
		}
	}
}

// pointerMethod reports whether sel selects a method with a pointer
// receiver, which may change its operand.
func pointerMethod(sel *types.Selection) bool {
	if sel.Kind() != types.MethodVal {
		return false
	}
	recv := sel.Obj().(*types.Func).Signature().Recv()
	if recv == nil {
		return true // an interface method: anything may happen
	}
	_, ptr := recv.Type().(*types.Pointer)
	return ptr
}

// validates reports whether sel selects a feed's generated Validate method:
// code that calls it checks for unset fields at run time, on purpose.
func validates(sel *types.Selection) bool {
	return sel.Kind() == types.MethodVal && sel.Obj().Name() == "Validate" && hasRequired(sel.Recv())
}

// hasRequired reports whether t, or what it points to, is a struct with a
// field tagged promptgen:"required".
func hasRequired(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if reflect.StructTag(st.Tag(i)).Get("promptgen") == "required" {
			return true
		}
	}
	return false
}

// assignedLocal returns the local variable that the expression at root is
// assigned to or declares, or nil when it goes anywhere else.
func (c *checker) assignedLocal(root inspector.Cursor) *types.Var {
	var lhs ast.Expr
	i := root.ParentEdgeIndex()
	switch p := root.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return nil
		}
		lhs = p.Lhs[i]
	case *ast.ValueSpec:
		if len(p.Names) != len(p.Values) {
			return nil
		}
		lhs = p.Names[i]
	}
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
		return nil // blank, or a package-level variable
	}
	return v
}

// uses holds the paths below a local variable that its uses may change: a
// field assigned, or a part whose address is taken, that is passed by
// reference, or that is copied out (and may come back changed).
type uses struct{ changed [][]string }

// mayChange reports whether a use may change what path names.
func (u uses) mayChange(path []string) bool {
	for _, p := range u.changed {
		n := min(len(p), len(path))
		if slicesEqual(p[:n], path[:n]) {
			return true
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// localUses collects what the uses of v in its scope may change.
func (c *checker) localUses(from inspector.Cursor, v *types.Var) uses {
	var u uses
	scope := from
	for cur := range from.Enclosing((*ast.FuncDecl)(nil), (*ast.File)(nil)) {
		scope = cur
		break
	}
	for cur := range scope.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if c.pass.TypesInfo.Uses[id] != v {
			continue
		}
		if path, ok := c.changedBy(cur); ok {
			u.changed = append(u.changed, path)
		}
	}
	return u
}

// changedBy returns the path below a use of a variable that the use may
// change, and false when it only reads it (or rebinds the whole variable,
// which leaves the value assigned before it alone).
func (c *checker) changedBy(cur inspector.Cursor) ([]string, bool) {
	info := c.pass.TypesInfo
	var path []string
	deref := false // the use goes through a pointer, so assigning it writes the value
	for {
		switch cur.ParentEdgeKind() {
		case edge.ParenExpr_X:
			cur = cur.Parent()
			continue
		case edge.StarExpr_X:
			deref = true
			cur = cur.Parent()
			continue
		case edge.IndexExpr_X:
			path = append(path, "*")
			cur = cur.Parent()
			continue
		case edge.SelectorExpr_X:
			sel := info.Selections[cur.Parent().Node().(*ast.SelectorExpr)]
			if sel == nil {
				return nil, false
			}
			if validates(sel) {
				return nil, true // checked at run time: the empty path covers every field
			}
			if sel.Kind() != types.FieldVal {
				return path, pointerMethod(sel)
			}
			path = append(path, fieldPath(sel)...)
			cur = cur.Parent()
			continue
		case edge.AssignStmt_Lhs, edge.IncDecStmt_X, edge.RangeStmt_Key, edge.RangeStmt_Value:
			return path, len(path) > 0 || deref
		case edge.UnaryExpr_X:
			return path, cur.Parent().Node().(*ast.UnaryExpr).Op == token.AND
		case edge.CallExpr_Args:
			return path, byReference(info.TypeOf(cur.Node().(ast.Expr)))
		case edge.AssignStmt_Rhs, edge.ValueSpec_Values, edge.ReturnStmt_Results, edge.SendStmt_Value,
			edge.CompositeLit_Elts, edge.KeyValueExpr_Value:
			return path, true
		}
		return nil, false
	}
}

// fieldPath names the fields a field selection goes through, embedded
// ones included.
func fieldPath(sel *types.Selection) []string {
	var names []string
	t := sel.Recv()
	for _, i := range sel.Index() {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			break
		}
		f := st.Field(i)
		names = append(names, f.Name())
		t = f.Type()
	}
	return names
}

// byReference reports whether a value of type t passed to a function lets
// the function change what it refers to.
func byReference(t types.Type) bool {
	if t == nil {
		return true
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Basic, *types.Array:
		return false
	}
	return true
}
