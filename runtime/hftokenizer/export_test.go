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
