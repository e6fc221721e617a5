package jinja

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// StrftimeDirectives are the directives of Python's strftime that
// Strftime supports: those whose output does not depend on the C library
// or the locale beyond Python's default C locale.
const StrftimeDirectives = "%a %A %b %B %d %H %I %j %m %M %p %S %y %Y %%"

// strftimeLetters are the letters of StrftimeDirectives.
const strftimeLetters = "aAbBdHIjmMpSyY%"

// Strftime formats t as Python's t.strftime(format) does in the C locale,
// for the directives of StrftimeDirectives; any other directive is an
// error, which CheckStrftime reports the same way ahead of time.
func Strftime(t time.Time, format string) (string, error) {
	if err := CheckStrftime(format); err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		i++
		b.WriteString(strftimeDirective(t, format[i]))
	}
	return b.String(), nil
}

// CheckStrftime reports the first directive of format that Strftime does
// not support.
func CheckStrftime(format string) error {
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i == len(format) {
			return fmt.Errorf("strftime format %q ends with a lone %%", format)
		}
		if c := format[i]; !strings.ContainsRune(strftimeLetters, rune(c)) {
			return fmt.Errorf("strftime directive %%%c is not supported (supported: %s)", c, StrftimeDirectives)
		}
	}
	return nil
}

// strftimeDirective is the text of directive c, one of StrftimeDirectives.
func strftimeDirective(t time.Time, c byte) string {
	two := func(n int) string { return fmt.Sprintf("%02d", n) }
	switch c {
	case 'a':
		return t.Weekday().String()[:3]
	case 'A':
		return t.Weekday().String()
	case 'b':
		return t.Month().String()[:3]
	case 'B':
		return t.Month().String()
	case 'd':
		return two(t.Day())
	case 'H':
		return two(t.Hour())
	case 'I':
		return two((t.Hour()+11)%12 + 1)
	case 'j':
		return fmt.Sprintf("%03d", t.YearDay())
	case 'm':
		return two(int(t.Month()))
	case 'M':
		return two(t.Minute())
	case 'p':
		if t.Hour() < 12 {
			return "AM"
		}
		return "PM"
	case 'S':
		return two(t.Second())
	case 'y':
		return two(t.Year() % 100)
	case 'Y':
		return strconv.Itoa(t.Year())
	}
	return "%" // %%
}
