// Command promptgen generates a typed Go package from a directory of prompt
// files: YAML prompts with Jinja2-style templates go in, Go code comes out.
//
// Usage:
//
//	promptgen generate [-in prompts] [-out generated] [-pkg NAME] [-renderer go|text/template] [-strict] [-v]
//	promptgen diff     (same flags)
//	promptgen watch    (same flags)
//	promptgen test     [-in prompts] [-dir generated/testdata] [-update] [PROMPT...]
//	promptgen vet      [packages]
//	promptgen version
//	promptgen help [command]
//
// Run "promptgen help" for details.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
