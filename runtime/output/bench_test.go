package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchJSON is a typical 300-byte answer to the customer summary prompt.
const benchJSON = `{"main_reason": "The customer was charged twice for the March invoice", "sentiment": "negative", "action_items": ["Refund the duplicate charge", "Email the corrected invoice", "Flag the account for billing review"], "summary": "The customer reported a double charge. The agent apologised and promised a refund within five days."}`

// summaryChecks stands in for the checks promptgen will generate from the
// schema: plain Go code on the decoded struct.
type summaryChecks struct{}

func (summaryChecks) Validate(_ []byte, v any) error {
	s, ok := v.(*summary)
	if !ok {
		return nil
	}
	var es Errors
	if s.MainReason == "" {
		es = append(es, &Error{Pointer: "/main_reason", Keyword: "minLength", Message: "length must be >= 1"})
	}
	switch s.Sentiment {
	case "positive", "neutral", "negative":
	default:
		es = append(es, &Error{Pointer: "/sentiment", Keyword: "enum", Message: `value must be one of "positive", "neutral", "negative"`})
	}
	if len(s.ActionItems) > 5 {
		es = append(es, &Error{Pointer: "/action_items", Keyword: "maxItems", Message: "maximum 5 items required"})
	}
	if es != nil {
		return es
	}
	return nil
}

// extracted keeps the result of Extract alive, as a caller would.
var extracted []byte

// BenchmarkParse compares decoding a completion into the hand-written struct
// with plain json.Unmarshal of the same bytes (the baseline).
func BenchmarkParse(b *testing.B) {
	fenced := "Sure! Here's the JSON:\n\n```json\n" + benchJSON + "\n```\n"
	doc := []byte(benchJSON)
	b.Run("unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			var s summary
			if err := json.Unmarshal(doc, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, bc := range []struct {
		name       string
		completion string
		val        Validator
	}{
		{"extract+unmarshal", benchJSON, nil},
		{"extract+unmarshal+checks", benchJSON, summaryChecks{}},
		{"fenced/extract+unmarshal+checks", fenced, summaryChecks{}},
		{"extract+unmarshal+jsonschema", benchJSON, summaryValidator},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.completion)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse[summary](bc.completion, bc.val); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("extract", func(b *testing.B) {
		b.SetBytes(int64(len(benchJSON)))
		b.ReportAllocs()
		for b.Loop() {
			doc, err := Extract(benchJSON)
			if err != nil {
				b.Fatal(err)
			}
			extracted = doc
		}
	})
}

// streamAnswer is a 10 KB answer as a model streams it: an object with a
// list of objects, strings with escapes, numbers.
var streamAnswer = func() string {
	var b strings.Builder
	b.WriteString(`{"title": "Quarterly review of open \"billing\" tickets", "total": 48213.75, "tickets": [`)
	for i := 0; b.Len() < 10_000; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"id": %d, "customer": "Customer %d", "amount": %d.%02d, "priority": "high", "tags": ["refund", "vip"], "note": "Charged twice:\n\t\"%d\" \u00e9t\u00e9 \\ path"}`, 1000+i, i, i*37, i%100, i)
	}
	b.WriteString(`], "done": true}`)
	return b.String()
}()

// BenchmarkLooseStream compares reading an answer whole with feeding it to
// the reader in chunks of 1 and 16 bytes, then asking for the tree once.
func BenchmarkLooseStream(b *testing.B) {
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(streamAnswer)))
		b.ReportAllocs()
		for b.Loop() {
			if n, _ := readLoose(streamAnswer, 0); n == nil || !n.closed {
				b.Fatal("not read")
			}
		}
	})
	for _, chunk := range []int{1, 16} {
		b.Run(fmt.Sprintf("chunks-of-%d", chunk), func(b *testing.B) {
			b.SetBytes(int64(len(streamAnswer)))
			b.ReportAllocs()
			for b.Loop() {
				r := &looseStream{}
				for i := 0; i < len(streamAnswer); i += chunk {
					r.write(streamAnswer[i:min(i+chunk, len(streamAnswer))])
				}
				if n := r.root(); n == nil || !n.closed {
					b.Fatal("not read")
				}
			}
		})
	}
}
