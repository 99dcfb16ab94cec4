package spans

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk/report"
)

// MaxValueBytes caps input.value and output.value. Trace stores index
// attributes and many refuse large ones; the full exchange stays in the
// JSON report. A cut value is no longer JSON, so it is sent as text.
const MaxValueBytes = 64 << 10

// setIO sets the OpenInference input and output of a test span: the
// request mcptest sent and the answer its assertions judged, each with
// its mime type. Tests that sent nothing (skipped, or stopped before the
// call) have neither.
func setIO(a map[string]any, t *report.Test) {
	if v, mime, ok := inputOf(t); ok {
		a[AttrInputValue], a[AttrInputMimeType] = v, mime
	}
	if v, mime, ok := outputOf(t); ok {
		a[AttrOutputValue], a[AttrOutputMimeType] = v, mime
	}
}

// inputOf is the first request the test sent.
func inputOf(t *report.Test) (value, mime string, ok bool) {
	for _, f := range t.Frames {
		if f.Direction == "send" {
			return valueOf(f.Data, f.Truncated)
		}
	}
	return "", "", false
}

// outputOf is the envelope the assertions were judged against, or, when
// the report kept none, the last message the server sent for the test.
func outputOf(t *report.Test) (value, mime string, ok bool) {
	if len(t.Response) > 0 {
		return valueOf(t.Response, false)
	}
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if f := t.Frames[i]; f.Direction == "recv" {
			return valueOf(f.Data, f.Truncated)
		}
	}
	return "", "", false
}

// valueOf renders raw JSON as an attribute value. A truncated frame holds
// a JSON string with the prefix of the message, which is text.
func valueOf(raw json.RawMessage, truncated bool) (value, mime string, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", "", false
	}
	if truncated {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		return capText(s), MimeText, true
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return capText(string(raw)), MimeText, true
	}
	if buf.Len() > MaxValueBytes {
		return capText(buf.String()), MimeText, true
	}
	return string(bytes.ToValidUTF8(buf.Bytes(), []byte("\uFFFD"))), MimeJSON, true
}

// capText cuts s to MaxValueBytes on a rune boundary and makes it valid
// UTF-8, which OTLP string values must be.
func capText(s string) string {
	if len(s) > MaxValueBytes {
		cut := MaxValueBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return string(bytes.ToValidUTF8([]byte(s), []byte("\uFFFD")))
}
