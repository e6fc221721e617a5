package checks

// This file is copied into a generated package by TestChecksAgree
// (gen/checks_test.go), next to a cases_test.go that lists the package's
// generated checks, their schemas and the documents of the corpus.

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime/output"
)

type agreeCase struct {
	name   string
	check  func(*output.Checker)
	schema string
	docs   []string
	// reencode decodes a document into the output's Go type, as
	// ParseOutput does, and encodes the value again.
	reencode func([]byte) ([]byte, error)
}

// TestAgree runs every document of the corpus, and its mutations, through
// the generated checks and through the compiled schema, and requires the
// same verdict. A valid document whose member names were changed must
// decode to a valid value: the checks must have seen the members that
// decoding reads.
func TestAgree(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			schema := output.MustCompileSchema(c.schema)
			seen := map[string]bool{}
			var valid, invalid int
			for _, doc := range c.docs {
				values, names := mutations(doc)
				for _, d := range append(append([]string{doc}, values...), names...) {
					if seen[d] {
						continue
					}
					seen[d] = true
					genErr := output.Check([]byte(d), c.check)
					if !json.Valid([]byte(d)) {
						if !errors.Is(genErr, output.ErrInvalidJSON) {
							t.Errorf("%s is not JSON, but the checks said %v", d, genErr)
						}
						continue
					}
					schemaErr := schema.Validate([]byte(d), nil)
					if errors.Is(genErr, output.ErrInvalidJSON) {
						t.Errorf("%s: the checks read valid JSON as invalid: %v", d, genErr)
						continue
					}
					if (genErr == nil) != (schemaErr == nil) {
						t.Errorf("%s:\n  generated checks: %v\n  compiled schema:  %v", d, genErr, schemaErr)
					}
					if genErr == nil && slices.Contains(names, d) {
						// Other documents may decode to invalid values: decoding drops
						// undeclared members, which uniqueItems and maxProperties
						// count, and rounds numbers. A document that does not decode
						// fails ParseOutput.
						if b, err := c.reencode([]byte(d)); err == nil {
							if err := schema.Validate(b, nil); err != nil {
								t.Errorf("%s is valid, but decodes to %s:\n  %v", d, b, err)
							}
						}
					}
					if schemaErr == nil {
						valid++
					} else {
						invalid++
					}
				}
			}
			t.Logf("%s: %d documents: %d valid, %d invalid", c.name, valid+invalid, valid, invalid)
			if valid == 0 || invalid == 0 {
				t.Errorf("the corpus has %d valid and %d invalid documents: it needs both", valid, invalid)
			}
		})
	}
}

// replacements are the values every value of a document is replaced with.
var replacements = []any{
	nil, true, false, json.Number("0"), json.Number("-1"), json.Number("1"), json.Number("1.5"),
	json.Number("1.0"), json.Number("2e0"), json.Number("1e2"), json.Number("0.30000000000000004"),
	json.Number("100000000000000000000"), json.Number("-0"), "", "x", "ab", "abc", "éé", "\u00e9\u0301",
	strings.Repeat("y", 300), "user@example.com", "https://example.com/x", "2024-01-02", []any{},
	[]any{"x"}, map[string]any{},
}

// mutations returns documents made from doc by one change each: every
// value replaced, every member removed, an extra member, arrays emptied,
// shortened or with an item repeated; and apart, in names, every member
// renamed in another case, given again in another case or given twice.
func mutations(doc string) (values, names []string) {
	var root any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, nil
	}
	emitTo := func(out *[]string) func(any) {
		return func(v any) {
			if b, err := json.Marshal(v); err == nil {
				// A member named dupMarker+k is k given a second time.
				*out = append(*out, dupMarkers.Replace(string(b)))
			}
		}
	}
	emit, emitName := emitTo(&values), emitTo(&names)
	// walk calls f for every value with a function that replaces it in a
	// copy of the whole document.
	var walk func(v any, set func(any) any)
	walk = func(v any, set func(any) any) {
		for _, r := range replacements {
			emit(set(r))
		}
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			emit(set(with(v, "extra_member", "x")))
			for _, k := range keys {
				emit(set(without(v, k)))
				for _, other := range caseVariants(k) {
					renamed := without(v, k)
					renamed[other] = v[k]
					emitName(set(renamed))
					emitName(set(with(v, other, v[k])))
					emitName(set(with(v, other, "x")))
				}
				emitName(set(with(v, dupMarker+k, v[k])))
				emitName(set(with(v, dupMarker+k, "x")))
				walk(v[k], func(x any) any { return set(with(v, k, x)) })
			}
		case []any:
			emit(set([]any{}))
			if len(v) > 0 {
				emit(set(append(append([]any{}, v...), v[0])))
				emit(set(v[1:]))
			}
			for i := range v {
				walk(v[i], func(x any) any {
					c := append([]any{}, v...)
					c[i] = x
					return set(c)
				})
			}
		}
	}
	walk(root, func(x any) any { return x })
	// Members given twice, first and last.
	if m, ok := root.(map[string]any); ok {
		trimmed := strings.TrimSpace(doc)
		for k := range m {
			key, _ := json.Marshal(k)
			for _, r := range []string{"null", `"x"`, "1", "[]", "{}"} {
				names = append(names, "{"+string(key)+":"+r+","+trimmed[1:])
				if len(m) > 0 {
					names = append(names, trimmed[:len(trimmed)-1]+","+string(key)+":"+r+"}")
				}
			}
		}
	}
	// The same documents with escapes and white space.
	var b bytes.Buffer
	if json.Indent(&b, []byte(doc), "", "\t") == nil {
		values = append(values, b.String())
	}
	values = append(values, strings.ReplaceAll(doc, "e", `\u0065`))
	return values, names
}

// dupMarker starts the names of members that mutations turns into a
// second member of the name that follows; json.Marshal writes no two
// members of one name.
const dupMarker = "\x00dup:"

// dupMarkers turns the marked names of encoded documents into the names
// they mark.
var dupMarkers = strings.NewReplacer(`"\u0000dup:`, `"`)

// caseVariants returns names that encoding/json matches to a struct field
// named k, as strings.EqualFold does: k with the first letter in the other
// case, all in upper case, and with the Kelvin sign for k and the long s
// for s.
func caseVariants(k string) []string {
	var out []string
	for _, v := range []string{
		swapFirst(k), strings.ToUpper(k),
		strings.NewReplacer("k", "\u212a", "s", "\u017f").Replace(k),
	} {
		if v != k && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// swapFirst swaps the case of the first letter of s that has two.
func swapFirst(s string) string {
	for i, r := range s {
		switch {
		case unicode.IsUpper(r):
			return s[:i] + string(unicode.ToLower(r)) + s[i+utf8.RuneLen(r):]
		case unicode.IsLower(r):
			return s[:i] + string(unicode.ToUpper(r)) + s[i+utf8.RuneLen(r):]
		}
	}
	return s
}

func with(m map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(m)+1)
	for key, val := range m {
		c[key] = val
	}
	c[k] = v
	return c
}

func without(m map[string]any, k string) map[string]any {
	c := with(m, k, nil)
	delete(c, k)
	return c
}
