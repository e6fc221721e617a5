package ir

import (
	"fmt"

	"github.com/promptgen/promptgen/schema"
)

// Pos is a position in a source file: Line is 1-based and Col is a 1-based
// byte offset within the line, as in go/token.
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

// SchemaPos converts a position of the schema package.
func SchemaPos(p schema.Pos) Pos { return Pos{File: p.File, Line: p.Line, Col: p.Col} }
