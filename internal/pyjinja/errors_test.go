package pyjinja

import "testing"

// TestMatchIntBeyond64: Jinja2 printing an int beyond 64 bits matches
// promptgen failing on it with ErrInvalid, and nothing else does.
func TestMatchIntBeyond64(t *testing.T) {
	fails := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: int beyond 64 bits, which promptgen does not hold"}
	checkMatches(t, []matchCase{
		{"beyond", Outcome{Status: "ok", Text: "x-15372286728091293696y"}, fails, true},
		{"beyond, positive", Outcome{Status: "ok", Text: "9223372036854775808"}, fails, true},
		{"within", Outcome{Status: "ok", Text: "-9223372036854775808"}, fails, false},
		{"another error", Outcome{Status: "ok", Text: "99999999999999999999"}, Outcome{Status: "error", Kind: "ErrInvalid", Text: "division by zero"}, false},
		{"another kind", Outcome{Status: "ok", Text: "99999999999999999999"}, Outcome{Status: "error", Kind: "ErrUndefined", Text: "int beyond 64 bits"}, false},
		{"printed, then raised", partly("9223372036854775808"), fails, true},
		{"raised, within printed", partly("9223372036854775807"), fails, false},
	}, intBeyond64)
}

// TestMatchLenientOrder: Jinja2's ZeroDivisionError beside an undefined
// operand matches promptgen's ErrUndefined, under its reason.
func TestMatchLenientOrder(t *testing.T) {
	ok, why := Match(Raised("ZeroDivisionError", "division by zero"), Outcome{Status: "error", Kind: "ErrUndefined", Text: `"item": variable is undefined`})
	if !ok || why == "" {
		t.Errorf("Match = %v, %q; want a match by jinjaLenient", ok, why)
	}
	if ok, _ := Match(Raised("ZeroDivisionError", "division by zero"), Outcome{Status: "error", Kind: "ErrMissing"}); ok {
		t.Error("ZeroDivisionError matches ErrMissing")
	}
}

// TestMatchLenientStrArgument: Jinja2's TypeError on an undefined
// argument of a str method matches promptgen's ErrUndefined, under its
// reason, and not another kind.
func TestMatchLenientStrArgument(t *testing.T) {
	undefined := Outcome{Status: "error", Kind: "ErrUndefined", Text: `"u": variable is undefined`}
	for _, msg := range []string{"replace() argument 1 must be str, not Undefined", "replace() argument 2 must be str, not Undefined", "strip arg must be None or str", "rstrip arg must be None or str"} {
		if ok, why := Match(Raised("TypeError", msg), undefined); !ok || why == "" {
			t.Errorf("Match(TypeError: %s) = %v, %q; want a match by jinjaLenient", msg, ok, why)
		}
	}
	if ok, _ := Match(Raised("TypeError", "replace() argument 1 must be str, not int"), undefined); ok {
		t.Error("a TypeError on an int argument matches ErrUndefined")
	}
	if ok, _ := Match(Raised("TypeError", "strip arg must be None or str"), Outcome{Status: "error", Kind: "ErrMissing"}); ok {
		t.Error("TypeError on strip's argument matches ErrMissing")
	}
}

// TestMatchMethodUnprinted: Jinja2 printing a method's address, or
// comparing two methods, matches promptgen failing on it, and nothing
// else does. A raise after the address was printed matches too (seed 5
// case 141: Jinja2 prints tools[-2]['get'], then fails reading
// messages[0]); a raise after a comparison cannot be told from one
// before it.
func TestMatchMethodUnprinted(t *testing.T) {
	printed := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: dict.items is a method, which Jinja2 prints with its address in memory (<built-in method items of dict object at 0x...>): promptgen does not print it"}
	compared := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: dict.items compared with dict.items: Python compares methods by the identity of their owners, which promptgen does not keep"}
	checkMatches(t, []matchCase{
		{"printed", Outcome{Status: "ok", Text: "a<built-in method items of dict object at 0x7f1c2e3a4b40>"}, printed, true},
		{"upper", Outcome{Status: "ok", Text: "<BUILT-IN METHOD ITEMS OF DICT OBJECT AT 0X7F1C2E3A4B40>"}, printed, true},
		{"no address", Outcome{Status: "ok", Text: "items"}, printed, false},
		{"compared", Outcome{Status: "ok", Text: "True"}, compared, true},
		{"raised", Raised("UndefinedError", "'x' is undefined"), printed, false},
		{"printed, then raised", partly("a<built-in method get of dict object at 0x7f1c2e3a4b40>-"), printed, true},
		{"raised, no address printed", partly("get-"), printed, false},
		{"raised, compared", partly("True"), compared, false},
		{"another error", Outcome{Status: "ok", Text: "<function str.format at 0x7f1c2e3a4b40>"}, Outcome{Status: "error", Kind: "ErrInvalid", Text: "division by zero"}, false},
	}, methodUnprinted)
}

// TestMatchGeneratorUnprinted: Jinja2 printing the address of a
// generator passed to a macro that calls itself, comparing two, or
// iterating one, matches promptgen failing on it, and nothing else does.
func TestMatchGeneratorUnprinted(t *testing.T) {
	printed := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: a generator, which Jinja2 prints with its address in memory (<generator object ... at 0x...>): promptgen does not print it"}
	compared := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: generator compared with generator: Python compares a generator by its identity, which promptgen does not keep"}
	checkMatches(t, []matchCase{
		{"printed", Outcome{Status: "ok", Text: "<generator object do_items at 0x7f332615cd40>"}, printed, true},
		{"no address", Outcome{Status: "ok", Text: "<gener"}, printed, false},
		{"printed, address cut", Outcome{Status: "ok", Text: "<ge...", PrintedOpaque: true}, printed, true},
		{"printed in a block set never printed", Outcome{Status: "ok", Text: "", PrintedOpaque: true}, printed, true},
		{"compared", Outcome{Status: "ok", Text: "True"}, compared, true},
		{"raised", Raised("UndefinedError", "'x' is undefined"), printed, false},
		{"printed, then raised", partly("<generator object do_items at 0x7f332615cd40>-"), printed, true},
		{"raised, compared", partly("True"), compared, false},
	}, methodUnprinted)
	checkMatches(t, []matchCase{
		{"same output, a generator printed", Outcome{Status: "ok", Text: "x", PrintedOpaque: true}, Outcome{Status: "ok", Text: "x"}, true},
	}, "")
	iterated := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: promptgen does not iterate a generator passed to a macro that calls itself, which Python consumes as it iterates it (convert it with | list)"}
	checkMatches(t, []matchCase{
		{"iterated", Outcome{Status: "ok", Text: "('a', 1)"}, iterated, true},
		{"raised after", Raised("UndefinedError", "'generator object' has no attribute 'get'"), iterated, true},
		{"another error", Outcome{Status: "ok", Text: "x"}, Outcome{Status: "error", Kind: "ErrInvalid", Text: "division by zero"}, false},
	}, generatorNotIterated)
	handed := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: a generator read again after a loop over it: Python resumes it where the loop stopped, which promptgen does not follow (convert it with | list where it is made)"}
	checkMatches(t, []matchCase{
		{"read after a loop", Outcome{Status: "ok", Text: "ab[]"}, handed, true},
		{"raised after", Raised("TypeError", "object of type 'generator' has no len()"), handed, true},
	}, iteratorHandedOut)
	loopFails := Outcome{Status: "error", Kind: "ErrInvalid", Text: "render c: invalid operation: a generator looped over fails on an item after others (bad operand type for abs(): 'str'): Python runs the loop on those first, which promptgen does not follow (convert it with | list where it is made)"}
	checkMatches(t, []matchCase{
		{"loop stopped before", Outcome{Status: "ok", Text: "1"}, loopFails, true},
		{"raised at the item", Raised("TypeError", "bad operand type for abs(): 'str'"), loopFails, true},
		{"body raised first", Raised("UndefinedError", "'x' is undefined"), loopFails, true},
	}, generatorLoopFails)
}

// partly is Jinja2 raising an UndefinedError after printing text.
func partly(text string) Outcome {
	o := Raised("UndefinedError", "list object has no element 0")
	o.Partial = text
	return o
}

// matchCase is a pair of outcomes and whether Match matches them.
type matchCase struct {
	name       string
	jinja, got Outcome
	ok         bool
}

// checkMatches checks Match on each case, and that a match is by reason.
func checkMatches(t *testing.T, cases []matchCase, reason string) {
	t.Helper()
	for _, tc := range cases {
		ok, why := Match(tc.jinja, tc.got)
		if ok != tc.ok || ok && why != reason {
			t.Errorf("%s: Match = %v, %q; want %v", tc.name, ok, why, tc.ok)
		}
	}
}
