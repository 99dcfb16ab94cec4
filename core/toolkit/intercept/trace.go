// Package intercept is a recording proxy between an MCP client (an IDE,
// an agent, mcptest itself) and a server, over stdio or Streamable HTTP.
// Every JSON-RPC message that passes is written, masked, as one line of a
// JSONL trace: the raw material for debugging a client and for the
// assertions of a suite's trajectories.
package intercept

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/internal/redact"
)

// Directions of a trace entry.
const (
	// ToServer is a message from the client to the server.
	ToServer = "client_to_server"
	// ToClient is a message from the server to the client.
	ToClient = "server_to_client"
)

// Mask is the text that replaces a masked value.
const Mask = "***"

// Entry is one line of a trace.
type Entry struct {
	// Seq numbers the entries from 1.
	Seq int `json:"seq"`
	// At is when the message passed the proxy.
	At time.Time `json:"at"`
	// Dir is ToServer or ToClient.
	Dir string `json:"dir"`
	// Message is the JSON-RPC message, masked (a string when it was not
	// JSON).
	Message json.RawMessage `json:"message"`
	// Tool and Args are set for a tools/call request, so a trace reads as
	// the sequence of tool calls a client made.
	Tool string          `json:"tool,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
}

// secretKeys are object keys whose values are masked wherever they
// appear in a message (case-insensitive substring match).
var secretKeys = []string{"token", "secret", "password", "passwd", "authorization", "api_key", "apikey", "cookie", "credential", "private_key"}

// Recorder writes masked trace entries; it is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	w     io.Writer
	seq   int
	red   *redact.Redactor
	keys  []string
	err   error
	clock func() time.Time
}

// NewRecorder writes entries to w, masking the values of secret-looking
// keys (plus extraKeys) and every occurrence of the given secret values.
func NewRecorder(w io.Writer, extraKeys []string, secrets ...string) *Recorder {
	keys := append([]string(nil), secretKeys...)
	for _, k := range extraKeys {
		keys = append(keys, strings.ToLower(k))
	}
	return &Recorder{w: w, red: redact.New(secrets...), keys: keys, clock: time.Now}
}

// Record writes one message. A message that is not JSON is kept as a
// string; a JSON array (a batch) is one entry.
func (r *Recorder) Record(dir string, msg []byte) {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 {
		return
	}
	e := Entry{Dir: dir}
	var v any
	if err := json.Unmarshal(msg, &v); err == nil {
		v = r.maskKeys(v)
		if m, ok := v.(map[string]any); ok && m["method"] == "tools/call" {
			if p, ok := m["params"].(map[string]any); ok {
				e.Tool, _ = p["name"].(string)
				if a, ok := p["arguments"]; ok {
					e.Args, _ = json.Marshal(a)
				}
			}
		}
		e.Message, _ = json.Marshal(v)
	} else {
		e.Message, _ = json.Marshal(string(msg))
	}
	e.Message = r.red.Bytes(e.Message)
	if e.Args != nil {
		e.Args = r.red.Bytes(e.Args)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	e.Seq, e.At = r.seq, r.clock().UTC()
	line, err := json.Marshal(e)
	if err == nil {
		_, err = r.w.Write(append(line, '\n'))
	}
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("intercept: write the trace: %w", err)
	}
}

// Err is the first error writing the trace.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// maskKeys replaces the values of secret-looking keys.
func (r *Recorder) maskKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if r.secretKey(k) {
				x[k] = Mask
				continue
			}
			x[k] = r.maskKeys(e)
		}
	case []any:
		for i, e := range x {
			x[i] = r.maskKeys(e)
		}
	}
	return v
}

func (r *Recorder) secretKey(k string) bool {
	k = strings.ToLower(k)
	if k == "progresstoken" || k == "maxtokens" || strings.HasSuffix(k, "tokens") {
		// Protocol fields and counts, not credentials.
		return false
	}
	for _, s := range r.keys {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}
