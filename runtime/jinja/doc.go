// Package jinja is the runtime support for Go code compiled from Jinja2
// templates. It reproduces the Python 3.11 and Jinja2 3.1 semantics that are
// not one-liners in Go: printing of floats and strings, Unicode-aware string
// methods and filters, Python number parsing and arithmetic, sequence
// indexing and slicing, and the tojson filter.
//
// Strings are UTF-8; where Python counts characters, these functions count
// code points. Invalid UTF-8 bytes, which a Python str cannot hold, are
// treated as single code points and copied through unchanged unless stated
// otherwise. Unicode properties come from Go's unicode package, so code
// points assigned after Python 3.11's Unicode 14.0 may behave differently.
package jinja

//go:generate /usr/bin/python3 testdata/gen_casetables.py
//go:generate /usr/bin/python3 testdata/gen_cases.py
