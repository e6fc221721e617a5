package hftokenizer

import (
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/promptgen/promptgen/runtime/internal/lossy"
	"golang.org/x/text/unicode/norm"
)

// golang.org/x/text's NFC differs from Unicode's, which Hugging Face's
// normalizer follows, in two ways, each on text that Model.normalized
// hands to appendExactNFC instead:
//   - after 30 non-starters in a row it inserts U+034F (graphemeJoiner;
//     UAX #15's Stream-Safe Text Format) and sorts and composes each part
//     of the run alone;
//   - a starter that combines backward (U+0B3E, a Hangul vowel) does not
//     block a mark after it from composing with the starter before it
//     (o U+0B3E U+0301 becomes ó U+0B3E).
const graphemeJoiner = "\u034f"

// combinesBackward reports whether seg, a segment of golang.org/x/text's
// NFC iterator, holds a starter after its first rune: one that combines
// backward, as a segment ends before any other.
func combinesBackward(seg string) bool {
	_, size := utf8.DecodeRuneInString(seg)
	for _, r := range seg[size:] {
		if ccc(r) == 0 {
			return true
		}
	}
	return false
}

// nfcBuffers are appendExactNFC's, kept for the next call.
type nfcBuffers struct {
	runes         []rune
	d             []byte // a rune's decomposition
	pair, comp, e []byte // composePair's
	iter          norm.Iter
}

// markerRune stands for lossy.Marker, U+FFFD in marked text, among the
// runes of appendExactNFC: like U+FFFD, a starter that composes with
// nothing (no rune's decomposition holds U+FFFD), and no valid rune.
const markerRune = -1

// appendExactNFC appends the NFC form of text, valid or marked, as
// UAX #15 defines it: each rune fully decomposed, each run of
// non-starters sorted by combining class (stably), then each rune
// composed with the last starter that it is not blocked from. The text it
// gets is rare, so it favours plainness over speed.
func appendExactNFC(dst []byte, text string, b *nfcBuffers) []byte {
	runes := b.runes[:0]
	for i := 0; i < len(text); {
		if text[i] == lossy.Marker {
			runes = append(runes, markerRune)
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		b.d = b.appendForm(b.d[:0], norm.NFD, text[i:i+size])
		for _, c := range string(b.d) {
			runes = append(runes, c)
		}
		i += size
	}
	for i := 0; i < len(runes); {
		j := i
		for j < len(runes) && ccc(runes[j]) != 0 {
			j++
		}
		slices.SortStableFunc(runes[i:j], func(a, b rune) int { return int(ccc(a)) - int(ccc(b)) })
		i = j + 1
	}
	out := runes[:0]
	starter, last := -1, uint8(0) // the last starter's index; the class of the rune after it
	for _, c := range runes {
		class := ccc(c)
		if starter >= 0 && (last < class || last == 0 && len(out) == starter+1) {
			if p, ok := b.composePair(out[starter], c); ok {
				out[starter] = p
				continue
			}
		}
		if class == 0 {
			starter = len(out)
		}
		last = class
		out = append(out, c)
	}
	for _, c := range out {
		if c == markerRune {
			dst = append(dst, lossy.Marker)
		} else {
			dst = utf8.AppendRune(dst, c)
		}
	}
	b.runes = runes
	return dst
}

// ccc returns the canonical combining class of r.
func ccc(r rune) uint8 {
	var b [utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], r)
	return norm.NFD.PropertiesString(string(b[:n])).CCC()
}

// composePair returns the primary composite of starter a and b: the rune
// whose canonical decomposition is a's followed by b, unless NFC excludes
// it.
func (buf *nfcBuffers) composePair(a, b rune) (rune, bool) {
	buf.pair = utf8.AppendRune(utf8.AppendRune(buf.pair[:0], a), b)
	pair := unsafe.String(unsafe.SliceData(buf.pair), len(buf.pair))
	buf.comp = buf.appendForm(buf.comp[:0], norm.NFC, pair)
	p, size := utf8.DecodeRune(buf.comp)
	if size != len(buf.comp) || p == a {
		return 0, false
	}
	// NFC of the pair might compose it another way (b sorted before a
	// mark of a's); the decompositions say whether p is a then b.
	buf.d = utf8.AppendRune(buf.appendForm(buf.d[:0], norm.NFD, pair[:len(pair)-utf8.RuneLen(b)]), b)
	buf.e = buf.appendForm(buf.e[:0], norm.NFD, unsafe.String(unsafe.SliceData(buf.comp), len(buf.comp)))
	return p, string(buf.d) == string(buf.e)
}

// appendForm appends s in normal form f. It iterates, as norm's Append
// functions allocate where they reorder or compose.
func (buf *nfcBuffers) appendForm(dst []byte, f norm.Form, s string) []byte {
	for buf.iter.InitString(f, s); !buf.iter.Done(); {
		dst = append(dst, buf.iter.Next()...)
	}
	return dst
}
