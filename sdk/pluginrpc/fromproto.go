package pluginrpc

import (
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// Protobuf messages to Go types: the inverse of toproto.go.

// DescriptionFromProto is the Describe answer as the host reads it.
func DescriptionFromProto(resp *pluginv1.DescribeResponse) contract.Description {
	d := contract.Description{
		Name:             resp.GetName(),
		Version:          resp.GetVersion(),
		ProtocolVersions: []int{int(resp.GetProtocolVersion())},
		ProtocolMinor:    int(resp.GetProtocolMinor()),
		SDKVersion:       resp.GetSdkVersion(),
		Capabilities:     resp.GetCapabilities(),
		MaxRecvBytes:     resp.GetMaxRecvBytes(),
	}
	if b := resp.GetPricesJson(); len(b) > 0 {
		// A table that does not decode is left out: prices are advisory,
		// and the host reports a model without a price where it needs one.
		_ = json.Unmarshal(b, &d.Prices)
	}
	for _, comp := range resp.GetComponents() {
		d.Components = append(d.Components, contract.Component{Kind: comp.GetKind(), Keys: comp.GetKeys()})
	}
	return d
}

// matchInputFromProto is what a Matcher sees of one classic (unpacked)
// item; the item's shared test context, if any, is applied after.
func matchInputFromProto(it *pluginv1.MatchItem, host contract.Host) contract.MatchInput {
	return contract.MatchInput{
		Key:      it.GetKey(),
		Actual:   it.GetActualJson(),
		Argument: it.GetArgumentJson(),
		Host:     host,
		Options: contract.MatchOptions{
			TestID: it.GetTestId(), TestName: it.GetTestName(), Target: it.GetTarget(), Message: it.GetMessage(),
			SuiteFile: it.GetSuiteFile(), SuiteDir: it.GetSuiteDir(), UpdateSnapshots: it.GetUpdateSnapshots(),
			Raw: it.GetOptionsJson(),
		},
	}
}

// applyContextFromProto sets the test context fields of o from c.
func applyContextFromProto(o *contract.MatchOptions, c *pluginv1.MatchContext) {
	o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.UpdateSnapshots = c.GetTestId(), c.GetTestName(), c.GetSuiteFile(), c.GetSuiteDir(), c.GetUpdateSnapshots()
}

// MatchResultFromProto is the verdict r on the item id.
func MatchResultFromProto(id uint64, r *pluginv1.MatchResult) MatchItemResult {
	res := MatchItemResult{ID: id, Pass: r.GetPass(), Failure: r.GetFailureJson(), Error: r.GetError(), ErrorKind: ErrorKind(r.GetErrorKind()),
		Deferred: r.GetDeferred(), Eval: r.GetEvalJson()}
	if r.GetHasScore() {
		score := r.GetScore()
		res.Score = &score
	}
	return res
}

// CheckResultFromProto is the plugin's answer on one checked argument.
func CheckResultFromProto(r *pluginv1.CheckResult) CheckItemResult {
	return CheckItemResult{ID: r.GetId(), Error: r.GetError()}
}

func usageFromProto(pu *pluginv1.Usage) contract.Usage {
	u := contract.Usage{InputTokens: pu.GetInputTokens(), OutputTokens: pu.GetOutputTokens(), TotalTokens: pu.GetTotalTokens()}
	if pu.GetHasCost() {
		c := pu.GetCostUsd()
		u.CostUSD = &c
	}
	return u
}

// CompleteResponseFromProto decodes the JSON reply; the typed usage wins
// over whatever the JSON said.
func CompleteResponseFromProto(resp *pluginv1.CompleteResponse) (contract.ChatResponse, error) {
	var out contract.ChatResponse
	if err := json.Unmarshal(resp.GetResponseJson(), &out); err != nil {
		return contract.ChatResponse{}, fmt.Errorf("decode chat response: %w", err)
	}
	out.Usage = usageFromProto(resp.GetUsage())
	return out, nil
}

func embedRequestFromProto(req *pluginv1.EmbedRequest) contract.EmbedRequest {
	return contract.EmbedRequest{Key: req.GetKey(), Model: req.GetModel(), Inputs: req.GetInputs()}
}

// endpointFromProto reads the endpoint of a call; ok is false when the
// host sent none.
func endpointFromProto(pe *pluginv1.Endpoint) (ep contract.Endpoint, ok bool) {
	if pe == nil {
		return contract.Endpoint{}, false
	}
	return contract.Endpoint{BaseURL: pe.GetBaseUrl(), APIKey: pe.GetApiKey(), KeyEnv: pe.GetApiKeyEnv(), Organization: pe.GetOrganization(), Name: pe.GetName()}, true
}

// EmbedResponseFromProto reads the vectors and their usage.
func EmbedResponseFromProto(resp *pluginv1.EmbedResponse) contract.EmbedResponse {
	out := contract.EmbedResponse{Usage: usageFromProto(resp.GetUsage())}
	for _, v := range resp.GetVectors() {
		out.Vectors = append(out.Vectors, v.GetValues())
	}
	return out
}

func terminalFromProto(t *pluginv1.Terminal) contract.Terminal {
	return contract.Terminal{IsTTY: t.GetIsTty(), Color: t.GetColor(), Width: int(t.GetWidth())}
}

// scoreInputFromProto is what a Scorer sees of one item.
func scoreInputFromProto(it *pluginv1.ScoreItem, host contract.Host) contract.ScoreInput {
	return contract.ScoreInput{Key: it.GetKey(), Config: it.GetConfigJson(), Envelope: it.GetInputJson(), Host: host}
}

// ScoreResultFromProto is the plugin's verdict or error on one graded item.
func ScoreResultFromProto(r *pluginv1.ScoreResult) ScoreItemResult {
	res := ScoreItemResult{ID: r.GetId(), Error: r.GetError(), ErrorKind: ErrorKind(r.GetErrorKind())}
	res.Verdict, res.Reasoning = r.GetVerdict(), r.GetReasoning()
	if r.GetHasScore() {
		v := r.GetScore()
		res.Score = &v
	}
	if r.GetHasCost() {
		v := r.GetCostUsd()
		res.CostUSD = &v
	}
	return res
}
