package hftokenizer

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/internal/pyjinja"
)

// TestExactNFCMatchesPython: appendExactNFC is NFC as Python's
// unicodedata (and Hugging Face's normalizer) computes it, on random
// starters and marks that reorder, compose, decompose to several, are
// excluded from composition, and combine backward though starters
// (U+0B3E, where golang.org/x/text's NFC composes o and U+0301 across it).
func TestExactNFCMatchesPython(t *testing.T) {
	pool := []string{"s", "e", "a", "o", "q", "A", "\u1100", "\u1161", "\u11a8", "\uac00", "\u0958", "\u212b",
		"\u0301", "\u0307", "\u0323", "\u0308", "\u0304", "\u0316", "\u031b", "\u0344", "\u0f73", "\u0345",
		"\u05b0", "\u0591", "\u1e9b", "\u00e9", "\u1e63", "\u093c", "\u0915", "\u0b47", "\u0b3e"}
	rng := rand.New(rand.NewPCG(26, 34))
	texts := make([]string, 20000)
	for i := range texts {
		var b strings.Builder
		for n := 1 + rng.IntN(40); n > 0; n-- {
			b.WriteString(pool[rng.IntN(len(pool))])
		}
		texts[i] = b.String()
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	py := exec.Command(pyjinja.Find(t), "-c", "import json, sys, unicodedata; json.dump([unicodedata.normalize('NFC', s) for s in json.load(sys.stdin)], sys.stdout)")
	py.Stdin = strings.NewReader(string(in))
	out, err := py.Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if got := string(appendExactNFC(nil, text, &nfcBuffers{})); got != want[i] {
			t.Fatalf("%+q: %+q, want %+q", text, got, want[i])
		}
	}
}

// TestExactNFCNoJoiner: more than 30 non-starters are sorted and composed
// as one run, with no U+034F, as Hugging Face's NFC does.
func TestExactNFCNoJoiner(t *testing.T) {
	text := "s" + strings.Repeat("\u0307\u0323", 20) + "a" + strings.Repeat("\u0301", 35)
	want := "\u1e69" + strings.Repeat("\u0323", 19) + strings.Repeat("\u0307", 19) + "\u00e1" + strings.Repeat("\u0301", 34)
	if got := string(appendExactNFC(nil, text, &nfcBuffers{})); got != want {
		t.Errorf("%+q, want %+q", got, want)
	}
}
