package output

import (
	"fmt"
	"strings"
	"testing"
)

// typedStreamAnswer is a 10 KB answer of streamSchema: a list of objects with
// strings (escapes included) and booleans.
var typedStreamAnswer = func() string {
	var b strings.Builder
	b.WriteString(`{"name": "A \"quoted\" name\nover two lines", "count": 12111, "mood": "up", "tags": ["a", "b", "c"], "items": [`)
	for i := 0; b.Len() < 10<<10; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"title": "Step %d: check the invoice \u00e9 and the refund", "done": %t}`, i, i%2 == 0)
	}
	b.WriteString("]}")
	return b.String()
}()

// BenchmarkStream compares reading a 10 KB answer whole (ParseWith) with
// feeding it to a Stream in chunks, ending it, and asking for the partial
// after every chunk.
func BenchmarkStream(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(typedStreamAnswer)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseWith[streamOut](streamParser, typedStreamAnswer); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, size := range []int{1, 16} {
		for _, eachPartial := range []bool{false, true} {
			name := fmt.Sprintf("chunks=%d", size)
			if eachPartial {
				name += "/partial-each"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(typedStreamAnswer)))
				b.ReportAllocs()
				for b.Loop() {
					s := NewStream[streamPartial, streamOut](streamParser)
					for i := 0; i < len(typedStreamAnswer); i += size {
						s.WriteString(typedStreamAnswer[i:min(i+size, len(typedStreamAnswer))])
						if eachPartial {
							if _, err := s.Partial(); err != nil {
								b.Fatal(err)
							}
						}
					}
					if _, err := s.End(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
