package pluginrpc

import (
	"reflect"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// TestProtoConversionsRoundTrip: every value that crosses the wire comes
// back as it left, including the optional fields (a cost or score of zero
// is not "none").
func TestProtoConversionsRoundTrip(t *testing.T) {
	zero, half := 0.0, 0.5
	d := contract.Description{Name: "p", Version: "1.2.3", ProtocolVersions: []int{contract.ProtocolVersion}, ProtocolMinor: contract.ProtocolMinor,
		SDKVersion: contract.Version, Components: []contract.Component{{Kind: contract.KindMatcher, Keys: []string{"a", "b"}}},
		Capabilities: []string{"x"}, MaxRecvBytes: 42}
	if got := DescriptionFromProto(descriptionToProto(d)); !reflect.DeepEqual(got, d) {
		t.Errorf("description: got %+v, want %+v", got, d)
	}
	for _, u := range []contract.Usage{{InputTokens: 3, OutputTokens: 4}, {CostUSD: &zero}, {CostUSD: &half}} {
		if got := usageFromProto(usageToProto(u)); !reflect.DeepEqual(got, u) {
			t.Errorf("usage: got %+v, want %+v", got, u)
		}
	}
	cr := contract.ChatResponse{Message: contract.Message{Role: "assistant", Content: "hi"}, StopReason: "end_turn", Usage: contract.Usage{InputTokens: 1, CostUSD: &zero}}
	pc, err := CompleteResponseToProto(cr)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := CompleteResponseFromProto(pc); err != nil || !reflect.DeepEqual(got, cr) {
		t.Errorf("chat response: got %+v (%v), want %+v", got, err, cr)
	}
	er := contract.EmbedResponse{Vectors: [][]float32{{1, 2}, {3}}, Usage: contract.Usage{OutputTokens: 2}}
	if got := EmbedResponseFromProto(EmbedResponseToProto(er)); !reflect.DeepEqual(got, er) {
		t.Errorf("embed response: got %+v, want %+v", got, er)
	}
	if got := embedRequestFromProto(EmbedRequestToProto("k", contract.EmbedRequest{Model: "m", Inputs: []string{"x"}})); !reflect.DeepEqual(got, contract.EmbedRequest{Key: "k", Model: "m", Inputs: []string{"x"}}) {
		t.Errorf("embed request: got %+v", got)
	}
	if got := terminalFromProto(terminalToProto(contract.Terminal{IsTTY: true, Width: -1})); got != (contract.Terminal{IsTTY: true}) {
		t.Errorf("terminal with unknown width: got %+v", got)
	}
	for _, r := range []contract.ScoreResult{{Verdict: "pass", Score: &zero}, {Verdict: "fail", Reasoning: "why", CostUSD: &half}, {}} {
		got := ScoreResultFromProto(scoreResultToProto(7, r))
		if want := (ScoreItemResult{ScoreResult: r, ID: 7}); !reflect.DeepEqual(got, want) {
			t.Errorf("score result: got %+v, want %+v", got, want)
		}
	}
	for _, r := range []MatchItemResult{{Pass: true, Score: &zero}, {Failure: []byte(`{"note":"x"}`), Error: "e", ErrorKind: ErrorKindPanic}} {
		var pr pluginv1.MatchResult
		matchResultToProto(&pr, 9, r)
		r.ID = 9
		if got := MatchResultFromProto(9, &pr); !reflect.DeepEqual(got, r) {
			t.Errorf("match result: got %+v, want %+v", got, r)
		}
	}
	item := MatchItem{ID: 3, Key: "k", Actual: []byte(`1`), Argument: []byte(`2`), Options: contract.MatchOptions{
		TestID: "t", TestName: "n", Target: "result", Message: "m", SuiteFile: "s.yml", SuiteDir: "/d", UpdateSnapshots: true, Raw: []byte(`{}`)}}
	var pi pluginv1.MatchItem
	MatchItemToProto(&pi, &item, 1)
	got := matchInputFromProto(&pi, noHost{})
	applyContextFromProto(&got.Options, ContextToProto(&item.Options))
	if got.Key != item.Key || string(got.Actual) != "1" || string(got.Argument) != "2" || !reflect.DeepEqual(got.Options, item.Options) {
		t.Errorf("match item: got %+v, want %+v", got, item)
	}
	if c := CheckItemToProto(CheckItem{ID: 4, Key: "k", Argument: []byte(`3`)}); c.GetId() != 4 || c.GetKey() != "k" || string(c.GetArgumentJson()) != "3" {
		t.Errorf("check item: got %v", c)
	}
	in := scoreInputFromProto(ScoreItemToProto(ScoreItem{ID: 1, Key: "k", Config: []byte(`{}`), Envelope: []byte(`{"output":1}`)}), noHost{})
	if in.Key != "k" || string(in.Config) != `{}` || string(in.Envelope) != `{"output":1}` || in.Host == nil {
		t.Errorf("score input: got %+v", in)
	}
}
