package gen

import (
	"github.com/promptgen/promptgen/gen/internal/diag"
	"github.com/promptgen/promptgen/gen/internal/src"
)

// Pos is a position in a source file.
type Pos = src.Pos

// Severity says whether a diagnostic fails the run.
type Severity = diag.Severity

const (
	SeverityError   = diag.SeverityError
	SeverityWarning = diag.SeverityWarning
)

// Diagnostic is one problem found in the input.
type Diagnostic = diag.Diagnostic

// Diagnostics is a sorted list of diagnostics; it is the error returned by
// Generate when any of them is an error.
type Diagnostics = diag.Diagnostics
