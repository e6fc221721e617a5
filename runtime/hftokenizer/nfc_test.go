package hftokenizer

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/promptgen/promptgen/internal/pyjinja"
	"golang.org/x/text/unicode/norm"
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
	texts := randomTexts(pool, 20000, 40)
	want := pythonNFC(t, texts)
	for i, text := range texts {
		if got := string(appendExactNFC(nil, text, &nfcBuffers{})); got != want[i] {
			t.Fatalf("%+q: %+q, want %+q", text, got, want[i])
		}
	}
}

// randomTexts returns n texts of up to most strings of pool each.
func randomTexts(pool []string, n, most int) []string {
	rng := rand.New(rand.NewPCG(26, 34))
	texts := make([]string, n)
	for i := range texts {
		var b strings.Builder
		for k := 1 + rng.IntN(most); k > 0; k-- {
			b.WriteString(pool[rng.IntN(len(pool))])
		}
		texts[i] = b.String()
	}
	return texts
}

// pythonNFC returns the NFC form of each text as Python's unicodedata
// computes it.
func pythonNFC(t *testing.T, texts []string) []string {
	t.Helper()
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
	return want
}

// TestNormalizeSpans: normalizing only the spans that are not NFC at a
// glance, and passing over ASCII and U+FFFD between them, makes the NFC
// form Python's unicodedata makes, and the segments map it back to the
// text: on starters that combine backward (U+0B47 U+0B3E, U+1100
// U+1161), an ASCII letter or U+FFFD before a mark or before runes of two
// bytes that NFC changes (U+0340, U+0374, U+01D5), runs of more than 30
// marks, and long stretches of runes NFC keeps between.
func TestNormalizeSpans(t *testing.T) {
	pool := []string{"e", "o", " ", "a", "\n", "\u0301", "\u0323", "\u0344", "\u0f73", "\u0b47", "\u0b3e", "\u1100",
		"\u1161", "\u11a8", "\uac00", "\u212b", "\u00e9", "\ufffd", "语", "\u0915\u093c", "\u0958",
		strings.Repeat("\u0301", 33), "\u0b47\u0b3e", "\u1100\u1161", "语言\ufffd", "\U0001f642", "\u0340", "\u0374", "\u01d5"}
	texts := randomTexts(pool, 5000, 60)
	want := pythonNFC(t, texts)
	var s state
	for i, text := range texts {
		s.normalize(text, norm.NFC.QuickSpanString(text))
		if string(s.normal) != want[i] {
			t.Fatalf("%+q: %+q, want %+q", text, s.normal, want[i])
		}
		textStart, normalStart := 0, 0
		for _, seg := range s.changes {
			if seg.same && text[textStart:seg.textEnd] != string(s.normal[normalStart:seg.normalEnd]) {
				t.Fatalf("%+q: segment %+q is %+q", text, text[textStart:seg.textEnd], s.normal[normalStart:seg.normalEnd])
			}
			textStart, normalStart = seg.textEnd, seg.normalEnd
		}
		if textStart != len(text) || normalStart != len(s.normal) {
			t.Fatalf("%+q: segments end at %d, %d", text, textStart, normalStart)
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

// TestExactNFCMarker: appendExactNFC keeps the marker of marked text, a
// starter that composes with nothing, as the one byte it is, where the
// marks after it reorder and a starter after it combines backward, and
// U+FFFD of valid text as U+FFFD.
func TestExactNFCMarker(t *testing.T) {
	for text, want := range map[string]string{
		"\xff\u0b3e\u0301":                    "\xff\u0b3e\u0301",
		"a\xff\u0301\u0327":                   "a\xff\u0327\u0301",
		"\xff" + strings.Repeat("\u0301", 31): "\xff" + strings.Repeat("\u0301", 31),
		"\uFFFD\u0b3e\u0301":                  "\uFFFD\u0b3e\u0301",
		"e\xff\u0301e\u0301":                  "e\xff\u0301\u00e9",
	} {
		if got := string(appendExactNFC(nil, text, &nfcBuffers{})); got != want {
			t.Errorf("appendExactNFC(%q) = %q, want %q", text, got, want)
		}
	}
}
