package cassette

import (
	"bytes"
	"encoding/json"
	"sort"
	"sync"

	"github.com/mcptest/mcptest/core/session"
)

// Recorder gathers the exchanges of one server during a live run, to be
// written as a cassette. It is safe for concurrent use.
type Recorder struct {
	scrub func([]byte) []byte

	mu  sync.Mutex
	cas Cassette
	met bool // the session's initialize answer has been taken
}

// NewRecorder starts the recording of server name. scrub, when set, is
// applied to everything written (params, results, errors, capabilities,
// serverInfo): the suite's redactor, so that no known secret reaches the
// file.
func NewRecorder(name string, scrub func([]byte) []byte) *Recorder {
	return &Recorder{scrub: scrub, cas: Cassette{Version: Version, Server: name, Exchanges: []Exchange{}}}
}

// Observe records one call made on sess: method and params as sent, and
// the server's answer. A call that failed in transport (err != nil or no
// outcome) has no answer to replay and is not recorded.
func (r *Recorder) Observe(sess *session.Session, method string, params json.RawMessage, out *session.Outcome, err error) {
	if err != nil || out == nil || (len(out.Result) == 0 && out.RPCError == nil) {
		return
	}
	x := Exchange{Method: method, Params: r.clean(params), Result: r.clean(out.Result), Messages: r.messages(out.Frames)}
	if e := out.RPCError; e != nil {
		x.Error = &session.RPCError{Code: e.Code, Message: string(r.clean([]byte(e.Message))), Data: r.clean(e.Data)}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.met && sess != nil {
		r.met = true
		r.cas.Transport = sess.Transport()
		r.cas.ProtocolVersion = string(r.clean([]byte(sess.ProtocolVersion())))
		name, version := sess.ServerInfo()
		r.cas.ServerInfo = ServerInfo{Name: string(r.clean([]byte(name))), Version: string(r.clean([]byte(version)))}
		r.cas.Capabilities = r.clean(sess.ServerCapabilities())
	}
	r.cas.Exchanges = append(r.cas.Exchanges, x)
}

// Empty reports whether nothing has been recorded.
func (r *Recorder) Empty() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.met
}

// Cassette returns the recording. Identical requests whose answers were
// all identical are kept once (replay reuses the last answer, so nothing
// changes); otherwise every answer is kept, in recorded order.
func (r *Recorder) Cassette() *Cassette {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.cas
	type group struct {
		first int
		same  bool
	}
	groups := map[string]*group{}
	keys := make([]string, len(c.Exchanges))
	for i, x := range c.Exchanges {
		k, err := requestKey(x.Method, x.Params)
		if err != nil {
			k = x.Method + "\x00" + string(x.Params)
		}
		keys[i] = k
		if g := groups[k]; g == nil {
			groups[k] = &group{first: i, same: true}
		} else if g.same && !sameAnswer(c.Exchanges[g.first], x) {
			g.same = false
		}
	}
	out := make([]Exchange, 0, len(c.Exchanges))
	for i, x := range c.Exchanges {
		if g := groups[keys[i]]; g.same && g.first != i {
			continue
		}
		out = append(out, x)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Method < out[j].Method })
	c.Exchanges = out
	return &c
}

// sameAnswer reports whether two exchanges carry the same answer, compared
// structurally.
func sameAnswer(a, b Exchange) bool {
	ka, _ := requestKey("", a.Result)
	kb, _ := requestKey("", b.Result)
	if ka != kb || (a.Error == nil) != (b.Error == nil) || len(a.Messages) != len(b.Messages) {
		return false
	}
	for i := range a.Messages {
		ma, _ := requestKey("", a.Messages[i])
		mb, _ := requestKey("", b.Messages[i])
		if ma != mb {
			return false
		}
	}
	if a.Error == nil {
		return true
	}
	da, _ := requestKey("", a.Error.Data)
	db, _ := requestKey("", b.Error.Data)
	return a.Error.Code == b.Error.Code && a.Error.Message == b.Error.Message && da == db
}

// clean copies b through the scrubber; empty stays nil.
// messages picks, from a call's frames, the notifications and requests
// the server sent: received messages that carry a method. A frame cut to
// FrameLimit is left out; it could not be replayed as it was.
func (r *Recorder) messages(frames []session.Frame) []json.RawMessage {
	var out []json.RawMessage
	for _, f := range frames {
		if f.Direction != session.Received || f.Truncated {
			continue
		}
		var m struct {
			Method string `json:"method"`
		}
		if json.Unmarshal([]byte(f.Raw), &m) != nil || m.Method == "" {
			continue
		}
		out = append(out, r.clean([]byte(f.Raw)))
	}
	return out
}

func (r *Recorder) clean(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	b = append([]byte(nil), b...)
	if r.scrub != nil {
		b = r.scrub(b)
	}
	return b
}
