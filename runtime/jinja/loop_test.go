package jinja

import "testing"

func TestLoopItem(t *testing.T) {
	items := []string{"a", "b", "c"}
	for _, c := range []struct {
		i    int
		want string
		ok   bool
	}{{-1, "", false}, {0, "a", true}, {2, "c", true}, {3, "", false}} {
		if got, ok := LoopItem(items, c.i); got != c.want || ok != c.ok {
			t.Errorf("LoopItem(%q, %d) = %q, %v; want %q, %v", items, c.i, got, ok, c.want, c.ok)
		}
	}
}
