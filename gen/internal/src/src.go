// Package src holds source positions: Pos, a file position as diagnostics
// print it, and SourceMap, which maps byte offsets of a template to the
// file it was read from (a template inside a YAML block scalar is shifted).
// It is what cmd/internal/src is to the Go compiler: every stage and diag
// import it, and it imports only the standard library.
package src

import (
	"fmt"
	"strconv"
)

// Pos is a position in a source file: Line is 1-based and Col is a 1-based
// byte offset within the line, as in go/token. Its fields are those of
// schema.Pos, so a schema position converts with Pos(p).
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// ShortPos names p relative to from: "line 3" in the same file.
func ShortPos(p, from Pos) string {
	if p.File == from.File {
		return "line " + strconv.Itoa(p.Line)
	}
	return p.String()
}

// SourceMap maps byte offsets of a template to positions in its file. A
// template from a plain file maps one to one; a template inside a YAML
// block scalar is shifted by the scalar's first line and indentation.
type SourceMap struct {
	File string
	// Lines holds, for each line of the template, the file line, the file
	// column of the line's first template byte, and the template offset
	// where the line starts.
	Lines []LineStart
}

// LineStart locates the start of one template line in the file.
type LineStart struct {
	Offset    int // template byte offset of the line start
	Line, Col int // file position of that byte
}

// Pos returns the file position of template byte offset off.
func (m SourceMap) Pos(off int) Pos {
	if len(m.Lines) == 0 {
		return Pos{File: m.File}
	}
	i := len(m.Lines) - 1
	for i > 0 && m.Lines[i].Offset > off {
		i--
	}
	l := m.Lines[i]
	return Pos{File: m.File, Line: l.Line, Col: l.Col + off - l.Offset}
}
