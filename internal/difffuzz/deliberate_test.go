package difffuzz

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/internal/testmod"
)

// TestDeliberate checks which rejection messages count as deliberate, and
// that a reason saying Jinja2 fails is contradicted by a case Jinja2 runs
// and renders.
func TestDeliberate(t *testing.T) {
	for _, tc := range []struct {
		msg     string
		reached bool
		want    string // the reason's doc; "" for not deliberate
	}{
		{"map yields a generator in Jinja2, which prints as <generator ...> and has no length or index: loop over it, join it, or convert it with | list", true, "Generators used as values"},
		{`reject yields a generator in Jinja2, which prints as <generator ...> and has no length or index: loop over it, join it, or convert it with | list (in the call of macro "…" at N:N)`, false, "Generators used as values"},
		{`"…" is set to a generator here and read at N:N: Jinja2 consumes one as it is read (a second loop over it sees nothing), promptgen stores one only where it is never read (convert it with | list where it is set)`, true, "Generators used as values"},
		{"this constant int expression is N, which does not fit in N bits (Jinja2's ints are unbounded, promptgen's are Go ints)", true, "Ints beyond 64 bits"},
		{`"…" and "…" (line N) both map to Name; set go_name on one`, true, "Go names that collide"},
		{"unsupported operand types for -: string and string", false, "Operations Jinja2 fails on"},
		{"unsupported operand types for -: string and string", true, ""},
		{"unsupported operand types for +: list of int and list of string", false, ""},
		{"unsupported operand types for *: bool and bool", false, ""},
		{"unsupported operand types for //: int and bool", false, ""},
		{"unsupported operand types for -: bool and number", false, ""},
		{"unsupported operand types for -: bool and string", false, "Operations Jinja2 fails on"},
		{"cannot compare none <= number", false, "Operations Jinja2 fails on"},
		{"cannot compare list of bool <= string", false, "Operations Jinja2 fails on"},
		{"cannot compare bool < bool", false, ""},   // Python orders bools
		{"cannot compare int >= number", false, ""}, // and ints with floats
		{"cannot loop over int", false, "Operations Jinja2 fails on"},
		{"cannot compare none > a value of any type", false, "Operations Jinja2 fails on"},
		{`attribute "…" is the dict method in Jinja2, not the key (an object is a dict too), on which this raises TypeError (subscript it: ['items'])`, false, "Operations Jinja2 fails on"},
		{`attribute "…" is the dict method in Jinja2, not the key (an object is a dict too), on which this raises UndefinedError (subscript it: ['get'])`, true, ""},
		{`attribute "…" is the dict method in Jinja2, not the key (an object is a dict too), printed here with its address in memory (<built-in method ... at 0x...>), which no renderer reproduces (subscript it: ['get'])`, true, "Dict methods read as keys"},
		{`cannot infer a field named "…": a JSON key with such characters cannot name a Go struct field (declare the variable in inputs, as a map)`, true, "Keys no Go struct field can hold"},
		{`this may be the dict method keys (an attribute of an object, map or dict, or an optional key of that name that is unset, which Jinja2 reads as the method), made a string here, which holds its address in memory (<built-in method ... at 0x...>), which no renderer reproduces`, true, "Dict methods read as keys"},
		{`this may be the dict method keys (an attribute of an object, map or dict, or an optional key of that name that is unset, which Jinja2 reads as the method), on which this raises TypeError`, true, ""},
		{`this value may hold attribute "…", which is the dict method in Jinja2, not the key (an object is a dict too): made a string here, it holds the method's address in memory (<built-in method ... at 0x...>), which no renderer reproduces (subscript it: ['get'])`, true, "Dict methods read as keys"},
		{`attribute "…" is the dict method in Jinja2, not the key (an object is a dict too), which promptgen does not support as a value: subscript it (['pop'])`, true, "Dict methods read as keys"},
		{`cannot test "…" is none: it may be unset, which is undefined (never none), and JSON null means unset too (test "…" instead)`, true, "None tests of values that may be unset"},
		{`cannot test "…" is not none: it may be unset, which is undefined (never none), and JSON null means unset too (test "…" instead)`, true, "None tests of values that may be unset"},
		{`caller() in macro "…", which is called without a {% call %} block here (Jinja2: undefined) (in the call of macro "…" at N:N)`, false, "Operations Jinja2 fails on"},
		{"length needs a list, string, map, dict or object, not none", false, "Operations Jinja2 fails on"},
		{"join needs a list or string, not int (Jinja2 raises TypeError)", false, "Operations Jinja2 fails on"},
		{"items() needs a map, dict or object, not string (Jinja2 raises UndefinedError: a string has no such method)", false, "Operations Jinja2 fails on"},
		{"filter dictsort needs a map, dict or object, not bool (Jinja2 raises AttributeError: it calls items())", false, "Operations Jinja2 fails on"},
		{"filter items needs a map, dict or object, not list of int (Jinja2 raises TypeError)", false, "Operations Jinja2 fails on"},
		{"filter dictsort is supported only as the iterable of a for loop with two targets (for key, value in m|dictsort), or of a map, dict, object or dynamic value", false, ""},
		{"attribute= needs a list of objects, not bool (Jinja2 raises TypeError)", false, "Operations Jinja2 fails on"},
		{"attribute= needs a list of objects, not list of string", false, ""},
		{`map(attribute="…") of a string reads the str method "…" of each character, which Jinja2 prints with its address in memory (<built-in method ...>): not supported`, true, "Dict methods read as keys"},
		{"test test of list of string: Jinja2 looks the value up in a dict, and Python cannot hash a list or dict (TypeError)", false, "Operations Jinja2 fails on"},
		{"center() takes an int as width, not list of dynamic value (Python raises TypeError)", false, "Operations Jinja2 fails on"},
		{"round needs a number, not string (Python raises TypeError)", false, "Operations Jinja2 fails on"},
		{"round needs a number, not string (Python raises TypeError)", true, ""},
		{"split() needs a string, not int (Jinja2 raises UndefinedError: an int has no such method)", false, "Operations Jinja2 fails on"},
		{"upper() needs a string, not list of string (Jinja2 raises UndefinedError: a list has no such method)", false, "Operations Jinja2 fails on"},
		{"upper() needs a string, not list of string (Jinja2 raises UndefinedError: a list has no such method)", true, ""},
		{"the message of raise_exception may be undefined: give it a value (| default(...))", false, "Operations Jinja2 fails on"},
		{`cannot assign an attribute of "…", which is not a namespace (set it with {% set ns = namespace(...) %})`, false, "Operations Jinja2 fails on"},
		{`"…" is a variable here, which hides the function of that name: calling it is not supported, as the value is not callable (Jinja2 raises TypeError) (in the call of macro "…" at N:N)`, false, "Operations Jinja2 fails on"},
		{`"…" is a variable here, which hides the function of that name: calling it is not supported, as the value is not callable (Jinja2 raises TypeError)`, true, ""},
		{`undefined function "…": a template calls the macros it defines, after their definition, and range, dict and namespace`, false, "Operations Jinja2 fails on"},
		{`undefined function "…" (did you mean "…"?): a template calls the macros it defines, after their definition, and range, dict and namespace`, true, ""},
		{`"…" is always undefined here: the template sets it (or loops over it) only where this read cannot see it, and the inputs do not declare it (Jinja2 raises UndefinedError for its attribute "…")`, false, "Operations Jinja2 fails on"},
		{`"…" is always undefined here: the template sets it (or loops over it) only where this read cannot see it, and the inputs do not declare it (Jinja2 raises UndefinedError for get())`, true, ""},
		{`"…" is always undefined here, before any set of it in this frame can have run, whatever the data holds (Jinja2 raises UndefinedError for its attribute "…")`, false, "Operations Jinja2 fails on"},
		{`"…" is always undefined here, before any set of it in this frame can have run, whatever the data holds (Jinja2 raises UndefinedError for its attribute "…")`, true, ""},
		{"select needs a list, not string", false, ""}, // a string's characters
		{"selectattr needs a list, not number", false, "Operations Jinja2 fails on"},
		{"map needs a list, not none", false, "Operations Jinja2 fails on"},
		{"reject needs a list, not map of string", false, ""}, // a dict's keys
		{"cannot index none", false, ""},                      // Jinja2: undefined
		{"type mismatch: a list of unknown is used as a string", false, ""},
		{"get() of a value that may be undefined is not supported: test it with \"…\" first", false, ""},
		{`unknown tag "…": a raw block opens with {% raw %} or {% raw -%}, nothing else in the tag (Jinja2 reads this one as an unknown tag too)`, false, "Syntax errors in files Jinja2 does not load"},
		{`unknown tag "…" (did you mean "…"?)`, false, "Syntax errors in files Jinja2 does not load"},
		{`unknown tag "…" (did you mean "…"?)`, true, ""},
		{`unsupported tag "…"`, false, ""}, // Jinja2 knows it
		{"cannot test whether a number is in a string: 'in <string>' requires a string as left operand (Python raises TypeError)", false, "Operations Jinja2 fails on"},
		{"cannot test whether a number is in a string: 'in <string>' requires a string as left operand (Python raises TypeError)", true, ""},
	} {
		got := ""
		if r := deliberate(tc.msg, tc.reached); r != nil {
			got = r.doc
		}
		if got != tc.want {
			t.Errorf("deliberate(%q, reached %v) = %q; want %q", tc.msg, tc.reached, got, tc.want)
		}
	}
}

// TestDeliberateDocumented checks that each reason is a bullet of
// "Rejected on purpose" in docs/template-language.md.
func TestDeliberateDocumented(t *testing.T) {
	doc := string(readFile(t, filepath.Join(testmod.Root(), "docs", "template-language.md")))
	_, section, ok := strings.Cut(doc, "\n## Rejected on purpose\n")
	if !ok {
		t.Fatal(`docs/template-language.md has no section "Rejected on purpose"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, r := range deliberateReasons {
		if !strings.Contains(section, "\n- **"+r.doc+"**") {
			t.Errorf("docs/template-language.md, Rejected on purpose: no bullet **%s**", r.doc)
		}
	}
}
