// Package bytepairs is a table of values indexed by a pair of bytes, few
// of which have one: the tokenizers' merges and tokens of two bytes
// (about 5,000 of 65,536 pairs). An array of all pairs is 256 KB or more,
// and random text reads it at random, a cache miss a read; this table is
// a bit per pair and the values that are set, 35 to 56 KB, and is read
// without a branch on whether a pair is set. A Set is the bits alone
// (8 KB for 65,536 pairs), for a test that needs no value.
package bytepairs

import "math/bits"

// Table maps indexes from 0 to a size to values, a default for those
// not set.
type Table[V comparable] struct {
	words []word
	// values[0] is the default, then the values of the indexes set, in
	// order
	values []V
}

// word holds the bits of 64 indexes and the index in values of the
// first of them that is set.
type word struct {
	bits uint64
	base uint32
}

// New returns the table of the indexes below size, each of the value
// value returns for it, none those that equal none.
func New[V comparable](size int, none V, value func(i int) V) Table[V] {
	t := Table[V]{words: make([]word, (size+63)/64), values: []V{none}}
	for i := range size {
		w := &t.words[i/64]
		if i%64 == 0 {
			w.base = uint32(len(t.values))
		}
		if v := value(i); v != none {
			w.bits |= 1 << (i % 64)
			t.values = append(t.values, v)
		}
	}
	return t
}

// Get returns the value of index i, which is below the table's size.
func (t *Table[V]) Get(i int) V {
	w := t.words[i/64]
	bit := uint64(1) << (i % 64)
	// the index of the value if i is set, else 0: masked by the bit,
	// without a branch, which random text mispredicts
	set := w.bits >> (i % 64) & 1
	k := (uint64(w.base) + uint64(bits.OnesCount64(w.bits&(bit-1)))) & -set
	return t.values[k]
}

// Set is a set of the indexes from 0 to a size: a bit each.
type Set []uint64

// NewSet returns the empty set of the indexes below size.
func NewSet(size int) Set { return make(Set, (size+63)/64) }

// Add adds index i, which is below the set's size.
func (s Set) Add(i int) { s[i/64] |= 1 << (i % 64) }

// Has reports whether index i, which is below the set's size, is in it.
func (s Set) Has(i int) bool { return s[i/64]>>(i%64)&1 != 0 }

// Pairs collects the pairs of bytes that follow one another in strings,
// a byte per pair, stored without reading it: setting a bit of a Set for
// each pair of o200k_base's tokens took 25% more time to build its
// tables.
type Pairs struct{ in [1 << 16]bool }

// Add adds the pairs of bytes of s.
func (p *Pairs) Add(s string) {
	for k := 1; k < len(s); k++ {
		p.in[uint16(s[k-1])<<8|uint16(s[k])] = true
	}
}

// Set returns the set of the pairs, each as the index of its second byte
// after its first (first<<8 | second).
func (p *Pairs) Set() Set {
	s := NewSet(len(p.in))
	for i, in := range p.in {
		if in {
			s.Add(i)
		}
	}
	return s
}
