package httpwire

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
)

// Headers of the modern era's Streamable HTTP: every POST mirrors the
// JSON-RPC method, and for tools/call, prompts/get and resources/read the
// name or URI, so that gateways can route without reading the body. A
// server refuses a request whose headers disagree with its body.
const (
	headerMethod = "Mcp-Method"
	headerName   = "Mcp-Name"
)

// modernHeaders adds Mcp-Method and Mcp-Name to req, a POST of body, on a
// modern-era session; MCP-Protocol-Version comes from protocolHeaders.
func (t *streamable) modernHeaders(req *http.Request, body []byte) {
	if !t.h.cfg.Modern {
		return
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name *string `json:"name"`
			URI  *string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method == "" {
		return // a response to the server carries no method
	}
	req.Header.Set(headerMethod, m.Method)
	var name *string
	switch m.Method {
	case "tools/call", "prompts/get":
		name = m.Params.Name
	case "resources/read":
		name = m.Params.URI
	}
	if name != nil {
		req.Header.Set(headerName, headerValue(*name))
	}
}

// modernCancel reports whether body is a cancellation that the modern era
// expresses by closing the request's stream (which the caller's context
// already does) rather than by a message: over Streamable HTTP there is
// no stream a stateless server could relate it to.
func (t *streamable) modernCancel(body []byte) bool {
	if !t.h.cfg.Modern {
		return false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	return json.Unmarshal(body, &m) == nil && len(m.ID) == 0 && m.Method == "notifications/cancelled"
}

// headerValue encodes a name for an HTTP header: as is when it is plain
// printable ASCII without surrounding blanks, else base64 in the
// "=?base64?...?=" wrapper the modern era defines.
func headerValue(s string) string {
	plain := s == "" || (s[0] != ' ' && s[0] != '\t' && s[len(s)-1] != ' ' && s[len(s)-1] != '\t')
	for i := 0; plain && i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7E {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}
