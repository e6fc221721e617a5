// Package bind binds feed types to existing Go struct types: those that
// `goType:` names in inputs, and those of a set's `autobind:` packages
// that a set input declared as a plain object is named after. It loads
// every package a run needs with one packages.Load, from the module of the
// output directory so that the user's own packages resolve, and gives each
// bound type the Go struct's exported fields as promptgen types, so that
// the checker types attribute accesses against the real type. The same
// load binds the Go functions of `filters:` (filter.go).
//
// It imports only ir, src, diag, names, schema (for did-you-mean) and
// go/packages; it must not import gen or any other stage.
package bind

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/schema"
	"golang.org/x/tools/go/packages"
)

// Loader loads the packages of import paths with packages.Load in
// directory dir, with Mode at least.
type Loader func(dir string, paths []string) ([]*packages.Package, error)

// Mode is what binding needs of a package: its name and its types.
const Mode = packages.NeedName | packages.NeedTypes

// PackagesLoader is the Loader of a run: packages.Load under ctx.
func PackagesLoader(ctx context.Context) Loader {
	return func(dir string, paths []string) ([]*packages.Package, error) {
		return packages.Load(&packages.Config{Context: ctx, Dir: dir, Mode: Mode}, paths...)
	}
}

// Run binds the goType inputs of prompts and sets, the autobind inputs of
// sets and the Go filters of both, loading the packages they name with one
// call of load in dir (none when nothing is bound). A package that fails
// to load, or a type it lacks or cannot bind, is an error at the goType or
// autobind entry; the input is then left to inference, so the error is
// not repeated at every use. A filter that cannot be bound is an error at
// its entry, and its uses are not checked further.
func Run(load Loader, dir string, prompts []*ir.PromptSpec, sets []*ir.SetSpec, sink *diag.Sink) {
	var slots []**ir.Type
	var filters []*ir.GoFilter
	for _, p := range prompts {
		slots = goSlots(&p.Inputs, slots)
		filters = append(filters, p.Filters...)
	}
	var candidates []autobindInput
	for _, s := range sets {
		slots = goSlots(&s.Inputs, slots)
		candidates = append(candidates, autobindInputs(s)...)
		filters = append(filters, s.Filters...)
	}
	var paths []string
	for _, s := range slots {
		paths = append(paths, (*s).Go.Path)
	}
	for _, g := range filters {
		paths = append(paths, g.Path)
	}
	for _, s := range sets {
		for _, p := range s.Autobind {
			paths = append(paths, p.Path)
		}
	}
	if len(paths) == 0 {
		return
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	pkgs, err := load(dir, paths)
	b := &binder{sink: sink, pkgs: map[string]*packages.Package{}, done: map[*types.TypeName]*ir.Type{}, active: map[*types.TypeName]bool{}}
	if err != nil {
		b.loadErr = err.Error()
	}
	for _, p := range pkgs {
		b.pkgs[p.PkgPath] = p
	}
	for _, s := range slots {
		b.bindGoType(s)
	}
	for _, s := range sets {
		for _, p := range s.Autobind {
			b.pkg(p.Path, p.Pos) // reports a package that failed to load
		}
	}
	for _, c := range candidates {
		b.autobind(c)
	}
	bound := map[*ir.GoFilter]bool{} // a set's filters are its fragments' too
	for _, g := range filters {
		if !bound[g] {
			bound[g] = true
			b.bindFilter(g)
		}
	}
}

// goSlots appends the places in *t that hold a type named by goType.
// Binds reports whether p's inputs hold a Go type, which the prompts that
// name it share.
func Binds(p *ir.PromptSpec) bool { return len(goSlots(&p.Inputs, nil)) > 0 }

func goSlots(t **ir.Type, slots []**ir.Type) []**ir.Type {
	switch x := *t; {
	case x == nil:
	case x.Go != nil:
		slots = append(slots, t)
	case x.Kind == ir.KindList || x.Kind == ir.KindMap:
		slots = goSlots(&x.Elem, slots)
	case x.Kind == ir.KindStruct:
		for _, f := range x.Fields {
			slots = goSlots(&f.Type, slots)
		}
	}
	return slots
}

// autobindInput is an input of a set that autobind may bind.
type autobindInput struct {
	field *ir.Field
	pkgs  []ir.GoPackage
}

// autobindInputs lists the inputs of s that autobind binds when one of its
// packages has a struct type of their Go name: the variables declared as
// plain objects (`object`, or `type: object` without properties).
func autobindInputs(s *ir.SetSpec) []autobindInput {
	if len(s.Autobind) == 0 || s.Inputs == nil {
		return nil
	}
	var in []autobindInput
	for _, f := range s.Inputs.Fields {
		if t := f.Type; t.Kind == ir.KindStruct && !t.Declared && t.Go == nil && len(t.Fields) == 0 {
			in = append(in, autobindInput{f, s.Autobind})
		}
	}
	return in
}

// binder is the state of one run: the loaded packages and the bound types,
// one per Go type, so that a type bound twice is one type.
type binder struct {
	sink    *diag.Sink
	loadErr string // the error of packages.Load itself, if any
	pkgs    map[string]*packages.Package
	done    map[*types.TypeName]*ir.Type
	active  map[*types.TypeName]bool // being converted: a type that holds itself
}

// pkg returns the loaded package path, or nil after reporting at pos why
// it did not load.
func (b *binder) pkg(path string, pos src.Pos) *packages.Package {
	p := b.pkgs[path]
	switch {
	case b.loadErr != "":
		b.sink.Errorf(pos, "cannot load Go package %q: %s", path, b.loadErr)
	case p == nil:
		// go list failed as a whole: packages.Load keeps its error to itself.
		b.sink.Errorf(pos, "cannot load Go package %q (go list %s, run in the output directory, says why)", path, path)
	case len(p.Errors) > 0:
		b.sink.Errorf(pos, "cannot load Go package %q: %s", path, p.Errors[0].Msg)
	case p.Types == nil:
		b.sink.Errorf(pos, "cannot load Go package %q", path)
	case p.Name == "main":
		b.sink.Errorf(pos, "cannot use Go package %q: it is a main package, which cannot be imported", path)
	default:
		return p
	}
	return nil
}

// bindGoType replaces the type goType names in *slot with the bound type.
func (b *binder) bindGoType(slot **ir.Type) {
	ref := (*slot).Go
	pkg := b.pkg(ref.Path, ref.Pos)
	if pkg == nil {
		unbind(*slot)
		return
	}
	tn, ok := pkg.Types.Scope().Lookup(ref.Name).(*types.TypeName)
	if !ok || !tn.Exported() {
		b.sink.Errorf(ref.Pos, "package %q has no type %q%s", ref.Path, ref.Name, schema.DidYouMean(ref.Name, exportedTypes(pkg.Types)))
		unbind(*slot)
		return
	}
	if why := structType(tn); why != "" {
		b.sink.Errorf(ref.Pos, "cannot bind %s: %s", typeString(tn.Type()), why)
		unbind(*slot)
		return
	}
	*slot = b.convert(tn, ref.Pos)
}

// unbind turns a type that could not be bound into an inferred object.
func unbind(t *ir.Type) {
	t.Go, t.Declared = nil, false
}

// autobind binds input c to the struct type of its Go name in the first of
// its packages that has one.
func (b *binder) autobind(c autobindInput) {
	name := c.field.GoNameOverride
	if name == "" {
		name, _ = names.Exported(c.field.Key)
	}
	for _, p := range c.pkgs {
		pkg := b.pkgs[p.Path]
		if pkg == nil || pkg.Types == nil || len(pkg.Errors) > 0 || b.loadErr != "" || pkg.Name == "main" {
			continue // reported at the autobind entry
		}
		tn, ok := pkg.Types.Scope().Lookup(name).(*types.TypeName)
		if ok && tn.Exported() && structType(tn) == "" {
			c.field.Type = b.convert(tn, p.Pos)
			return
		}
	}
}

// exportedTypes lists the exported type names of pkg, for did-you-mean.
func exportedTypes(pkg *types.Package) []string {
	var out []string
	for _, n := range pkg.Scope().Names() {
		if _, ok := pkg.Scope().Lookup(n).(*types.TypeName); ok && token.IsExported(n) {
			out = append(out, n)
		}
	}
	return out
}

// structType returns why the named type tn cannot be bound, "" when it
// can: it must be a struct type that the generated code can name and that
// encoding/json reads field by field.
func structType(tn *types.TypeName) string {
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	switch {
	case !ok:
		return "it is not a defined type"
	case !tn.Exported():
		return "it is not exported"
	case named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0:
		return "it is a generic type"
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return "it is not a struct type"
	}
	for _, m := range []string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"} {
		if sel := types.NewMethodSet(types.NewPointer(named)).Lookup(nil, m); sel != nil {
			return "it has its own JSON form (" + m + "), not its fields"
		}
	}
	return keysVary(st)
}

// keysVary returns why the keys of struct st's JSON form are not its
// fields' (as promptgen reads them), "" when they are: encoding/json
// promotes the fields of an embedded struct into the struct's own, and
// leaves out a field tagged omitempty when it is 0, "" or false (omitzero:
// its zero value), where promptgen would read the value.
func keysVary(st *types.Struct) string {
	for i := range st.NumFields() {
		v := st.Field(i)
		tag, skip := jsonTag(st.Tag(i))
		if skip {
			continue
		}
		if _, isStruct := deref(v.Type()).Underlying().(*types.Struct); v.Embedded() && isStruct && tag.key == "" {
			return fmt.Sprintf("it embeds %s, whose fields encoding/json puts among its own, which promptgen does not follow (give the field a json name)", typeString(v.Type()))
		}
		if !v.Exported() || nilable(v.Type()) {
			continue // a nil pointer, slice or map is unset
		}
		switch {
		case tag.has("omitzero"):
			return fmt.Sprintf("its field %s (%s) is tagged omitzero: its JSON form leaves the key out when the value is zero, which promptgen does not follow (make it a pointer)", v.Name(), typeString(v.Type()))
		case tag.has("omitempty") && omittable(v.Type()):
			return fmt.Sprintf("its field %s (%s) is tagged omitempty: its JSON form leaves the key out when the value is empty (0, \"\", false), which promptgen does not follow (make it a pointer)", v.Name(), typeString(v.Type()))
		}
	}
	return ""
}

// deref is the type a pointer type points to, else t.
func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// omittable reports whether encoding/json's omitempty leaves out some
// value of a field of non-nilable type t: bools, numbers, strings and
// arrays (never structs).
func omittable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
	case *types.Array:
		return true
	}
	return false
}

// convert returns the bound type of struct type tn; pos is the binding
// that first needs it.
func (b *binder) convert(tn *types.TypeName, pos src.Pos) *ir.Type {
	if t := b.done[tn]; t != nil {
		return t
	}
	pkg := tn.Pkg()
	t := &ir.Type{Kind: ir.KindStruct, Declared: true, Name: pkg.Name() + "." + tn.Name(),
		Go: &ir.GoType{Path: pkg.Path(), Name: tn.Name(), Pkg: pkg.Name(), Pos: pos}}
	b.active[tn] = true
	st := tn.Type().Underlying().(*types.Struct)
	for _, i := range jsonFields(st) {
		v := st.Field(i)
		tag, _ := jsonTag(st.Tag(i))
		key := tag.key
		if key == "" {
			key = v.Name()
		}
		omitted := tag.has("omitempty") || tag.has("omitzero") // nil is unset
		ft, pointer, why := b.fieldType(v.Type(), pos)
		if why == "" && tag.has("string") && quotable(v.Type()) {
			why = `its json tag has the ",string" option: its JSON form is the value written inside a string`
		}
		if why != "" {
			_, isPointer := v.Type().Underlying().(*types.Pointer)
			t.Go.Unreadable = append(t.Go.Unreadable, &ir.UnreadableField{
				Key: key, GoName: v.Name(), GoType: typeString(v.Type()), Why: why,
				Optional: isPointer || omitted && nilable(v.Type()),
			})
			continue
		}
		optional := pointer || omitted && (ft.Kind == ir.KindList || ft.Kind == ir.KindMap)
		t.Fields = append(t.Fields, &ir.Field{Key: key, GoName: v.Name(), Type: ft, Optional: optional, Pos: pos})
	}
	delete(b.active, tn)
	b.done[tn] = t
	return t
}

// readable says which Go types promptgen reads, for errors.
const readable = "promptgen reads string, int, float64, bool, slices, maps with string keys, structs, and pointers to strings, numbers, bools and structs"

// fieldType returns the promptgen type of a field of Go type t, and
// whether it is a pointer (so optional); why is "" or why promptgen cannot
// read it.
func (b *binder) fieldType(t types.Type, pos src.Pos) (ft *ir.Type, pointer bool, why string) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		ft, why = b.valueType(p.Elem(), pos)
		if why == "" && (ft.Kind == ir.KindList || ft.Kind == ir.KindMap) {
			why = "a slice or map is optional when tagged omitempty, not through a pointer"
		}
		return ft, true, why
	}
	ft, why = b.valueType(t, pos)
	return ft, false, why
}

// valueType returns the promptgen type of a value of Go type t, or why
// promptgen cannot read it; pos is the binding that needs it.
func (b *binder) valueType(t types.Type, pos src.Pos) (*ir.Type, string) {
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		switch t.Kind() {
		case types.String:
			return &ir.Type{Kind: ir.KindString}, ""
		case types.Int:
			return &ir.Type{Kind: ir.KindInt}, ""
		case types.Float64:
			return &ir.Type{Kind: ir.KindFloat}, ""
		case types.Bool:
			return &ir.Type{Kind: ir.KindBool}, ""
		}
	case *types.Slice:
		elem, why := b.valueType(t.Elem(), pos)
		if why != "" {
			return nil, why
		}
		return &ir.Type{Kind: ir.KindList, Elem: elem}, ""
	case *types.Map:
		if k, ok := types.Unalias(t.Key()).(*types.Basic); !ok || k.Kind() != types.String {
			return nil, "map keys must be strings"
		}
		elem, why := b.valueType(t.Elem(), pos)
		if why != "" {
			return nil, why
		}
		return &ir.Type{Kind: ir.KindMap, Elem: elem}, ""
	case *types.Named:
		if _, ok := t.Underlying().(*types.Struct); !ok {
			break // a defined string, int, ... type: its values need a conversion
		}
		tn := t.Obj()
		if why := structType(tn); why != "" {
			return nil, why
		}
		if tn.Pkg().Name() == "main" {
			return nil, "it is a type of a main package"
		}
		if b.active[tn] {
			return nil, typeString(t) + " holds itself, and promptgen's types are not recursive"
		}
		return b.convert(tn, pos), ""
	}
	return nil, readable
}

// nilable reports whether a field of Go type t is nil when unset.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
		return true
	}
	return false
}

// jsonFields lists the indexes of the fields of st that are keys of its
// JSON form, as encoding/json decides: exported, not tagged "-", and of
// fields sharing a key, the only one whose json tag names it (none if
// several or none do). keysVary has rejected embedded structs, whose
// fields would be promoted.
func jsonFields(st *types.Struct) []int {
	type entry struct {
		index int
		key   string
		named bool
	}
	var entries []entry
	for i := range st.NumFields() {
		tag, skip := jsonTag(st.Tag(i))
		if skip || !st.Field(i).Exported() {
			continue
		}
		e := entry{index: i, key: tag.key, named: tag.key != ""}
		if !e.named {
			e.key = st.Field(i).Name()
		}
		entries = append(entries, e)
	}
	var out []int
	for _, e := range entries {
		same, named := 0, 0
		for _, o := range entries {
			if o.key == e.key {
				same++
				if o.named {
					named++
				}
			}
		}
		if same == 1 || e.named && named == 1 {
			out = append(out, e.index)
		}
	}
	return out
}

// fieldTag is a field's json tag: its key ("" for the Go name) and its
// options.
type fieldTag struct {
	key  string
	opts []string
}

func (t fieldTag) has(opt string) bool { return slices.Contains(t.opts, opt) }

// jsonTag reads a field's json tag as encoding/json does; skip reports
// "-". A key encoding/json does not accept (a quote, a backslash, ...)
// leaves the Go name.
func jsonTag(tag string) (t fieldTag, skip bool) {
	v, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return fieldTag{}, false
	}
	if v == "-" {
		return fieldTag{}, true
	}
	key, opts, _ := strings.Cut(v, ",")
	if !ir.ValidJSONKey(key) {
		key = ""
	}
	return fieldTag{key: key, opts: strings.Split(opts, ",")}, false
}

// quotable reports whether the ",string" option applies to a field of
// type t: a bool, number or string, or an unnamed pointer to one.
func quotable(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
}

// typeString writes t as Go source in the package that declares it would
// be qualified: "time.Time", "[]*crm.Item".
func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
