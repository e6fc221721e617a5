package hftokenizer

import (
	"compress/gzip"
	"io"
	"os"
	"slices"
	"sync"
	"testing"
)

var qwen3 = sync.OnceValues(func() (*model, error) {
	f, err := os.Open("testdata/qwen3.tokenizer.json.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(z)
	if err != nil {
		return nil, err
	}
	m, _, err := parse(data, options{})
	return m, err
})

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

// FuzzMerge: the heap's merge makes of any piece (not only those the
// pre-tokenizer makes) what the specification's scan does.
func FuzzMerge(f *testing.F) {
	for _, seed := range []string{"aaaaaaaaaaa", "    \n \n", "hello world", "语言模型语言模型", "🙂🙂🙂", "\xff\xfe abcabcabc", "============"} {
		f.Add(seed)
	}
	m, err := qwen3()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, piece string) {
		if piece == "" {
			return
		}
		var s state
		m.mergeParts(&s, piece)
		var got []uint32
		for i := int32(0); int(i) < len(piece); i = s.next[i] {
			got = append(got, s.ids[i])
		}
		if want := m.mergeByScan(piece); !slices.Equal(got, want) {
			t.Errorf("merge(%q) = %v, want %v", piece, got, want)
		}
	})
}
