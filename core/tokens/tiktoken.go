package tokens

// The named BPE encodings come from github.com/tiktoken-go/tokenizer, whose
// vocabularies are compiled into the binary: nothing is downloaded at run
// time, so counts work offline and in CI.

import "github.com/tiktoken-go/tokenizer"

func init() {
	for _, enc := range []tokenizer.Encoding{tokenizer.Cl100kBase, tokenizer.O200kBase, tokenizer.P50kBase, tokenizer.R50kBase} {
		register(string(enc), func() (Counter, error) {
			c, err := tokenizer.Get(enc)
			if err != nil {
				return nil, err
			}
			return bpe{c}, nil
		})
	}
}

// bpe counts with a real encoding.
type bpe struct{ codec tokenizer.Codec }

// Count encodes text and counts the token ids.
func (b bpe) Count(text string) int {
	ids, _, _ := b.codec.Encode(text)
	return len(ids)
}
