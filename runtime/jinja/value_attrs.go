package jinja

import "strings"

// Jinja2 reads x.name as the attribute of the Python value first and
// x['name'] as one where the item is missing: the methods of a dict,
// str or list, and the attributes of an int or float (pyAttrs lists them
// as dir() of Python 3.11 prints them). A method is a Value of its own
// (methodKind), which is true, defined and callable, and which promptgen
// does not print (CheckPrint); reading another attribute fails the render:
// an int's real, a special name, and the methods that modify a dict or
// list, which transformers' sandbox makes an undefined that fails where
// it is used.
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
// one of pyAttrs, or a special name (__class__), which every value has;
// of an iterator, one of iteratorAttrs.
func (v Value) hasPyAttr(name string) bool {
	if v.kind == generatorKind {
		return strings.Contains(iteratorAttrs[v.s], " "+name+" ")
	}
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

// iteratorAttrs are the attributes of Python's iterators, by type (dir()
// of Python 3.11): a generator's (of map, select, ...) and a list's
// reverse iterator's, which has only special names.
var iteratorAttrs = map[string]string{
	"generator": iteratorSpecials + "__del__ __name__ __qualname__ " +
		"close gi_code gi_frame gi_running gi_suspended gi_yieldfrom send throw ",
	"list_reverseiterator":    iteratorSpecials + "__length_hint__ __setstate__ ",
	"reversed":                iteratorSpecials + "__length_hint__ __setstate__ ",
	"dict_reversekeyiterator": iteratorSpecials + "__length_hint__ ",
}

// iteratorSpecials are the special names that both iterators have.
const iteratorSpecials = " __class__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getstate__" +
	" __gt__ __hash__ __init__ __init_subclass__ __iter__ __le__ __lt__ __ne__ __new__ __next__ __reduce__" +
	" __reduce_ex__ __repr__ __setattr__ __sizeof__ __str__ __subclasshook__ "

// notMethods are the attributes of pyAttrs that are no methods, or that
// transformers' ImmutableSandboxedEnvironment does not give (Jinja2's
// sandbox._mutable_spec).
var notMethods = map[valueKind]string{
	dictKind:  " clear pop popitem setdefault update ",
	listKind:  " append extend insert remove reverse sort ",
	intKind:   " denominator imag numerator real ",
	boolKind:  " denominator imag numerator real ",
	floatKind: " imag real ",
	// gi_code and gi_frame are unsafe in the sandbox, the others no methods.
	generatorKind: " gi_code gi_frame gi_running gi_suspended gi_yieldfrom ",
}

// pyAttr is the attribute name of v, which hasPyAttr reports v has: a
// method, or the failure of reading another attribute.
func (v Value) pyAttr(name string) (Value, error) {
	if strings.HasPrefix(name, "_") || strings.Contains(notMethods[v.kind], " "+name+" ") {
		return Value{}, v.errAttr(name)
	}
	owner := v.kind
	if v.tuple {
		owner = tupleOwner
	}
	return Value{kind: methodKind, s: name, i: int64(owner)}, nil
}

// tupleOwner is the owner of a tuple's method, for its name.
const tupleOwner = valueKind(255)

// typeName is the name of the Python type of values of kind k.
func (k valueKind) typeName() string {
	if k == tupleOwner {
		return "tuple"
	}
	return Value{kind: k}.typeName()
}

// methodName is the name of the method v as Python writes it: dict.items.
func (v Value) methodName() string { return valueKind(v.i).typeName() + "." + v.s }

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
