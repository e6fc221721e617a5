package ir

// Param is a filter, test or method parameter. A nil Def with Required
// unset means "absent" (Python's None default).
type Param struct {
	Name     string
	Def      any
	Required bool
	Kind     Kind // a method argument's kind where Def does not give it
}

// FilterParams are the parameters of each supported filter, in order: the
// Args of a Call to a filter follow them.
var FilterParams = map[string][]Param{
	"default":    {{Name: "default_value", Def: ""}, {Name: "boolean", Def: false}},
	"upper":      nil,
	"lower":      nil,
	"title":      nil,
	"capitalize": nil,
	"trim":       {{Name: "chars"}},
	"join":       {{Name: "d", Def: ""}, {Name: "attribute"}},
	"length":     nil,
	"tojson":     {{Name: "indent"}},
	"replace":    {{Name: "old", Required: true}, {Name: "new", Required: true}, {Name: "count"}},
	"first":      nil,
	"last":       nil,
	"int":        {{Name: "default", Def: int64(0)}, {Name: "base", Def: int64(10)}},
	"float":      {{Name: "default", Def: 0.0}},
	"string":     nil,
	"round":      {{Name: "precision", Def: int64(0)}, {Name: "method", Def: "common"}},
	"indent":     {{Name: "width", Def: int64(4)}, {Name: "first", Def: false}, {Name: "blank", Def: false}},
	"truncate":   {{Name: "length", Def: int64(255)}, {Name: "killwords", Def: false}, {Name: "end", Def: "..."}, {Name: "leeway", Def: int64(5)}},
	"sort":       {{Name: "reverse", Def: false}, {Name: "case_sensitive", Def: false}, {Name: "attribute"}},
	"unique":     {{Name: "case_sensitive", Def: false}, {Name: "attribute"}},
	"list":       nil,
	"map":        {{Name: "attribute", Required: true}, {Name: "default"}},
	"items":      nil,
	"dictsort":   {{Name: "case_sensitive", Def: false}, {Name: "by", Def: "key"}, {Name: "reverse", Def: false}},
	// Of dynamic values only.
	"reverse": nil,
	"batch":   {{Name: "linecount", Required: true}, {Name: "fill_with"}},
	"abs":     nil,
}

// Jinja2Filters are the names of Jinja2 3.1's built-in filters
// (jinja2.filters.FILTERS), supported or not: a filter of `filters:` may
// not take one of them.
var Jinja2Filters = []string{"abs", "attr", "batch", "capitalize", "center", "count", "d", "default",
	"dictsort", "e", "escape", "filesizeformat", "first", "float", "forceescape", "format", "groupby",
	"indent", "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min", "pprint",
	"random", "reject", "rejectattr", "replace", "reverse", "round", "safe", "select", "selectattr",
	"slice", "sort", "string", "striptags", "sum", "title", "tojson", "trim", "truncate", "unique",
	"upper", "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr"}

// TestParams are the parameters of each supported test. The comparison
// tests (eq, in, ...) and sameas are checked as the operators they apply.
var TestParams = map[string][]Param{
	"defined": nil, "undefined": nil, "none": nil, "string": nil, "number": nil,
	"integer": nil, "float": nil, "boolean": nil, "true": nil, "false": nil,
	"mapping": nil, "iterable": nil, "sequence": nil, "callable": nil,
	"even": nil, "odd": nil, "divisibleby": {{Name: "num", Required: true}},
	"lower": nil, "upper": nil, "escaped": nil, "filter": nil, "test": nil,
}

// TypeTestResult is what a type test yields for a defined typed value.
type TypeTestResult uint8

const (
	TestFails TypeTestResult = iota
	TestPasses
	TestIsValue    // the bool value itself (the test true)
	TestIsNotValue // its negation (the test false)
)

// TypeTest is the outcome of test name (string, number, integer, float,
// boolean, true, false, mapping, iterable, sequence, callable) for a
// defined value of kind k, as Jinja2 tests the value decoded from JSON: an
// object is a dict (a mapping, iterable and a sequence: it has a length
// and __getitem__), a bool is a number but not an integer, and nothing is
// callable.
func TypeTest(name string, k Kind) TypeTestResult {
	var pass bool
	switch name {
	case "string":
		pass = k == KindString
	case "number":
		pass = IsNumber(k)
	case "integer":
		pass = k == KindInt
	case "float":
		pass = k == KindFloat
	case "boolean":
		pass = k == KindBool
	case "true", "false":
		if k != KindBool {
			return TestFails
		}
		if name == "true" {
			return TestIsValue
		}
		return TestIsNotValue
	case "mapping":
		pass = k == KindStruct || k == KindMap || k == KindDict
	case "iterable", "sequence":
		pass = k == KindString || k == KindList || k == KindStruct || k == KindMap || k == KindDict
	}
	if pass {
		return TestPasses
	}
	return TestFails
}

// UndefinedPasses reports whether Jinja2's Undefined passes type test
// name: it iterates (as nothing), has a length and __getitem__, and is
// callable (calling it fails).
func UndefinedPasses(name string) bool {
	return name == "iterable" || name == "sequence" || name == "callable"
}

// MethodParams are the parameters of each supported string method.
var MethodParams = map[string][]Param{
	"strip":      {{Name: "chars"}},
	"lstrip":     {{Name: "chars"}},
	"rstrip":     {{Name: "chars"}},
	"upper":      nil,
	"lower":      nil,
	"title":      nil,
	"capitalize": nil,
	"startswith": {{Name: "prefix", Required: true}},
	"endswith":   {{Name: "suffix", Required: true}},
	"split":      {{Name: "sep"}, {Name: "maxsplit", Def: int64(-1)}},
	"replace":    {{Name: "old", Required: true}, {Name: "new", Required: true}, {Name: "count", Def: int64(-1)}},
	"find":       searchParams,
	"rfind":      searchParams,
	"index":      searchParams,
	"rindex":     searchParams,
	"count":      searchParams,
	"zfill":      {{Name: "width", Required: true, Kind: KindInt}},
	"ljust":      justifyParams,
	"rjust":      justifyParams,
	"center":     justifyParams,
	"swapcase":   nil,
	"splitlines": {{Name: "keepends", Def: false}},
	"partition":  {{Name: "sep", Required: true}},
	"rpartition": {{Name: "sep", Required: true}},
}

// searchParams are the parameters of str.find, rfind, index, rindex and
// count: start and end are ints or none.
var searchParams = []Param{{Name: "sub", Required: true}, {Name: "start", Kind: KindInt}, {Name: "end", Kind: KindInt}}

// justifyParams are the parameters of str.ljust, rjust and center.
var justifyParams = []Param{{Name: "width", Required: true, Kind: KindInt}, {Name: "fillchar", Def: " "}}

// KeywordMethods are the string methods that take keyword arguments; the
// others take positional arguments only (Python raises TypeError).
var KeywordMethods = map[string]bool{"split": true, "splitlines": true}

// ParamIndex returns the index of the parameter called name, or -1.
func ParamIndex(params []Param, name string) int {
	for i, p := range params {
		if p.Name == name {
			return i
		}
	}
	return -1
}
