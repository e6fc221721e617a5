package check

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/idtrack"
	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/src"
	"github.com/promptgen/promptgen/gen/internal/tmpl"
	"github.com/promptgen/promptgen/schema"
)

// Outside template sets, {% include "name" %} names a plain template file
// of the prompts tree, found as a Jinja2 FileSystemLoader whose search
// path is the prompt's folder, then each folder above it up to the tree's
// root, finds it. Jinja2 renders it where it stands, in a frame of its own
// that sees the includer's variables (loop excepted) and whose sets stay
// inside; promptgen checks its body there the same way, so that each
// includer reads what the file reads from its own feed.

// includeFile checks {% include "name" %} of a prompt file or a plain
// template file.
func (c *checker) includeFile(n *tmpl.Include) []ir.Node {
	name, ok := includeName(n)
	if !ok {
		c.errorf(n.Name.Pos(), "include needs a constant string naming a template file")
		return nil
	}
	file, err := c.includableFile(name)
	if err != nil {
		c.errorf(n.Name.Pos(), "%v", err)
		return nil
	}
	chain := append([]string{c.p.Path}, c.macros.including...)
	if slices.Contains(chain, file.Path) {
		c.errorf(n.Name.Pos(), "include cycle: %s -> %s", strings.Join(chain, " -> "), file.Path)
		return nil
	}
	if c.macros.expanded > maxMacroExpansion {
		c.macros.overflowed = true // reported at the outermost include
	}
	if c.macros.overflowed {
		return nil
	}
	t := Parse(c.p, file.Template, file.Map, c.diags) // with the includer's options, as Jinja2's environment has
	if t == nil {
		return nil
	}
	outer, saved := c.scopes[len(c.scopes)-1], c.m
	deferred := len(c.later)
	c.m = &file.Map
	c.macros.including = append(c.macros.including, file.Path)
	c.enter(idtrack.Frame(nil, nil, t.Body), outer.locals, nil) // a template's root frame, whose context holds the includer's names
	inner := c.scopes[len(c.scopes)-1]
	inner.noLoopControl, inner.included = "an included template", true
	for name := range boundNames(t.Body) {
		c.bound[name] = true
	}
	addDictUses(c.dictUses, t.Body)
	includer := c.macros.macroEnv
	c.macros.macroEnv = c.includedMacros(t.Body, &file.Map, includer)
	body := c.nodes(t.Body)
	body = c.leave(append(c.macros.resets, body...))
	c.macros.macroEnv = includer
	c.keepPlace(deferred)
	c.macros.including = c.macros.including[:len(c.macros.including)-1]
	c.m = saved
	if c.macros.expanded > maxMacroExpansion && len(c.macros.including) == 0 && !c.macros.includeOverflow {
		c.macros.overflowed, c.macros.includeOverflow = true, true
		c.errorf(n.Name.Pos(), "the includes and macro calls expand to more than %d template nodes with this include of %q (promptgen copies an included template at each include, and includes in included templates multiply)", maxMacroExpansion, name)
	}
	if c.macros.overflowed {
		return nil
	}
	return body
}

// includedMacros returns the macros of an included template whose body
// is body, located by m, at its start: the macros of includer, the
// template that includes it, defined where the include stands, which
// Jinja2 passes in its context, except those of a name it defines
// (shadowed). Its macros' bodies are checked in the frames around the
// include, whose names it sees, and its root frame.
func (c *checker) includedMacros(body []tmpl.Node, m *src.SourceMap, includer *macroEnv) *macroEnv {
	env := newMacroEnv(body, m)
	env.top, env.includer = slices.Clip(c.scopes), includer
	for name := range includer.names {
		if env.names[name] {
			switch rootStart(body, name) {
			case startsUndefined:
				continue // the file's macro, undefined until defined
			case startsUnknown:
				env.shadowed[name] = true
				continue
			}
			env.shadowed[name] = true // the includer's until the file defines its own
		}
		env.names[name] = true
		if def := includer.defined[name]; def != nil {
			env.defined[name] = def
		}
		if def := includer.maybe[name]; def != nil {
			env.maybe[name] = def
		}
		env.twice[name] = includer.twice[name]
	}
	return env
}

// macroStart is the value that a name an included template defines a
// macro of has where Jinja2's root frame of the template starts, as its
// symbols decide from the first reference to the name at the top level
// (loads and definitions in the bodies of loops, macros and blocks are
// other frames').
type macroStart int

const (
	startsUnknown   macroStart = iota // first referred to in an if or a block, not followed
	startsResolved                    // read first, or defined in loops only: the includer's (the context's)
	startsUndefined                   // defined first: undefined until the definition
)

// rootStart returns how the root frame of an included template whose
// body is body starts name, which it defines a macro of.
func rootStart(body []tmpl.Node, name string) macroStart {
	reads := func(xs ...tmpl.Expr) bool {
		for _, x := range xs {
			if x != nil && readsName([]tmpl.Node{&tmpl.Output{X: x}}, name) {
				return true
			}
		}
		return false
	}
	refers := func(n tmpl.Node) bool {
		found := readsName([]tmpl.Node{n}, name)
		tmpl.Inspect([]tmpl.Node{n}, func(x tmpl.Node) {
			if m, ok := x.(*tmpl.Macro); ok && m.Name.Name == name {
				found = true
			}
		}, func(tmpl.Expr) {})
		return found
	}
	for _, n := range body {
		switch n := n.(type) {
		case *tmpl.Text, *tmpl.Include:
		case *tmpl.Output:
			if reads(n.X) {
				return startsResolved
			}
		case *tmpl.Macro:
			if n.Name.Name == name {
				return startsUndefined
			}
		case *tmpl.For:
			if reads(n.Iter) {
				return startsResolved
			}
		case *tmpl.CallBlock:
			if reads(n.Call) {
				return startsResolved
			}
		case *tmpl.Set:
			if n.Value == nil && refers(n) {
				return startsUnknown
			}
			if reads(n.Value) {
				return startsResolved
			}
		default:
			if refers(n) {
				return startsUnknown
			}
		}
	}
	return startsResolved
}

// includeName returns the name that n includes, a constant string.
func includeName(n *tmpl.Include) (string, bool) {
	k, ok := n.Name.(*tmpl.Const)
	if !ok {
		return "", false
	}
	name, ok := k.Value.(string)
	return name, ok
}

// includable reports whether the prompt checked is a plain template file
// of the prompts tree, which another may include.
func (c *checker) includable() bool {
	return slices.Contains(slices.Collect(maps.Values(c.p.Includable)), c.p)
}

// includableFile returns the plain template file that name refers to from
// the prompt checked.
func (c *checker) includableFile(name string) (*ir.PromptSpec, error) {
	if c.p.Includable == nil {
		return nil, fmt.Errorf("include is supported inside template sets and for plain template files of the prompts tree")
	}
	clean := path.Clean(name)
	if strings.HasPrefix(name, "/") || slices.Contains(strings.Split(name, "/"), "..") || strings.Contains(name, "\\") {
		return nil, fmt.Errorf("include %q leaves the prompts tree (name a template file relative to the prompt's folder)", name)
	}
	var tried []string
	for dir := path.Dir(c.p.Key); ; dir = path.Dir(dir) {
		rel := path.Join(dir, clean)
		if f := c.p.Includable[rel]; f != nil {
			return f, nil
		}
		tried = append(tried, rel)
		if dir == "." {
			break
		}
	}
	var near []string // the names of the files of the prompt's folder and below
	for rel := range c.p.Includable {
		if dir := path.Dir(c.p.Key); dir == "." {
			near = append(near, rel)
		} else if r, ok := strings.CutPrefix(rel, dir+"/"); ok {
			near = append(near, r)
		}
	}
	slices.Sort(near)
	return nil, fmt.Errorf("no template file %q%s (looked for %s; include names a .jinja, .j2, .md or .txt file of the prompts tree)",
		name, schema.DidYouMean(name, near), strings.Join(tried, ", "))
}
