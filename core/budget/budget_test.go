package budget

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

// countingModel answers every call with fixed usage and counts the calls
// that reached it.
type countingModel struct {
	mu    sync.Mutex
	calls int
	usage sdk.Usage
}

func (m *countingModel) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: "ok"}, Usage: m.usage}, nil
}

// cent is a price at which one output token costs one cent (10,000 US
// dollars a million) and input is free, so estimates equal max_tokens in
// cents.
var cent = sdk.ModelPrice{Model: "m1", OutputPerMTok: 10_000}

func req(maxTokens int) sdk.ChatRequest {
	return sdk.ChatRequest{Model: "m1", MaxTokens: maxTokens}
}

func TestPerTestCapRefusesBeforeTheCall(t *testing.T) {
	s := NewSuite(&config.Budget{PerTestUSDCents: 10})
	inner := &countingModel{usage: sdk.Usage{OutputTokens: 4}}
	m := Wrap(inner, cent, s.Test())
	// Each call may cost 4 cents and does: 4 + 4 fit, the third would
	// reach 12 > 10 and must not be sent.
	for i := 0; i < 2; i++ {
		if _, err := m.Complete(context.Background(), req(4)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	_, err := m.Complete(context.Background(), req(4))
	var ex *ExceededError
	if !errors.As(err, &ex) || !errors.Is(err, ErrExceeded) {
		t.Fatalf("third call: err = %v, want an ExceededError", err)
	}
	if ex.Scope != ScopeTest || ex.LimitCents != 10 || ex.SpentCents != 8 || ex.EstimateCents != 4 || ex.Model != "m1" {
		t.Errorf("error fields = %+v", ex)
	}
	if inner.calls != 2 {
		t.Errorf("the model got %d calls, want 2 (the refused one must not reach it)", inner.calls)
	}
	for _, want := range []string{"per_test_usd_cents", "10 cents", "8 cents", "m1", "not sent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestEstimateUsesMaxTokensNotLastUsage(t *testing.T) {
	// The model answers cheaply (1 token a call) but each request may
	// produce up to max_tokens: the check must count max_tokens, not what
	// earlier calls happened to use.
	s := NewSuite(&config.Budget{PerTestUSDCents: 10})
	inner := &countingModel{usage: sdk.Usage{OutputTokens: 1}}
	m := Wrap(inner, cent, s.Test())
	if _, err := m.Complete(context.Background(), req(8)); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Complete(context.Background(), req(8)); err != nil {
		t.Fatalf("1 spent + 8 estimated fits in 10: %v", err)
	}
	if _, err := m.Complete(context.Background(), req(9)); !errors.Is(err, ErrExceeded) {
		t.Fatalf("2 spent + 9 estimated exceeds 10, got %v", err)
	}
}

func TestSuiteCapSpansTestsAndTestCounterResets(t *testing.T) {
	s := NewSuite(&config.Budget{PerTestUSDCents: 6, PerSuiteUSDCents: 10})
	inner := &countingModel{usage: sdk.Usage{OutputTokens: 3}}
	a := Wrap(inner, cent, s.Test())
	for i := 0; i < 2; i++ {
		if _, err := a.Complete(context.Background(), req(3)); err != nil {
			t.Fatalf("test a call %d: %v", i, err)
		}
	}
	if _, err := a.Complete(context.Background(), req(3)); !errors.Is(err, ErrExceeded) {
		t.Fatalf("test a third call: %v, want the per-test cap", err)
	}
	// A new test starts at zero for its own cap, but the suite has 6 of
	// 10 spent: one call of 3 fits, the next crosses the suite cap.
	b := Wrap(inner, cent, s.Test())
	if _, err := b.Complete(context.Background(), req(3)); err != nil {
		t.Fatalf("test b first call: %v", err)
	}
	_, err := b.Complete(context.Background(), req(3))
	var ex *ExceededError
	if !errors.As(err, &ex) || ex.Scope != ScopeSuite {
		t.Fatalf("test b second call: %v, want the per-suite cap", err)
	}
	if got := s.SpentCents(); got != 9 {
		t.Errorf("suite spent %v cents, want 9", got)
	}
}

// blockingModel holds every call until released, so calls are in flight
// together.
type blockingModel struct {
	started chan struct{}
	release chan struct{}
}

func (m *blockingModel) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	m.started <- struct{}{}
	select {
	case <-m.release:
	case <-ctx.Done():
		return sdk.ChatResponse{}, ctx.Err()
	}
	return sdk.ChatResponse{Usage: sdk.Usage{OutputTokens: int64(req.MaxTokens)}}, nil
}

func TestCallsInFlightReserveTheSuiteCap(t *testing.T) {
	// Two tests, each call may cost 6 of a suite cap of 10: while the
	// first call is in flight (unsettled), the second must be refused,
	// or both would pass the check and spend 12.
	s := NewSuite(&config.Budget{PerSuiteUSDCents: 10})
	inner := &blockingModel{started: make(chan struct{}, 2), release: make(chan struct{})}
	first := make(chan error, 1)
	go func() {
		_, err := Wrap(inner, cent, s.Test()).Complete(context.Background(), req(6))
		first <- err
	}()
	<-inner.started
	_, err := Wrap(inner, cent, s.Test()).Complete(context.Background(), req(6))
	if !errors.Is(err, ErrExceeded) {
		t.Fatalf("second call while the first is in flight: %v, want refused", err)
	}
	close(inner.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if got := s.SpentCents(); got != 6 {
		t.Errorf("spent %v, want 6", got)
	}
}

func TestProviderCostWinsOverTokenPrice(t *testing.T) {
	usd := 0.05
	s := NewSuite(&config.Budget{PerTestUSDCents: 100})
	tm := s.Test()
	m := Wrap(&countingModel{usage: sdk.Usage{OutputTokens: 1000, CostUSD: &usd}}, cent, tm)
	if _, err := m.Complete(context.Background(), req(1)); err != nil {
		t.Fatal(err)
	}
	if got := tm.SpentCents(); got != 5 {
		t.Errorf("spent %v cents, want the provider's 5", got)
	}
}

func TestNoBudgetIsUnmetered(t *testing.T) {
	if NewSuite(nil) != nil || NewSuite(&config.Budget{}) != nil {
		t.Fatal("a suite without caps must have no meter")
	}
	inner := &countingModel{}
	var s *Suite
	if m := Wrap(inner, cent, s.Test()); m != Model(inner) {
		t.Error("Wrap without a meter must return the model itself")
	}
}

func TestEstimateTokensCountsPromptAndMaxTokens(t *testing.T) {
	r := sdk.ChatRequest{System: "abcdef", MaxTokens: 7, Messages: []sdk.Message{{Role: "user", Content: "xyz"}}}
	in, out := EstimateTokens(r)
	// 9 bytes of text at 3 bytes a token, plus one message's overhead.
	if in != 3+messageOverhead || out != 7 {
		t.Errorf("estimate = %d in, %d out", in, out)
	}
}

func loadSuite(t *testing.T, yml string) *config.Suite {
	t.Helper()
	p := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(p, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const agentSuite = `
servers:
  demo: { command: [demo] }
%s
agents:
  - name: weather
    models: [priced-model, { provider: local, id: secret-model }]
    servers: [demo]
    prompt: hi
providers:
  local: { type: openai, base_url: "http://127.0.0.1:1/v1" }
`

func TestCheckNamesUnpricedModels(t *testing.T) {
	pricer := PricerFunc(func(ref config.ModelRef) (sdk.ModelPrice, bool) {
		return cent, ref.ID == "priced-model"
	})
	s := loadSuite(t, strings.Replace(agentSuite, "%s", "budget: { per_test_usd_cents: 5 }", 1))
	errs := Check(s, pricer)
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	e := errs[0]
	msg := e.Error()
	for _, want := range []string{"suite.yml:", `"secret-model"`, `provider "local"`, "/agents/0/models/1", "weather"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if e.Line != 6 {
		t.Errorf("line = %d, want 6 (the agent test)", e.Line)
	}
	// Without a budget block, prices do not matter.
	if errs := Check(loadSuite(t, strings.Replace(agentSuite, "%s", "", 1)), pricer); errs != nil {
		t.Errorf("no budget: %v", errs)
	}
}
