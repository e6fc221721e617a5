// Package lossy reads text as valid UTF-8 as a []rune conversion does,
// each invalid byte as U+FFFD: the tokenizers count invalid UTF-8 so.
package lossy

import (
	"unicode/utf8"
	"unsafe"
)

// ReplacementChar is U+FFFD, which Valid reads each invalid byte as.
const ReplacementChar = "\uFFFD"

// Valid returns text with each invalid byte replaced by U+FFFD, in *buf
// when text is not valid: the result is valid until the next call with
// buf. Valid runes are copied as they are, not decoded and encoded again.
func Valid(buf *[]byte, text string) string {
	if utf8.ValidString(text) {
		return text
	}
	b := (*buf)[:0]
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
			continue
		case c < 0xC2 || c > 0xF4:
			// A continuation byte, 0xC0, 0xC1 or 0xF5 on starts no
			// rune: most invalid bytes are one, and need no decoding.
			b = append(b, ReplacementChar...)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, ReplacementChar...)
		} else {
			b = append(b, text[i:i+size]...)
		}
		i += size
	}
	*buf = b
	return unsafe.String(unsafe.SliceData(b), len(b))
}
