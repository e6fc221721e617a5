package suggest

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"model", "model", 0},
		{"modl", "model", 1},   // deletion
		{"moddel", "model", 1}, // insertion
		{"modal", "model", 1},  // substitution
		{"modle", "model", 1},  // transposition of adjacent letters
		{"tempreature", "temperature", 1},
		{"ab", "ba", 1},
		{"abc", "ca", 3}, // optimal string alignment: no edit of a transposed pair
		{"kitten", "sitting", 3},
		{"abcd", "badc", 2}, // two transpositions
	}
	for _, tt := range tests {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := EditDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	keys := []string{"description", "model", "parameters", "template", "inputs"}
	tests := []struct {
		name string
		want string
	}{
		{"modle", ` (did you mean "model"?)`},
		{"tempalte", ` (did you mean "template"?)`},
		{"Modle", ` (did you mean "model"?)`},
		{"inptus", ` (did you mean "inputs"?)`},
		{"banana", ""},
		{"mdoel", ` (did you mean "model"?)`},
	}
	for _, tt := range tests {
		if got := DidYouMean(tt.name, keys); got != tt.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
