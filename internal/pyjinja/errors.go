package pyjinja

// How a promptgen render error is held to the exception Jinja2 raises for
// the same template and data: a raise_exception by its message, any other
// exception by the kind of error promptgen must return for it.

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Kinds are the runtime sentinels a render error may wrap, by the name
// the render programs report (errors.Is, in this order); an error wrapping
// none is "other".
var Kinds = []string{"ErrMissing", "ErrUndefined", "ErrInvalid", "ErrTooLarge", "ErrRaised"}

// raiseType is the exception transformers' raise_exception raises
// (jinja2.exceptions.TemplateError itself, which Jinja2 never raises bare).
const raiseType = "TemplateError"

// jinjaErrorKinds maps the type of the exception Jinja2 raises to the
// kind of error promptgen must fail with (for raise_exception and the
// sandbox's SecurityError, with the exception's message as its detail).
var jinjaErrorKinds = map[string]string{
	raiseType:        "ErrRaised",
	"UndefinedError": "ErrUndefined",
	// Python's own errors, which promptgen's values reproduce.
	"TypeError":         "ErrInvalid",
	"ZeroDivisionError": "ErrInvalid",
	"AttributeError":    "ErrInvalid", // dict methods of a list (items())
	"AssertionError":    "ErrInvalid", // truncate's length below its end's
	"ValueError":        "ErrInvalid",
	"OverflowError":     "ErrInvalid",
	"KeyError":          "ErrInvalid", // a key printf-style formatting's %(key)s misses
	"IndexError":        "ErrInvalid", // pop of an empty list
	// Jinja2's filters rejecting their argument.
	"FilterArgumentError": "ErrInvalid",
	// A filter or test it lacks, which it compiled to fail where it runs.
	"TemplateRuntimeError": "ErrInvalid",
	// transformers' sandbox refusing a list method that modifies the
	// list (a TemplateRuntimeError too), with its message (securityType).
	securityType: "ErrInvalid",
}

// securityType is the exception of transformers' sandbox, whose message
// promptgen's error carries as its Detail.
const securityType = "SecurityError"

// jinjaLenient are the only pairs where promptgen may fail with another
// kind than jinjaErrorKinds says: each is a documented difference in when
// the failure happens, not whether. A pair matched by one counts under its
// reason; the counts are printed.
var jinjaLenient = []struct {
	jinja  *regexp.Regexp // Jinja2's "<type>: <message>"
	kind   string         // promptgen's kind
	reason string
}{
	{regexp.MustCompile(`^UndefinedError: None has no element -?\d+$`), "ErrInvalid",
		"a subscript of none: Jinja2 makes an undefined that fails where it is used, promptgen fails at the subscript"},
	{regexp.MustCompile(`^TypeError: 'in <string>' requires string as left operand, not Undefined$`), "ErrUndefined",
		"an undefined in a string: Python's in rejects the Undefined object, promptgen the undefined value"},
	{regexp.MustCompile(`^TypeError: (\w+\(\) argument \d must be str, not Undefined|[lr]?strip arg must be None or str)$`), "ErrUndefined",
		"an undefined argument of a str method (replace(), strip()), of Markup too: Python's str rejects the Undefined object, promptgen the undefined value (a value of another type is a generate-time error)"},
	{regexp.MustCompile(`^TypeError: type Undefined doesn't define __round__ method$`), "ErrUndefined",
		"round of an undefined: Python's round rejects the Undefined object, promptgen the undefined value (seed 201 cases 8908, 11578)"},
	{regexp.MustCompile(`^TypeError: Object of type Undefined is not JSON serializable$`), "ErrUndefined",
		"tojson of a value holding an undefined: json.dumps rejects the Undefined object, promptgen the undefined value"},
	{regexp.MustCompile(`^ZeroDivisionError: `), "ErrUndefined",
		"an undefined operand beside a division by zero: Python evaluates the other operand first and fails on it, promptgen fails on reading the undefined (seed 503 case 3058, item + 2 / -0)"},
}

// intBeyond64 is the reason of the one pair where Jinja2 prints and
// promptgen fails: an int beyond 64 bits, which a Go int cannot hold and
// the render fails on rather than wrap (template-language.md's
// differences; seed 502 case 2903, (4611686018427387905 / x / 0.3)|int).
const intBeyond64 = "an int beyond 64 bits: Jinja2 prints it, promptgen fails the render on purpose"

// methodUnprinted is the reason of a pair where Jinja2 prints a method
// with its address in memory (x['items'] of a dict without the key), or
// a generator passed to a macro that calls itself, or compares two
// methods by their owners' identity (two generators by theirs), and
// promptgen fails the render on purpose (template-language.md's
// differences).
const methodUnprinted = "a method or generator printed with its address, or two compared: Jinja2 renders, promptgen fails the render on purpose"

// generatorNotIterated is the reason of a pair where Jinja2 iterates a
// generator passed to a macro that calls itself, consuming it (and
// renders, or raises after), and promptgen fails the render there on
// purpose (template-language.md's differences).
const generatorNotIterated = "a generator passed to a macro that calls itself, iterated: Jinja2 consumes it, promptgen fails the render on purpose"

// iteratorHandedOut is the reason of a pair where Jinja2 reads an
// iterator held as a value after a loop over it (where the loop stopped,
// or empty), and promptgen fails the render there on purpose
// (template-language.md's differences).
const iteratorHandedOut = "an iterator held as a value, read after a loop over it: Jinja2 resumes it, promptgen fails the render on purpose"

// generatorLoopFails is the reason of a pair where Jinja2 loops over a
// generator held as a value whose work on an item after others fails:
// Jinja2 runs the body on those first (which may stop the loop, or fail
// first), and promptgen fails the render there on purpose
// (template-language.md's differences).
const generatorLoopFails = "a generator held as a value looped over, whose work fails on an item after others: Jinja2 runs the body on those first, promptgen fails the render on purpose"

// address finds a memory address in a text, in any case (a method
// printed through upper).
var address = regexp.MustCompile(`(?i)0x[0-9a-f]{6,}`)

// methodFailure reports whether got is promptgen's failure on printing
// a method or a generator where Jinja2 printed an address (also one its
// output does not show: PrintedOpaque), or on comparing two.
func methodFailure(jinja, got Outcome) bool {
	if got.Status != "error" || got.Kind != "ErrInvalid" {
		return false
	}
	return strings.Contains(got.Text, ", which Jinja2 prints with its address") && (address.MatchString(jinja.printed()) || jinja.PrintedOpaque) ||
		jinja.Status == "ok" && (strings.Contains(got.Text, "Python compares methods by the identity of their owners") ||
			strings.Contains(got.Text, "Python compares a generator by its identity"))
}

// integers finds the integers of a text, for printsIntBeyond64.
var integers = regexp.MustCompile(`-?[0-9]{19,}`)

// printsIntBeyond64 reports whether text holds an integer that int64
// cannot hold.
func printsIntBeyond64(text string) bool {
	for _, digits := range integers.FindAllString(text, -1) {
		if _, err := strconv.ParseInt(digits, 10, 64); err != nil {
			return true
		}
	}
	return false
}

// printed is what Jinja2 printed: all of its output, or where it
// raised, the part before.
func (o Outcome) printed() string {
	if o.Status == "ok" {
		return o.Text
	}
	return o.Partial
}

// Raised is Jinja2's outcome when rendering raises.
func Raised(typ, msg string) Outcome {
	return Outcome{Status: "error", Text: typ + ": " + msg, Kind: typ, Detail: msg}
}

// Match reports whether promptgen's outcome got matches Jinja2's: the
// same output, or, where Jinja2 raises, an error of the kind
// jinjaErrorKinds maps its exception to, with raise_exception's or
// SecurityError's message as the Detail. A pair that matches only by
// jinjaLenient returns its reason.
func Match(jinja, got Outcome) (ok bool, lenient string) {
	if got.Status == "error" && got.Kind == "ErrInvalid" &&
		strings.Contains(got.Text, "int beyond 64 bits") && printsIntBeyond64(jinja.printed()) {
		return true, intBeyond64
	}
	if methodFailure(jinja, got) {
		return true, methodUnprinted
	}
	if got.Status == "error" && got.Kind == "ErrInvalid" && strings.Contains(got.Text, "promptgen does not iterate a generator passed to a macro") {
		// Jinja2 ran past it: it renders, or raises later.
		return true, generatorNotIterated
	}
	if got.Status == "error" && got.Kind == "ErrInvalid" && strings.Contains(got.Text, " read again after a loop over it: Python resumes it") {
		return true, iteratorHandedOut
	}
	if got.Status == "error" && got.Kind == "ErrInvalid" && strings.Contains(got.Text, " looped over fails on an item after others (") {
		return true, generatorLoopFails
	}
	if jinja.Status != "error" || got.Status != "error" {
		jinja.PrintedOpaque = false // what Jinja2 did, not what it gave
		return jinja == got, ""
	}
	want, known := jinjaErrorKinds[jinja.Kind]
	switch {
	case !known:
		return false, ""
	case got.Kind == want:
		return jinja.Kind != raiseType && jinja.Kind != securityType || got.Detail == jinja.Detail, ""
	}
	for _, l := range jinjaLenient {
		if got.Kind == l.kind && l.jinja.MatchString(jinja.Text) {
			return true, l.reason
		}
	}
	return false, ""
}

// LogLenient prints how many pairs matched by each jinjaLenient reason.
func LogLenient(t testing.TB, what string, lenient map[string]int) {
	t.Helper()
	var b strings.Builder
	n := 0
	for _, reason := range slices.Sorted(maps.Keys(lenient)) {
		fmt.Fprintf(&b, "%6d  %s\n", lenient[reason], reason)
		n += lenient[reason]
	}
	t.Logf("%s: %d renderings where Jinja2 raises matched with another kind of error (jinjaLenient)\n%s", what, n, b.String())
}
