package hftokenizer

import "slices"

// mergeByScan merges piece as Hugging Face's BPE is specified: while two
// adjacent parts have a merge, join the pair of the first merge in the
// file, the leftmost of it; it returns the ids of the parts.
func (m *model) mergeByScan(piece string) []uint32 {
	var parts []uint32
	for i := range len(piece) {
		parts = append(parts, m.byteIDs[piece[i]])
	}
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

// MergeFewAndScan returns the ids mergeFew makes of piece and whether it
// takes the piece, and the ids the specification's scan makes.
func MergeFewAndScan(t *Tokenizer, piece string) (few []uint32, ok bool, scanned []uint32) {
	_, ok = t.model.mergeFew(piece, 0, func(id uint32, _ int) bool {
		few = append(few, id)
		return true
	})
	return few, ok, t.model.mergeByScan(piece)
}
