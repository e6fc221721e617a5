package gen

// The test helpers of the external tests (package gen_test): the chat
// corpus tests import internal/difffuzz, which imports gen, so they cannot
// be in package gen.
var (
	ReadFile  = readFile
	WriteFile = writeFile
)
