package plugin_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

// rawMatcher is a plugin written without the SDK, which therefore checks
// nothing it answers. The argument says what it does with an item:
// "missing" leaves it out of the answer, a number or "nan", "inf", "-inf"
// passes it with that score.
type rawMatcher struct {
	pluginv1.UnimplementedMatcherServer
}

func (rawMatcher) Match(_ context.Context, req *pluginv1.MatchRequest) (*pluginv1.MatchResponse, error) {
	resp := &pluginv1.MatchResponse{}
	for _, it := range req.GetItems() {
		r := &pluginv1.MatchResult{Id: it.GetId(), Pass: true}
		switch arg := string(it.GetArgumentJson()); arg {
		case `"missing"`:
			continue
		case `"nan"`:
			r.HasScore, r.Score = true, math.NaN()
		case `"inf"`:
			r.HasScore, r.Score = true, math.Inf(1)
		case `"-inf"`:
			r.HasScore, r.Score = true, math.Inf(-1)
		default:
			r.HasScore = json.Unmarshal([]byte(arg), &r.Score) == nil
		}
		resp.Results = append(resp.Results, r)
	}
	return resp, nil
}

func (rawMatcher) Check(_ context.Context, req *pluginv1.CheckRequest) (*pluginv1.CheckResponse, error) {
	resp := &pluginv1.CheckResponse{}
	for _, it := range req.GetItems() {
		if string(it.GetArgumentJson()) != `"missing"` {
			resp.Results = append(resp.Results, &pluginv1.CheckResult{Id: it.GetId()})
		}
	}
	return resp, nil
}

// rawInfo describes the raw plugin as protocol minor 0 (classic batches).
type rawInfo struct {
	pluginv1.UnimplementedInfoServer
}

func (rawInfo) Describe(context.Context, *pluginv1.DescribeRequest) (*pluginv1.DescribeResponse, error) {
	return &pluginv1.DescribeResponse{Name: "raw", Version: "1.0.0", ProtocolVersion: 1,
		Components: []*pluginv1.Component{{Kind: sdk.KindMatcher, Keys: []string{"raw"}}}}, nil
}

func (rawInfo) Configure(context.Context, *pluginv1.ConfigureRequest) (*pluginv1.ConfigureResponse, error) {
	return &pluginv1.ConfigureResponse{}, nil
}

// rawKind serves one raw service and hands the host the SDK's own client.
type rawKind struct {
	goplugin.NetRPCUnsupportedPlugin
	kind     string
	register func(*grpc.Server)
}

func (r *rawKind) GRPCServer(_ *goplugin.GRPCBroker, s *grpc.Server) error {
	r.register(s)
	return nil
}

func (r *rawKind) GRPCClient(ctx context.Context, b *goplugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return hostrpc.ClientPluginSet()[r.kind].(goplugin.GRPCPlugin).GRPCClient(ctx, b, c)
}

// rawLauncher serves the raw plugin over real gRPC in the test process.
type rawLauncher struct{ t *testing.T }

type rawInstance struct {
	client *goplugin.GRPCClient
}

func (l rawLauncher) Launch(context.Context, *plugin.Found) (plugin.Instance, error) {
	set := map[string]goplugin.Plugin{
		pluginrpc.KindInfo: &rawKind{kind: pluginrpc.KindInfo, register: func(s *grpc.Server) { pluginv1.RegisterInfoServer(s, rawInfo{}) }},
		sdk.KindMatcher: &rawKind{kind: sdk.KindMatcher, register: func(s *grpc.Server) {
			pluginv1.RegisterMatcherServer(s, rawMatcher{})
		}},
	}
	c, _ := goplugin.TestPluginGRPCConn(l.t, false, set)
	return &rawInstance{client: c}, nil
}

func (r *rawInstance) Dispense(kind string) (any, error) { return r.client.Dispense(kind) }

// Kill closes the client, whose shutdown call stops the server.
func (r *rawInstance) Kill()                 { r.client.Close() }
func (r *rawInstance) Exited() bool          { return false }
func (r *rawInstance) Done() <-chan struct{} { return nil }
func (r *rawInstance) StderrTail(int) string { return "" }

func rawFound() *plugin.Found {
	return &plugin.Found{
		Manifest: &plugin.Manifest{ManifestVersion: 1, Name: "raw", Version: "1.0.0", ProtocolVersions: []int{1},
			Executable: "mcptest-plugin-raw", Components: []sdk.Component{{Kind: sdk.KindMatcher, Keys: []string{"raw"}}}},
		Dir: "/in-process/raw", ManifestPath: "/in-process/raw/" + plugin.ManifestFile,
	}
}

func TestHostErrorsScoresOutsideZeroToOne(t *testing.T) {
	h := plugin.NewHost(rawLauncher{t}, plugin.HostOptions{})
	t.Cleanup(h.Close)
	f := rawFound()
	args := []string{`0`, `0.5`, `1`, `"nan"`, `"inf"`, `"-inf"`, `-0.1`, `1.5`}
	var reqs []plugin.MatchRequest
	for _, a := range args {
		reqs = append(reqs, plugin.MatchRequest{Plugin: f, Key: "raw", Actual: json.RawMessage(`1`), Argument: json.RawMessage(a)})
	}
	for i, o := range h.Match(context.Background(), reqs) {
		if i < 3 {
			if o.Err != nil || !o.Pass || o.Score == nil {
				t.Errorf("score %s: %+v", args[i], o)
			}
			continue
		}
		if o.Err == nil || o.Pass || o.Score != nil || !strings.Contains(o.Err.Error(), "a score is a number from 0 to 1") {
			t.Errorf("score %s should error the item: %+v", args[i], o)
		}
	}
}

func TestHostErrorsItemsAPluginLeftUnanswered(t *testing.T) {
	h := plugin.NewHost(rawLauncher{t}, plugin.HostOptions{})
	t.Cleanup(h.Close)
	f := rawFound()
	var reqs []plugin.MatchRequest
	for i := range 4 {
		arg := `1`
		if i%2 == 1 {
			arg = `"missing"`
		}
		reqs = append(reqs, plugin.MatchRequest{Plugin: f, Key: "raw", Actual: json.RawMessage(`1`), Argument: json.RawMessage(arg)})
	}
	for i, o := range h.Match(context.Background(), reqs) {
		if i%2 == 0 {
			if o.Err != nil || !o.Pass {
				t.Errorf("answered item %d: %+v", i, o)
			}
			continue
		}
		if o.Err == nil || o.Pass || !strings.Contains(o.Err.Error(), "no result") {
			t.Errorf("unanswered item %d should be errored: %+v", i, o)
		}
	}
}

func TestHostCheckTreatsAMissingVerdictAsAnError(t *testing.T) {
	h := plugin.NewHost(rawLauncher{t}, plugin.HostOptions{})
	t.Cleanup(h.Close)
	f := rawFound()
	var reqs []plugin.CheckRequest
	for i := range 4 {
		arg := `1`
		if i%2 == 1 {
			arg = `"missing"`
		}
		reqs = append(reqs, plugin.CheckRequest{Plugin: f, Key: "raw", Argument: json.RawMessage(arg)})
	}
	for i, err := range h.Check(context.Background(), reqs) {
		if i%2 == 0 {
			if err != nil {
				t.Errorf("vetted argument %d: %v", i, err)
			}
			continue
		}
		if !errors.Is(err, plugin.ErrBadResult) || !strings.Contains(err.Error(), "no verdict") {
			t.Errorf("an argument the plugin said nothing about passed as OK: %v", err)
		}
	}
}
