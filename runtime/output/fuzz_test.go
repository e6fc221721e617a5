package output

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzExtract checks that Extract never panics, returns only a part of the
// completion that encoding/json accepts, and fails only with its own errors.
func FuzzExtract(f *testing.F) {
	for _, c := range completions {
		f.Add(c.completion)
	}
	f.Fuzz(func(t *testing.T, completion string) {
		doc, err := Extract(completion)
		if err != nil {
			if !errors.Is(err, ErrNoJSON) && !errors.Is(err, ErrTruncated) &&
				!errors.Is(err, ErrInvalidJSON) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Extract(%q): unexpected error %v", completion, err)
			}
			return
		}
		if !json.Valid(doc) || !strings.Contains(completion, string(doc)) {
			t.Fatalf("Extract(%q) = %q", completion, doc)
		}
	})
}

// FuzzParse checks the whole path of a generated ParseOutput, extraction,
// decoding and validation with a schema, on any completion: it never panics
// and fails only with extraction errors or Errors.
func FuzzParse(f *testing.F) {
	for _, c := range completions {
		f.Add(c.completion)
	}
	f.Fuzz(func(t *testing.T, completion string) {
		for _, val := range []Validator{summaryValidator, nil} {
			_, err := Parse[summary](completion, val)
			var es Errors
			if err != nil && !errors.As(err, &es) && !errors.Is(err, ErrNoJSON) && !errors.Is(err, ErrTruncated) &&
				!errors.Is(err, ErrInvalidJSON) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Parse(%q): unexpected error %v", completion, err)
			}
			if errors.As(err, &es) && len(es) == 0 {
				t.Fatalf("Parse(%q): empty Errors", completion)
			}
		}
	})
}
