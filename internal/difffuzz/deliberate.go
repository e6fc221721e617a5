package difffuzz

import (
	"regexp"
	"strings"
)

// A deliberateReason is a kind of rejection promptgen makes on purpose,
// one bullet of "Rejected on purpose" in docs/template-language.md.
type deliberateReason struct {
	// doc is the bullet's bold lead, which names the reason in the report.
	doc   string
	match func(msg string) bool
	// raises: Jinja2 fails where it runs the rejected construct. A case
	// where it runs it and renders contradicts the reason, so that case
	// is counted as not deliberate.
	raises bool
}

// deliberateReasons classify the messages of rejections by why promptgen
// rejects them; a message that none matches is a gap in breadth.
var deliberateReasons = []deliberateReason{
	{doc: "Generators used as values", match: matches(`yields a generator|yields an iterator|holds a generator|is set to a generator here and read at`)},
	{doc: "Ints beyond 64 bits", match: matches(`does not fit in N bits`)},
	{doc: "Dict methods read as keys", match: func(msg string) bool {
		return dictMethod(msg) && !raisesInPython.MatchString(msg)
	}},
	{doc: "None tests of values that may be unset", match: matches(`is (not )?none: it may be unset|^default\(none\) is not supported`)},
	{doc: "Go names that collide", match: matches(`both map to \S+; set go_name on one`)},
	{doc: "Keys no Go struct field can hold", match: matches(`^cannot infer a field named .*: a JSON key with such characters cannot name a Go struct field`)},
	{doc: "Lists modified where other names hold them", match: matches(`whose list is also held elsewhere|in a loop over it, which Jinja2 iterates as it changes`)},
	{doc: "Syntax errors in files Jinja2 does not load", raises: true, match: matches(`^unknown tag "…"`)},
	{doc: "Operations Jinja2 fails on", raises: true, match: func(msg string) bool {
		return raisesInPython.MatchString(msg) && !listConcat.MatchString(msg) && !numberArith.MatchString(msg) || comparesUnordered(msg)
	}},
}

// dictMethod matches the messages of dict methods read as attributes or
// keys, and of str methods read by map(attribute=).
var dictMethod = matches(`is the dict method in Jinja2|reads the dict method|reads the str method|^this may be the dict method \w+ .*, made a string here`)

// raisesInPython matches the messages of operations that raise TypeError
// or UndefinedError in Jinja2 whatever the operands' values: arithmetic,
// iteration, membership and length of types that have none, str methods
// of other values, and calls and attributes of what is undefined (caller()
// without a call block, a name that no macro, function or variable has),
// and a dict method read as an attribute used where Python fails on it.
var raisesInPython = regexp.MustCompile(`^unsupported operand types for |` +
	`^operator - needs a number, not |` +
	`^cannot loop over (int|number|bool|none)$|` +
	`^cannot test membership in (int|number|bool|none)$|` +
	`^(length|list|first|last|reverse|select|reject|selectattr|rejectattr|map) needs .*, not (int|number|bool|none)$|` +
	`^(get|items|keys|values)\(\) needs a map, dict or object, not |` +
	`^filter dictsort needs a map, dict or object, not |` +
	`^\w+\(\) needs a string, not (int|number|bool|none|list of .*) \(Jinja2 raises UndefinedError|` +
	`^center\(\) takes an int as width|` +
	`^caller\(\) in macro "…", which is called without a \{% call %\} block|` +
	`^the message of raise_exception |` +
	`^cannot assign an attribute of "…", which is not a namespace|` +
	`^undefined function "…"( \(did you mean "…"\?\))?: |` +
	`^"…" is always undefined here: .*\(Jinja2 raises UndefinedError for |` +
	`^"…" is always undefined here, before any set of it in this frame can have run|` +
	`^attribute "…" is the dict method in Jinja2, not the key \(an object is a dict too\), on which this raises |` +
	`\((Python raises |Jinja2 raises |Jinja2: )?TypeError\)`)

// listConcat matches the message of + of two lists, which Python adds
// whatever their items' types: where promptgen rejects it, no reason
// covers it.
var listConcat = regexp.MustCompile(`^unsupported operand types for \+: list of .* and list of `)

// numberArith matches the message of arithmetic of two numbers, bools
// among them, which Python computes (True * False is 0, True / 2 is 0.5):
// where promptgen rejects it, no reason covers it.
var numberArith = regexp.MustCompile(`^unsupported operand types for \S+: (bool|int|number) and (bool|int|number)$`)

// cannotCompare is the message of an ordering comparison of two types.
var cannotCompare = regexp.MustCompile(`^cannot compare (.+) (<|<=|>|>=) (.+)$`)

// comparesUnordered reports whether msg rejects an ordering comparison
// that Python refuses: one of none, or of a list with a scalar, or of a
// string with a number. Bools, ints and numbers compare with each other.
func comparesUnordered(msg string) bool {
	m := cannotCompare.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	numeric := func(t string) bool { return t == "bool" || t == "int" || t == "number" }
	return !(numeric(m[1]) && numeric(m[3]))
}

func matches(pattern string) func(string) bool {
	return regexp.MustCompile(pattern).MatchString
}

// inMacroCall is the suffix of a rejection found in a macro's body as one
// of its calls checks it.
var inMacroCall = regexp.MustCompile(` \(in the call of macro "…" at N:N\)$`)

// deliberate returns the reason a rejection with message msg is
// deliberate, or nil when it is not: none matches, or the reason says
// Jinja2 fails there and reached says Jinja2 ran the construct without
// failing.
func deliberate(msg string, reached bool) *deliberateReason {
	msg = inMacroCall.ReplaceAllString(strings.TrimSpace(msg), "")
	for i := range deliberateReasons {
		r := &deliberateReasons[i]
		if r.match(msg) {
			if r.raises && reached {
				return nil
			}
			return r
		}
	}
	return nil
}
