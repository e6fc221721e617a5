package jinja

import (
	"strings"
	"testing"
	"time"
)

func TestStrftime(t *testing.T) {
	for _, r := range rows(t, "strftime") {
		f := arg[[]int](t, r[0])
		format, want := arg[string](t, r[1]), arg[string](t, r[2])
		at := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, time.UTC)
		got, err := Strftime(at, format)
		if err != nil || got != want {
			t.Errorf("Strftime(%v, %q) = %q, %v; Python prints %q", at, format, got, err, want)
		}
	}
}

// TestStrftimeUnsupported: a directive promptgen does not implement (they
// depend on the C library or the locale in Python) is an error naming it.
func TestStrftimeUnsupported(t *testing.T) {
	at := time.Date(2026, 1, 8, 9, 30, 0, 0, time.UTC)
	for _, format := range []string{"%c", "%x at %H", "%Z", "%-d", "trailing %"} {
		_, err := Strftime(at, format)
		if err == nil || !strings.Contains(err.Error(), "strftime") {
			t.Errorf("Strftime(%q) = %v, want an error naming the directive", format, err)
		}
		if err2 := CheckStrftime(format); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("CheckStrftime(%q) = %v, want %v", format, err2, err)
		}
	}
	if err := CheckStrftime("%d %b %Y"); err != nil {
		t.Errorf("CheckStrftime(%q) = %v", "%d %b %Y", err)
	}
}
