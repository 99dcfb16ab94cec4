package compliance

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Evidence bounds: a check's report must stay readable and small even when
// the server floods it.
const (
	maxFrames     = 200
	maxFrameBytes = 8 << 10
)

// recorder keeps the frames of one check, in order, bounded.
type recorder struct {
	start  time.Time
	redact *redact.Redactor // nil masks nothing

	mu      sync.Mutex
	frames  []rpt.Frame
	dropped int
}

// newRecorder returns a recorder that masks the secrets of r in every
// frame before cutting it to maxFrameBytes: masked after the cut, a secret
// straddling the cut would leave its first bytes in the report.
func newRecorder(r *redact.Redactor) *recorder { return &recorder{start: time.Now(), redact: r} }

// add records one frame. data need not be JSON: anything that is not is
// kept as a JSON string, so the report can always hold it.
func (r *recorder) add(dir string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.frames) >= maxFrames {
		r.dropped++
		return
	}
	f := rpt.Frame{Direction: dir, AtMS: float64(time.Since(r.start).Microseconds()) / 1000}
	data = r.redact.Bytes(data)
	switch {
	case len(data) > maxFrameBytes:
		f.Data, f.Truncated = jsonString(string(data[:maxFrameBytes])), true
	case json.Valid(data) && len(data) > 0:
		f.Data = append(json.RawMessage(nil), data...)
	default:
		f.Data = jsonString(string(data))
	}
	r.frames = append(r.frames, f)
}

// addValue records a value mcptest built itself, such as an HTTP status
// summary.
func (r *recorder) addValue(dir string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = jsonString(err.Error())
	}
	r.add(dir, b)
}

// list returns the frames, with a final note when some were dropped.
func (r *recorder) list() []rpt.Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]rpt.Frame(nil), r.frames...)
	if r.dropped > 0 {
		note, _ := json.Marshal(map[string]any{"mcptest": "frames dropped", "count": r.dropped})
		out = append(out, rpt.Frame{Direction: "recv", AtMS: float64(time.Since(r.start).Microseconds()) / 1000, Data: note})
	}
	return out
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// evidenceHeaders are the HTTP headers worth showing. Everything else is
// left out on purpose: request headers may carry credentials.
var evidenceHeaders = []string{
	"Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name",
	"Origin", "Host", "Allow", "Last-Event-ID", "Www-Authenticate", "Location",
}

// httpSummary is how an HTTP exchange appears among the frames.
func httpSummary(method string, status int, h http.Header, host string) map[string]any {
	shown := map[string]string{}
	for _, k := range evidenceHeaders {
		if v := h.Get(k); v != "" {
			shown[k] = v
		}
	}
	if host != "" {
		shown["Host"] = host
	}
	m := map[string]any{"http": method}
	if status != 0 {
		m["status"] = status
	}
	if len(shown) > 0 {
		// Marshalled maps come out sorted by key, so frames read stably.
		m["headers"] = shown
	}
	return m
}
