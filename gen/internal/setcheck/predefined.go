package setcheck

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/promptgen/promptgen/gen/internal/ir"
	"github.com/promptgen/promptgen/gen/internal/names"
	"github.com/promptgen/promptgen/schema"
)

// predefined checks the values of predefined_variables against the feed:
// each names a feed field (with a did-you-mean) and has its type. A value
// that fills nothing (null, or the zero value of a field that is not a
// pointer: Render fills only the fields the caller left at their zero
// value, as Merge does) is an error too.
func (sc *setChecker) predefined(feed *ir.Type) {
	var keys []string
	for _, f := range feed.Fields {
		keys = append(keys, f.Key)
	}
	for _, spec := range sc.set.Predefined {
		p := &ir.Predefined{Name: spec.Name, Pos: spec.Pos}
		for _, v := range spec.Values {
			at := "predefined_variables." + spec.Name + "." + v.Key
			f := feed.Field(v.Key)
			if f == nil {
				sc.diags.Errorf(v.Pos, "%s: no variable %q in the set's feed%s", "predefined_variables."+spec.Name, v.Key, schema.DidYouMean(v.Key, keys))
				continue
			}
			if f.Chat {
				sc.diags.Errorf(v.Pos, "%s: %q is the chat context's, which the caller gives: predefined variables fill the template's other variables", "predefined_variables."+spec.Name, v.Key)
				continue
			}
			if val, ok := sc.predefinedValue(v.Value, f.Type, at, !f.Optional || !ir.IsPointerKind(f.Type)); ok {
				p.Values = append(p.Values, ir.PredefinedField{Field: f, Value: val})
			}
		}
		sc.out.Predefined = append(sc.out.Predefined, p)
	}
	sort.Slice(sc.out.Predefined, func(i, j int) bool { return sc.out.Predefined[i].Name < sc.out.Predefined[j].Name })
}

// predefinedValue converts l to a value of type t: a scalar, or a list of
// scalars. zeroUnset is set for a field that is not a pointer, where a
// zero value would fill nothing.
func (sc *setChecker) predefinedValue(l *ir.Literal, t *ir.Type, at string, zeroUnset bool) (any, bool) {
	t = t.Resolve()
	if l.Kind == ir.LiteralBad {
		return nil, false
	}
	if l.Kind == ir.LiteralScalar && l.Value == nil {
		sc.diags.Errorf(l.Pos, "%s: null fills nothing (remove it)", at)
		return nil, false
	}
	switch t.Kind {
	case ir.KindList:
		et := t.Elem.Resolve()
		if !ir.IsScalar(et.Kind) {
			break
		}
		if l.Kind != ir.LiteralList {
			sc.diags.Errorf(l.Pos, "%s: got %s, want a list", at, literalName(l))
			return nil, false
		}
		if len(l.Items) == 0 {
			sc.diags.Errorf(l.Pos, "%s: an empty list fills nothing (remove it)", at)
			return nil, false
		}
		items := make([]any, 0, len(l.Items))
		ok := true
		for i, item := range l.Items {
			v, good := sc.predefinedValue(item, et, fmt.Sprintf("%s[%d]", at, i), false)
			items, ok = append(items, v), ok && good
		}
		return items, ok
	case ir.KindString, ir.KindInt, ir.KindFloat, ir.KindBool:
		v, want := l.Value, ""
		switch x := v.(type) {
		case string:
			if t.Kind != ir.KindString {
				want = describeKind(t.Kind)
			}
		case int64:
			switch t.Kind {
			case ir.KindFloat:
				v = float64(x)
			case ir.KindInt:
			default:
				want = describeKind(t.Kind)
			}
		case float64:
			if t.Kind != ir.KindFloat {
				want = describeKind(t.Kind)
			}
		case bool:
			if t.Kind != ir.KindBool {
				want = describeKind(t.Kind)
			}
		}
		if l.Kind != ir.LiteralScalar {
			want = describeKind(t.Kind)
		}
		if want != "" {
			sc.diags.Errorf(l.Pos, "%s: got %s, want %s", at, literalName(l), want)
			return nil, false
		}
		if zeroUnset && (v == "" || v == int64(0) || v == 0.0 || v == false) {
			sc.diags.Errorf(l.Pos, "%s: %s is the zero value, which fills nothing (remove it)", at, literalText(v))
			return nil, false
		}
		return v, true
	}
	sc.diags.Errorf(l.Pos, "%s: the variable is %s; predefined values are strings, numbers, booleans or lists of them", at, names.Article(t.String()))
	return nil, false
}

// describeKind names what a value of a scalar kind must be.
func describeKind(k ir.Kind) string {
	switch k {
	case ir.KindString:
		return "a string"
	case ir.KindInt:
		return "an integer"
	case ir.KindFloat:
		return "a number"
	}
	return "true or false"
}

// literalName names what l is, in messages.
func literalName(l *ir.Literal) string {
	switch l.Kind {
	case ir.LiteralList:
		return "a list"
	case ir.LiteralMapping:
		return "a mapping"
	}
	switch l.Value.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	}
	return "a bool"
}

// literalText shows a zero value as YAML would.
func literalText(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}
