// Command tiktokengo writes the vocabularies that runtime/tiktoken embeds,
// o200k_base.tokens and cl100k_base.tokens, from github.com/tiktoken-go/tokenizer
// (MIT licensed), which compiles in OpenAI's published files
// (https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken
// and cl100k_base.tiktoken). runtime/tiktoken's TestVocabularyIsOpenAIs checks
// the result against the SHA-256 that tiktoken publishes for those files.
// From this directory:
//
//	go run .
//
// A file holds each token in the order of its id, from 0, as its length in
// one byte and its bytes.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/tiktoken-go/tokenizer/codec"
)

func main() {
	for _, enc := range vocabularies {
		data, err := tokensFile(enc.codec(), enc.tokens)
		if err != nil {
			log.Fatalf("%s: %v", enc.name, err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", enc.name+".tokens"), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// vocabularies are the encodings runtime/tiktoken embeds, each with the
// number of its ordinary tokens (the ids below the special tokens).
var vocabularies = []struct {
	name   string
	codec  func() *codec.Codec
	tokens uint
}{
	{"o200k_base", codec.NewO200kBase, 199998},
	{"cl100k_base", codec.NewCl100kBase, 100256},
}

// tokensFile returns the file of the first n tokens of c, which must all
// exist, be at most 255 bytes long, and be followed by no other ordinary
// token.
func tokensFile(c *codec.Codec, n uint) ([]byte, error) {
	var data []byte
	for id := range n {
		token, err := c.Decode([]uint{id})
		if err != nil {
			return nil, fmt.Errorf("id %d: %v", id, err)
		}
		if len(token) == 0 || len(token) > 255 {
			return nil, fmt.Errorf("id %d is %d bytes long", id, len(token))
		}
		data = append(data, byte(len(token)))
		data = append(data, token...)
	}
	if _, err := c.Decode([]uint{n}); err == nil {
		return nil, fmt.Errorf("id %d has a token: the vocabulary is longer", n)
	}
	return data, nil
}
