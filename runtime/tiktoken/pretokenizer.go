package tiktoken

// SplitO200k and SplitCl100k are the encodings' pre-tokenizers, for
// tokenizers that split text as they do (runtime/hftokenizer: Llama 3's
// and Qwen 2's tokenizer.json name these expressions): each returns the
// end of the piece of text that starts at i < len(text). text must be
// valid UTF-8.
func SplitO200k(text string, i int) int { return splitO200k(text, i) }

// SplitCl100k is cl100k_base's pre-tokenizer, as SplitO200k is
// o200k_base's.
func SplitCl100k(text string, i int) int { return splitCl100k(text, i) }
