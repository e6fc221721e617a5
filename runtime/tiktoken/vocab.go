package tiktoken

import (
	"math/bits"
	"strings"

	"github.com/promptgen/promptgen/runtime/internal/longpiece"
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
// without converting it.
type vocabulary struct {
	file string // the embedded file, which the slots point into
	// the tokens of 5 bytes or more
	slots []slot
	shift uint // 64 - log2(len(slots)): a hash's top bits pick its slot
	// the tokens of 3 and 4 bytes that short does not hold, most of the
	// strings that merges look up, in a table an eighth the size of
	// slots: each slot a token's smallKey, its rank above it, or 0
	small      []uint64
	smallShift uint
	size       int // the number of tokens
	longest    int // the length of the longest token
	// the ranks of the strings of one starting part and of two
	// (partAt: a byte or U+FFFD), which most lookups of a merge are, and
	// in random bytes most of those of U+FFFD, by shortIndex, or noRank:
	// the table's slots for them are scattered
	short []uint32
	// the other tokens that hold U+FFFD (8 in o200k_base, 3 in
	// cl100k_base), so that no string that holds it in its first 8 bytes
	// probes slots: in random bytes most that the merge looks up do, and
	// are no token, each a cache miss. A table of at least 8 slots a
	// token (holdingFFFDSlot): most lookups find an empty slot at once,
	// one branch that the processor predicts, where a search of a list
	// mispredicted which token a string could be.
	holdingFFFD  []rankedToken
	holdingShift uint // 64 - log2(len(holdingFFFD))
	// bounds of the length of the tokens at an offset
	lengths longpiece.Lengths
}

type rankedToken struct {
	head  uint64 // its first 8 bytes, as headOf
	token string
	rank  uint32
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

// newVocabulary builds the tables of a file, with at most 3 slots in 8
// taken in slots and 1 in 2 in small, so that probe sequences stay short.
func newVocabulary(file string) *vocabulary {
	n, longer, small := 0, 0, 0
	for i := 0; i < len(file); i += 1 + int(file[i]) {
		token := file[i+1 : i+1+int(file[i])]
		switch _, ok := shortIndexOf(token); {
		case ok:
		case len(token) <= 4:
			small++
		default:
			longer++
		}
		n++
	}
	log, smallLog := bits.Len(uint(longer)*8/3-1), bits.Len(uint(small)*2-1)
	v := &vocabulary{
		file: file, size: n,
		slots: make([]slot, 1<<log), shift: uint(64 - log),
		small: make([]uint64, 1<<smallLog), smallShift: uint(64 - smallLog),
		short: make([]uint32, (partCodes+1)*partCodes),
	}
	for i := range v.short {
		v.short[i] = noRank
	}
	mask, smallMask := len(v.slots)-1, len(v.small)-1
	var holding []rankedToken
	rank := uint32(0)
	for i := 0; i < len(file); i += 1 + int(file[i]) {
		token := file[i+1 : i+1+int(file[i])]
		v.longest = max(v.longest, len(token))
		v.lengths.Add(token)
		head := headOf(token)
		if k, ok := shortIndexOf(token); ok {
			v.short[k] = rank
		} else if len(token) <= 4 {
			key := smallKey(head, len(token))
			j := int(key * hashMultiplier >> v.smallShift)
			for v.small[j] != 0 {
				j = (j + 1) & smallMask
			}
			v.small[j] = uint64(rank)<<40 | key
		} else {
			if strings.Contains(token, replacementChar) {
				holding = append(holding, rankedToken{head, token, rank})
			}
			j := int(hash(head, token) >> v.shift)
			for v.slots[j].rankLength != 0 {
				j = (j + 1) & mask
			}
			v.slots[j] = slot{head: head, offset: uint32(i + 1), rankLength: rank<<8 | uint32(len(token))}
		}
		rank++
	}
	holdingLog := max(4, bits.Len(uint(8*len(holding))))
	v.holdingFFFD, v.holdingShift = make([]rankedToken, 1<<holdingLog), uint(64-holdingLog)
	for _, t := range holding {
		j := v.holdingFFFDSlot(t.head, len(t.token))
		for v.holdingFFFD[j].token != "" {
			j = (j + 1) & (len(v.holdingFFFD) - 1)
		}
		v.holdingFFFD[j] = t
	}
	return v
}

// smallKey returns the key in vocabulary.small of the string of n bytes,
// 3 or 4, whose head is head: its bytes, its length above them.
func smallKey(head uint64, n int) uint64 { return uint64(n)<<32 | head }

// rank returns the rank of token, or noRank if it is not in the
// vocabulary.
func (v *vocabulary) rank(token string) uint32 { return v.rankAt(token, 0, len(token)) }

// rankAt returns the rank of s[i:j]. It reads the first 8 bytes in one
// load, from s beyond j where s is long enough.
func (v *vocabulary) rankAt(s string, i, j int) uint32 {
	n := j - i
	if n <= 2 || n > v.longest {
		if n <= 0 || n > v.longest {
			return noRank
		}
		if n == 1 {
			return v.short[shortIndex(-1, int(s[i]))]
		}
		return v.short[shortIndex(int(s[i]), int(s[i+1]))]
	}
	var head uint64
	if len(s)-i >= 8 {
		// its first n bytes, without a branch on n < 8, which random
		// text mispredicts (a shift by 64 or more gives 0)
		head = load64(s[i:]) &^ (^uint64(0) << (8 * n))
	} else {
		head = headOf(s[i:j])
	}
	// The strings around U+FFFD, two compares for the others.
	if head&0xffffff == replacementHead {
		return v.startingReplacement(head, s[i:j])
	}
	if n == 4 && head>>8 == replacementHead {
		return v.short[shortIndex(int(head&0xff), replacementCode)]
	}
	if hasByte(head, replacementChar[0]) {
		for k := 8; k <= 8*min(n-3, 5); k += 8 {
			if head>>k&0xffffff == replacementHead {
				return v.findHolding(head, s[i:j])
			}
		}
	}
	// The probe loops are here, not in functions rankAt calls: the call
	// cost ordinary text 4% of its instructions.
	if n <= 4 {
		key := smallKey(head, n)
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

// startingReplacement returns the rank of token, of 3 bytes or more, which
// starts with U+FFFD, whose head is head.
func (v *vocabulary) startingReplacement(head uint64, token string) uint32 {
	switch {
	case len(token) == 3:
		return v.short[shortIndex(-1, replacementCode)]
	case len(token) == 4:
		return v.short[shortIndex(replacementCode, int(head>>24))]
	case len(token) == 6 && head == replacementHead<<24|replacementHead:
		return v.short[shortIndex(replacementCode, replacementCode)]
	}
	return v.findHolding(head, token)
}

// findHolding returns the rank of token, of 5 bytes or more, which holds
// U+FFFD and whose head is head, or noRank.
func (v *vocabulary) findHolding(head uint64, token string) uint32 {
	for j := v.holdingFFFDSlot(head, len(token)); ; j = (j + 1) & (len(v.holdingFFFD) - 1) {
		t := &v.holdingFFFD[j]
		if t.token == "" {
			return noRank
		}
		if t.head == head && len(t.token) == len(token) && (len(token) <= 8 || t.token[8:] == token[8:]) {
			return t.rank
		}
	}
}

// holdingFFFDSlot returns the first slot in holdingFFFD of a token of n
// bytes whose head is head.
func (v *vocabulary) holdingFFFDSlot(head uint64, n int) int {
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

// replacementHead is U+FFFD's bytes read little-endian.
const replacementHead = 0xbdbfef

// The codes of the starting parts of a piece (partAt): a byte is its
// value, U+FFFD replacementCode.
const (
	replacementCode = 256
	partCodes       = 257
)

// partAt returns the code and the length of the starting part of piece
// at i, before any merge, in short and long pieces alike: U+FFFD's three
// bytes are one part, which is exact in both vocabularies because every
// pair of parts inside it merges before any token that holds some of its
// bytes and a byte around it (TestReplacementCharMergesFirst); any other
// byte is a part of its own. Random bytes read as valid UTF-8 are mostly
// U+FFFD, each two merges fewer than its bytes.
func partAt(piece string, i int) (code, size int) {
	if strings.HasPrefix(piece[i:], replacementChar) {
		return replacementCode, len(replacementChar)
	}
	return int(piece[i]), 1
}

// shortIndex returns the index in vocabulary.short of the part of code b
// after the part of code a, or of b alone when a is -1.
func shortIndex(a, b int) int { return (a+1)*partCodes + b }

// shortIndexOf returns the index in vocabulary.short of token, if it is
// one starting part or two.
func shortIndexOf(token string) (int, bool) {
	a, size := partAt(token, 0)
	if size == len(token) {
		return shortIndex(-1, a), true
	}
	b, rest := partAt(token, size)
	return shortIndex(a, b), size+rest == len(token)
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
