package builtins

import (
	"slices"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/ir"
)

// Jinja2's tojson, safe and escape return Markup: a str whose operations escape
// the plain strings they take (+, replace() and strip()'s arguments,
// truncate's end) and whose split() returns Markup strings, which print as
// Markup('...') inside a list, as a Markup element of a list or dict
// literal does. promptgen's strings are plain, so the checker rejects
// those uses of a value that may be Markup; every other operation prints
// the same text.

// Markup tells which values of a checked template may be Markup.
type Markup struct {
	// Transformers is the transformers profile, whose tojson returns a str.
	Transformers bool
	// Safe are the results of the filter safe, and Sets the template's
	// sets with a value: complete before May is asked.
	Safe   map[ir.Expr]bool
	Sets   []*ir.Set
	locals map[*ir.Local]bool
	// Unvalued are the locals that a loop or a block set assigns, which
	// Must does not follow; mustLocals the locals every set of which
	// assigns Markup.
	Unvalued   map[*ir.Local]bool
	mustLocals map[*ir.Local]bool
	// keptLocals are the dynamic locals every set of which Kept.
	keptLocals map[*ir.Local]bool
	// Loops are the template's for loops, whose targets are items of
	// their iterable, and Selects the selects of dynamic values, whose
	// item is one of their operand (both complete before May is asked);
	// holding are the locals that may hold Markup as an item (Holds).
	Loops   []*ir.For
	Selects []*ir.Select
	holding map[*ir.Local]bool
	// deciding are the locals whose sets markupStrings is following,
	// which it finds no strings of where a set reaches one again.
	deciding map[*ir.Local]bool
}

// May reports whether x may be Markup: a tojson, safe or escape result, or what the
// string operations that keep Markup make of one.
func (m *Markup) May(x ir.Expr) bool {
	if m.Safe[x] {
		return true
	}
	switch x := x.(type) {
	case *ir.Call:
		switch {
		case x.Kind == ir.CallFilter && x.Name == "tojson":
			return !m.Transformers // transformers' tojson returns a str
		case x.Kind == ir.CallFilter && x.Name == "default":
			return m.May(x.X) || m.May(x.Args[0])
		case x.Kind == ir.CallFilter && Filters[x.Name].Flags&KeepsMarkup != 0:
			return m.May(x.X)
		case x.Kind == ir.CallMethod:
			return x.T.Kind == ir.KindString && m.May(x.X)
		}
	case *ir.Index:
		return x.T.Kind == ir.KindString && m.May(x.X)
	case *ir.Slice:
		return x.T.Kind == ir.KindString && m.May(x.X)
	case *ir.Binary:
		switch {
		case x.Value:
			for _, l := range Yields(x) {
				if m.May(l) {
					return true
				}
			}
		case x.Op == "+" || x.Op == "*":
			return x.T.Kind == ir.KindString && (m.May(x.X) || m.May(x.Y))
		}
	case *ir.Dynamic:
		return m.dynamic(x, false) || holdsItems(x) && slices.ContainsFunc(x.Args, m.Holds)
	case *ir.Cond:
		return m.May(x.Then) || x.Else != nil && m.May(x.Else)
	case *ir.LocalRef:
		return m.local(x.L)
	case *ir.LoopCycle:
		return slices.ContainsFunc(x.Args, m.May)
	}
	return false
}

// local reports whether a set assigns local l a value that may be
// Markup. It is known once every set is checked.
func (m *Markup) local(l *ir.Local) bool {
	if m.locals == nil {
		m.locals = map[*ir.Local]bool{}
		for changed := true; changed; {
			changed = false
			for _, s := range m.Sets {
				if s.Value != nil && !m.locals[s.Local] && m.May(s.Value) {
					m.locals[s.Local], changed = true, true
				}
			}
			for t, iter := range m.targets {
				if !m.locals[t] && m.Holds(iter) {
					m.locals[t], changed = true, true
				}
			}
		}
	}
	return m.locals[l]
}

// targets yields each local that is an item of an iterable (or a part
// of one), with the iterable: the targets of the loops, and the item a
// select, reject, selectattr or rejectattr of a dynamic value tests.
func (m *Markup) targets(yield func(*ir.Local, ir.Expr) bool) {
	for _, f := range m.Loops {
		for _, l := range append(slices.Clone(f.Unpack), f.Key, f.Value) {
			if l != nil && !yield(l, f.Iter) {
				return
			}
		}
	}
	for _, s := range m.Selects {
		if !yield(s.Item, s.X) {
			return
		}
	}
}

// holdsItems reports whether the dynamic operation x yields items of its
// operands (or the operands), so that it may hold or be Markup where an
// operand holds it; the others (a filter's number among them: int,
// length, ...) yield a str, a number or a bool, or are
// rejected where an operand may hold Markup (ReadsHolder).
func holdsItems(x *ir.Dynamic) bool {
	switch x.Op {
	case ir.DynItem, ir.DynSlice, ir.DynFirst, ir.DynLast, ir.DynList, ir.DynIterator, ir.DynGenIterator, ir.DynTuple, ir.DynDefault, ir.DynUnpacked,
		ir.DynAttr, ir.DynGet, ir.DynItems, ir.DynItemsList, ir.DynValues:
		return true
	case ir.DynFilter:
		return !numberFilter(x.Name)
	case ir.DynArith:
		return x.Name != "%"
	}
	return false
}

// numberFilter reports whether the filter name yields a number it
// counts or converts (of a dynamic value), which holds no item.
func numberFilter(name string) bool {
	return slices.Contains([]string{"int", "float", "length", "count", "wordcount", "sum"}, name)
}

// KeepsItems reports whether the dynamic operation x may yield an item
// of an operand, or the operand, as it is (holdsItems), or a map of
// them: not a number a filter counts or converts.
func KeepsItems(x *ir.Dynamic) bool { return x.Op == ir.DynMapFilter || holdsItems(x) }

// ReadsHolder reports whether the runtime reads the items of a dynamic
// value that holds Markup (jinja.MarkupValue) as Jinja2 does in x: it
// keeps each item as it is (an item, an attribute, get(), items(),
// values(), a slice, first, last, list, the iterator of a generator's
// items made at once (a stored select) or as pulled (a stored unique or
// map, whose links are operations checked on their own), reverse, sort, unique, min, max,
// groupby, map(attribute=), slice, batch, a tuple of it, unpacking, default, + and * of
// sequences, % formatting and str.format, whose %r and !r print
// Markup('...')), yields what it
// yields of plain strings (printing, join, length, ==, in, a test,
// tojson, keys(), int, float), reads Markup as Jinja2 does
// (xmlattr, whose escape leaves it as it is; a map through a filter,
// whose jinja.Filter keeps a Markup item Markup where Jinja2's filter
// does; a str method's result made Markup where its receiver is), or takes the string a str method is called on, whose Markup the
// checker follows (May). Other operations (select) are rejected where
// an operand may hold Markup.
func ReadsHolder(x *ir.Dynamic) bool {
	switch x.Op {
	case ir.DynItem, ir.DynSlice, ir.DynFirst, ir.DynLast, ir.DynList, ir.DynIterator, ir.DynGenIterator, ir.DynTuple, ir.DynDefault, ir.DynUnpacked,
		ir.DynAttr, ir.DynGet, ir.DynItems, ir.DynItemsList, ir.DynKeys, ir.DynValues,
		ir.DynStr, ir.DynAsString, ir.DynJoin, ir.DynLength, ir.DynEqual, ir.DynContains, ir.DynTest, ir.DynToJSON,
		ir.DynMarkup, ir.DynMarkupItems:
		return true
	case ir.DynArith:
		return x.Name == "+" || x.Name == "*" || x.Name == "%"
	case ir.DynFilter:
		return keepsItems(x) || x.Name == "format" || x.Name == "str.format" || x.Name == "xmlattr" || x.Name == "int" || x.Name == "float"
	case ir.DynMapFilter:
		return true
	}
	return false
}

// plainMapFilters are the filters that map applies to the items of a
// dynamic value (DynMapFilters) which return a plain str of Markup, as
// of the plain string: title and replace (str() of it), wordwrap,
// urlencode, striptags and filesizeformat. The others keep Markup where
// Jinja2 does (jinja.Filter), or yield numbers.
var plainMapFilters = map[string]bool{"title": true, "replace": true, "wordwrap": true, "urlencode": true, "striptags": true, "filesizeformat": true}

// keepsItems reports whether x is a filter that yields the items of its
// operand as they are (a holder's Markup items stay Markup): reverse,
// sort, unique, min, max, groupby, whose grouper is the first item's,
// map(attribute=), the items' attributes, dictsort and items, the
// (key, value) tuples of a dict, and slice and batch, lists of the items
// and of the fill (Filled).
func keepsItems(x *ir.Dynamic) bool {
	return x.Op == ir.DynFilter && slices.Contains([]string{"reverse", "reversed", "sort", "unique", "min", "max", "groupby", "map", "dictsort", "items", "slice", "batch"}, x.Name)
}

// Filled reports whether x is slice or batch, whose result holds its
// fill argument (x.Args[2]) as an item.
func Filled(x *ir.Dynamic) bool {
	return x.Op == ir.DynFilter && (x.Name == "slice" || x.Name == "batch")
}

// Holds reports whether x, a dynamic value, may hold Markup as an item
// at any depth: a tuple, list or dict literal with an item that may be
// Markup or hold it, the split() or partition() of Markup
// (ir.DynMarkupItems), what the operations that yield items (holdsItems)
// make of one, and a local set to one or a loop target over one.
func (m *Markup) Holds(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.Dynamic:
		switch x.Op {
		case ir.DynTuple:
			return slices.ContainsFunc(x.Args, m.mayHold)
		case ir.DynMarkupItems:
			return true
		case ir.DynMapFilter:
			// Jinja2's tojson, whose strings are Markup, and a filter
			// that keeps Markup items (or their items) Markup.
			return x.Name == "tojson" || !numberFilter(x.Name) && !plainMapFilters[x.Name] && m.Holds(x.Args[0])
		case ir.DynItem, ir.DynFirst, ir.DynLast:
			if m.markupStrings(x.Args[0]) {
				return false // a string of Markup's split(), which holds no item
			}
		}
		if Filled(x) && m.mayHold(x.Args[2]) {
			return true
		}
		return holdsItems(x) && slices.ContainsFunc(x.Args, m.Holds)
	case *ir.List:
		return slices.ContainsFunc(x.Items, m.mayHold)
	case *ir.Dict:
		return slices.ContainsFunc(x.Values, m.mayHold)
	case *ir.Cond:
		return m.Holds(x.Then) || x.Else != nil && m.Holds(x.Else)
	case *ir.Binary:
		return x.Value && slices.ContainsFunc(Yields(x), m.Holds)
	case *ir.LoopCycle:
		return slices.ContainsFunc(x.Args, m.Holds)
	case *ir.LocalRef:
		return m.holdingLocal(x.L)
	case *ir.Select:
		// Of a dynamic value, the items kept as they are.
		return x.X.Type().Resolve().Kind == ir.KindDynamic && m.Holds(x.X)
	}
	return false
}

// markupStrings reports whether x is Markup's split() or partition()
// (ir.DynMarkupItems), or a condition that calls it in a branch and in
// the other one a method whose items hold no Markup (a plain string's
// split(): markupItemsBranches): the items of x are strings.
// A local every set of which assigns such a value is one too.
func (m *Markup) markupStrings(x ir.Expr) bool {
	if m.deciding != nil {
		// Asked again through Holds of a branch (stringItems): the
		// locals being followed are not taken again.
		return m.stringItems(x, m.deciding)
	}
	m.deciding = map[*ir.Local]bool{}
	defer func() { m.deciding = nil }()
	return m.stringItems(x, m.deciding)
}

// stringItems is markupStrings, with the locals seen so far.
func (m *Markup) stringItems(x ir.Expr, seen map[*ir.Local]bool) bool {
	switch x := x.(type) {
	case *ir.Dynamic:
		return x.Op == ir.DynMarkupItems
	case *ir.Cond:
		strings := func(b ir.Expr) bool { return m.stringItems(b, seen) || !m.Holds(b) }
		return x.Else != nil && strings(x.Then) && strings(x.Else)
	case *ir.LocalRef:
		if seen[x.L] {
			return false
		}
		seen[x.L] = true
		for l := range m.targets {
			if l == x.L {
				return false
			}
		}
		set := false
		for _, s := range m.Sets {
			if s.Local != x.L {
				continue
			}
			if s.Value == nil || !m.stringItems(s.Value, seen) {
				return false
			}
			set = true
		}
		return set
	}
	return false
}

// mayHold reports whether x, an item, may be Markup or hold it.
func (m *Markup) mayHold(x ir.Expr) bool { return m.May(x) || m.Holds(x) }

// holdingLocal reports whether a set assigns local l a value that may
// hold Markup, or l is the target of a loop over one: the smallest such
// set of locals, as one local may be set from another.
func (m *Markup) holdingLocal(l *ir.Local) bool {
	if m.holding == nil {
		m.holding = map[*ir.Local]bool{}
		for changed := true; changed; {
			changed = false
			for _, s := range m.Sets {
				if s.Value != nil && !m.holding[s.Local] && m.Holds(s.Value) {
					m.holding[s.Local], changed = true, true
				}
			}
			for t, iter := range m.targets {
				if !m.holding[t] && m.itemHolds(iter) {
					m.holding[t], changed = true, true
				}
			}
		}
	}
	return m.holding[l]
}

// itemHolds reports whether an item of x, which may hold Markup, may hold
// it in turn: an item of a list literal or tuple that does, none of
// Markup's split() (its strings are Markup), and of another what Holds
// says of x.
func (m *Markup) itemHolds(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.List:
		return slices.ContainsFunc(x.Items, m.Holds)
	case *ir.Dynamic:
		switch x.Op {
		case ir.DynTuple:
			return slices.ContainsFunc(x.Args, m.Holds)
		case ir.DynMarkupItems:
			return false
		}
	}
	return m.Holds(x)
}

// Must reports whether x is Markup wherever it is evaluated: what May
// allows, with every operand that may yield the value Markup.
func (m *Markup) Must(x ir.Expr) bool {
	if m.Safe[x] {
		return true
	}
	switch x := x.(type) {
	case *ir.Call:
		switch {
		case x.Kind == ir.CallFilter && x.Name == "tojson":
			return !m.Transformers
		case x.Kind == ir.CallFilter && x.Name == "default":
			return m.Must(x.X) && m.Must(x.Args[0])
		case x.Kind == ir.CallFilter && Filters[x.Name].Flags&KeepsMarkup != 0:
			return m.Must(x.X)
		case x.Kind == ir.CallMethod:
			return x.T.Kind == ir.KindString && m.Must(x.X)
		}
	case *ir.Index:
		return x.T.Kind == ir.KindString && m.Must(x.X)
	case *ir.Slice:
		return x.T.Kind == ir.KindString && m.Must(x.X)
	case *ir.Binary:
		switch {
		case x.Value:
			return !slices.ContainsFunc(Yields(x), func(l ir.Expr) bool { return !m.Must(l) })
		case x.Op == "+" || x.Op == "*":
			return x.T.Kind == ir.KindString && (m.Must(x.X) || m.Must(x.Y))
		}
	case *ir.Dynamic:
		return m.dynamic(x, true)
	case *ir.Cond:
		return x.Else != nil && m.Must(x.Then) && m.Must(x.Else)
	case *ir.LocalRef:
		return m.mustLocal(x.L)
	case *ir.LoopCycle:
		return !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { return !m.Must(a) })
	}
	return false
}

// mustItems reports whether x is a list literal each item of which is
// Markup (Must), which a dynamic list keeps (the checker's keepMarkup):
// so is any item read from it.
func (m *Markup) mustItems(x ir.Expr) bool {
	l, ok := x.(*ir.List)
	return ok && len(l.Items) > 0 && !slices.ContainsFunc(l.Items, func(it ir.Expr) bool { return !m.Must(it) })
}

// dynamic reports whether x, of dynamic values, is Markup: tojson
// outside the transformers profile, a str method's result where its
// receiver is Markup (DynMarkup with the receiver), escape, a filter that keeps Markup
// and the string of Markup (DynStr, DynAsString, DynStrOperand) that the string
// filters and methods take, a + or * of Markup, which is Markup where it
// does not fail, a slice, an item or the last of Markup, an item of
// Markup's split() (ir.DynMarkupItems), and a default whose value
// and default are Markup (May: either); must tells Must from May.
func (m *Markup) dynamic(x *ir.Dynamic, must bool) bool {
	operand := m.May
	if must {
		operand = m.Must
	}
	switch {
	case x.Op == ir.DynToJSON:
		return !m.Transformers
	case x.Op == ir.DynMarkup:
		return len(x.Args) == 1 || operand(x.Args[1]) // Markup where the receiver is
	case x.Op == ir.DynFilter && (x.Name == "escape" || x.Name == "forceescape"):
		return true
	case x.Op == ir.DynFilter && Filters[x.Name].Flags&KeepsMarkup != 0:
		return operand(x.Args[0])
	case (x.Op == ir.DynStr || x.Op == ir.DynAsString || x.Op == ir.DynStrOperand) && len(x.Args) == 1:
		// str() of Markup as the string filters and str methods take it
		// (soft_str), which keeps it Markup, and Markup as indent and
		// truncate take it.
		return operand(x.Args[0])
	case x.Op == ir.DynArith && (x.Name == "+" || x.Name == "*"):
		return operand(x.Args[0]) || operand(x.Args[1])
	case x.Op == ir.DynItem || x.Op == ir.DynFirst || x.Op == ir.DynLast:
		if d, ok := x.Args[0].(*ir.Dynamic); ok && d.Op == ir.DynMarkupItems || must && m.mustItems(x.Args[0]) {
			return true // each string of Markup's split() is Markup, and each item of such a literal
		}
		return x.Op != ir.DynFirst && operand(x.Args[0]) // of Markup, a str
	case x.Op == ir.DynSlice:
		return operand(x.Args[0]) // of Markup, a str
	case x.Op == ir.DynDefault && must:
		return m.Must(x.Args[0]) && m.Must(x.Args[1])
	case x.Op == ir.DynDefault:
		return m.May(x.Args[0]) || m.May(x.Args[1])
	}
	return false
}

// mustLocal reports whether every set of local l assigns Markup (and l
// is never undefined where read): the largest such set of locals, as one
// local may be set from another.
func (m *Markup) mustLocal(l *ir.Local) bool {
	if m.mustLocals == nil {
		m.mustLocals = map[*ir.Local]bool{}
		for _, s := range m.Sets {
			m.mustLocals[s.Local] = !s.Local.MaybeUndefined && !m.Unvalued[s.Local]
		}
		for changed := true; changed; {
			changed = false
			for _, s := range m.Sets {
				if m.mustLocals[s.Local] && (s.Value == nil || !m.Must(s.Value)) {
					m.mustLocals[s.Local], changed = false, true
				}
			}
		}
	}
	return m.mustLocals[l]
}

// Kept reports whether the dynamic value of x is Markup (jinja.MarkupValue)
// exactly where Jinja2's value is: a value that is never Markup; a typed
// value that is Markup on every render, which the checker converts with
// ir.DynMarkup (KeepMarkup); and a dynamic value that operations keeping
// Markup at run time, a condition or locals make of such values.
func (m *Markup) Kept(x ir.Expr) bool {
	if !m.May(x) {
		return true
	}
	if x.Type().Kind != ir.KindDynamic {
		return m.Must(x)
	}
	switch x := x.(type) {
	case *ir.Dynamic:
		switch {
		case x.Op == ir.DynMarkup && len(x.Args) == 2:
			return m.Kept(x.Args[1]) // Markup where the receiver is
		case x.Op == ir.DynMarkup || x.Op == ir.DynFilter && (x.Name == "escape" || x.Name == "forceescape"):
			return true
		case x.Op == ir.DynFilter && x.Name == "xmlattr":
			return true // a plain str, as Jinja2's, of a dict that may hold Markup
		case x.Op == ir.DynArith && x.Name == "+":
			return m.KeptOperand(x.Args[0]) && m.KeptOperand(x.Args[1])
		case x.Op == ir.DynArith && x.Name == "*", x.Op == ir.DynDefault:
			return m.Kept(x.Args[0]) && m.Kept(x.Args[1])
		case x.Op == ir.DynSlice || x.Op == ir.DynItem || x.Op == ir.DynLast,
			x.Op == ir.DynFilter && Filters[x.Name].Flags&KeepsMarkup != 0:
			return m.Kept(x.Args[0])
		case Filled(x):
			return m.Kept(x.Args[0]) && m.Kept(x.Args[2])
		case x.Op == ir.DynFirst || x.Op == ir.DynList || x.Op == ir.DynIterator || x.Op == ir.DynGenIterator || x.Op == ir.DynUnpacked || keepsItems(x),
			x.Op == ir.DynAttr || x.Op == ir.DynItems || x.Op == ir.DynItemsList || x.Op == ir.DynValues:
			return m.Kept(x.Args[0]) // a string's first is plain; a list's items are as they are
		case x.Op == ir.DynTuple:
			return !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { return !m.KeptOperand(a) })
		case x.Op == ir.DynGet:
			return !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { return a != nil && !m.Kept(a) })
		}
	case *ir.Cond:
		return m.Kept(x.Then) && (x.Else == nil || m.Kept(x.Else))
	case *ir.Binary:
		return x.Value && !slices.ContainsFunc(Yields(x), func(a ir.Expr) bool { return !m.Kept(a) })
	case *ir.LoopCycle:
		return !slices.ContainsFunc(x.Args, func(a ir.Expr) bool { return !m.Kept(a) })
	case *ir.LocalRef:
		return m.keptLocal(x.L)
	}
	return false
}

// KeptOperand reports whether x, an operand of a dynamic + or a tuple item, is Kept or a
// condition or and/or that ByBranch allows, which the checker keeps branch by
// branch there.
func (m *Markup) KeptOperand(x ir.Expr) bool { return m.Kept(x) || m.ByBranch(x) }

// ByBranch reports whether x, an element of a dynamic list or dict
// literal, a tuple item or an operand of a dynamic +, is a condition or
// an and/or yielding an operand, of a string or a dynamic value, that
// is Markup in some renders only, each branch of which (each operand it
// yields) is Kept or such a condition in turn: the checker makes it a
// dynamic value branch by branch, which keeps Markup where Jinja2's
// value is.
func (m *Markup) ByBranch(x ir.Expr) bool {
	var branches []ir.Expr
	switch b := x.(type) {
	case *ir.Cond:
		branches = []ir.Expr{b.Then}
		if b.Else != nil {
			branches = append(branches, b.Else)
		}
	case *ir.Binary:
		if b.Value {
			branches = Yields(b)
		}
	}
	if k := x.Type().Kind; branches == nil || k != ir.KindString && k != ir.KindDynamic || !m.May(x) || m.Must(x) {
		return false
	}
	return !slices.ContainsFunc(branches, func(b ir.Expr) bool { return !m.Kept(b) && !m.ByBranch(b) })
}

// keptLocal reports whether every set of l, a dynamic local, Kept its
// value: the largest such set of locals, as one local may be set from
// another.
func (m *Markup) keptLocal(l *ir.Local) bool {
	if m.keptLocals == nil {
		m.keptLocals = map[*ir.Local]bool{}
		for _, s := range m.Sets {
			m.keptLocals[s.Local] = true
		}
		for t := range m.targets {
			m.keptLocals[t] = true
		}
		for changed := true; changed; {
			changed = false
			for _, s := range m.Sets {
				if m.keptLocals[s.Local] && s.Value != nil && !m.KeptOperand(s.Value) {
					m.keptLocals[s.Local], changed = false, true
				}
			}
			for t, iter := range m.targets {
				if m.keptLocals[t] && !m.Kept(iter) {
					m.keptLocals[t], changed = false, true
				}
			}
		}
	}
	return m.keptLocals[l]
}

// Escaped reports whether Markup would escape the string argument x: it
// does unless x is a constant without a character that escaping changes
// (or an absent argument).
func Escaped(x ir.Expr) bool {
	k, ok := x.(*ir.Const)
	if !ok {
		return true
	}
	s, _ := k.Value.(string)
	return strings.ContainsAny(s, `&<>'"`)
}

// Yields returns the operands that x, an and/or yielding an operand,
// yields: a left operand only where its truth makes it the result, which a
// constant's truth may rule out. The emitters choose among them with the
// same decisions (choose).
func Yields(x ir.Expr) []ir.Expr {
	b, ok := x.(*ir.Binary)
	if !ok || !b.Value {
		return []ir.Expr{x}
	}
	var out []ir.Expr
	ir.BranchOn(b.X, func(leaf ir.Expr, truthy bool) {
		if truthy == (b.Op == "or") {
			out = append(out, leaf)
		} else {
			out = append(out, Yields(b.Y)...)
		}
	})
	return out
}
