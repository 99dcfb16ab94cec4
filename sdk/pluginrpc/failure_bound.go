package pluginrpc

import (
	"encoding/json"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk/contract"
)

// boundFailure returns f with its long fields cut to FailureValueLimit;
// f itself is not modified, and a failure within bounds is returned as is.
func boundFailure(f *contract.Failure) *contract.Failure {
	if len(f.Expected) <= contract.FailureValueLimit && len(f.Actual) <= contract.FailureValueLimit && len(f.Diff) <= contract.FailureValueLimit {
		return f
	}
	g := *f
	g.Expected = cutJSON(f.Expected, contract.FailureValueLimit)
	g.Actual = cutJSON(f.Actual, contract.FailureValueLimit)
	if len(f.Diff) > contract.FailureValueLimit {
		g.Diff = cutText(f.Diff, contract.FailureValueLimit) + truncationMarker(len(f.Diff))
	}
	return &g
}

// truncationMarker ends a cut value.
func truncationMarker(total int) string {
	return fmt.Sprintf("…[truncated: %d bytes in total]", total)
}

// cutText returns the longest prefix of s of at most limit bytes that ends
// at a UTF-8 boundary.
func cutText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// cutJSON returns raw unchanged when it is at most limit bytes; otherwise
// a JSON string holding the start of its text (for a JSON string, the
// start of the string itself, unescaped) and the marker. Only the prefix
// is decoded, so a huge value is never copied whole.
func cutJSON(raw json.RawMessage, limit int) json.RawMessage {
	if len(raw) <= limit {
		return raw
	}
	text := cutText(string(raw[:limit]), limit)
	if raw[0] == '"' {
		// Cut the quoted text before an escape sequence that would not
		// fit, then decode just that prefix.
		end, i := 1, 1
		for i < limit && raw[i] != '"' {
			n := 1
			if raw[i] == '\\' {
				n = 2
				if i+1 < len(raw) && raw[i+1] == 'u' {
					n = 6
				}
			}
			if i+n > limit {
				break
			}
			i += n
			end = i
		}
		var s string
		if json.Unmarshal(append(append([]byte(nil), raw[:end]...), '"'), &s) == nil {
			text = cutText(s, limit)
		}
	}
	total := len(raw)
	if raw[0] == '"' {
		total = decodedLen(raw)
	}
	out, _ := json.Marshal(text + truncationMarker(total))
	return out
}

// decodedLen is the length in bytes of the text of the JSON string raw
// (quotes included), counted without decoding it: the marker of a cut
// string gives the length of the string a person would see, not of its
// quoting. Escapes are counted as the UTF-8 bytes they stand for; an
// invalid escape counts as written.
func decodedLen(raw json.RawMessage) int {
	n := 0
	for i := 1; i < len(raw)-1; i++ {
		if raw[i] != '\\' || i+1 >= len(raw)-1 {
			n++
			continue
		}
		if raw[i+1] != 'u' || i+5 >= len(raw)-1 {
			n++
			i++
			continue
		}
		r, ok := hex4(raw[i+2 : i+6])
		switch {
		case !ok:
			n += 6
		case utf16.IsSurrogate(r) && i+11 < len(raw)-1 && raw[i+6] == '\\' && raw[i+7] == 'u':
			if r2, ok2 := hex4(raw[i+8 : i+12]); ok2 && utf16.DecodeRune(r, r2) != utf8.RuneError {
				n += 4
				i += 11
				continue
			}
			n += utf8.RuneLen(utf8.RuneError)
		case utf16.IsSurrogate(r):
			n += utf8.RuneLen(utf8.RuneError)
		default:
			n += utf8.RuneLen(r)
		}
		i += 5
	}
	return n
}

// hex4 reads four hexadecimal digits.
func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
