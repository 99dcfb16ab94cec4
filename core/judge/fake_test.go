package judge

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/sdk"
)

// scripted is a fake judge model: answer decides each reply from the
// request, and every request is recorded.
type scripted struct {
	mu     sync.Mutex
	reqs   []sdk.ChatRequest
	answer func(n int, req sdk.ChatRequest) string
	usage  sdk.Usage
	// stops gives the stop reason of call n; "" past its end.
	stops []string
}

func (s *scripted) Complete(_ context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	stop := ""
	if n < len(s.stops) {
		stop = s.stops[n]
	}
	return sdk.ChatResponse{Message: sdk.Message{Role: "assistant", Content: s.answer(n, req)}, Usage: s.usage, StopReason: stop}, nil
}

func (s *scripted) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// source serves scripted models by id, with optional prices; a model
// listed in noKey fails like a missing key.
type source struct {
	models map[string]*scripted
	prices map[string]sdk.ModelPrice
	noKey  map[string]bool
}

func (s source) Model(id string) (Model, error) {
	if s.noKey[id] {
		return nil, &models.NoKeyError{Model: id, Family: "anthropic", Vars: []string{"ANTHROPIC_API_KEY"}}
	}
	m, ok := s.models[id]
	if !ok {
		return nil, fmt.Errorf("no such model %q", id)
	}
	return m, nil
}

func (s source) Price(id string) (sdk.ModelPrice, bool) {
	p, ok := s.prices[id]
	return p, ok
}

// verdict is a well-formed reply.
func verdict(score float64, reason string) string {
	return fmt.Sprintf(`{"score": %g, "pass": %v, "reason": %q}`, score, score >= 0.5, reason)
}

// byCriterion answers by which criterion or question the prompt names.
func byCriterion(scores map[string]float64) func(int, sdk.ChatRequest) string {
	return func(_ int, req sdk.ChatRequest) string {
		user := req.Messages[0].Content
		for name, sc := range scores {
			if strings.Contains(user, "Criterion \""+name+"\"") || strings.Contains(user, "Question: "+name+"\n") {
				return verdict(sc, "graded "+name)
			}
		}
		return verdict(0.5, "default")
	}
}

// engine returns an engine over one scripted model "judge-model".
func engine(t *testing.T, m *scripted, opts Options) *Engine {
	t.Helper()
	if opts.Models == nil {
		opts.Models = source{models: map[string]*scripted{"judge-model": m}}
	}
	if opts.DefaultModel == "" {
		opts.DefaultModel = "judge-model"
	}
	return New(opts)
}
