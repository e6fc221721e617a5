package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/promptgen/promptgen/runtime/suggest"
)

// Pos is a position in a source file: Line is 1-based and Col is a 1-based
// column, as the Options' Pos function computes it.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Diagnostic is one problem of a schema.
type Diagnostic struct {
	Pos     Pos
	Path    string // schema path, e.g. "outputSchema.properties.sentiment.enum"
	Warning bool   // the schema is usable, but not as written
	Msg     string
}

func (d Diagnostic) String() string {
	warn := ""
	if d.Warning {
		warn = "warning: "
	}
	return d.Pos.String() + ": " + warn + d.Path + ": " + d.Msg
}

// Diagnostics are sorted by position and message.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if !d.Warning {
			return true
		}
	}
	return false
}

// sorted returns ds sorted by file, line, column and message, without
// duplicates.
func (ds Diagnostics) sorted() Diagnostics {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos != b.Pos {
			if a.Pos.File != b.Pos.File {
				return a.Pos.File < b.Pos.File
			}
			if a.Pos.Line != b.Pos.Line {
				return a.Pos.Line < b.Pos.Line
			}
			return a.Pos.Col < b.Pos.Col
		}
		return a.Msg < b.Msg
	})
	out := ds[:0]
	for i, d := range ds {
		if i == 0 || d != ds[i-1] {
			out = append(out, d)
		}
	}
	return out
}

// DidYouMean is suggest.DidYouMean: ` (did you mean "x"?)` for the
// candidate closest to name, or "". gen and the CLI use it too, so that
// every suggestion follows one rule.
func DidYouMean(name string, candidates []string) string { return suggest.DidYouMean(name, candidates) }

// EditDistance is suggest.EditDistance, the distance DidYouMean measures.
func EditDistance(a, b string) int { return suggest.EditDistance(a, b) }
