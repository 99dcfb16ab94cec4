package tokens

import "testing"

// TestNamedEncodings checks real counts of the encodings against values
// OpenAI's tiktoken gives for the same text.
func TestNamedEncodings(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		{"cl100k_base", "hello world", 2},
		{"o200k_base", "hello world", 2},
		{"cl100k_base", "", 0},
	} {
		c, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(tc.text); got != tc.want {
			t.Errorf("%s(%q) = %d, want %d", tc.name, tc.text, got, tc.want)
		}
	}
}
