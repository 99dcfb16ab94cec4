package modeltape

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcptest/mcptest/sdk"
)

// Recorder gathers the model exchanges of agent test runs during a live
// run (`mcptest record`). It is safe for concurrent use: runs record in
// parallel, each under its own key.
type Recorder struct {
	scrub func([]byte) []byte

	mu   sync.Mutex
	runs map[string][]Exchange
}

// NewRecorder starts a recording. scrub, when set, is applied to every
// request, answer and error text before it is kept: the suite's redactor,
// so no known secret reaches the cassette.
func NewRecorder(scrub func([]byte) []byte) *Recorder {
	return &Recorder{scrub: scrub, runs: map[string][]Exchange{}}
}

// Wrap returns m with each call recorded under key (RunKey). Starting a
// run again under the same key (a retried test) replaces what the earlier
// attempt recorded, so the cassette holds one consistent run.
func (r *Recorder) Wrap(m Model, key string) Model {
	r.mu.Lock()
	r.runs[key] = []Exchange{}
	r.mu.Unlock()
	return &recording{next: m, rec: r, key: key}
}

// Empty reports whether no run recorded any call.
func (r *Recorder) Empty() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, xs := range r.runs {
		if len(xs) > 0 {
			return false
		}
	}
	return true
}

// Section returns the recording; runs that made no call are left out. It
// is nil when nothing was recorded.
func (r *Recorder) Section() *Section {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &Section{Version: Version, Runs: map[string][]Exchange{}}
	for k, xs := range r.runs {
		if len(xs) > 0 {
			s.Runs[k] = append([]Exchange(nil), xs...)
		}
	}
	if len(s.Runs) == 0 {
		return nil
	}
	return s
}

// recording is a Model whose calls are written down.
type recording struct {
	next Model
	rec  *Recorder
	key  string
}

// Complete calls the model and records the exchange. A call cancelled by
// the run (ctx done) is not recorded: it has no answer to replay.
func (m *recording) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	resp, err := m.next.Complete(ctx, req)
	if ctx.Err() != nil {
		return resp, err
	}
	x := Exchange{}
	var encErr error
	if x.Request, encErr = requestJSON(req, m.rec.scrub); encErr != nil {
		return resp, err
	}
	if err != nil {
		x.Error = string(m.rec.clean([]byte(err.Error())))
	} else if b, e := json.Marshal(resp); e == nil {
		x.Response = m.rec.clean(b)
	} else {
		return resp, err
	}
	m.rec.mu.Lock()
	m.rec.runs[m.key] = append(m.rec.runs[m.key], x)
	m.rec.mu.Unlock()
	return resp, err
}

// clean copies b through the scrubber.
func (r *Recorder) clean(b []byte) []byte {
	b = append([]byte(nil), b...)
	if r.scrub != nil {
		b = r.scrub(b)
	}
	return b
}

// Runs counts the runs that recorded at least one call.
func (r *Recorder) Runs() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, xs := range r.runs {
		if len(xs) > 0 {
			n++
		}
	}
	return n
}
