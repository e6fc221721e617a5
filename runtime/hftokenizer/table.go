package hftokenizer

import (
	"math/bits"

	"github.com/promptgen/promptgen/runtime/internal/longpiece"
)

// The tables of a model are open-addressing hash tables, faster than maps
// for the lookups of counting: one per piece of the text, and several per
// piece that is merged.

// tokenTable maps the bytes of each token to its id. A slot holds the
// token's first 8 bytes, which decide most lookups without reading the
// token's bytes elsewhere. The tokens of up to 4 bytes are in a table of
// their own, of 8 bytes a slot, a tenth the size of the other for Qwen 3:
// in random bytes most pieces looked up are of 3 or 4 bytes and no token,
// a cache miss in the large table.
type tokenTable struct {
	slots []tokenSlot
	shift uint   // 64 - log2(len(slots)): a hash's top bits pick its slot
	bytes string // the tokens, one after the other
	// the tokens of up to 4 bytes, each its smallKey, its id above it,
	// or 0; nil when an id does not fit in 24 bits, and slots holds them
	small      []uint64
	smallShift uint
	// a bit for each value of the top log2(len(small))+2 bits of a key's
	// hash, set when a token in small has it: 64 KB for Qwen 3, against
	// small's 1 MB. In random bytes most strings of up to 4 bytes looked
	// up without U+FFFD are no token (97%), each a cache miss in small;
	// the filter tells about nine in ten of them so.
	smallFilter []uint64
	// the length of the longest token, and bounds of the length of the
	// tokens at an offset
	longest int
	lengths longpiece.Lengths
}

// tokenSlot is empty when length is 0.
type tokenSlot struct {
	head           uint64 // the first 8 bytes, zero-padded, little-endian
	offset, length uint32 // where the token is in bytes
	id             uint32
}

// smallTokens is the length up to which tokens are in tokenTable.small.
const smallTokens = 4

// smallKey returns the key in tokenTable.small of a string of up to 4
// bytes whose head is head: its bytes, its length above them.
func smallKey(head uint64, length int) uint64 { return uint64(length)<<32 | head }

// newTokenTable returns the table of tokens, which are not empty.
func newTokenTable(tokens map[string]uint32) tokenTable {
	small := 0
	for token, id := range tokens {
		if len(token) <= smallTokens {
			if id >= 1<<24 {
				small = -1
				break
			}
			small++
		}
	}
	var t tokenTable
	if small >= 0 {
		log := bits.Len(uint(max(small*2, 1)))
		t.small, t.smallShift = make([]uint64, 1<<log), uint(64-log)
		t.smallFilter = make([]uint64, max(1<<(log+smallFilterBits)/64, 1))
	} else {
		small = 0
	}
	log := bits.Len(uint(max((len(tokens)-small)*3/2, 1)))
	t.slots, t.shift = make([]tokenSlot, 1<<log), uint(64-log)
	var all []byte
	mask, smallMask := len(t.slots)-1, len(t.small)-1
	for token, id := range tokens {
		t.longest = max(t.longest, len(token))
		t.lengths.Add(token)
		head := headOf(token)
		if len(token) <= smallTokens && t.small != nil {
			key := smallKey(head, len(token))
			i := int(key * hashMultiplier >> t.smallShift)
			for t.small[i] != 0 {
				i = (i + 1) & smallMask
			}
			t.small[i] = uint64(id)<<40 | key
			bit := t.smallFilterBit(key)
			t.smallFilter[bit/64] |= 1 << (bit % 64)
			continue
		}
		i := int(hashToken(head, token) >> t.shift)
		for t.slots[i].length != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = tokenSlot{head: head, offset: uint32(len(all)), length: uint32(len(token)), id: id}
		all = append(all, token...)
	}
	t.bytes = string(all)
	return t
}

// get returns the id of the token s, if it is one.
func (t *tokenTable) get(s string) (uint32, bool) { return t.getHead(s, headOf(s)) }

// getHead is get of s whose head is head.
func (t *tokenTable) getHead(s string, head uint64) (uint32, bool) {
	if len(s) <= smallTokens && t.small != nil {
		key, mask := smallKey(head, len(s)), len(t.small)-1
		if bit := t.smallFilterBit(key); t.smallFilter[bit/64]>>(bit%64)&1 == 0 {
			return 0, false
		}
		for i := int(key * hashMultiplier >> t.smallShift); ; i = (i + 1) & mask {
			slot := t.small[i]
			if slot == 0 {
				return 0, false
			}
			if slot&(1<<40-1) == key {
				return uint32(slot >> 40), true
			}
		}
	}
	mask := len(t.slots) - 1
	for i := int(hashToken(head, s) >> t.shift); ; i = (i + 1) & mask {
		slot := &t.slots[i]
		if slot.length == 0 {
			return 0, false
		}
		if slot.head == head && int(slot.length) == len(s) &&
			(len(s) <= 8 || t.bytes[slot.offset+8:slot.offset+slot.length] == s[8:]) {
			return slot.id, true
		}
	}
}

// smallFilterBits is the number of bits of a key's hash past those that
// pick its slot in small that pick its bit in smallFilter.
const smallFilterBits = 2

// smallFilterBit returns the index of the bit of key in smallFilter.
func (t *tokenTable) smallFilterBit(key uint64) uint64 {
	return key * hashMultiplier >> (t.smallShift - smallFilterBits)
}

// headOf returns the first 8 bytes of s (fewer if it is shorter,
// zero-padded) read little-endian, by one load, or two of 4 bytes, or
// three of one, which overlap: a loop over a short piece's bytes ended
// at random, and took a sixth of the mispredicted branches of counting
// ordinary text with Qwen 3.
func headOf(s string) uint64 {
	switch n := len(s); {
	case n >= 8:
		return load64(s)
	case n >= 4:
		return uint64(load32(s)) | uint64(load32(s[n-4:]))<<(8*(n-4))
	case n > 0:
		return uint64(s[0]) | uint64(s[n/2])<<(8*(n/2)) | uint64(s[n-1])<<(8*(n-1))
	}
	return 0
}

// load32 returns the first 4 bytes of s, little-endian: one load.
func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// load64 returns the first 8 bytes of s, little-endian: one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hashMultiplier spreads the bits of a key into the top ones, which pick
// its slot: 2⁶⁴ over the golden ratio, odd.
const hashMultiplier = 0x9e3779b97f4a7c15

// hashToken mixes the head and length of s and, for a longer s, its
// further bytes 8 at a time, the last 8 read from its end; the
// multiplications spread every bit into the top ones, which pick the
// slot.
func hashToken(head uint64, s string) uint64 {
	h := (head ^ uint64(len(s))<<59) * hashMultiplier
	for i := 8; i < len(s); i += 8 {
		h = (h ^ h>>29 ^ load64(s[min(i, len(s)-8):])) * hashMultiplier
	}
	return h
}

// pairTable maps pairs of ids to values by open addressing, a pair's
// hash picking its first slot: faster than a map for the many lookups of
// merging.
type pairTable struct {
	slots []pairSlot
	shift uint // 64 - log2(len(slots))
	// a bit for each value of the top log2(len(slots))+1 bits of a
	// pair's hash, set when a pair in slots has it: 128 KB for Qwen 3,
	// against slots' 8 MB. Most pairs looked up in random bytes have no
	// merge, and the filter tells six in seven of them so, where each was
	// a cache miss in slots.
	filter []uint64
}

type pairSlot struct{ pair, value uint64 }

// emptyPair marks a free slot: ids are below 1<<31.
const emptyPair = ^uint64(0)

func newPairTable(n int) pairTable {
	log := bits.Len(uint(max(n*2, 1)))
	t := pairTable{slots: make([]pairSlot, 1<<log), shift: uint(64 - log), filter: make([]uint64, max(1<<(log+1)/64, 1))}
	for i := range t.slots {
		t.slots[i].pair = emptyPair
	}
	return t
}

func (t *pairTable) slot(pair uint64) int { return int(pair * hashMultiplier >> t.shift) }

// filterBit returns the index of the bit of pair in filter.
func (t *pairTable) filterBit(pair uint64) uint64 { return pair * hashMultiplier >> (t.shift - 1) }

// put sets the value of a pair, and reports whether it had one.
func (t *pairTable) put(left, right uint32, value uint64) bool {
	pair, mask := uint64(left)<<32|uint64(right), len(t.slots)-1
	for i := t.slot(pair); ; i = (i + 1) & mask {
		switch t.slots[i].pair {
		case pair:
			return true
		case emptyPair:
			t.slots[i] = pairSlot{pair, value}
			bit := t.filterBit(pair)
			t.filter[bit/64] |= 1 << (bit % 64)
			return false
		}
	}
}

// get returns the value of a pair, or noPair.
func (t *pairTable) get(left, right uint32) uint64 {
	pair, mask := uint64(left)<<32|uint64(right), len(t.slots)-1
	if bit := t.filterBit(pair); t.filter[bit/64]>>(bit%64)&1 == 0 {
		return noPair
	}
	for i := t.slot(pair); ; i = (i + 1) & mask {
		switch t.slots[i].pair {
		case pair:
			return t.slots[i].value
		case emptyPair:
			return noPair
		}
	}
}
