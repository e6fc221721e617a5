package difffuzz

// The data of a case that is not a chat case: random JSON for its feed
// type, read from the Go the go backend generated.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// jsonType is the type of a feed field, read from the generated Go.
type jsonType struct {
	kind   string // string, int, float64, bool, slice, map, struct or dynamic (a jinja.Value)
	elem   *jsonType
	fields []jsonField
}

type jsonField struct {
	key      string
	t        *jsonType
	optional bool // a pointer, or omitempty
}

// caseData makes random JSON data for run's feed type, as the go backend
// generated it: every value of the right type, optionals sometimes left
// out (never those the template needs set), required strings non-empty,
// numbers as floats, map keys sorted.
func caseData(t *testing.T, run *Trial, r *rand.Rand, off map[string]bool) []byte {
	if run.Case.chat {
		return ChatData(r)
	}
	feed, err := feedType(run.files[0], run.Case.Key)
	if err != nil {
		t.Fatalf("%s: %v\n%s", run.Case.Key, err, run.files[0])
	}
	return feedData(run, feed, r, off)
}

// intendedData makes random JSON data for the variables the generator
// meant run's case to have, for a case promptgen rejects: Jinja2 may
// render it all the same (Summary.renderable).
func intendedData(run *Trial, r *rand.Rand, off map[string]bool) []byte {
	if run.Case.chat {
		return ChatData(r)
	}
	return feedData(run, intendedType(&valueType{kind: kindObject, fields: run.Case.inputs}), r, off)
}

// intendedType is the jsonType of a generated value type.
func intendedType(v *valueType) *jsonType {
	switch v.kind {
	case kindString:
		return &jsonType{kind: "string"}
	case kindInt:
		return &jsonType{kind: "int"}
	case kindFloat:
		return &jsonType{kind: "float64"}
	case kindBool:
		return &jsonType{kind: "bool"}
	case kindList:
		return &jsonType{kind: "slice", elem: intendedType(v.elem)}
	case kindMap:
		return &jsonType{kind: "map", elem: intendedType(v.elem)}
	}
	t := &jsonType{kind: "struct"}
	for _, f := range v.fields {
		t.fields = append(t.fields, jsonField{key: f.name, t: intendedType(f.t), optional: f.optional})
	}
	return t
}

// feedData makes random JSON data of type feed for run.
func feedData(run *Trial, feed *jsonType, r *rand.Rand, off map[string]bool) []byte {
	d := &dataGen{r: r, mustSet: run.Case.mustSet, nulls: !off["json-null"], unicode: !off["unicode-case"], numbers: !off["number-data"]}
	var b bytes.Buffer
	d.value(&b, feed, "")
	return b.Bytes()
}

// feedType reads the feed struct of prompt key from its generated file.
func feedType(src []byte, key string) (*jsonType, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
	if err != nil {
		return nil, err
	}
	structs := map[string]*ast.StructType{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			if ts, ok := spec.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
		}
	}
	var typeOf func(e ast.Expr) (*jsonType, error)
	typeOf = func(e ast.Expr) (*jsonType, error) {
		switch e := e.(type) {
		case *ast.Ident:
			switch e.Name {
			case "string", "int", "float64", "bool":
				return &jsonType{kind: e.Name}, nil
			}
			st, ok := structs[e.Name]
			if !ok {
				return nil, fmt.Errorf("unknown feed type %s", e.Name)
			}
			out := &jsonType{kind: "struct"}
			for _, fld := range st.Fields.List {
				ft, err := typeOf(fld.Type)
				if err != nil {
					return nil, err
				}
				tag := reflect.StructTag(strings.Trim(fld.Tag.Value, "`")).Get("json")
				name, opts, _ := strings.Cut(tag, ",")
				_, ptr := fld.Type.(*ast.StarExpr)
				out.fields = append(out.fields, jsonField{key: name, t: ft, optional: ptr || opts == "omitempty"})
			}
			return out, nil
		case *ast.SelectorExpr:
			if x, ok := e.X.(*ast.Ident); ok && x.Name == "jinja" && e.Sel.Name == "Value" {
				return &jsonType{kind: "dynamic"}, nil // an input used with values of several types
			}
		case *ast.StarExpr:
			return typeOf(e.X)
		case *ast.ArrayType:
			elem, err := typeOf(e.Elt)
			return &jsonType{kind: "slice", elem: elem}, err
		case *ast.MapType:
			elem, err := typeOf(e.Value)
			return &jsonType{kind: "map", elem: elem}, err
		}
		return nil, fmt.Errorf("unknown feed type %T", e)
	}
	name := goName(key)
	return typeOf(ast.NewIdent(name + "Feed"))
}

type dataGen struct {
	r       *rand.Rand
	mustSet map[string]bool
	nulls   bool // write null for some unset optionals
	unicode bool // strings with characters whose case mapping is special
	numbers bool // strings of numbers, floats beyond 2^53 (number-data)
}

// needed reports whether the data at path must be set.
func (d *dataGen) needed(path string) bool {
	for m := range d.mustSet {
		if m == path || strings.HasPrefix(m, path+".") || strings.HasPrefix(m, path+"[]") {
			return true
		}
	}
	return false
}

var (
	dataStrings = []string{"a", "b", "Hello", "hello world", " ", "\n", "é", "'", "\"", "\\", "<i>", "&", "{{ x }}", "%",
		"\t", "x y", "A", "1", "3.5", "-2", "  pad  ", "Zed", "b,c", "a\nb", "ab"}
	unicodeStrings = []string{"ß", "İ", "ǆ", "ﬁ", "Ω", "ΣΑΣ"}
	// Floats stay below 2**63: |int of a larger one fails the render on
	// purpose (a documented divergence).
	dataFloats = []float64{0, 1, -2.5, 0.1, 3.14159, 1e-7, 1e16, 2.5, 0.5, 1.5, 123456.789, 0.30000000000000004, 7, -0.0}
	// numberStrings are strings of numbers in the forms Python's int()
	// and float() read or reject, ints within 64 bits (family number-data;
	// beyond, int fails where Jinja2 prints the big int, on purpose).
	numberStrings = []string{"9007199254740993", "-9007199254740995", " -1_000 ", "+42", "\t7\n", "0x1A", "0_0", "1e3", "12.9",
		"inf", "-Infinity", "nan", "1e400", "-1e-400", "1_000.5", " +.5 ", "1__2", "٣", "9.2e18"}
	// numberFloats are floats beyond 2^53 (still below 2^63) and at the
	// small end of the range (family number-data).
	numberFloats = []float64{9007199254740993, -12345678901234567, 4503599627370497.5, 5e-324, 2.2250738585072014e-308, 1e-300}
)

func (d *dataGen) value(b *bytes.Buffer, t *jsonType, path string) {
	switch t.kind {
	case "dynamic": // any JSON: a scalar of each kind, or a list of them
		kinds := []string{"string", "int", "float64", "bool"}
		if d.r.IntN(4) == 0 {
			d.value(b, &jsonType{kind: "slice", elem: &jsonType{kind: kinds[d.r.IntN(len(kinds))]}}, path)
			return
		}
		d.value(b, &jsonType{kind: kinds[d.r.IntN(len(kinds))]}, path)
	case "string":
		d.str(b, false)
	case "int":
		n := d.r.IntN(21) - 5
		if d.r.IntN(10) == 0 {
			n = d.r.IntN(601) - 300
		}
		b.WriteString(strconv.Itoa(n))
	case "float64":
		f := dataFloats[d.r.IntN(len(dataFloats))]
		switch n := d.r.IntN(12); {
		case n < 4:
			f = float64(d.r.IntN(2001)-1000) / 8
		case n == 4 && d.numbers:
			f = numberFloats[d.r.IntN(len(numberFloats))]
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") { // JSON of a float, as Python reads it back
			s += ".0"
		}
		b.WriteString(s)
	case "bool":
		b.WriteString(strconv.FormatBool(d.r.IntN(2) == 0))
	case "slice":
		b.WriteString("[")
		for i := range d.r.IntN(5) {
			if i > 0 {
				b.WriteString(", ")
			}
			d.value(b, t.elem, path+"[]")
		}
		b.WriteString("]")
	case "map":
		keys := slices.Clone(mapKeys)
		d.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		keys = keys[:d.r.IntN(4)]
		sort.Strings(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q: ", k)
			d.value(b, t.elem, path+"[]")
		}
		b.WriteString("}")
	case "struct":
		b.WriteString("{")
		first := true
		for _, f := range t.fields {
			p := f.key
			if path != "" {
				p = path + "." + f.key
			}
			null := false
			if f.optional && !d.needed(p) && d.r.IntN(3) == 0 {
				if !d.nulls || d.r.IntN(4) != 0 {
					continue
				}
				null = true
			}
			if !first {
				b.WriteString(", ")
			}
			first = false
			fmt.Fprintf(b, "%q: ", f.key)
			switch {
			case null:
				b.WriteString("null")
			case f.t.kind == "string" && !f.optional:
				d.str(b, true)
			default:
				d.value(b, f.t, p)
			}
		}
		b.WriteString("}")
	}
}

// str writes a random JSON string, non-empty when required.
func (d *dataGen) str(b *bytes.Buffer, required bool) {
	var s strings.Builder
	n := d.r.IntN(3)
	if required {
		n++
	}
	if d.numbers && d.r.IntN(10) == 0 { // alone: two would make one longer number
		n = 0
		s.WriteString(numberStrings[d.r.IntN(len(numberStrings))])
	}
	for range n {
		pool := dataStrings
		if d.unicode && d.r.IntN(8) == 0 {
			pool = unicodeStrings
		}
		s.WriteString(pool[d.r.IntN(len(pool))])
	}
	j, err := json.Marshal(s.String())
	if err != nil {
		panic(err)
	}
	b.Write(j)
}
