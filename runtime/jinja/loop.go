package jinja

// LoopItem returns items[i] for loop.previtem (i one before the current
// index) and loop.nextitem (one after). It reports false past either end,
// where Jinja2's item is undefined: unlike Index, a negative i does not
// count from the end.
func LoopItem[T any](items []T, i int) (T, bool) {
	if i < 0 || i >= len(items) {
		var zero T
		return zero, false
	}
	return items[i], true
}
