package jinja

import "strings"

// Jinja2 reads x.name as the attribute of the Python value first and
// x['name'] as one where the item is missing: the methods of a dict,
// str or list, and the attributes of an int or float. promptgen has no
// value for those, so reading one fails the render (pyAttrs lists them as
// dir() of Python 3.11 prints them).
var pyAttrs = map[valueKind]string{
	dictKind: " clear copy fromkeys get items keys pop popitem setdefault update values ",
	stringKind: " capitalize casefold center count encode endswith expandtabs find format format_map index" +
		" isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle" +
		" isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex" +
		" rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper zfill ",
	listKind:  " append clear copy count extend index insert pop remove reverse sort ",
	intKind:   " as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag numerator real to_bytes ",
	boolKind:  " as_integer_ratio bit_count bit_length conjugate denominator from_bytes imag numerator real to_bytes ",
	floatKind: " as_integer_ratio conjugate fromhex hex imag is_integer real ",
}

// hasPyAttr reports whether the Python value v has the attribute name:
// one of pyAttrs, or a special name (__class__), which every value has.
func (v Value) hasPyAttr(name string) bool {
	if len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
		return true
	}
	if v.group && strings.HasPrefix(name, "_") {
		return true // a namedtuple's _fields, _asdict...
	}
	if v.tuple {
		return name == "count" || name == "index"
	}
	return strings.Contains(pyAttrs[v.kind], " "+name+" ")
}

// errAttr is the failure of reading attribute name of v.
func (v Value) errAttr(name string) error {
	return errInvalid("Jinja2 reads %q as the attribute of the '%s' value, which promptgen does not support", name, v.typeName())
}

// groupField is the attribute name of a groupby group: grouper or list.
func (v Value) groupField(name string) (Value, bool) {
	switch name {
	case "grouper":
		return v.list[0], true
	case "list":
		return v.list[1], true
	}
	return Value{}, false
}
