package hftokenizer

import (
	"slices"
	"strings"

	"github.com/promptgen/promptgen/runtime/internal/lossy"
)

// mergeByScan merges piece, read as the model reads text (its marker
// U+FFFD), as Hugging Face's BPE is specified: see mergeBytesByScan.
func (m *model) mergeByScan(piece string) []uint32 {
	var parts []uint32
	for i := range len(piece) {
		parts = append(parts, m.partIDs[piece[i]])
	}
	return m.mergeIDsByScan(parts)
}

// mergeBytesByScan merges the bytes of piece, not marked, as Hugging
// Face's BPE is specified: each byte a part, then while two adjacent parts
// have a merge, join the pair of the first merge in the file, the leftmost
// of it; it returns the ids of the parts.
func (m *model) mergeBytesByScan(piece string) []uint32 {
	var parts []uint32
	for i := range len(piece) {
		parts = append(parts, m.byteIDs[piece[i]])
	}
	return m.mergeIDsByScan(parts)
}

func (m *model) mergeIDsByScan(parts []uint32) []uint32 {
	for {
		best, at := noPair, -1
		for i := 0; i+1 < len(parts); i++ {
			if p := m.merges.get(parts[i], parts[i+1]); p>>32 < best>>32 {
				best, at = p, i
			}
		}
		if at < 0 {
			return parts
		}
		parts = slices.Replace(parts, at, at+2, uint32(best))
	}
}

// MergeAndScan returns the ids the heap's merge makes of piece, and
// those the specification's scan makes.
func MergeAndScan(t *Tokenizer, piece string) (merged, scanned []uint32) {
	m := t.model
	var s state
	m.mergeParts(&s, piece)
	for i := int32(0); int(i) < len(piece); i = s.next[i] {
		merged = append(merged, s.ids[i])
	}
	return merged, m.mergeByScan(piece)
}

// SearchAndScan returns the ids longpiece's search makes of piece, which
// must be longer than two tokens, and those the specification's scan
// makes.
func SearchAndScan(t *Tokenizer, piece string) (searched, scanned []uint32) {
	m := t.model
	if len(piece) <= 2*m.vocab.longest {
		panic("SearchAndScan: a piece of two tokens or fewer")
	}
	var s state
	m.merge(&s, piece, 0, func(id uint32, _ int) bool {
		searched = append(searched, id)
		return true
	})
	return searched, m.mergeByScan(piece)
}

// Longest returns the length of the longest token.
func Longest(t *Tokenizer) int { return t.model.vocab.longest }

// ReplacementPart reports whether t's pieces start U+FFFD as one part.
func ReplacementPart(t *Tokenizer) bool { return t.model.replacementPart }

// MergeAndScanMarked returns the ids merge makes of piece, read as the
// model reads text (its marker U+FFFD), and those the specification's
// scan makes of the bytes of piece not marked.
func MergeAndScanMarked(t *Tokenizer, piece string) (merged, scanned []uint32) {
	t.model.merge(&state{}, piece, 0, func(id uint32, _ int) bool {
		merged = append(merged, id)
		return true
	})
	return merged, t.model.mergeBytesByScan(t.model.unmark(piece))
}

// unmark returns piece, read as the model reads text, with each marker
// written as U+FFFD again.
func (m *model) unmark(piece string) string {
	if !m.replacementPart {
		return piece
	}
	return strings.ReplaceAll(piece, string([]byte{lossy.Marker}), lossy.ReplacementChar)
}

// EncodeByScan returns the ids of text without added tokens, made apart
// from the marked text and the tables of tokens: text read as valid UTF-8
// (each invalid byte U+FFFD, three bytes), in NFC by appendExactNFC if the
// model normalizes, split, and each piece's bytes merged by the
// specification's scan.
func EncodeByScan(t *Tokenizer, text string) []uint32 {
	m := t.model
	var buf []byte
	valid := lossy.Valid(&buf, text)
	if m.nfc {
		valid = string(appendExactNFC(nil, valid, &nfcBuffers{}))
	}
	var ids []uint32
	for start := 0; start < len(valid); {
		end := m.split(valid, start)
		ids = append(ids, m.mergeBytesByScan(valid[start:end])...)
		start = end
	}
	return ids
}
