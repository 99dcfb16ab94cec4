package redact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf16"
)

// escapeAll encodes s as a JSON string body, choosing for every character
// one of the forms a server may use: the character itself when JSON allows
// it, "\/" for "/", a short escape, or \uXXXX in lower or upper case hex
// (astral characters as a surrogate pair). rng nil means Go's own form.
func escapeAll(s string, rng *rand.Rand) string {
	var b strings.Builder
	for _, c := range s {
		pick := 0
		if rng != nil {
			pick = rng.IntN(4)
		}
		b.WriteString(escapeRune(c, pick))
	}
	return b.String()
}

// escapeRune writes c as form pick: 0 plain (or the required short
// escape), 1 a short escape where one exists, 2 \u lower case, 3 \u upper.
func escapeRune(c rune, pick int) string {
	short := map[rune]string{'"': `\"`, '\\': `\\`, '/': `\/`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
	switch pick {
	case 0, 1:
		if e, ok := short[c]; ok && (pick == 1 || c != '/') {
			return e
		}
		if c < 0x20 {
			return fmt.Sprintf(`\u%04x`, c)
		}
		return string(c)
	}
	format := `\u%04x`
	if pick == 3 {
		format = `\u%04X`
	}
	if c > 0xffff {
		hi, lo := utf16.EncodeRune(c)
		return fmt.Sprintf(format, hi) + fmt.Sprintf(format, lo)
	}
	return fmt.Sprintf(format, c)
}

// nest escapes s depth times, each time with fresh random choices.
func nest(s string, depth int, rng *rand.Rand) string {
	for range depth {
		s = escapeAll(s, rng)
	}
	return s
}
