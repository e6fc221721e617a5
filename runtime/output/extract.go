package output

import (
	"errors"
	"fmt"
	"strings"

	"github.com/promptgen/promptgen/runtime/internal/fence"
)

// MaxCompletion bounds the completions Extract examines, so that the time
// and memory it spends are bounded too: 1 MiB, far above any reply a
// generated prompt asks for.
const MaxCompletion = 1 << 20

// Causes of extraction failures, for errors.Is. The returned errors add the
// byte offset in the completion where it matters.
var (
	ErrNoJSON      = errors.New("no JSON object or array in the completion")
	ErrTruncated   = errors.New("the JSON value is truncated")
	ErrInvalidJSON = errors.New("invalid JSON")
	ErrTooLarge    = fmt.Errorf("the completion is larger than %d bytes", MaxCompletion)
)

// Extract returns the JSON value of an LLM completion. It takes, in order:
//
//  1. the whole completion, when it is one JSON value of any type (with
//     surrounding whitespace and a byte order mark ignored);
//  2. the first fenced code block (``` or ~~~, tagged json or untagged) that
//     holds a complete JSON value. A block tagged json that holds none makes
//     Extract fail: the model marked it as its answer;
//  3. the first complete JSON object or array in the text, skipping text
//     that merely starts like one ("{name}", "[1]" followed by prose
//     that breaks it, ...).
//
// So when a reply holds two JSON blocks, a fenced one wins over bare ones
// (models fence their answer and quote examples inline), and otherwise the
// first wins. The result is a copy of a part of the completion that
// encoding/json accepts. Extract does not repair JSON: a value that the text
// ends inside fails with ErrTruncated, and one with a syntax error with
// ErrInvalidJSON when nothing else in the text is JSON. Completions larger
// than MaxCompletion fail with ErrTooLarge.
func Extract(completion string) ([]byte, error) {
	doc, err := extract(completion, 0)
	if err != nil {
		return nil, err
	}
	return []byte(doc), nil
}

// extract is Extract without the copy, searching the text only for values
// that start with open, unless it is 0.
func extract(completion string, open byte) (string, error) {
	if len(completion) > MaxCompletion {
		return "", ErrTooLarge
	}
	s, from := completion, 0
	if strings.HasPrefix(s, "\uFEFF") {
		from = len("\uFEFF") // skipped, while offsets stay those of the completion
	}
	start, end, err := wholeValue(s, from, len(s))
	if err != nil && fence.Has(s) {
		start, end, err = fencedValue(s, open)
	}
	if err == errNoValue || err == errNoFence {
		start, end, err = search(s, from, len(s), open)
	}
	if err != nil {
		return "", err
	}
	return s[start:end], nil
}

// errNoValue says that a text is not one JSON value.
var errNoValue = errors.New("not one JSON value")

// wholeValue returns the span of s[from:to] without surrounding whitespace
// when that is one JSON value, or errNoValue.
func wholeValue(s string, from, to int) (start, end int, err error) {
	text := s[:to]
	start = skipSpace(text, from)
	if end, st := scanValue(text, start); st == scanOK && skipSpace(text, end) == to {
		return start, end, nil
	}
	return 0, 0, errNoValue
}

// firstValue returns the span of the JSON value of s[from:to]: the whole
// text when it is one value, else the first complete object or array.
func firstValue(s string, from, to int, open byte) (start, end int, err error) {
	if start, end, err = wholeValue(s, from, to); err == nil {
		return start, end, nil
	}
	return search(s, from, to, open)
}

// search returns the span of the first complete JSON object or array of
// s[from:to] (only objects, or only arrays, when open is '{' or '['). A
// candidate that fails to parse is skipped up to the byte where it failed,
// so each byte is scanned once.
func search(s string, from, to int, open byte) (start, end int, err error) {
	text := s[:to]
	openers := "{["
	if open != 0 {
		openers = string(open)
	}
	var invalid error // the failure of the candidate that got furthest
	longest := 1      // a failure right after "{" or "[" is prose, not JSON
	for i := from; i < to; {
		j := strings.IndexAny(text[i:], openers)
		if j < 0 {
			break
		}
		start = i + j
		end, st := scanValue(text, start)
		switch st {
		case scanOK:
			return start, end, nil
		case scanTruncated:
			return 0, 0, fmt.Errorf("%w: the text ends inside the value at offset %d", ErrTruncated, start)
		}
		if end-start > longest {
			longest = end - start
			invalid = fmt.Errorf("%w: unexpected %q at offset %d in the value at offset %d", ErrInvalidJSON, s[end], end, start)
		}
		i = max(end, start+1)
	}
	if invalid != nil {
		return 0, 0, invalid
	}
	return 0, 0, ErrNoJSON
}

// errNoFence says that no fenced block is tagged json or untagged.
var errNoFence = errors.New("no JSON code block")

// fencedValue returns the span of the value of the first fenced block tagged
// json (in any case) or untagged that holds one; the failure of the first
// block tagged json when none does; or errNoFence.
func fencedValue(s string, open byte) (start, end int, err error) {
	err = errNoFence
	for f := range fence.All(s) {
		if f.Info != "" && !strings.EqualFold(f.Info, "json") {
			continue
		}
		start, end, ferr := firstValue(s, f.Start, f.End, open)
		if ferr == nil {
			return start, end, nil
		}
		if f.Info != "" && err == errNoFence {
			err = ferr
		}
	}
	return 0, 0, err
}
