// Package params is the table of the model parameters promptgen knows: the
// union of the chat parameters that the OpenAI and Anthropic adapters
// (runtime/openaiprompt, runtime/anthropicprompt) map, each with the kind of
// value it takes and the range a provider accepts. promptgen vet checks
// constant parameter overrides (runtime.WithParameter, runtime.Temperature,
// ...) against it, so that a misspelt name or an impossible value fails the
// build instead of a provider call. It is the one table for such checks: a
// parameter added here is known to every check that reads it.
package params

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Kind is the kind of value a parameter takes.
type Kind uint8

const (
	// Number is a finite number.
	Number Kind = iota + 1
	// Integer is a whole number; a float with an integral value is one too,
	// as the adapters accept it.
	Integer
	// Strings is a string or a list of strings.
	Strings
)

// String names the kind as diagnostics do: "a number", "an integer", "a
// string or a list of strings".
func (k Kind) String() string {
	switch k {
	case Number:
		return "a number"
	case Integer:
		return "an integer"
	case Strings:
		return "a string or a list of strings"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Param is one known parameter.
type Param struct {
	Name string
	Kind Kind
	// Min and Max bound a Number or Integer, inclusive; ±Inf when open.
	Min, Max float64
}

// Known lists the known parameters, sorted by name.
var Known = []Param{
	{Name: "frequency_penalty", Kind: Number, Min: -2, Max: 2},
	{Name: "max_completion_tokens", Kind: Integer, Min: 1, Max: math.Inf(1)},
	{Name: "max_tokens", Kind: Integer, Min: 1, Max: math.Inf(1)},
	{Name: "presence_penalty", Kind: Number, Min: -2, Max: 2},
	{Name: "seed", Kind: Integer, Min: math.Inf(-1), Max: math.Inf(1)},
	{Name: "stop", Kind: Strings},
	{Name: "stop_sequences", Kind: Strings},
	{Name: "temperature", Kind: Number, Min: 0, Max: 2},
	{Name: "top_k", Kind: Integer, Min: 0, Max: math.Inf(1)},
	{Name: "top_p", Kind: Number, Min: 0, Max: 1},
}

// Lookup returns the known parameter called name.
func Lookup(name string) (Param, bool) {
	i, ok := slices.BinarySearchFunc(Known, name, func(p Param, name string) int {
		switch {
		case p.Name < name:
			return -1
		case p.Name > name:
			return 1
		}
		return 0
	})
	if !ok {
		return Param{}, false
	}
	return Known[i], true
}

// Names returns the names of the known parameters, sorted.
func Names() []string {
	names := make([]string, len(Known))
	for i, p := range Known {
		names[i] = p.Name
	}
	return names
}

// CheckNumber reports why x is not a valid value of p, or nil when it is:
// p must take a number, and x must be in its range (and whole, for an
// Integer).
func (p Param) CheckNumber(x float64) error {
	switch {
	case p.Kind != Number && p.Kind != Integer:
		return fmt.Errorf("%s takes %s, not a number", p.Name, p.Kind)
	case math.IsNaN(x) || math.IsInf(x, 0):
		return fmt.Errorf("%s must be a finite number", p.Name)
	case p.Kind == Integer && x != math.Trunc(x):
		return fmt.Errorf("%s takes an integer, not %s", p.Name, format(x))
	case x < p.Min || x > p.Max:
		return fmt.Errorf("%s must be %s, not %s", p.Name, p.rangeText(), format(x))
	}
	return nil
}

// rangeText describes p's range: "between 0 and 2", "at least 1".
func (p Param) rangeText() string {
	switch {
	case math.IsInf(p.Max, 1):
		return "at least " + format(p.Min)
	case math.IsInf(p.Min, -1):
		return "at most " + format(p.Max)
	}
	return "between " + format(p.Min) + " and " + format(p.Max)
}

func format(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
