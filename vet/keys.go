package vet

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/runtime"
	"github.com/promptgen/promptgen/schema"
	"golang.org/x/tools/go/types/typeutil"
)

// setTable is what the promptgen tag of a set type's Manager field holds.
type setTable struct {
	Set         string   `json:"set"`
	Type        string   `json:"type"`
	DefaultName string   `json:"defaultName"`
	Paths       []string `json:"paths"`
	// SystemDefault: one of Paths is "default_template", the set's system
	// default, which the generated lookup finds at the empty path.
	SystemDefault bool `json:"systemDefault"`
	table         *runtime.Table
}

// set returns the table of the set type named n, or nil when n is not one.
func (c *checker) set(n *types.Named) *setTable {
	if t, ok := c.sets[n]; ok {
		return t
	}
	var table *setTable
	if st, ok := n.Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			if tag, ok := reflect.StructTag(st.Tag(i)).Lookup("promptgen"); ok && strings.HasPrefix(tag, "{") {
				table = parseSetTag(tag)
				break
			}
		}
	}
	c.sets[n] = table
	return table
}

// parseSetTag decodes the promptgen tag of a set's Manager field, or
// returns nil when it holds no set.
func parseSetTag(tag string) *setTable {
	var t setTable
	if json.Unmarshal([]byte(tag), &t) != nil || t.Set == "" {
		return nil
	}
	system := -1
	if t.SystemDefault {
		system = slices.Index(t.Paths, "default_template")
	}
	t.table = runtime.MapTable(t.Set, t.Paths, system)
	return &t
}

// resolve resolves key as a new set value does, with opts applied.
func (t *setTable) resolve(key string, opts ...runtime.Option) runtime.Resolution {
	defaults := runtime.Settings{Type: t.Type, DefaultName: t.DefaultName}
	m := runtime.NewManager(t.table, defaults)
	return m.Resolve(key, opts...)
}

// names reports whether key names a template of the set under some
// settings: whether a root space, type and version exist with which it
// resolves at a key step of the chain, rather than to a default. A key
// that names the default itself ("", or the default name) does.
func (t *setTable) names(key string) bool {
	ns, name, namespaced := "", key, false
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		ns, name, namespaced = key[:i], key[i+1:], key[:i] != ""
	}
	if name == "" || name == t.DefaultName {
		return true
	}
	for _, p := range t.Paths {
		dir, last := "", p
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			dir, last = p[:i], p[i+1:]
		}
		version, ok := "", last == name
		if !ok && strings.HasPrefix(last, name+".") {
			version, ok = last[len(name)+1:], true
		}
		if !ok {
			continue
		}
		// Every split of dir into a root space and a type; a namespaced key
		// brings its own type.
		for root, typ := range splits(dir) {
			if namespaced && typ != ns {
				continue
			}
			r := t.resolve(key, runtime.WithRootSpace(root), runtime.WithType(typ), runtime.WithVersion(version))
			if r.Err == nil && r.Path == p && keyLevel(r.Level) {
				return true
			}
		}
	}
	return false
}

// splits yields every (root space, type) that dir joins: ("", dir), and
// (before, after) at each '/'.
func splits(dir string) func(yield func(root, typ string) bool) {
	return func(yield func(root, typ string) bool) {
		if !yield("", dir) {
			return
		}
		for i := range len(dir) {
			if dir[i] == '/' && !yield(dir[:i], dir[i+1:]) {
				return
			}
		}
	}
}

func keyLevel(l runtime.Level) bool {
	switch l {
	case runtime.LevelRootKeyVersion, runtime.LevelRootKey, runtime.LevelKeyVersion, runtime.LevelKey:
		return true
	}
	return false
}

// candidates returns what a key might have meant: the templates' names,
// and for a namespaced key their namespaced forms too.
func (t *setTable) candidates(namespaced bool) []string {
	var out []string
	for _, p := range t.Paths {
		name, _, _ := strings.Cut(p[strings.LastIndexByte(p, '/')+1:], ".")
		dir := ""
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			dir = p[:i]
		}
		if name != t.DefaultName {
			out = append(out, name)
		}
		if namespaced && dir != "" {
			for _, typ := range splits(dir) {
				out = append(out, typ+"/"+name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// settingOptions maps runtime's option constructors to themselves, so that
// the constant options of a call apply as they would at run time.
var settingOptions = map[string]func(string) runtime.Option{
	"WithType":        runtime.WithType,
	"WithRootSpace":   runtime.WithRootSpace,
	"WithVersion":     runtime.WithVersion,
	"WithDefaultName": runtime.WithDefaultName,
}

// setKey checks a call of a set type's method that takes a key.
func (c *checker) setKey(call *ast.CallExpr) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok {
		return
	}
	sig := fn.Signature()
	if sig.Recv() == nil {
		return
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok {
		return
	}
	table := c.set(named)
	if table == nil {
		return
	}
	keyArg := -1
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); p.Name() == "key" && types.Identical(p.Type(), types.Typ[types.String]) {
			keyArg = i
		}
	}
	if keyArg < 0 || keyArg >= len(call.Args) {
		return
	}
	arg := call.Args[keyArg]
	tv := c.pass.TypesInfo.Types[arg]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	key := constant.StringVal(tv.Value)
	if table.names(key) {
		return
	}
	opts, settings := c.callOptions(call, sig), "the set's default settings"
	if len(opts) > 0 {
		settings += " and this call's options"
	}
	outcome := "resolves to no template"
	if r := table.resolve(key, opts...); r.Err == nil {
		outcome = "falls back to " + r.Path
		if r.Level == runtime.LevelSystemDefault {
			outcome = "falls back to the system default (default_template)"
		}
	}
	c.pass.ReportRangef(arg, "key %q names no template of the %s set: with %s it %s%s",
		key, table.Set, settings, outcome, schema.DidYouMean(key, table.candidates(strings.Contains(key, "/"))))
}

// callOptions returns the call's runtime.Option arguments when every one
// is a setting constructor with a constant argument, and nil otherwise.
func (c *checker) callOptions(call *ast.CallExpr, sig *types.Signature) []runtime.Option {
	if !sig.Variadic() || call.Ellipsis.IsValid() || len(call.Args) < sig.Params().Len()-1 {
		return nil // no options, opts..., or the arguments of a call f(g())
	}
	var opts []runtime.Option
	for _, arg := range call.Args[sig.Params().Len()-1:] {
		inner, ok := ast.Unparen(arg).(*ast.CallExpr)
		if !ok || len(inner.Args) != 1 {
			return nil
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, inner).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath || settingOptions[fn.Name()] == nil {
			return nil
		}
		tv := c.pass.TypesInfo.Types[inner.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return nil
		}
		opts = append(opts, settingOptions[fn.Name()](constant.StringVal(tv.Value)))
	}
	return opts
}
