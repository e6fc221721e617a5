module github.com/promptgen/promptgen

go 1.24.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/google/go-cmp v0.7.0
	github.com/openai/openai-go/v3 v3.44.0
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	golang.org/x/tools v0.42.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/tidwall/gjson v1.18.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	golang.org/x/mod v0.33.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
)
