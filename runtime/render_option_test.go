package runtime

import (
	"testing"
	"time"
)

func TestRenderNow(t *testing.T) {
	at := time.Date(2026, 1, 8, 9, 30, 0, 0, time.UTC)
	later := at.Add(time.Hour)
	if got := RenderNow([]RenderOption{WithNow(at), WithNow(later)}); !got.Equal(later) {
		t.Errorf("RenderNow with two WithNow = %v, want the last, %v", got, later)
	}
	before := time.Now()
	got := RenderNow(nil)
	if got.Before(before) || got.After(time.Now()) {
		t.Errorf("RenderNow without WithNow = %v, want the current time", got)
	}
}
