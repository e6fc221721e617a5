package runtime

import (
	"maps"
	"strconv"
)

// ConflictStrategy decides what a set feed's generated Merge(other, s) does
// with a field that both feeds set (template-manager.md, "Merge Knowledge":
// the spec's feed_conflict_resolution). The receiver holds the values
// already in the feed, other the incoming ones (the spec's knowledge). A
// field is set when it is not its zero value ("Only non-empty values are
// included"); a field only one side sets ends up set, whatever the strategy.
type ConflictStrategy uint8

const (
	// FeedOnly, the default: the incoming value replaces the existing one.
	FeedOnly ConflictStrategy = iota
	// AttributeOnly: the existing value takes priority.
	AttributeOnly
	// Merge: strings are joined, existing first, with a blank line ("\n\n")
	// between; slices are appended; maps get the incoming entries, which
	// win on a shared key. Other values are replaced, as under FeedOnly.
	Merge
)

var strategyNames = [...]string{"FeedOnly", "AttributeOnly", "Merge"}

// String returns the strategy's name.
func (s ConflictStrategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "ConflictStrategy(" + strconv.Itoa(int(s)) + ")"
}

// mergeSep joins two strings under Merge, as the spec's "\n\n" separator.
const mergeSep = "\n\n"

// MergeString merges the string field src into *dst under s. A strategy
// that is none of the three constants acts as FeedOnly.
func MergeString(dst *string, src string, s ConflictStrategy) {
	switch {
	case src == "":
	case *dst == "":
		*dst = src
	case s == AttributeOnly:
	case s == Merge:
		*dst += mergeSep + src
	default:
		*dst = src
	}
}

// MergeSlice merges the slice field src into *dst under s; Merge appends
// into a new array, so neither input is modified.
func MergeSlice[T any](dst *[]T, src []T, s ConflictStrategy) {
	switch {
	case len(src) == 0:
	case len(*dst) == 0:
		*dst = src
	case s == AttributeOnly:
	case s == Merge:
		d := *dst
		*dst = append(d[:len(d):len(d)], src...)
	default:
		*dst = src
	}
}

// MergeMap merges the map field src into *dst under s; Merge builds a new
// map, so neither input is modified.
func MergeMap[K comparable, V any](dst *map[K]V, src map[K]V, s ConflictStrategy) {
	switch {
	case len(src) == 0:
	case len(*dst) == 0:
		*dst = src
	case s == AttributeOnly:
	case s == Merge:
		m := maps.Clone(*dst)
		maps.Copy(m, src)
		*dst = m
	default:
		*dst = src
	}
}

// MergeValue merges any other field (numbers, booleans, pointers) into
// *dst under s. Under Merge, an optional string (*string) set on both
// sides becomes a new string joined as MergeString joins; any other value
// is replaced.
func MergeValue[T comparable](dst *T, src T, s ConflictStrategy) {
	var zero T
	switch {
	case src == zero:
	case *dst == zero:
		*dst = src
	case s == AttributeOnly:
	case s == Merge:
		if d, ok := any(dst).(**string); ok {
			joined := **d + mergeSep + *any(src).(*string)
			*d = &joined
			return
		}
		*dst = src
	default:
		*dst = src
	}
}
