package pluginrpc

import (
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// Go types to their protobuf messages, in one place so each field is copied
// once and a new field is added in one spot. fromproto.go holds the inverse.
// Both sides use this file: the exported functions are the host's
// directions (sdk/pluginrpc/hostrpc), the others the plugin's.

// descriptionToProto is the Describe answer for d at this SDK's protocol.
func descriptionToProto(d contract.Description) *pluginv1.DescribeResponse {
	resp := &pluginv1.DescribeResponse{
		Name:            d.Name,
		Version:         d.Version,
		ProtocolVersion: contract.ProtocolVersion,
		ProtocolMinor:   contract.ProtocolMinor,
		SdkVersion:      d.SDKVersion,
		Capabilities:    d.Capabilities,
		MaxRecvBytes:    d.MaxRecvBytes,
	}
	if len(d.Prices) > 0 {
		// A table of plain numbers always encodes.
		resp.PricesJson, _ = json.Marshal(d.Prices)
	}
	for _, c := range d.Components {
		resp.Components = append(resp.Components, &pluginv1.Component{Kind: c.Kind, Keys: c.Keys})
	}
	return resp
}

// MatchItemToProto fills *pi in place (the client reuses its request
// between batches); n is the 1-based index of the item's test context.
func MatchItemToProto(pi *pluginv1.MatchItem, it *MatchItem, n uint32) {
	o := &it.Options
	*pi = pluginv1.MatchItem{
		Id: it.ID, Key: it.Key,
		ActualJson: it.Actual, ArgumentJson: it.Argument, OptionsJson: o.Raw,
		Target: o.Target, Message: o.Message, Context: n,
	}
}

// ContextToProto is the test context of o, sent once per test.
func ContextToProto(o *contract.MatchOptions) *pluginv1.MatchContext {
	return &pluginv1.MatchContext{
		TestId: o.TestID, TestName: o.TestName, SuiteFile: o.SuiteFile, SuiteDir: o.SuiteDir, UpdateSnapshots: o.UpdateSnapshots,
	}
}

// matchResultToProto fills *res in place: the server allocates all the
// results of a batch at once.
func matchResultToProto(res *pluginv1.MatchResult, id uint64, r MatchItemResult) {
	res.Id, res.Pass, res.FailureJson, res.Error, res.ErrorKind = id, r.Pass, r.Failure, r.Error, pluginv1.ErrorKind(r.ErrorKind)
	res.Deferred, res.EvalJson = r.Deferred, r.Eval
	if r.Score != nil {
		res.HasScore, res.Score = true, *r.Score
	}
}

// CheckItemToProto is the host's request to check one argument.
func CheckItemToProto(it CheckItem) *pluginv1.CheckItem {
	return &pluginv1.CheckItem{Id: it.ID, Key: it.Key, ArgumentJson: it.Argument}
}

// usageToProto keeps "no cost known" apart from a cost of zero.
func usageToProto(u contract.Usage) *pluginv1.Usage {
	pu := &pluginv1.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens}
	if u.CostUSD != nil {
		pu.HasCost, pu.CostUsd = true, *u.CostUSD
	}
	return pu
}

// CompleteResponseToProto sends the reply as JSON with its usage typed.
func CompleteResponseToProto(r contract.ChatResponse) (*pluginv1.CompleteResponse, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encode chat response: %w", err)
	}
	return &pluginv1.CompleteResponse{ResponseJson: b, Usage: usageToProto(r.Usage)}, nil
}

// EmbedRequestToProto addresses req to the provider key.
func EmbedRequestToProto(key string, req contract.EmbedRequest) *pluginv1.EmbedRequest {
	return &pluginv1.EmbedRequest{Key: key, Model: req.Model, Inputs: req.Inputs}
}

// EndpointToProto is nil for the zero endpoint, so a call without one
// reads as "use the defaults" on the other side.
func EndpointToProto(ep contract.Endpoint) *pluginv1.Endpoint {
	if ep == (contract.Endpoint{}) {
		return nil
	}
	return &pluginv1.Endpoint{BaseUrl: ep.BaseURL, ApiKey: ep.APIKey, ApiKeyEnv: ep.KeyEnv, Organization: ep.Organization, Name: ep.Name}
}

// EmbedResponseToProto sends the vectors with their usage typed.
func EmbedResponseToProto(r contract.EmbedResponse) *pluginv1.EmbedResponse {
	out := &pluginv1.EmbedResponse{Usage: usageToProto(r.Usage)}
	for _, v := range r.Vectors {
		out.Vectors = append(out.Vectors, &pluginv1.Vector{Values: v})
	}
	return out
}

// terminalToProto clamps a negative width (unknown) to 0.
func terminalToProto(t contract.Terminal) *pluginv1.Terminal {
	return &pluginv1.Terminal{IsTty: t.IsTTY, Color: t.Color, Width: uint32(max(t.Width, 0))}
}

// RenderStartToProto is the first message of a render stream.
func RenderStartToProto(start RenderStart) *pluginv1.RenderStart {
	return &pluginv1.RenderStart{
		Key:              start.Key,
		OptionsJson:      start.Options,
		Terminal:         terminalToProto(start.Terminal),
		ProgressTerminal: terminalToProto(start.ProgressTerminal),
	}
}

// ScoreItemToProto is the host's request to grade one item.
func ScoreItemToProto(it ScoreItem) *pluginv1.ScoreItem {
	return &pluginv1.ScoreItem{Id: it.ID, Key: it.Key, ConfigJson: it.Config, InputJson: it.Envelope}
}

// scoreResultToProto is a successful verdict on item id; the optional
// score and cost travel with has-flags.
func scoreResultToProto(id uint64, r contract.ScoreResult) *pluginv1.ScoreResult {
	res := &pluginv1.ScoreResult{Id: id, Verdict: r.Verdict, Reasoning: r.Reasoning}
	if r.Score != nil {
		res.HasScore, res.Score = true, *r.Score
	}
	if r.CostUSD != nil {
		res.HasCost, res.CostUsd = true, *r.CostUSD
	}
	return res
}
