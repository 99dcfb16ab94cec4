package cassette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/internal/safefile"
)

// Version is the cassette format version this build reads and writes.
const Version = 1

// ErrNoRecording is wrapped by the error of a call on a cassette session
// that matches no recorded exchange. The error shows the request.
var ErrNoRecording = errors.New("no recorded exchange matches the request")

// Cassette is the recording of one server: what it said about itself in
// initialize and the exchanges of a run. docs/cassettes.md describes the
// file.
type Cassette struct {
	// Version is the format version, Version.
	Version int `json:"version"`
	// Server is the name of the server in the suite that was recorded.
	Server string `json:"server"`
	// Transport is how the server was reached while recording (stdio,
	// streamable or sse); informative only.
	Transport string `json:"transport,omitempty"`
	// ProtocolVersion is the revision the server answered initialize with.
	ProtocolVersion string `json:"protocolVersion"`
	// ServerInfo is the server's name and version from initialize.
	ServerInfo ServerInfo `json:"serverInfo"`
	// Capabilities are the server's capabilities from initialize.
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Exchanges are the recorded requests and their answers.
	Exchanges []Exchange `json:"exchanges"`
	// Models is the optional section of agent tests' model exchanges
	// whose first server this is (core/cassette/modeltape owns its
	// format); absent in cassettes of suites without agent tests.
	Models json.RawMessage `json:"models,omitempty"`
}

// ServerInfo is initialize's serverInfo.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Exchange is one recorded request and the server's answer: a result or a
// JSON-RPC error.
type Exchange struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Messages are the notifications and requests the server sent while
	// the request was in flight, in order; replay sends them again before
	// the answer.
	Messages []json.RawMessage `json:"messages,omitempty"`
	Result   json.RawMessage   `json:"result,omitempty"`
	Error    *session.RPCError `json:"error,omitempty"`
}

// MaxBytes bounds a cassette file Load reads: room for a
// few recorded 50 MB answers, refused from its size before any read.
const MaxBytes = 1 << 30

// Load reads and checks a cassette file.
func Load(path string) (*Cassette, error) {
	// Bounded and non-blocking like every file mcptest is given by path
	// (internal/safefile): a FIFO or a device is refused, not waited on.
	b, err := safefile.ReadFile(path, MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("cassette: %w", err)
	}
	var c Cassette
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("cassette %s: not a cassette: %w", path, err)
	}
	if c.Version != Version {
		return nil, fmt.Errorf("cassette %s: format version %d is not supported (this build reads version %d)", path, c.Version, Version)
	}
	for i, x := range c.Exchanges {
		if x.Method == "" {
			return nil, fmt.Errorf("cassette %s: exchanges[%d] has no method", path, i)
		}
		if len(x.Result) == 0 && x.Error == nil {
			return nil, fmt.Errorf("cassette %s: exchanges[%d] (%s) has neither result nor error", path, i, x.Method)
		}
	}
	return &c, nil
}

// Encode renders the cassette deterministically: every JSON object with
// its keys sorted, exchanges sorted by method and canonical params
// (recorded order kept among identical requests), indented by two spaces.
func (c *Cassette) Encode() ([]byte, error) {
	out := *c
	out.Version = Version
	var err error
	if out.Capabilities, err = jsonx.Canonical(c.Capabilities); err != nil {
		return nil, fmt.Errorf("capabilities: %w", err)
	}
	out.Exchanges = make([]Exchange, len(c.Exchanges))
	keys := make([]string, len(c.Exchanges))
	for i, x := range c.Exchanges {
		if x.Params, err = jsonx.Canonical(x.Params); err != nil {
			return nil, fmt.Errorf("%s params: %w", x.Method, err)
		}
		if x.Result, err = jsonx.Canonical(x.Result); err != nil {
			return nil, fmt.Errorf("%s result: %w", x.Method, err)
		}
		if x.Error != nil {
			e := *x.Error
			if e.Data, err = jsonx.Canonical(e.Data); err != nil {
				return nil, fmt.Errorf("%s error data: %w", x.Method, err)
			}
			x.Error = &e
		}
		out.Exchanges[i] = x
		keys[i] = string(x.Params)
	}
	idx := make([]int, len(out.Exchanges))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		xa, xb := out.Exchanges[idx[a]], out.Exchanges[idx[b]]
		if xa.Method != xb.Method {
			return xa.Method < xb.Method
		}
		return keys[idx[a]] < keys[idx[b]]
	})
	sorted := make([]Exchange, len(idx))
	for i, j := range idx {
		sorted[i] = out.Exchanges[j]
	}
	out.Exchanges = sorted
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteFile writes the encoded cassette to path atomically: to a
// temporary file in the same folder, then renamed over path.
func (c *Cassette) WriteFile(path string) error {
	b, err := c.Encode()
	if err != nil {
		return fmt.Errorf("cassette %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// requestKey is what replay matches a request on: the method and the
// params compared structurally (object keys in any order, numbers by
// value: 1 and 1.0 are equal). For tools/call and prompts/get, absent or
// null arguments count as {}.
func requestKey(method string, params json.RawMessage) (string, error) {
	var b strings.Builder
	b.WriteString(method)
	b.WriteByte(0)
	params = bytes.TrimSpace(params)
	if len(params) == 0 || string(params) == "null" {
		return b.String(), nil
	}
	v, err := jsonx.DecodeNumbers(params)
	if err != nil {
		return "", err
	}
	if m, ok := v.(map[string]any); ok && (method == "tools/call" || method == "prompts/get") {
		if a, ok := m["arguments"]; !ok || a == nil {
			m["arguments"] = map[string]any{}
		}
	}
	writeKey(&b, v)
	return b.String(), nil
}

// writeKey writes v in a canonical form.
func writeKey(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeKey(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeKey(b, e)
		}
		b.WriteByte(']')
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok {
			b.WriteString(r.RatString())
		} else {
			b.WriteString(string(v))
		}
	case string:
		b.WriteString(strconv.Quote(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	}
}
