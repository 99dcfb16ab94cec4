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
// request the test judged and the answer its assertions judged, each with
// its mime type. Tests whose exchange the report did not keep (passing
// and skipped ones) have neither.
func setIO(a map[string]any, t *report.Test) {
	in, out := exchange(t)
	if in != nil {
		if v, mime, ok := valueOf(in.Data, in.Truncated); ok {
			a[AttrInputValue], a[AttrInputMimeType] = v, mime
		}
	}
	// The envelope the assertions were judged against, or, when the
	// report kept none, the answer to the request. An envelope is an
	// object; the report keeps one too large (or not JSON) as a string
	// holding its text, which is text.
	raw := bytes.TrimSpace(t.Response)
	truncated := len(raw) > 0 && raw[0] == '"'
	if len(raw) == 0 && out != nil {
		raw, truncated = out.Data, out.Truncated
	}
	if v, mime, ok := valueOf(raw, truncated); ok {
		a[AttrOutputValue], a[AttrOutputMimeType] = v, mime
	}
}

// rpcHead is what exchange reads of a JSON-RPC message.
type rpcHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// exchange picks the request and answer a test is about from its frames:
// the last answer to a request other than a ping (a compliance check
// sends several requests, the handshake first and sometimes a ping after
// its probe), with the request of the same id. Frames it cannot pair
// (truncated, or no answer at all) leave the first request sent and the
// last message received.
func exchange(t *report.Test) (in, out *report.Frame) {
	sent := map[string]int{}
	for i, f := range t.Frames {
		var h rpcHead
		if f.Direction == "send" && !f.Truncated && json.Unmarshal(f.Data, &h) == nil && h.Method != "" && len(h.ID) > 0 {
			sent[string(h.ID)] = i
		}
	}
	for i := len(t.Frames) - 1; i >= 0; i-- {
		f := &t.Frames[i]
		var h rpcHead
		if f.Direction != "recv" || f.Truncated || json.Unmarshal(f.Data, &h) != nil || h.Method != "" || len(h.ID) == 0 {
			continue
		}
		j, ok := sent[string(h.ID)]
		if !ok {
			continue
		}
		var req rpcHead
		_ = json.Unmarshal(t.Frames[j].Data, &req)
		if req.Method == "ping" {
			continue
		}
		return &t.Frames[j], f
	}
	for i := range t.Frames {
		if t.Frames[i].Direction == "send" {
			in = &t.Frames[i]
			break
		}
	}
	for i := len(t.Frames) - 1; i >= 0; i-- {
		if t.Frames[i].Direction == "recv" {
			out = &t.Frames[i]
			break
		}
	}
	return in, out
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
