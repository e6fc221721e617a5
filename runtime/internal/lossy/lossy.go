// Package lossy reads text as valid UTF-8 as a []rune conversion does,
// each invalid byte as U+FFFD: the tokenizers count invalid UTF-8 so.
package lossy

import (
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// ReplacementChar is U+FFFD, which Valid reads each invalid byte as.
const ReplacementChar = "\uFFFD"

// single holds, for each byte, what Valid reads it as when it is no
// rune's first byte of several, in its low bytes, the byte or U+FFFD, and
// their number in its top byte.
var single = func() (t [256]uint32) {
	for c := range t {
		t[c] = uint32(c) | 1<<24
		if c >= utf8.RuneSelf {
			t[c] = uint32(ReplacementChar[0]) | uint32(ReplacementChar[1])<<8 | uint32(ReplacementChar[2])<<16 | 3<<24
		}
	}
	return t
}()

// leads holds 0xC0 for a byte that may start a rune of several bytes
// (0xC2 to 0xF4), 0 for the others: the byte after one is a continuation
// byte when the two bits it keeps of it are 10.
var leads = func() (t [256]byte) {
	for c := 0xC2; c <= 0xF4; c++ {
		t[c] = 0xC0
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
		c, next := text[i], byte(0)
		if i+1 < len(text) {
			next = text[i+1]
		}
		if next&leads[c] != 0x80 {
			// ASCII, a byte that starts no rune, or one that starts a
			// rune but has no continuation byte after it, most of random
			// bytes: 4 bytes of single stored, 1 or 3 kept, with no
			// branch on which, which random bytes would mispredict half
			// the time; and one branch on the byte after a lead byte,
			// where random bytes have a continuation byte one time in 4.
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

// Marker is the byte that Marked writes for U+FFFD: no valid UTF-8 holds
// it.
const Marker = 0xFF

// marks holds, for each byte, what Marked writes for it when it is no
// rune's first byte of several: itself if it is ASCII, else Marker.
var marks = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
		if c >= utf8.RuneSelf {
			t[c] = Marker
		}
	}
	return t
}()

// Marked returns text read as Valid reads it, with each U+FFFD (each
// invalid byte, and each U+FFFD of text) written as the one byte Marker,
// in *buf when text is not valid or holds U+FFFD: the result is valid
// until the next call with buf. It is never longer than text. Read so,
// random bytes, mostly invalid, are half as long as Valid makes them, and
// each of their runes is one byte.
func Marked(buf *[]byte, text string) string {
	if utf8.ValidString(text) && !strings.Contains(text, ReplacementChar) {
		return text
	}
	b := slices.Grow((*buf)[:0], len(text))[:len(text)]
	n, i := 0, 0
	for i < len(text)-1 {
		if c := text[i]; text[i+1]&leads[c] != 0x80 {
			// ASCII, a byte that starts no rune, or one that starts a
			// rune but has no continuation byte after it, most of random
			// bytes, from a table, with no branch on which.
			b[n] = marks[c]
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError {
			b[n] = Marker
			n++
		} else {
			n += copy(b[n:], text[i:i+size])
		}
		i += size
	}
	if i < len(text) {
		// the last byte, alone
		b[n] = marks[text[i]]
		n++
	}
	*buf = b[:n]
	return unsafe.String(unsafe.SliceData(b), n)
}
