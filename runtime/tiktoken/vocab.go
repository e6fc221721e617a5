package tiktoken

import (
	"math/bits"
	"strings"

	"github.com/promptgen/promptgen/runtime/internal/bytepairs"
	"github.com/promptgen/promptgen/runtime/internal/longpiece"
	"github.com/promptgen/promptgen/runtime/internal/lossy"
)

// The vocabularies are OpenAI's published files
// (https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken
// and cl100k_base.tiktoken, through github.com/tiktoken-go/tokenizer, MIT
// licensed), compacted by testdata/tiktokengo: each token in the order of
// its id, from 0, as its length in one byte and its bytes. The ids are the
// ranks: byte-pair encoding merges the pair whose union has the lowest
// rank first.

// vocabulary maps tokens to their ranks by an open-addressing hash table
// whose slots point into the embedded file: it is built in about 30 ms
// for o200k_base (the dependency's maps took 0.1 to 0.3 s), holds no
// pointer for the collector to scan, and looks a substring of the text up
// without converting it. The text is read marked (lossy.Marked: each
// U+FFFD the one byte 0xFF, which no valid UTF-8 holds), and the tables
// hold each token so: U+FFFD marked, and without the token of the byte
// 0xFF, which no marked text holds alone.
type vocabulary struct {
	file string // the embedded file, which the slots point into
	// the tokens of 5 bytes or more
	slots []slot
	shift uint // 64 - log2(len(slots)): a hash's top bits pick its slot
	// the tokens of 3 and 4 bytes, most of the strings that merges look
	// up, in a table an eighth the size of slots: each slot a token's
	// smallKey, its rank above it, or 0
	small      []uint64
	smallShift uint
	// a bit for each value of the top log2(len(small))+2 bits of a key's
	// hash, set when a token in small has it: 64 KB for o200k_base,
	// against small's 1 MB. In random bytes most strings of 3 and 4
	// bytes looked up without U+FFFD are no token, each a cache miss in
	// small; the filter tells about nine in ten of them so.
	smallFilter []uint64
	size        int // the number of tokens
	longest     int // the length of the longest token
	// the ranks of the strings of one byte and of two, which most
	// lookups of a merge are, by shortIndex, or noRank
	short []uint32
	// the pairs of bytes that are a token, by pairIndex: 8 KB, where
	// short is 263 KB, read at random by counting random text
	pairTokens bytepairs.Set
	// the pairs of bytes that some token holds, one after the other: no
	// part that merging makes holds a pair not in it
	pairsInTokens bytepairs.Set
	// the number of tokens a run of markers of each length up to
	// shortPiece merges into, by byte-pair merging alone (as a part of a
	// longer piece: not looked up whole first)
	markerRuns [shortPiece + 1]uint8
	// the other tokens that hold U+FFFD (8 in o200k_base, 3 in
	// cl100k_base), in a table of at least 8 slots a token (holdingSlot),
	// so that no string that holds the marker probes small or slots: in
	// random bytes most that merges look up do, and are no token, each a
	// cache miss in those. Most lookups here find an empty slot at once.
	holding      []slot
	holdingShift uint // 64 - log2(len(holding))
	// bounds of the length of the tokens at an offset
	lengths longpiece.Lengths
}

// slot is a token of the vocabulary, or empty when it is zero: its first
// 8 bytes (fewer for a shorter token, zero-padded) for a comparison that
// decides most lookups, where its bytes are in the file, and its rank
// above its length (1 to 255).
type slot struct {
	head       uint64
	offset     uint32
	rankLength uint32
}

func (s *slot) length() int { return int(s.rankLength & 0xff) }

// marked returns token as the tables hold it, U+FFFD marked, and whether
// they hold it: not the byte 0xFF (the only token of either file that
// holds it), which the marker stands for in them.
func marked(token string) (string, bool) {
	if strings.IndexByte(token, lossy.Marker) >= 0 {
		return "", false
	}
	return strings.ReplaceAll(token, lossy.ReplacementChar, string([]byte{lossy.Marker})), true
}

// markedTokens calls yield with each token of file that the tables hold,
// marked, whether it holds the marker, its rank and its offset in file,
// and returns the number of tokens. The file is searched for the bytes
// 0xEF and 0xFF, which U+FFFD and the byte 0xFF start with, not each
// token: the others are as they are.
func markedTokens(file string, yield func(token string, holding bool, rank uint32, offset int)) int {
	indexFrom := func(i int, b byte) int {
		if k := strings.IndexByte(file[i:], b); k >= 0 {
			return i + k
		}
		return len(file)
	}
	nextEF, nextFF, rank := -1, -1, uint32(0)
	for i := 0; i < len(file); i, rank = i+1+int(file[i]), rank+1 {
		start, end := i+1, i+1+int(file[i])
		if nextEF < start {
			nextEF = indexFrom(start, 0xEF)
		}
		if nextFF < start {
			nextFF = indexFrom(start, 0xFF)
		}
		if min(nextEF, nextFF) >= end {
			yield(file[start:end], false, rank, start)
		} else if token, ok := marked(file[start:end]); ok {
			yield(token, strings.IndexByte(token, lossy.Marker) >= 0, rank, start)
		}
	}
	return int(rank)
}

// newVocabulary builds the tables of a file, with at most 3 slots in 8
// taken in slots and 1 in 2 in small, so that probe sequences stay short.
func newVocabulary(file string) *vocabulary {
	longer, small, holding := 0, 0, 0
	n := markedTokens(file, func(token string, holds bool, _ uint32, _ int) {
		switch {
		case len(token) <= 2:
		case holds:
			holding++
		case len(token) <= 4:
			small++
		default:
			longer++
		}
	})
	holdingLog := max(4, bits.Len(uint(8*holding)))
	log, smallLog := bits.Len(uint(longer)*8/3-1), bits.Len(uint(small)*2-1)
	v := &vocabulary{
		file: file, size: n,
		slots: make([]slot, 1<<log), shift: uint(64 - log),
		small: make([]uint64, 1<<smallLog), smallShift: uint(64 - smallLog),
		smallFilter: make([]uint64, 1<<(smallLog+smallFilterBits)/64),
		holding:     make([]slot, 1<<holdingLog), holdingShift: uint(64 - holdingLog),
	}
	short := make([]uint32, 257*256)
	for i := range short {
		short[i] = noRank
	}
	mask, smallMask := len(v.slots)-1, len(v.small)-1
	v.pairTokens = bytepairs.NewSet(1 << 16)
	inTokens := new(bytepairs.Pairs)
	markedTokens(file, func(token string, holds bool, rank uint32, offset int) {
		v.longest = max(v.longest, len(token))
		inTokens.Add(token)
		v.lengths.Add(token)
		head := headOf(token)
		switch {
		case len(token) == 1:
			short[shortIndex(-1, token[0])] = rank
		case len(token) == 2:
			short[shortIndex(int(token[0]), token[1])] = rank
			v.pairTokens.Add(pairIndex(token[0], token[1]))
		case holds:
			j := v.holdingSlot(head, len(token))
			for v.holding[j].rankLength != 0 {
				j = (j + 1) & (len(v.holding) - 1)
			}
			v.holding[j] = slot{head: head, rankLength: rank<<8 | uint32(len(token))}
		case len(token) <= 4:
			key := smallKey(head, len(token))
			j := int(key * hashMultiplier >> v.smallShift)
			for v.small[j] != 0 {
				j = (j + 1) & smallMask
			}
			v.small[j] = uint64(rank)<<40 | key
			bit := v.smallFilterBit(key)
			v.smallFilter[bit/64] |= 1 << (bit % 64)
		default:
			j := int(hash(head, token) >> v.shift)
			for v.slots[j].rankLength != 0 {
				j = (j + 1) & mask
			}
			v.slots[j] = slot{head: head, offset: uint32(offset), rankLength: rank<<8 | uint32(len(token))}
		}
	})
	v.short = short
	v.pairsInTokens = inTokens.Set()
	runs, m := strings.Repeat(string([]byte{lossy.Marker}), shortPiece), &merger{vocab: v}
	for n := 1; n <= shortPiece; n++ {
		v.markerRuns[n] = uint8(len(m.mergeShort(runs, n)))
	}
	return v
}

// pairIndex returns the index of the byte b after the byte a in
// vocabulary.pairTokens and pairsInTokens.
func pairIndex(a, b byte) int { return int(a)<<8 | int(b) }

// smallKey returns the key in vocabulary.small of the string of n bytes,
// 3 or 4, whose head is head: its bytes, its length above them.
func smallKey(head uint64, n int) uint64 { return uint64(n)<<32 | head }

// smallFilterBits is the number of bits of a key's hash past those that
// pick its slot in small that pick its bit in smallFilter.
const smallFilterBits = 2

// smallFilterBit returns the index of the bit of key in smallFilter.
func (v *vocabulary) smallFilterBit(key uint64) uint64 {
	return key * hashMultiplier >> (v.smallShift - smallFilterBits)
}

// rankAt returns the rank of s[i:j], which is marked. It reads the first
// 8 bytes in one load, from s beyond j where s is long enough.
func (v *vocabulary) rankAt(s string, i, j int) uint32 {
	n := j - i
	if n <= 2 || n > v.longest {
		if n <= 0 || n > v.longest {
			return noRank
		}
		if n == 1 {
			return v.short[shortIndex(-1, s[i])]
		}
		return v.short[shortIndex(int(s[i]), s[i+1])]
	}
	var head uint64
	if len(s)-i >= 8 {
		// its first n bytes, without a branch on n < 8, which random
		// text mispredicts (a shift by 64 or more gives 0)
		head = load64(s[i:]) &^ (^uint64(0) << (8 * n))
	} else {
		head = headOf(s[i:j])
	}
	if hasByte(head, lossy.Marker) {
		return v.findHolding(head, n)
	}
	// The probe loops are here, not in functions rankAt calls: the call
	// cost ordinary text 4% of its instructions.
	if n <= 4 {
		key := smallKey(head, n)
		if bit := v.smallFilterBit(key); v.smallFilter[bit/64]>>(bit%64)&1 == 0 {
			return noRank
		}
		mask := len(v.small) - 1
		for k := int(key * hashMultiplier >> v.smallShift); ; k = (k + 1) & mask {
			slot := v.small[k]
			if slot&(1<<40-1) == key {
				return uint32(slot >> 40)
			}
			if slot == 0 {
				return noRank
			}
		}
	}
	token := s[i:j]
	mask := len(v.slots) - 1
	for k := int(hash(head, token) >> v.shift); ; k = (k + 1) & mask {
		slot := &v.slots[k]
		if slot.rankLength == 0 {
			return noRank
		}
		if slot.head == head && slot.length() == n &&
			(n <= 8 || v.file[int(slot.offset)+8:int(slot.offset)+n] == token[8:]) {
			return slot.rankLength >> 8
		}
	}
}

// findHolding returns the rank of the string of n bytes whose head is
// head, which holds the marker there, or noRank. No token that holds
// U+FFFD is longer than 8 bytes marked (TestVocabularyIsOpenAIs), so its
// head and length decide.
func (v *vocabulary) findHolding(head uint64, n int) uint32 {
	for j := v.holdingSlot(head, n); ; j = (j + 1) & (len(v.holding) - 1) {
		t := &v.holding[j]
		if t.rankLength == 0 {
			return noRank
		}
		if t.head == head && t.length() == n {
			return t.rankLength >> 8
		}
	}
}

// holdingSlot returns the first slot in holding of a string of n bytes
// whose head is head.
func (v *vocabulary) holdingSlot(head uint64, n int) int {
	return int((head ^ uint64(n)<<59) * hashMultiplier >> v.holdingShift)
}

// hasByte reports whether one of the 8 bytes of x is b.
func hasByte(x uint64, b byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x ^= ones * uint64(b)
	return (x-ones)&^x&highs != 0
}

// headOf returns the first 8 bytes of s (fewer if it is shorter,
// zero-padded) read little-endian.
func headOf(s string) uint64 {
	var head uint64
	for k := min(len(s), 8) - 1; k >= 0; k-- {
		head = head<<8 | uint64(s[k])
	}
	return head
}

// shortIndex returns the index in vocabulary.short of the byte b after
// the byte a, or of b alone when a is -1.
func shortIndex(a int, b byte) int { return (a+1)<<8 | int(b) }

// load64 returns the first 8 bytes of s, little-endian: one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hashMultiplier spreads the bits of a key into the top ones, which pick
// its slot: 2⁶⁴ over the golden ratio, odd.
const hashMultiplier = 0x9e3779b97f4a7c15

// hash mixes the head and length of s and, for a longer s, its further
// bytes 8 at a time, the last 8 read from its end; the multiplications
// spread every bit into the top ones, which pick the slot.
func hash(head uint64, s string) uint64 {
	h := (head ^ uint64(len(s))<<59) * hashMultiplier
	for i := 8; i < len(s); i += 8 {
		h = (h ^ h>>29 ^ load64(s[min(i, len(s)-8):])) * hashMultiplier
	}
	return h
}
