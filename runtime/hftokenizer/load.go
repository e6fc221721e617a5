package hftokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/promptgen/promptgen/runtime/internal/bytepairs"
	"github.com/promptgen/promptgen/runtime/internal/lossy"
	"github.com/promptgen/promptgen/runtime/tiktoken"
)

// MaxFileSize is the size of the largest tokenizer.json Load reads: the
// byte-level BPE files of Llama 3 and Qwen 3 are 9 and 11 MB.
const MaxFileSize = 64 << 20

// The pre-tokenizer expressions the package splits text by, exactly as
// tokenizer.json files spell them: Llama 3's is cl100k_base's, Qwen 2's
// (also Qwen 2.5's and 3's) the same with single digits, and
// o200k_base's is the one of GPT-4o's tokenizer.json.
const (
	cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	qwen2Pattern  = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	o200kPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

var splitters = map[string]func(text string, i int) int{
	cl100kPattern: tiktoken.SplitCl100k,
	qwen2Pattern:  splitQwen2,
	o200kPattern:  tiktoken.SplitO200k,
}

// splitQwen2 is cl100k_base's pre-tokenizer with \p{N} for \p{N}{1,3}:
// only that alternative matches at a number, and no other takes one in.
// An ASCII byte is a number if it is a digit, and U+FFFD, most of random
// bytes read as valid UTF-8, is none, marked or not: neither is decoded.
func splitQwen2(text string, i int) int {
	if b := text[i]; b < utf8.RuneSelf {
		if '0' <= b && b <= '9' {
			return i + 1
		}
	} else if b != lossy.Marker && !strings.HasPrefix(text[i:], lossy.ReplacementChar) {
		if r, size := utf8.DecodeRuneInString(text[i:]); unicode.IsNumber(r) {
			return i + size
		}
	}
	return tiktoken.SplitCl100k(text, i)
}

// file is the part of a tokenizer.json that decides the tokens of a
// text. Decoding refuses fields it does not list: one could change them.
// truncation and padding shape a model's input, not the tokens of a
// text, and post_processor and decoder only add tokens around them and
// turn tokens back into text; they are not read.
type file struct {
	Version       string          `json:"version"`
	Truncation    json.RawMessage `json:"truncation"`
	Padding       json.RawMessage `json:"padding"`
	AddedTokens   []addedToken    `json:"added_tokens"`
	Normalizer    *normalizer     `json:"normalizer"`
	PreTokenizer  *preTokenizer   `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Decoder       json.RawMessage `json:"decoder"`
	Model         *bpeModel       `json:"model"`
}

type addedToken struct {
	ID         *int64 `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	Lstrip     bool   `json:"lstrip"`
	Rstrip     bool   `json:"rstrip"`
	Normalized *bool  `json:"normalized"`
	Special    bool   `json:"special"`
}

type normalizer struct {
	Type        string       `json:"type"`
	Normalizers []normalizer `json:"normalizers"`
}

// nfc reports whether n normalizes as NFC does (NFC, or a Sequence of
// NFCs, NFC being idempotent), or as none does (an empty Sequence, as
// DeepSeek V3's), and fails on any other normalizer, naming it.
func (n *normalizer) nfc() (bool, error) {
	switch {
	case n == nil:
		return false, nil
	case n.Type == "NFC":
		return true, nil
	case n.Type != "Sequence":
		return false, fmt.Errorf("normalizer %q is not implemented (only none or NFC)", n.Type)
	}
	nfc := false
	for i := range n.Normalizers {
		if n.Normalizers[i].Type != "NFC" {
			return false, fmt.Errorf("normalizer %s is not implemented (only none or NFC)", n.describe())
		}
		nfc = true
	}
	return nfc, nil
}

// describe names a normalizer and its parts, for an error.
func (n *normalizer) describe() string {
	if n.Type != "Sequence" {
		return n.Type
	}
	parts := make([]string, len(n.Normalizers))
	for i := range n.Normalizers {
		parts[i] = n.Normalizers[i].describe()
	}
	return n.Type + "(" + strings.Join(parts, ", ") + ")"
}

type preTokenizer struct {
	Type           string         `json:"type"`
	Pretokenizers  []preTokenizer `json:"pretokenizers"`
	Pattern        *splitPattern  `json:"pattern"`
	Behavior       string         `json:"behavior"`
	Invert         bool           `json:"invert"`
	AddPrefixSpace bool           `json:"add_prefix_space"`
	TrimOffsets    bool           `json:"trim_offsets"`
	UseRegex       *bool          `json:"use_regex"`
}

type splitPattern struct {
	Regex  *string `json:"Regex"`
	String *string `json:"String"`
}

type bpeModel struct {
	Type                    string          `json:"type"`
	Dropout                 *float64        `json:"dropout"`
	UnkToken                *string         `json:"unk_token"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
	FuseUnk                 bool            `json:"fuse_unk"`
	ByteFallback            bool            `json:"byte_fallback"`
	IgnoreMerges            bool            `json:"ignore_merges"`
	Vocab                   json.RawMessage `json:"vocab"`
	Merges                  json.RawMessage `json:"merges"`
}

// merge is one line of the merges: "a b" in older files, ["a", "b"] in
// newer ones.
type merge struct{ left, right string }

// scanner reads the vocabulary and the merges, the bulk of a
// tokenizer.json, several times faster than encoding/json decodes them
// into a map and a slice. The decoder has checked that they are JSON.
type scanner struct {
	data []byte
	i    int
}

func (s *scanner) space() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t' || s.data[s.i] == '\n' || s.data[s.i] == '\r') {
		s.i++
	}
}

// next reports whether the next byte past spaces is c, and reads it if so.
func (s *scanner) next(c byte) bool {
	s.space()
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// list reads a JSON array (open '[', close ']') or object ('{', '}'),
// calling item for each element, or nothing for null.
func (s *scanner) list(open, close byte, what string, item func() error) error {
	if s.space(); bytes.HasPrefix(s.data[s.i:], []byte("null")) {
		return nil
	}
	if !s.next(open) {
		return fmt.Errorf("%s is not a JSON %s", what, map[byte]string{'[': "array", '{': "object"}[open])
	}
	if s.next(close) {
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if s.next(close) {
			return nil
		}
		if !s.next(',') {
			return fmt.Errorf("%s: malformed at byte %d", what, s.i)
		}
	}
}

func (s *scanner) string(what string) (string, error) {
	if !s.next('"') {
		return "", fmt.Errorf("%s: a string expected at byte %d", what, s.i)
	}
	start, escaped := s.i, false
	for ; s.i < len(s.data) && s.data[s.i] != '"'; s.i++ {
		if s.data[s.i] == '\\' {
			escaped = true
			s.i++
		}
	}
	if s.i >= len(s.data) {
		return "", fmt.Errorf("%s: unterminated string", what)
	}
	s.i++
	if !escaped {
		return string(s.data[start : s.i-1]), nil
	}
	var str string
	err := json.Unmarshal(s.data[start-1:s.i], &str)
	return str, err
}

func (s *scanner) id(token string) (int64, error) {
	s.space()
	start := s.i
	for s.i < len(s.data) && strings.IndexByte("-+0123456789.eE", s.data[s.i]) >= 0 {
		s.i++
	}
	id, err := strconv.ParseInt(string(s.data[start:s.i]), 10, 64)
	if err != nil || id < 0 || id >= math.MaxInt32 {
		return 0, fmt.Errorf("token %q has id %q", token, s.data[start:s.i])
	}
	return id, nil
}

// vocabulary reads the model's vocab: each token's id by its text.
func vocabulary(data json.RawMessage) (map[string]uint32, error) {
	vocab := map[string]uint32{}
	// An id names one token: the merges' ids and the caches of merging
	// (by the ids of tokens) rely on it.
	tokenOf := map[uint32]string{}
	s := &scanner{data: data}
	err := s.list('{', '}', "vocab", func() error {
		token, err := s.string("vocab")
		if err != nil {
			return err
		}
		if !s.next(':') {
			return fmt.Errorf("vocab: malformed at byte %d", s.i)
		}
		id, err := s.id(token)
		if err != nil {
			return err
		}
		if other, ok := tokenOf[uint32(id)]; ok && other != token {
			return fmt.Errorf("vocab: tokens %q and %q have the same id %d", other, token, id)
		}
		vocab[token], tokenOf[uint32(id)] = uint32(id), token
		return nil
	})
	return vocab, err
}

// merges reads the model's merges.
func merges(data json.RawMessage) ([]merge, error) {
	var list []merge
	s := &scanner{data: data}
	err := s.list('[', ']', "merges", func() error {
		var m merge
		var err error
		if s.space(); s.i < len(s.data) && s.data[s.i] == '"' {
			line, err := s.string("merges")
			if err != nil {
				return err
			}
			var ok bool
			m.left, m.right, ok = strings.Cut(line, " ")
			if !ok || strings.Contains(m.right, " ") {
				return fmt.Errorf("merge %q is not two tokens separated by a space", line)
			}
		} else {
			var pair []string
			err = s.list('[', ']', "a merge, neither a string nor a pair,", func() error {
				token, err := s.string("merge")
				pair = append(pair, token)
				return err
			})
			if err == nil && len(pair) != 2 {
				err = fmt.Errorf("merge %q is not a pair of tokens", pair)
			}
			if err != nil {
				return err
			}
			m.left, m.right = pair[0], pair[1]
		}
		list = append(list, m)
		return nil
	})
	return list, err
}

// LoadFile reads a tokenizer.json of at most MaxFileSize bytes, as Load.
func LoadFile(path string, opts ...Option) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hftokenizer: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > MaxFileSize {
		return nil, fmt.Errorf("hftokenizer: %s: the file is larger than %d bytes", path, MaxFileSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("hftokenizer: %w", err)
	}
	t, err := Load(data, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return t, nil
}

// Load reads a tokenizer.json: a byte-level BPE whose normalizer is none
// or NFC and whose pre-tokenizer splits by one of the expressions the
// package implements. Any other is an error naming what it does not
// implement: it never tokenizes differently from the file.
func Load(data []byte, opts ...Option) (*Tokenizer, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	m, added, err := parse(data, o)
	if err != nil {
		return nil, fmt.Errorf("hftokenizer: %w", err)
	}
	return newTokenizer(m, added), nil
}

func parse(data []byte, o options) (*model, *addedTokens, error) {
	if len(data) > MaxFileSize {
		return nil, nil, fmt.Errorf("the file is larger than %d bytes", MaxFileSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		if err := unimplemented(data); err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("not a tokenizer.json this package reads: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errors.New("not a tokenizer.json: more than one JSON value")
	}
	m := &model{}
	var err error
	if m.nfc, err = f.Normalizer.nfc(); err != nil {
		return nil, nil, err
	}
	if m.split, err = byteLevelSplit(f.PreTokenizer); err != nil {
		return nil, nil, fmt.Errorf("pre_tokenizer: %w", err)
	}
	if err := m.build(f.Model); err != nil {
		return nil, nil, fmt.Errorf("model: %w", err)
	}
	added, err := newAddedTokens(f.AddedTokens, m, o.matchSpecial)
	if err != nil {
		return nil, nil, fmt.Errorf("added_tokens: %w", err)
	}
	return m, added, nil
}

// unimplemented is the error naming the normalizer or pre-tokenizer of
// data that the package does not implement, if any, read without
// refusing unknown fields: their own fields (Replace's pattern,
// Metaspace's replacement) are not what to name.
func unimplemented(data []byte) error {
	var f struct {
		Normalizer   *normalizer   `json:"normalizer"`
		PreTokenizer *preTokenizer `json:"pre_tokenizer"`
	}
	if json.Unmarshal(data, &f) != nil || f.PreTokenizer == nil {
		return nil
	}
	if _, err := f.Normalizer.nfc(); err != nil {
		return err
	}
	if _, err := byteLevelSplit(f.PreTokenizer); err != nil {
		return fmt.Errorf("pre_tokenizer: %w", err)
	}
	return nil
}

// byteLevelSplit returns the splitter of a pre-tokenizer that is a
// Sequence of a Split by an expression the package implements and a
// ByteLevel that only maps bytes, as Llama 3's and Qwen 2's are.
func byteLevelSplit(p *preTokenizer) (func(string, int) int, error) {
	if p == nil {
		return nil, errors.New("none: only a Sequence of Split and ByteLevel is implemented")
	}
	if p.Type != "Sequence" || len(p.Pretokenizers) != 2 || p.Pretokenizers[0].Type != "Split" || p.Pretokenizers[1].Type != "ByteLevel" {
		return nil, fmt.Errorf("%s: only a Sequence of Split and ByteLevel is implemented", describe(p))
	}
	split, byteLevel := &p.Pretokenizers[0], &p.Pretokenizers[1]
	if split.Pattern == nil || split.Pattern.Regex == nil {
		return nil, errors.New("Split: only a Regex pattern is implemented")
	}
	splitter, ok := splitters[*split.Pattern.Regex]
	if !ok {
		return nil, fmt.Errorf("Split: pattern %q is not implemented (only those of Llama 3, Qwen 2 and GPT-4o)", *split.Pattern.Regex)
	}
	// Every rune starts a match of these expressions, so the pieces between
	// matches are empty, and keeping the matches (Removed, inverted) is
	// isolating them.
	if !(split.Behavior == "Isolated" && !split.Invert || split.Behavior == "Removed" && split.Invert) {
		return nil, fmt.Errorf("Split: behavior %q with invert %t is not implemented", split.Behavior, split.Invert)
	}
	if byteLevel.AddPrefixSpace {
		return nil, errors.New("ByteLevel: add_prefix_space is not implemented")
	}
	if byteLevel.UseRegex == nil || *byteLevel.UseRegex {
		return nil, errors.New("ByteLevel: use_regex (GPT-2's expression) is not implemented")
	}
	return splitter, nil
}

// describe names a pre-tokenizer and its parts, for an error.
func describe(p *preTokenizer) string {
	if len(p.Pretokenizers) == 0 {
		return p.Type
	}
	parts := make([]string, len(p.Pretokenizers))
	for i := range p.Pretokenizers {
		parts[i] = describe(&p.Pretokenizers[i])
	}
	return p.Type + "(" + strings.Join(parts, ", ") + ")"
}

// build makes the model's tables: the vocabulary by the bytes of each
// token, and the merges by the pair of ids they join.
func (m *model) build(b *bpeModel) error {
	switch {
	case b == nil:
		return errors.New("none")
	case b.Type != "BPE":
		return fmt.Errorf("type %q is not implemented (only BPE)", b.Type)
	case b.Dropout != nil && *b.Dropout != 0:
		return errors.New("dropout is not implemented")
	case b.ContinuingSubwordPrefix != nil && *b.ContinuingSubwordPrefix != "",
		b.EndOfWordSuffix != nil && *b.EndOfWordSuffix != "":
		return errors.New("continuing_subword_prefix and end_of_word_suffix are not implemented")
	case b.ByteFallback:
		return errors.New("byte_fallback is not implemented")
	}
	vocab, err := vocabulary(b.Vocab)
	if err != nil {
		return err
	}
	mergeList, err := merges(b.Merges)
	if err != nil {
		return err
	}
	m.ignoreMerges = b.IgnoreMerges
	byBytes := make(map[string]uint32, len(vocab))
	maxID := uint32(0)
	for token, id := range vocab {
		maxID = max(maxID, id)
		// A token that is not of the byte-level alphabet is no piece of
		// any text: the alphabet spells every byte.
		if bytes, ok := fromByteLevel(token); ok {
			byBytes[bytes] = id
		}
	}
	for b := range 256 {
		id, ok := byBytes[string([]byte{byte(b)})]
		if !ok {
			return fmt.Errorf("the vocabulary has no token for byte 0x%02x (%q)", b, byteRunes[b])
		}
		m.byteIDs[b] = id
	}
	m.whole = make([]atomic.Uint32, maxID/16+1)
	m.merges, m.mergeCount = newPairTable(len(mergeList)), len(mergeList)
	held := map[uint32]bool{}
	for bytes, id := range byBytes {
		if strings.Contains(bytes, lossy.ReplacementChar) {
			held[id] = true
		}
	}
	var heldMerges [][3]uint64 // of which a side holds U+FFFD
	for rank, mg := range mergeList {
		var ids [3]uint32
		for i, token := range [3]string{mg.left, mg.right, mg.left + mg.right} {
			id, ok := vocab[token]
			if !ok {
				return fmt.Errorf("merge %d (%q %q): %q is not in the vocabulary", rank, mg.left, mg.right, token)
			}
			ids[i] = id
		}
		if m.merges.put(ids[0], ids[1], uint64(rank)<<32|uint64(ids[2])) {
			return fmt.Errorf("merge %d (%q %q) is listed twice", rank, mg.left, mg.right)
		}
		if held[ids[0]] || held[ids[1]] {
			heldMerges = append(heldMerges, [3]uint64{uint64(ids[0]), uint64(ids[1]), uint64(rank)<<32 | uint64(ids[2])})
		}
	}
	m.replacementID, m.replacementPart = m.replacementMergesFirst(mergeList)
	m.partIDs = m.byteIDs
	if m.replacementPart {
		m.partIDs[lossy.Marker] = m.replacementID
	}
	m.bytePairs = bytepairs.New(1<<16, noPair, func(pair int) uint64 {
		return m.merges.get(m.partIDs[pair>>8], m.partIDs[pair&0xff])
	})
	holding := m.readTokens(byBytes)
	m.vocab = newTokenTable(byBytes)
	m.replacementVocab, m.replacementMerges = newTokenTable(holding), newPairTable(len(heldMerges))
	for _, mg := range heldMerges {
		m.replacementMerges.put(uint32(mg[0]), uint32(mg[1]), mg[2])
	}
	if m.replacementPart {
		inTokens := new(bytepairs.Pairs)
		for bytes := range byBytes {
			inTokens.Add(bytes)
		}
		m.pairsInTokens = inTokens.Set()
		runs, s := strings.Repeat(string([]byte{lossy.Marker}), shortPiece), new(state)
		for n := 1; n <= shortPiece; n++ {
			m.markerRuns[n] = uint8(m.mergeParts(s, runs[:n]))
		}
	}
	return nil
}

// readTokens changes byBytes, the tokens by their bytes, to the tokens as
// the text is read (model.read), and returns those of them that hold
// U+FFFD: marked if the text is (a token that holds the byte 0xFF, which
// marked text holds only as the marker, is left out; marking is
// one-to-one on the others).
func (m *model) readTokens(byBytes map[string]uint32) (holding map[string]uint32) {
	holding = map[string]uint32{}
	for bytes, id := range byBytes {
		if strings.Contains(bytes, lossy.ReplacementChar) || m.replacementPart && strings.IndexByte(bytes, lossy.Marker) >= 0 {
			holding[bytes] = id
		}
	}
	if !m.replacementPart {
		return holding
	}
	marked := make(map[string]uint32, len(holding))
	for bytes, id := range holding {
		delete(byBytes, bytes)
		if strings.IndexByte(bytes, lossy.Marker) < 0 {
			marked[m.mark(bytes)] = id
		}
	}
	maps.Copy(byBytes, marked)
	return marked
}

// mark returns s, valid UTF-8, as the text is read: each U+FFFD as the
// marker if the text is marked.
func (m *model) mark(s string) string {
	if !m.replacementPart {
		return s
	}
	return strings.ReplaceAll(s, lossy.ReplacementChar, string([]byte{lossy.Marker}))
}

// replacementMergesFirst returns the id of U+FFFD, and whether its bytes
// merge into it before any merge joins some of them with a byte around
// them, whatever surrounds it: then a piece may start it as one part.
// Its bytes merge by the first of their two pairs that has a merge, then
// the merge that completes it, which must exist; if every merge that
// makes a token ending in a proper prefix of U+FFFD, or starting with a
// proper suffix, comes after those two, a pair that crosses U+FFFD's
// bytes never ranks before the pair inside it that is left to merge
// (the first merge that crosses it makes such a token). Random bytes
// read as valid UTF-8 are mostly U+FFFD: each as one part is two merges
// fewer.
func (m *model) replacementMergesFirst(mergeList []merge) (uint32, bool) {
	first, second := m.merges.get(m.byteIDs[0xef], m.byteIDs[0xbf]), m.merges.get(m.byteIDs[0xbf], m.byteIDs[0xbd])
	var last uint64
	switch {
	case first>>32 < second>>32: // first is a merge, before second if that is one
		last = m.merges.get(uint32(first), m.byteIDs[0xbd])
	case second != noPair:
		first, last = second, m.merges.get(m.byteIDs[0xef], uint32(second))
	}
	if first == noPair || last == noPair {
		return 0, false
	}
	inside := int(max(first>>32, last>>32))
	for _, mg := range mergeList[:inside] {
		token, _ := fromByteLevel(mg.left + mg.right)
		for k := 1; k < len(lossy.ReplacementChar); k++ {
			if len(token) > k && (strings.HasSuffix(token, lossy.ReplacementChar[:k]) || strings.HasPrefix(token, lossy.ReplacementChar[len(lossy.ReplacementChar)-k:])) {
				return 0, false
			}
		}
	}
	return uint32(last), true
}

// byteRunes is the byte-level alphabet of GPT-2: the rune that stands for
// each byte in a token, the printable ones for themselves.
var byteRunes, runeBytes = func() (runes [256]rune, bytes map[rune]byte) {
	bytes = make(map[rune]byte, 256)
	next := rune(256)
	for b := range 256 {
		r := rune(b)
		if !('!' <= b && b <= '~' || 0xa1 <= b && b <= 0xac || 0xae <= b && b <= 0xff) {
			r = next
			next++
		}
		runes[b], bytes[r] = r, byte(b)
	}
	return runes, bytes
}()

// fromByteLevel returns the bytes a token of the byte-level alphabet
// stands for.
func fromByteLevel(token string) (string, bool) {
	var buf []byte
	for _, r := range token {
		b, ok := runeBytes[r]
		if !ok {
			return "", false
		}
		buf = append(buf, b)
	}
	return string(buf), len(buf) > 0
}

// addedTokens finds the added tokens of a tokenizer.json in text, as
// Hugging Face's tokenizers split text on them before the pre-tokenizer:
// leftmost first, the longest of those that start there.
type addedTokens struct {
	tokens  map[string]added
	lengths []int     // of the tokens, each once, longest first
	first   [256]bool // the first bytes of the tokens
}

type added struct {
	id uint32
	// a special token found in text stands for itself, not for the token
	// (Hugging Face's split_special_tokens): the search goes on after it
	asText bool
}

// newAddedTokens returns the added tokens to find in text, or nil when
// none would be kept: special ones only when matchSpecial. They are found
// in the text as m reads it (model.read), each as m marks it.
func newAddedTokens(list []addedToken, m *model, matchSpecial bool) (*addedTokens, error) {
	a := &addedTokens{tokens: make(map[string]added, len(list))}
	kept := false
	for _, t := range list {
		switch {
		case t.ID == nil || *t.ID < 0 || *t.ID >= math.MaxUint32:
			return nil, fmt.Errorf("token %q has no valid id", t.Content)
		case t.Content == "":
			return nil, fmt.Errorf("token %d is empty", *t.ID)
		case t.Normalized == nil:
			return nil, fmt.Errorf("token %q does not say whether it is normalized", t.Content)
		}
		// Tokens found after normalization are found in each piece of text
		// between the others, once normalized: the package implements finding
		// them all in one pass over the text as it is.
		if *t.Normalized != *list[0].Normalized || *t.Normalized && m.nfc {
			return nil, fmt.Errorf("token %q: tokens found after normalization are not implemented with others or with NFC", t.Content)
		}
		asText := t.Special && !matchSpecial
		if !asText && (t.SingleWord || t.Lstrip || t.Rstrip) {
			return nil, fmt.Errorf("token %q: single_word, lstrip and rstrip are not implemented", t.Content)
		}
		kept = kept || !asText
		content := m.mark(t.Content)
		a.tokens[content] = added{id: uint32(*t.ID), asText: asText}
		a.first[content[0]] = true
		if !slices.Contains(a.lengths, len(content)) {
			a.lengths = append(a.lengths, len(content))
		}
	}
	if !kept {
		return nil, nil
	}
	slices.Sort(a.lengths)
	slices.Reverse(a.lengths)
	return a, nil
}

// next returns where the first added token kept at or after i in text
// starts and ends, and its id; start is len(text) when there is none.
func (a *addedTokens) next(text string, i int) (start, end int, id uint32) {
	for p := i; p < len(text); p++ {
		if !a.first[text[p]] {
			continue
		}
		for _, n := range a.lengths {
			if p+n > len(text) {
				continue
			}
			t, ok := a.tokens[text[p:p+n]]
			if !ok {
				continue
			}
			if !t.asText {
				return p, p + n, t.id
			}
			p += n - 1
			break
		}
	}
	return len(text), len(text), 0
}
