package plugintest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// MatcherHarness drives the matchers of a plugin one item at a time, the
// way the host sends them, and fails the test on anything that is not the
// plugin's own answer (a transport error, a missing result). Conn is there
// for the rest, such as batches. Use For in a subtest.
type MatcherHarness struct {
	*Conn
	t testing.TB
}

// Matcher serves p in-process (see New) and returns a harness for its
// matchers; everything stops when the test ends.
func Matcher(t testing.TB, p *sdk.Plugin) *MatcherHarness {
	t.Helper()
	c := New(t, p, nil)
	if c.Matcher == nil {
		t.Fatal("plugintest: the plugin serves no matchers")
	}
	return &MatcherHarness{Conn: c, t: t}
}

// For returns a harness on the same connection that reports to t, for use
// inside t.Run: a subtest must not fail its parent.
func (h *MatcherHarness) For(t testing.TB) *MatcherHarness {
	return &MatcherHarness{Conn: h.Conn, t: t}
}

// Match sends one item of key and returns its result. actual and arg are
// JSON: a string, []byte or json.RawMessage is taken as JSON text exactly
// as the host would send it (empty, or nil, means absent); any other value is
// encoded with encoding/json.
func (h *MatcherHarness) Match(key string, actual, arg any) MatchItemResult {
	h.t.Helper()
	return h.MatchItem(MatchItem{Key: key, Actual: h.raw(actual), Argument: h.raw(arg)})
}

// MatchItem sends item as it is (ID 0 becomes 1) and returns its result.
func (h *MatcherHarness) MatchItem(item MatchItem) MatchItemResult {
	h.t.Helper()
	if item.ID == 0 {
		item.ID = 1
	}
	res, err := h.Conn.Matcher.Match(context.Background(), []MatchItem{item})
	if err != nil {
		h.t.Fatalf("plugintest: match: %v", err)
	}
	if len(res) != 1 || res[0].ID != item.ID {
		h.t.Fatalf("plugintest: match: got results %+v for item %d", res, item.ID)
	}
	return res[0]
}

// Check asks the plugin to check the argument arg of key (JSON, as for
// Match) and returns the plugin's objection, or nil when it accepts it.
func (h *MatcherHarness) Check(key string, arg any) error {
	h.t.Helper()
	res, err := h.Conn.Matcher.Check(context.Background(), []CheckItem{{ID: 1, Key: key, Argument: h.raw(arg)}})
	if err != nil {
		h.t.Fatalf("plugintest: check: %v", err)
	}
	if len(res) != 1 || res[0].ID != 1 {
		h.t.Fatalf("plugintest: check: got results %+v for item 1", res)
	}
	if res[0].Error == "" {
		return nil
	}
	return errors.New(res[0].Error)
}

// MustRefuse fails the test unless the plugin refuses the argument arg of
// key (see Check) with an error whose text contains want; it returns that
// text.
func (h *MatcherHarness) MustRefuse(key string, arg any, want string) string {
	h.t.Helper()
	err := h.Check(key, arg)
	if err == nil {
		h.t.Fatalf("%s argument %s accepted, want an error containing %q", key, h.raw(arg), want)
	}
	if !strings.Contains(err.Error(), want) {
		h.t.Fatalf("%s argument %s: error %q, want it to contain %q", key, h.raw(arg), err, want)
	}
	return err.Error()
}

// MustPass fails the test unless r passed (with no failure attached).
func (h *MatcherHarness) MustPass(r MatchItemResult) {
	h.t.Helper()
	if r.Error != "" || !r.Pass || len(r.Failure) != 0 {
		h.t.Fatalf("want a pass, got pass=%v error=%q (%s) failure=%s", r.Pass, r.Error, r.ErrorKind, r.Failure)
	}
}

// Failure returns the top-level fields of r's failure, each as raw JSON.
// It fails the test unless r is a failed match: not an error, not a pass,
// and a failure that is a JSON object.
func (h *MatcherHarness) Failure(r MatchItemResult) map[string]json.RawMessage {
	h.t.Helper()
	h.mustFail(r)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Failure, &m); err != nil {
		h.t.Fatalf("failure is not a JSON object: %v: %s", err, r.Failure)
	}
	return m
}

// DecodeFailure decodes r's failure into v, which must have a place for
// every field the failure has. It fails the test unless r is a failed
// match.
func (h *MatcherHarness) DecodeFailure(r MatchItemResult, v any) {
	h.t.Helper()
	h.mustFail(r)
	dec := json.NewDecoder(bytes.NewReader(r.Failure))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		h.t.Fatalf("failure %s: %v", r.Failure, err)
	}
}

// MustInvalid fails the test unless r is an error of kind invalid argument
// (a bug in the suite) whose text contains want.
func (h *MatcherHarness) MustInvalid(r MatchItemResult, want string) {
	h.t.Helper()
	if r.ErrorKind != ErrorKindInvalidArgument {
		h.t.Fatalf("error kind %s (%q), want invalid_argument", r.ErrorKind, r.Error)
	}
	if !strings.Contains(r.Error, want) {
		h.t.Fatalf("error %q, want it to contain %q", r.Error, want)
	}
}

// Text decodes raw, a failure field, as a JSON string; it fails the test
// when raw is not one.
func (h *MatcherHarness) Text(raw json.RawMessage) string {
	h.t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		h.t.Fatalf("not a JSON string: %s", raw)
	}
	return s
}

// mustFail fails the test unless r is a failed match with a failure.
func (h *MatcherHarness) mustFail(r MatchItemResult) {
	h.t.Helper()
	switch {
	case r.Error != "":
		h.t.Fatalf("want a failure, got an error (%s): %s", r.ErrorKind, r.Error)
	case r.Pass:
		h.t.Fatal("passed, want a failure")
	case len(r.Failure) == 0:
		h.t.Fatal("failing result has no failure")
	}
}

// raw is v as JSON text for an item (see Match).
func (h *MatcherHarness) raw(v any) json.RawMessage {
	h.t.Helper()
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		return json.RawMessage(v)
	case []byte:
		return json.RawMessage(v)
	case json.RawMessage:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		h.t.Fatalf("plugintest: encode %T: %v", v, err)
	}
	return b
}
