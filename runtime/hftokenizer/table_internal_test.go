package hftokenizer

import (
	"math/rand/v2"
	"testing"
)

// TestTokenTable: a table finds each token at its id, and a string one
// byte longer or shorter, or with its last byte changed, at its id or
// nowhere, for tokens of 1 to 12 bytes (up to 4 in the table of short
// tokens) and for ids past 24 bits (all in the table of longer tokens).
func TestTokenTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 8))
	for _, firstID := range []uint32{0, 1<<24 - 100} {
		tokens := map[string]uint32{}
		for id := firstID; len(tokens) < 5000; id++ {
			b := make([]byte, 1+rng.IntN(12))
			for i := range b {
				b[i] = "ab\x00\xff"[rng.IntN(4)]
			}
			if _, ok := tokens[string(b)]; !ok {
				tokens[string(b)] = id
			}
		}
		table := newTokenTable(tokens)
		if small := table.small != nil; small != (firstID == 0) {
			t.Errorf("ids from %d: table of short tokens %v, want %v", firstID, small, !small)
		}
		for token := range tokens {
			changed := token[:len(token)-1] + string([]byte{token[len(token)-1] ^ 1})
			for _, s := range []string{token, token + "\x00", token + "a", token[:len(token)-1], changed} {
				want, wantOK := tokens[s]
				if got, ok := table.get(s); got != want || ok != wantOK {
					t.Fatalf("ids from %d: %q is %d, %v in the table, want %d, %v", firstID, s, got, ok, want, wantOK)
				}
			}
		}
	}
}

// TestPairTable: a table finds the value of each pair put in it, and
// noPair for a pair not put, whatever its filter passes.
func TestPairTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 9))
	const n = 20000
	table, values := newPairTable(n), map[[2]uint32]uint64{}
	for len(values) < n {
		pair := [2]uint32{rng.Uint32N(2000), rng.Uint32N(2000)}
		if _, ok := values[pair]; !ok {
			values[pair] = uint64(len(values))<<32 | uint64(rng.Uint32())
			table.put(pair[0], pair[1], values[pair])
		}
	}
	for left := range uint32(2000) {
		for right := range uint32(2000) {
			want, ok := values[[2]uint32{left, right}]
			if !ok {
				want = noPair
			}
			if got := table.get(left, right); got != want {
				t.Fatalf("pair %d, %d: %#x, want %#x", left, right, got, want)
			}
		}
	}
}

// TestHeadOf: the head of each string of up to 12 bytes is its first 8
// bytes, zero-padded, little-endian.
func TestHeadOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 10))
	for range 1000 {
		b := make([]byte, rng.IntN(13))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		var want uint64
		for k := min(len(b), 8) - 1; k >= 0; k-- {
			want = want<<8 | uint64(b[k])
		}
		if got := headOf(string(b)); got != want {
			t.Fatalf("headOf(%q) = %#x, want %#x", b, got, want)
		}
	}
}
