package lossy

import (
	"math/rand/v2"
	"testing"
)

// TestValid: text is read as a []rune conversion reads it, on random
// bytes, on runes cut short, on surrogates and runes past U+10FFFF, and
// on the lowest and highest lead bytes; valid text is returned as it is.
func TestValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 7))
	var buf []byte
	for range 2000 {
		b := make([]byte, rng.IntN(50))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		for _, text := range []string{string(b), "é🙂"[:1+rng.IntN(6)] + string(b), ReplacementChar + "\xed\xa0\x80\xf4\x90\x80\x80", "\xc2\x80\xc1\xbf\xf4\x8f\xbf\xbf\xf5"} {
			if got, want := Valid(&buf, text), string([]rune(text)); got != want {
				t.Fatalf("%q: read as %q, want %q", text, got, want)
			}
		}
	}
	if text := "héllo 🙂"; Valid(&buf, text) != text {
		t.Errorf("%q: read as something else", text)
	}
}
