package modeltape

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/internal/jsonx"
	"github.com/mcptest/mcptest/sdk"
)

// Version is the format version of the models section this build reads
// and writes.
const Version = 1

// Model is the model an agent loop calls (core/agent.Model has the same
// method set).
type Model interface {
	Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error)
}

// Section is the models section of a cassette file.
type Section struct {
	// Version is the section's format version, Version.
	Version int `json:"version"`
	// Runs holds each recorded agent test run's exchanges in call order,
	// keyed by RunKey.
	Runs map[string][]Exchange `json:"runs"`
}

// Exchange is one model call: the request as the loop sent it (provider
// routing key left out, secrets masked) and the model's answer or the
// error the call ended with.
type Exchange struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response,omitempty"`
	// Error is the text of the error the call returned, replayed as an
	// error with the same text.
	Error string `json:"error,omitempty"`
}

// RunKey names one agent test run in a section: the test's name and the
// model as the suite writes it ("id" or "provider/id"), and the trial
// number when a test runs more than once.
func RunKey(test, provider, model string, trial int) string {
	m := model
	if provider != "" {
		m = provider + "/" + model
	}
	k := test + " [" + m + "]"
	if trial > 0 {
		k += fmt.Sprintf(" #%d", trial+1)
	}
	return k
}

// ErrBadSection is wrapped by the errors of a models section that cannot
// be read.
var ErrBadSection = errors.New("models section of the cassette is not valid")

// Parse reads a cassette's models section. An empty section is nil, not an
// error: cassettes written before the section existed have none.
func Parse(raw json.RawMessage) (*Section, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s Section
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadSection, err)
	}
	if s.Version != Version {
		return nil, fmt.Errorf("%w: format version %d is not supported (this build reads version %d)", ErrBadSection, s.Version, Version)
	}
	for k, xs := range s.Runs {
		for i, x := range xs {
			if len(bytes.TrimSpace(x.Request)) == 0 {
				return nil, fmt.Errorf("%w: runs[%q][%d] has no request", ErrBadSection, k, i)
			}
			if len(bytes.TrimSpace(x.Response)) == 0 && x.Error == "" {
				return nil, fmt.Errorf("%w: runs[%q][%d] has neither response nor error", ErrBadSection, k, i)
			}
		}
	}
	return &s, nil
}

// Encode renders the section deterministically (object keys sorted, runs
// in key order, calls in order, indented by two spaces) so a re-recording
// that got the same answers leaves the file unchanged.
func (s *Section) Encode() (json.RawMessage, error) {
	out := Section{Version: Version, Runs: make(map[string][]Exchange, len(s.Runs))}
	for k, xs := range s.Runs {
		cx := make([]Exchange, len(xs))
		for i, x := range xs {
			var err error
			if cx[i].Request, err = jsonx.Canonical(x.Request); err != nil {
				return nil, fmt.Errorf("runs[%q][%d] request: %w", k, i, err)
			}
			if cx[i].Response, err = jsonx.Canonical(x.Response); err != nil {
				return nil, fmt.Errorf("runs[%q][%d] response: %w", k, i, err)
			}
			cx[i].Error = x.Error
		}
		out.Runs[k] = cx
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// requestJSON is the recorded form of a request: the provider routing key
// is left out (replay does not route), and the result goes through scrub.
func requestJSON(req sdk.ChatRequest, scrub func([]byte) []byte) (json.RawMessage, error) {
	req.Key = ""
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode the model request: %w", err)
	}
	if scrub != nil {
		b = scrub(b)
	}
	return jsonx.Canonical(b)
}
