// Package diag holds the diagnostics every stage reports: Diagnostic,
// Diagnostics (sorted, capped per file) and the Sink a run collects them in.
// gen re-exports the types as gen.Diagnostic and gen.Diagnostics.
//
// It imports only the standard library and gen/internal/src (positions);
// every stage reports through it, so it must not import any of them.
package diag

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/promptgen/promptgen/gen/internal/src"
)

// Severity says whether a diagnostic fails the run.
type Severity uint8

const (
	SeverityError Severity = iota
	SeverityWarning
)

// Diagnostic is one problem found in the input.
type Diagnostic struct {
	Pos      src.Pos
	End      src.Pos
	Severity Severity
	Msg      string
}

func (d Diagnostic) String() string {
	msg := d.Msg
	if d.Severity == SeverityWarning {
		msg = "warning: " + msg
	}
	if d.Pos.File == "" {
		return msg
	}
	return d.Pos.String() + ": " + msg
}

// Diagnostics is a sorted list of diagnostics; it is the error returned by
// Generate when any of them is an error.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any diagnostic has error severity.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// maxErrorsPerFile caps the errors reported for one file; the rest are
// summarised as "too many errors".
const maxErrorsPerFile = 10

// Sorted returns the diagnostics sorted by file, line, column and message,
// without duplicates, and with at most maxErrorsPerFile errors per file. A
// file with errors gets no warnings: they are mostly what the errors leave
// behind (a misspelt template key leaves every input unused), and they come
// back once the errors are fixed.
func (ds Diagnostics) Sorted() Diagnostics {
	failed := map[string]bool{}
	for _, d := range ds {
		failed[d.Pos.File] = failed[d.Pos.File] || d.Severity == SeverityError
	}
	out := slices.DeleteFunc(slices.Clone(ds), func(d Diagnostic) bool {
		return d.Severity != SeverityError && failed[d.Pos.File]
	})
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return out[i].String() < out[j].String()
	})
	var kept Diagnostics
	errorsIn := map[string]int{}
	for i, d := range out {
		if i > 0 && d == out[i-1] {
			continue
		}
		if d.Severity == SeverityError {
			errorsIn[d.Pos.File]++
			switch n := errorsIn[d.Pos.File]; {
			case n == maxErrorsPerFile+1:
				kept = append(kept, Diagnostic{Pos: src.Pos{File: d.Pos.File}, Msg: "too many errors"})
				continue
			case n > maxErrorsPerFile+1:
				continue
			}
		}
		kept = append(kept, d)
	}
	return kept
}

// Sink collects diagnostics during one run.
type Sink struct{ List Diagnostics }

// Errorf adds an error at pos.
func (s *Sink) Errorf(pos src.Pos, format string, args ...any) {
	s.List = append(s.List, Diagnostic{Pos: pos, Severity: SeverityError, Msg: fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos.
func (s *Sink) Warnf(pos src.Pos, format string, args ...any) {
	s.List = append(s.List, Diagnostic{Pos: pos, Severity: SeverityWarning, Msg: fmt.Sprintf(format, args...)})
}
