# promptgen's developer commands. `make test` is what CI runs (see .ci/run).

GO ?= go
PYTHON ?= /usr/bin/python3
FUZZTIME ?= 20s

.DEFAULT_GOAL := test
.PHONY: generate check test example bench fuzz golden

# Regenerate generated/ from prompts/ (runs the go:generate line in generated/doc.go).
generate:
	$(GO) generate ./generated/...

# Fail, printing a diff, when generated/ is stale.
check:
	$(GO) run ./cmd/promptgen diff -in prompts -out generated
	$(GO) run ./cmd/promptgen diff -in prompts/bench -out generated/internal/ttbench -renderer text/template

test:
	@unformatted=$$(gofmt -l cmd gen runtime schema generated example); \
		if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race ./...
	$(MAKE) check

# Regenerate, then run the example program.
example: generate
	$(GO) run ./example

# Re-render the expected outputs with real Jinja2 (needs python3-jinja2 and
# python3-yaml): the render corpus in gen/testdata/render, the fixtures of
# generated/testdata for the behaviour tests of generated/ and example/, and
# the chat templates, tagged prompts and HTML stripping of runtime/chatformat.
golden:
	$(PYTHON) gen/testdata/render/golden.py
	$(PYTHON) gen/testdata/render/golden.py --prompts
	$(PYTHON) runtime/chatformat/testdata/golden.py

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./generated/ ./runtime/output/

# Run each fuzz target for $(FUZZTIME).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./gen/internal/tmpl
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./gen
	$(GO) test -run '^$$' -fuzz '^FuzzGenerate$$' -fuzztime $(FUZZTIME) ./gen
	$(GO) test -run '^$$' -fuzz '^FuzzNames$$' -fuzztime $(FUZZTIME) ./gen
	$(GO) test -run '^$$' -fuzz '^FuzzAppendFloat$$' -fuzztime $(FUZZTIME) ./runtime/jinja
	$(GO) test -run '^$$' -fuzz '^FuzzTruncate$$' -fuzztime $(FUZZTIME) ./runtime/jinja
	$(GO) test -run '^$$' -fuzz '^FuzzIndent$$' -fuzztime $(FUZZTIME) ./runtime/jinja
	$(GO) test -run '^$$' -fuzz '^FuzzScanValue$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./runtime/output
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./runtime/output/yamlout
	$(GO) test -run '^$$' -fuzz '^FuzzParseTagged$$' -fuzztime $(FUZZTIME) ./runtime/chatformat
	$(GO) test -run '^$$' -fuzz '^FuzzStripHTML$$' -fuzztime $(FUZZTIME) ./runtime/chatformat
	$(GO) test -run '^$$' -fuzz '^FuzzFormat$$' -fuzztime $(FUZZTIME) ./runtime/chatformat
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./schema
