package fence

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAll(t *testing.T) {
	tests := []struct {
		in   string
		want []string // info|body
	}{
		{"no fence", nil},
		{"a\n```json\n{}\n```\nb", []string{"json|\n{}\n"}},
		{"```\nx\n```\n~~~yaml\ny: 1\n~~~", []string{"|\nx\n", "yaml|\ny: 1\n"}},
		{"one line: ```json {\"a\": 1}```.", []string{`json| {"a": 1}`}},
		{"````md\n```json\n{}\n```\n````", []string{"md|\n```json\n{}\n```\n"}},
		{"```json\r\n{\"a\": [", []string{"json|\r\n{\"a\": ["}},
		{"~~~\n``` inside\n~~~", []string{"|\n``` inside\n"}},
		{"``` ", []string{"| "}},
	}
	for _, tt := range tests {
		var got []string
		for b := range All(tt.in) {
			got = append(got, b.Info+"|"+tt.in[b.Start:b.End])
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("All(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
