package schema

import (
	"fmt"
	"sort"
	"strings"
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

// DidYouMean returns ` (did you mean "x"?)` for the candidate closest to
// name, or "" when none is close enough to be a likely typo. gen and the
// CLI use it too, so that every suggestion follows one rule.
func DidYouMean(name string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		d := EditDistance(strings.ToLower(name), strings.ToLower(c))
		if best == "" || d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	if best == "" || bestDist > max(1, len(name)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// EditDistance is the optimal string alignment distance between a and b,
// in bytes: the fewest insertions, deletions, substitutions and swaps of
// two adjacent bytes that turn a into b, no part being edited twice
// (restricted Damerau–Levenshtein). Counting a swap as one edit makes
// "modle" one typo away from "model", as a reader sees it.
func EditDistance(a, b string) int {
	// Three rows of the table: i-2, i-1 and i.
	before := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(b)]
}
