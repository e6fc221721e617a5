// Package lossy reads text as valid UTF-8 as a []rune conversion does,
// each invalid byte as U+FFFD: the tokenizers count invalid UTF-8 so.
package lossy

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
	"unsafe"
)

// ReplacementChar is U+FFFD, which Valid reads each invalid byte as.
const ReplacementChar = "\uFFFD"

// single holds, for each byte that is a rune of its own or starts none
// (ASCII, a continuation byte, 0xC0, 0xC1, 0xF5 on), what Valid reads it
// as in its low bytes, the byte or U+FFFD, and their number in its top
// byte.
var single = func() (t [256]uint32) {
	for c := range t {
		t[c] = uint32(c) | 1<<24
		if c >= utf8.RuneSelf {
			t[c] = uint32(ReplacementChar[0]) | uint32(ReplacementChar[1])<<8 | uint32(ReplacementChar[2])<<16 | 3<<24
		}
	}
	return t
}()

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
		if c-0xC2 > 0xF4-0xC2 {
			// ASCII or a byte that starts no rune, most of random bytes:
			// 4 bytes of single stored, 1 or 3 kept, with no branch on
			// which, which random bytes would mispredict half the time.
			b = slices.Grow(b, 4)
			w := single[c]
			binary.LittleEndian.PutUint32(b[len(b):len(b)+4], w)
			b = b[:len(b)+int(w>>24)]
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
