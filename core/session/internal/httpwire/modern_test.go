package httpwire

import "testing"

func TestHeaderValueEncoding(t *testing.T) {
	for in, want := range map[string]string{
		"echo":          "echo",
		"demo://readme": "demo://readme",
		"hé":            "=?base64?aMOp?=",
		" padded":       "=?base64?IHBhZGRlZA==?=",
		"":              "",
	} {
		if got := headerValue(in); got != want {
			t.Errorf("headerValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestModernCancelIsNotPosted: over modern Streamable HTTP a call is
// cancelled by closing its stream, so the session never POSTs
// notifications/cancelled, which a stateless server could relate to
// nothing; requests and legacy sessions are unaffected.
func TestModernCancelIsNotPosted(t *testing.T) {
	modern := &streamable{h: &conn{cfg: Config{Modern: true}}}
	legacy := &streamable{h: &conn{cfg: Config{Modern: false}}}
	cancel := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	other := []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`)
	request := []byte(`{"jsonrpc":"2.0","id":1,"method":"notifications/cancelled"}`)
	if !modern.modernCancel(cancel) || modern.modernCancel(other) || modern.modernCancel(request) || legacy.modernCancel(cancel) {
		t.Error("modernCancel misjudged a message")
	}
}
