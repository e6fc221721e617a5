package gen

import "github.com/promptgen/promptgen/gen/internal/tmpl"

// Prompt is one standalone prompt file, as loaded.
type Prompt struct {
	// Path is the file's path as shown in diagnostics (slash-separated,
	// relative to the working directory).
	Path string
	// Key is the path inside the input directory without extension, e.g.
	// "support/summarize_customer_interaction".
	Key string
	Pos Pos // start of the file

	Description string
	Model       string
	Parameters  []Param
	Jinja       tmpl.Options
	// OutputFormat is json, text, yaml or xml; "" when not set.
	OutputFormat string
	// GoName is the `go_name:` override of the prompt's Go name, and
	// GoNamePos the position of its value.
	GoName    string
	GoNamePos Pos
	// Template is the template source and Map locates its bytes in the file.
	Template string
	Map      SourceMap
	// Inputs is the declared feed (a struct type), nil when the file
	// declares no inputs.
	Inputs *Type
	// Unused keys of the format (outputSchema, examples, ...) are kept for
	// later stages as raw positions; they are not needed to render.
}

// Param is one entry of `parameters`, in file order.
type Param struct {
	Key   string
	Value any // string, int64, float64, bool, nil, []any or []Param (nested map)
	Pos   Pos
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
