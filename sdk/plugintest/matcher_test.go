package plugintest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// equalMatcher passes when the actual value is the argument's JSON text;
// an argument that is not an object is refused.
type equalMatcher struct{}

func (equalMatcher) CheckArgument(_ string, arg json.RawMessage) error {
	if !bytes.HasPrefix(arg, []byte("{")) {
		return sdk.InvalidArgument("want an object")
	}
	return nil
}

func (m equalMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	if err := m.CheckArgument(in.Key, in.Argument); err != nil {
		return sdk.MatchResult{}, err
	}
	if in.Options.TestName == "boom" {
		return sdk.MatchResult{}, errors.New("boom")
	}
	if bytes.Equal(in.Actual, in.Argument) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{Expected: in.Argument, Actual: in.Actual, Note: "not the same text"}), nil
}

func TestMatcherHarness(t *testing.T) {
	h := plugintest.Matcher(t, &sdk.Plugin{Name: "eq", Version: "0.0.1", Matchers: map[string]sdk.Matcher{"eq": equalMatcher{}}})

	h.MustPass(h.Match("eq", `{"a":1}`, `{"a":1}`))
	h.MustPass(h.Match("eq", map[string]int{"a": 1}, json.RawMessage(`{"a":1}`)))

	r := h.Match("eq", `{"a":2}`, []byte(`{"a":1}`))
	f := h.Failure(r)
	if h.Text(f["note"]) != "not the same text" || string(f["actual"]) != `{"a":2}` {
		t.Errorf("failure fields %v", f)
	}
	var got struct {
		Expected, Actual json.RawMessage
		Note             string
	}
	h.DecodeFailure(r, &got)
	if string(got.Expected) != `{"a":1}` {
		t.Errorf("decoded failure %+v", got)
	}

	h.MustInvalid(h.Match("eq", `1`, `[1]`), "want an object")
	if err := h.Check("eq", `[1]`); err == nil || err.Error() != "invalid matcher argument: want an object" {
		t.Errorf("Check = %v", err)
	}
	if got := h.MustRefuse("eq", []int{1}, "want an"); got != "invalid matcher argument: want an object" {
		t.Errorf("MustRefuse = %q", got)
	}
	if err := h.Check("eq", `{}`); err != nil {
		t.Errorf("Check = %v", err)
	}

	r = h.MatchItem(plugintest.MatchItem{ID: 9, Key: "eq", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`{}`),
		Options: sdk.MatchOptions{TestName: "boom"}})
	if r.ID != 9 || r.ErrorKind != plugintest.ErrorKindInternal || r.Error != "boom" {
		t.Errorf("MatchItem = %+v", r)
	}

	t.Run("subtest", func(t *testing.T) {
		h := h.For(t)
		h.MustPass(h.Match("eq", `{}`, `{}`))
	})
}
