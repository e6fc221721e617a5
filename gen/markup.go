package gen

// Jinja2's tojson returns Markup: a str whose operations escape the plain
// strings they take (+, replace() and strip()'s arguments, truncate's end)
// and whose split() returns Markup strings, which print as Markup('...')
// inside a list, as a Markup element of a list or dict literal does.
// promptgen's strings are plain, so it rejects those uses of a value that
// may be Markup; every other operation prints the same text.
