module github.com/promptgen/promptgen/runtime/tiktoken/testdata/crosscheck

go 1.26

require (
	github.com/dlclark/regexp2/v2 v2.5.1
	github.com/promptgen/promptgen v0.0.0
	github.com/tiktoken-go/tokenizer v0.10.0
)

replace github.com/promptgen/promptgen => ../../../..
