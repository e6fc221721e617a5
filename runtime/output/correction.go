package output

import (
	"errors"
	"fmt"
	"strings"
)

// maxCorrections bounds the violations a correction lists, so that the
// message stays short whatever the answer.
const maxCorrections = 8

// Correction is a short message for the model about why its answer, which
// a ParseOutput rejected with err, could not be used: what was wrong and
// where, and what the schema wants, so that a caller can ask again in one
// line. schemaJSON (the generated <Prompt>Output schema, or "") is quoted
// when the answer held no usable JSON. It is "" for a nil err.
func Correction(err error, schemaJSON string) string {
	if err == nil {
		return ""
	}
	var b strings.Builder
	var violations Errors
	switch {
	case errors.Is(err, ErrTruncated):
		b.WriteString("Your answer was cut off before its JSON value ended")
		if errors.As(err, &violations) && violations[0].Pointer != "" {
			b.WriteString(", inside " + violations[0].Pointer)
		}
		b.WriteString(". Reply again with the whole value, shorter if need be, and nothing else.")
	case errors.As(err, &violations):
		b.WriteString("Your answer does not fit the JSON Schema it must follow:\n")
		for i, v := range violations {
			if i == maxCorrections {
				fmt.Fprintf(&b, "- and %d more\n", len(violations)-maxCorrections)
				break
			}
			where := "the top"
			if v.Pointer != "" {
				where = v.Pointer
			}
			fmt.Fprintf(&b, "- at %s: %s\n", where, v.Message)
		}
		b.WriteString("Reply again with the corrected JSON value, and nothing else.")
	case errors.Is(err, ErrTooLarge):
		b.WriteString("Your answer was too long to read. Reply again with a shorter JSON value, and nothing else.")
	default:
		b.WriteString("Your answer holds no JSON value that can be read. Reply again with only a JSON value")
		if schemaJSON != "" {
			b.WriteString(" that follows this JSON Schema:\n" + schemaJSON)
		} else {
			b.WriteString(".")
		}
	}
	return b.String()
}
