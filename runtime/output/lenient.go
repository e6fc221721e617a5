package output

import (
	"encoding/json"
	"slices"
	"strings"
)

// ParseLenient is Parse led by the schema: when Parse fails, it reads what
// the model wrote the way a careful reader would and maps it onto shape,
// then decodes and validates the result as Parse does, so a nil error
// still means the value satisfies the schema. fixes lists every repair it
// made (none when Parse succeeded). Ambiguity is an error, never a guess.
// When both fail and the JSON was read, the error is Parse's: every
// violation of the schema; otherwise it is the repair's.
//
// It reads, besides JSON: comments, trailing and missing commas, unquoted
// keys and values, single, triple and backtick quotes, unescaped quotes
// and raw newlines inside strings, wrong or missing closing brackets,
// ellipses, and answers the text ends inside when nothing required is
// missing. It maps: numbers written as strings ("12,111", "$1,234.56"),
// integral floats to integers (never rounding), "True" and sentences that
// state one boolean, a single value to a one-item list, values to strings
// where a string is wanted, enum values by case and punctuation, by alias
// (x-aliases) or followed by more text ("ONE: the first"), member names by
// alias or case, members the schema does not have (dropped), and union
// members (the best fit; a tie is an error).
//
// It looks for the value in every fenced code block, every object or
// array in the prose, and, when the schema's top is not an object, the
// whole text. The best fit wins: the reading that changes fewer values'
// kinds (a string read as a number, a value as a one-item list, ...), then
// the one with fewer fixes; on a tie a fenced one, then the first.
func ParseLenient[T any](completion string, shape *Shape, val Validator) (T, []Fix, error) {
	p := &Parser{val: val, shape: func() (*Shape, error) { return shape, nil }}
	var fixes []Fix
	v, err := ParseWith[T](p, completion, Fixes(&fixes))
	return v, fixes, err
}

// repair finds the candidate of completion that maps onto s with the
// fewest fixes, and returns its JSON.
func repair(completion string, s *shape) ([]byte, []Fix, error) {
	var best any
	var bestFixes []Fix
	found := false
	var firstErr error
	try := func(n *loose) bool {
		c := &coercer{}
		v, err := c.value(n, s, "")
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return false
		}
		if !found || compareFixes(c.fixes, bestFixes) < 0 {
			best, bestFixes, found = v, c.fixes, true
		}
		return true
	}
	for _, n := range fencedValues(completion) {
		try(n)
	}
	for _, n := range proseValues(completion) {
		try(n)
	}
	top := s
	for top.ref != nil {
		top = top.ref
	}
	// The whole text is the answer of a scalar, an enum or a list; for a
	// schema that allows anything, only when it holds no object or list.
	if text := strings.TrimSpace(completion); text != "" && (top.types&typeObject == 0 || top.types&^typeObject != 0) && (top.types != 0 || !found) {
		// A value that is the whole text ('a', 12, null) is read as one;
		// anything else is the text, as a word. So is a string that took a
		// quote for an inner one and does not fit ("TWO" is the answer).
		n, end := readLoose(text, 0)
		whole := n != nil && end == len(text) && n.kind != looseWord
		if whole {
			// A number that is the whole of a final answer is whole.
			n.closed = n.closed || n.kind == looseNumber
		}
		if !whole || !try(n) && n.kind == looseString && slices.Contains(n.repairs, repairInnerQuote) {
			try(&loose{kind: looseWord, text: text, closed: true})
		}
	}
	if !found {
		if firstErr == nil {
			return nil, nil, ErrNoJSON
		}
		return nil, nil, firstErr
	}
	doc, err := json.Marshal(best)
	return doc, bestFixes, err
}

// fencedValues reads the value at the start of every fenced code block
// (``` or ~~~, any tag). A fence inside a string of the value is part of
// the string: the value is read first, and the scan goes on after it.
func fencedValues(s string) []*loose {
	var out []*loose
	for i := 0; i < len(s); {
		line := i
		end := strings.IndexByte(s[i:], '\n')
		if end < 0 {
			break
		}
		i += end + 1
		trimmed := strings.TrimLeft(s[line:i], " ")
		if !strings.HasPrefix(trimmed, "```") && !strings.HasPrefix(trimmed, "~~~") {
			continue
		}
		n, next := readLoose(s, i)
		if n == nil {
			break
		}
		out = append(out, n)
		i = next
		// Skip to the line after the value and its closing fence.
		if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
			i += nl + 1
			if t := strings.TrimLeft(s[i:], " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
				if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
					i += nl + 1
				} else {
					i = len(s)
				}
			}
		} else {
			i = len(s)
		}
	}
	return out
}

// proseValues reads every object or array that opens in the text outside
// the values read before it.
func proseValues(s string) []*loose {
	var out []*loose
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "{[")
		if j < 0 {
			break
		}
		n, next := readLoose(s, i+j)
		out = append(out, n)
		i = next
	}
	return out
}
