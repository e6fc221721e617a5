package lossy

import (
	"math/rand/v2"
	"strings"
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

// TestMarked: text is read as Valid reads it, with each U+FFFD, of an
// invalid byte or of the text, as Marker, on the texts of TestValid;
// valid text without U+FFFD is returned as it is.
func TestMarked(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 8))
	var buf, validBuf []byte
	for range 2000 {
		b := make([]byte, rng.IntN(50))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		for _, text := range []string{string(b), "é🙂"[:1+rng.IntN(6)] + string(b), ReplacementChar + "\xed\xa0\x80\xf4\x90\x80\x80", "\xc2\x80\xc1\xbf\xf4\x8f\xbf\xbf\xf5", "\xef\xbf\xbd\xef\xbf\xef\xbf\xbd\xbd"} {
			want := strings.ReplaceAll(string([]rune(text)), ReplacementChar, string([]byte{Marker}))
			if got := Marked(&buf, text); got != want {
				t.Fatalf("%q: read as %q, want %q", text, got, want)
			}
			if got := Marked(&buf, Valid(&validBuf, text)); got != want {
				t.Fatalf("%q read as valid: read as %q, want %q", text, got, want)
			}
		}
	}
	if text := "héllo 🙂"; Marked(&buf, text) != text {
		t.Errorf("%q: read as something else", text)
	}
}
