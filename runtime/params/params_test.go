package params

import (
	"math"
	"slices"
	"testing"
)

func TestKnownIsSortedAndFound(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Fatalf("Known is not sorted by name: %q", names)
	}
	if len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Fatalf("Known names a parameter twice: %q", names)
	}
	for _, p := range Known {
		got, ok := Lookup(p.Name)
		if !ok || got != p {
			t.Errorf("Lookup(%q) = %v, %v; want %v, true", p.Name, got, ok, p)
		}
	}
	for _, name := range []string{"", "temprature", "Temperature", "zzz"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) found a parameter", name)
		}
	}
}

func TestCheckNumber(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    float64
		want string
	}{
		{"temperature", 0, ""},
		{"temperature", 2, ""},
		{"temperature", 2.5, "temperature must be between 0 and 2, not 2.5"},
		{"temperature", -0.1, "temperature must be between 0 and 2, not -0.1"},
		{"top_p", 1.01, "top_p must be between 0 and 1, not 1.01"},
		{"max_tokens", 1, ""},
		{"max_tokens", 300.0, ""},
		{"max_tokens", 0, "max_tokens must be at least 1, not 0"},
		{"max_tokens", 2.5, "max_tokens takes an integer, not 2.5"},
		{"seed", -7, ""},
		{"seed", math.NaN(), "seed must be a finite number"},
		{"presence_penalty", -3, "presence_penalty must be between -2 and 2, not -3"},
		{"stop", 1, "stop takes a string or a list of strings, not a number"},
	} {
		p, ok := Lookup(tc.name)
		if !ok {
			t.Fatalf("%s is not known", tc.name)
		}
		got := ""
		if err := p.CheckNumber(tc.x); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s.CheckNumber(%v) = %q, want %q", tc.name, tc.x, got, tc.want)
		}
	}
}
