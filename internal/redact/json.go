package redact

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// looksLikeJSON reports whether b is one JSON document. It runs only
// when a secret was found, so its cost is paid rarely.
func looksLikeJSON(b []byte) bool { return json.Valid(b) }

// keepJSONSafe keeps, of the spans found in the JSON document b, those that
// can be masked without breaking it: spans inside one string that start and
// end between whole characters (never inside an escape), and spans that
// are a whole number (masked as a string). A span that crosses the
// document's structure is not a secret in any value and is dropped.
func keepJSONSafe(b []byte, spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	out := spans[:0]
	k := 0 // the first span not yet judged
	for i := 0; i < len(b) && k < len(spans); {
		c := b[i]
		switch {
		case c == '"':
			bs := i + 1
			be := stringEnd(b, bs)
			for k < len(spans) && spans[k].start < bs {
				k++ // started on structure before this string
			}
			first := k
			for k < len(spans) && spans[k].start <= be {
				k++
			}
			if k > first {
				bound := boundaries(b[bs:be])
				for _, s := range spans[first:k] {
					if s.end <= be && bound[s.start-bs] && bound[s.end-bs] && s.end > s.start {
						out = append(out, s)
					}
				}
			}
			i = be + 1
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(b) && isNumberByte(b[j]) {
				j++
			}
			for k < len(spans) && spans[k].start < i {
				k++
			}
			for ; k < len(spans) && spans[k].start < j; k++ {
				if s := spans[k]; s.start == i && s.end == j {
					s.quote = true
					out = append(out, s)
				}
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// stringEnd returns the index of the quote closing the string whose body
// starts at b[i] (b is valid JSON).
func stringEnd(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(b)
}

// boundaries marks the offsets of body (a JSON string's text between its
// quotes) where a character starts, and its end.
func boundaries(body []byte) []bool {
	m := make([]bool, len(body)+1)
	for q := 0; q < len(body); {
		m[q] = true
		switch {
		case body[q] == '\\' && q+1 < len(body) && body[q+1] == 'u':
			q += 6
		case body[q] == '\\':
			q += 2
		default:
			_, n := utf8.DecodeRune(body[q:])
			q += n
		}
	}
	m[len(body)] = true
	return m
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
