package run

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"sort"
	"strings"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/core/target"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// Keys a test's captured traffic adds to its envelope, beside "result" or
// "error".
const (
	keyNotifications  = "notifications"
	keyProgress       = "progress"
	keyLogs           = "logs"
	keyServerRequests = "server_requests"
	keyUpdates        = "updates"
)

// featureKeys are the envelope keys that make a test capture what its
// server sends when one of its targets starts with them.
var featureKeys = map[string]bool{keyNotifications: true, keyProgress: true, keyLogs: true, keyServerRequests: true, keyUpdates: true}

// Notification methods the envelope summarises.
const (
	methodProgress = "notifications/progress"
	methodLog      = "notifications/message"
	methodUpdated  = "notifications/resources/updated"
)

// wantsFeatures reports whether t captures what its server sends: it
// opts in (progress, log_level, a client block, a subscription), or one
// of its assertion or capture targets reads a key that capture adds. Such
// a test runs alone on its session.
func wantsFeatures(t *plan.Test) bool {
	switch t.Kind {
	case plan.KindTool:
		tt := t.Tool
		if tt.InjectError != "" {
			return false // no call reaches the server
		}
		if tt.Progress || tt.LogLevel != "" || tt.Client != nil {
			return true
		}
	case plan.KindResource:
		if t.Resource.Subscribe != nil {
			return true
		}
	case plan.KindPrompt:
	default:
		return false
	}
	for _, c := range t.Captures {
		if readsFeature(c.Target.Segments()) {
			return true
		}
	}
	return anyReadsFeature(t.Assertions)
}

// anyReadsFeature reports whether an assertion, or a member of an
// assert-set, targets a capture key.
func anyReadsFeature(list []*plan.Assertion) bool {
	for _, a := range list {
		if a.Members != nil {
			if anyReadsFeature(a.Members) {
				return true
			}
			continue
		}
		if readsFeature(a.Target.Segments()) {
			return true
		}
	}
	return false
}

// readsFeature reports whether a target path starts with a capture key.
func readsFeature(segs []target.Segment) bool {
	return len(segs) > 0 && !segs[0].IsIndex && featureKeys[segs[0].Key]
}

// progressToken is the token a test sends: unique per test and the same
// from run to run, so a recorded cassette matches its replay.
func progressToken(t *plan.Test) string {
	// The id without its file: the same test in a suite that replays a
	// cassette (another file) must send the same token to match the
	// recording. Tokens only need to differ within one session, and a
	// session serves one suite.
	id := t.ID
	if _, rest, ok := strings.Cut(id, "::"); ok {
		id = rest
	}
	sum := sha256.Sum256([]byte(id))
	return "mcptest-" + hex.EncodeToString(sum[:8])
}

// features is what a capturing test collected besides its answer.
type features struct {
	// token is the progress token sent, or "" without progress: true.
	token string
	// uri is a subscribing resource test's URI, or "".
	uri string
	// events are the notifications and requests the server sent.
	events []session.Event
	// shortfall, when set, fails the test: the updates a subscription
	// waited for did not all come.
	shortfall string
	// logLevel is the level a modern-era call asks for in its _meta
	// (the era has no logging/setLevel); "" otherwise.
	logLevel string
	// stopListen ends a modern-era subscription (subscriptions/listen);
	// nil in the legacy era, which unsubscribes instead.
	stopListen func()
}

// withFeatures adds the keys of f to a test's envelope when the test
// captured what its server sent (f is not nil).
func (r *runner) withFeatures(f *features, env json.RawMessage) json.RawMessage {
	if f == nil {
		return env
	}
	// Notifications may echo secrets, as results may.
	return r.opts.Redact.Bytes(f.envelope(env))
}

// envelope is env, an envelope object, with the captured keys added.
func (f *features) envelope(env json.RawMessage) json.RawMessage {
	base := bytes.TrimSpace(env)
	if len(base) < 2 || base[len(base)-1] != '}' {
		return env
	}
	var b bytes.Buffer
	b.Write(base[:len(base)-1])
	first := len(bytes.TrimSpace(base[1:len(base)-1])) == 0
	add := func(key string, v any) {
		raw, err := jsonx.Encode(v)
		if err != nil {
			raw = []byte("null")
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + key + `":`)
		b.Write(raw)
	}
	add(keyNotifications, f.notifications())
	add(keyLogs, f.logs())
	add(keyServerRequests, f.serverRequests())
	if f.token != "" {
		add(keyProgress, f.progress())
	}
	if f.uri != "" {
		add(keyUpdates, f.updates())
	}
	b.WriteByte('}')
	return b.Bytes()
}

// paramsOrNull is an event's params, null when it had none.
func paramsOrNull(p json.RawMessage) json.RawMessage {
	if len(p) == 0 {
		return json.RawMessage("null")
	}
	return p
}

// notification is one entry of the notifications key.
type notification struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// notifications lists every notification, in arrival order.
func (f *features) notifications() []notification {
	out := []notification{}
	for _, e := range f.events {
		if !e.Request {
			out = append(out, notification{e.Method, paramsOrNull(e.Params)})
		}
	}
	return out
}

// serverRequest is one entry of the server_requests key.
type serverRequest struct {
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params"`
	Response json.RawMessage `json:"response"`
}

// serverRequests lists the server's requests and mcptest's answers.
func (f *features) serverRequests() []serverRequest {
	out := []serverRequest{}
	for _, e := range f.events {
		if e.Request {
			out = append(out, serverRequest{e.Method, paramsOrNull(e.Params), e.Response})
		}
	}
	return out
}

// logs lists the log messages as {level, logger, data}; logger is left
// out when the server gave none.
func (f *features) logs() []map[string]json.RawMessage {
	out := []map[string]json.RawMessage{}
	for _, e := range f.events {
		if e.Request || e.Method != methodLog {
			continue
		}
		var p map[string]json.RawMessage
		_ = json.Unmarshal(e.Params, &p)
		entry := map[string]json.RawMessage{"level": orNull(p["level"]), "data": orNull(p["data"])}
		if l, ok := p["logger"]; ok {
			entry["logger"] = l
		}
		out = append(out, entry)
	}
	return out
}

// orNull is raw, or null when absent.
func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// updates lists the params of the notifications/resources/updated for
// the test's URI.
func (f *features) updates() []json.RawMessage {
	out := []json.RawMessage{}
	for _, e := range f.events {
		if isUpdateOf(e, f.uri) {
			out = append(out, e.Params)
		}
	}
	return out
}

// isUpdateOf reports whether e says the resource at uri changed.
func isUpdateOf(e session.Event, uri string) bool {
	if e.Request || e.Method != methodUpdated {
		return false
	}
	var p struct {
		URI string `json:"uri"`
	}
	return json.Unmarshal(e.Params, &p) == nil && p.URI == uri
}

// progressSummary is the progress key.
type progressSummary struct {
	// Count is how many notifications carried the test's token.
	Count int `json:"count"`
	// Monotonic is true when there was at least one and each progress was
	// greater than the one before; false with none, so that it cannot
	// pass vacuously.
	Monotonic bool `json:"monotonic"`
	// Final is the last one's progress, total and message; null with none.
	Final map[string]json.RawMessage `json:"final"`
	// Values are the progress values in arrival order.
	Values []json.RawMessage `json:"values"`
}

// progress summarises the notifications/progress that carry the test's
// own token; others are not the test's progress, whatever their timing.
func (f *features) progress() progressSummary {
	token, _ := json.Marshal(f.token)
	s := progressSummary{Values: []json.RawMessage{}}
	var prev *big.Float
	s.Monotonic = true
	for _, e := range f.events {
		if e.Request || e.Method != methodProgress {
			continue
		}
		var p map[string]json.RawMessage
		if json.Unmarshal(e.Params, &p) != nil || !bytes.Equal(bytes.TrimSpace(p["progressToken"]), token) {
			continue
		}
		s.Count++
		v := orNull(p["progress"])
		s.Values = append(s.Values, v)
		s.Final = map[string]json.RawMessage{"progress": v}
		for _, k := range []string{"total", "message"} {
			if x, ok := p[k]; ok {
				s.Final[k] = x
			}
		}
		cur, ok := new(big.Float).SetString(string(v))
		if !ok || (prev != nil && cur.Cmp(prev) <= 0) {
			s.Monotonic = false
		}
		prev = cur
	}
	if s.Count == 0 {
		s.Monotonic = false
	}
	return s
}

// mergeFrames puts the frames of a test's calls and of its capture in
// time order; frames at the same time keep their order.
func mergeFrames(lists ...[]session.Frame) []session.Frame {
	var out []session.Frame
	for _, l := range lists {
		out = append(out, l...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}
