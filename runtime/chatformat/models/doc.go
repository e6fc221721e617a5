// Package models holds ready chat formats of open-weight model families:
// each model's published chat template, compiled by promptgen (see
// templates/README.md for the sources and licences), with the special
// tokens that mark its turns. A Model formats a runtime.Prompt as the
// model's tokenizer does with transformers' apply_chat_template:
//
//	text, err := models.Phi4.FormatPrompt(prompt, chat.Context{AddGenerationPrompt: true})
//
// The compiled templates are also chatformat.Template values, for
// chatformat.FormatTemplate.
package models

//go:generate go run ../../../cmd/promptgen generate -in templates -out . -pkg models
