package jinja

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// UnmarshalJSON decodes JSON as Python's json.loads does: objects become
// dicts in key order (a key given twice keeps its first place and its last
// value), numbers without a fraction or exponent ints, others floats, null
// None. An int beyond 64 bits is an error.
func (v *Value) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	x, err := decodeValue(d)
	if err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("jinja: trailing data after a JSON value")
	}
	*v = x
	return nil
}

func decodeValue(d *json.Decoder) (Value, error) {
	tok, err := d.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return NoneValue(), nil
	case bool:
		return BoolValue(t), nil
	case string:
		return StringValue(t), nil
	case json.Number:
		s := t.String()
		if !strings.ContainsAny(s, ".eE") {
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return Value{}, fmt.Errorf("jinja: the int %s does not fit in 64 bits", s)
			}
			return IntValue(int(i)), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Value{}, err
		}
		return FloatValue(f), nil // out of range: ±inf, as Python
	case json.Delim:
		if t == '[' {
			items := []Value{}
			for d.More() {
				x, err := decodeValue(d)
				if err != nil {
					return Value{}, err
				}
				items = append(items, x)
			}
			_, err := d.Token()
			return ListValue(items...), err
		}
		obj := DictValue()
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return Value{}, err
			}
			x, err := decodeValue(d)
			if err != nil {
				return Value{}, err
			}
			obj.Set(k.(string), x)
		}
		_, err := d.Token()
		return obj, err
	}
	return Value{}, fmt.Errorf("jinja: unexpected JSON token %v", tok)
}

// MarshalJSON encodes v as JSON with object keys in insertion order;
// undefined, which JSON cannot hold, is an error.
func (v Value) MarshalJSON() ([]byte, error) {
	var w JSONWriter
	return v.writeJSON(nil, &w, true)
}
