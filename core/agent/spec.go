package agent

import (
	"time"

	"github.com/mcptest/mcptest/core/config"
)

// DefaultCallTimeout bounds a tool call when the spec sets no CallTimeout.
const DefaultCallTimeout = 30 * time.Second

// Spec is what one agent run does: one model of an agent test.
type Spec struct {
	// Model is the model id sent in every request.
	Model string
	// Provider is the providers: entry of the model; "" when detected.
	Provider string
	// Servers are the servers whose tools the model sees, in order.
	Servers []string
	// System is the system prompt; "" for none.
	System string
	// Prompt is the first user message; with Turns it is sent before the
	// scripted ones (when set).
	Prompt string
	// Turns are scripted user messages; nil for none.
	Turns []string
	// Simulate has the model play a user; nil for none.
	Simulate *config.Simulation
	// MaxTurns caps the model calls of one user turn (default 10).
	MaxTurns int
	// MaxTokens is the per-call max_tokens (default 1024).
	MaxTokens int
	// TokenBudget, MaxToolCalls and TimeBudget are the run-wide caps; 0
	// for none.
	TokenBudget  int
	MaxToolCalls int
	TimeBudget   time.Duration
	// CallTimeout bounds each tool call; an injected fault that does not
	// answer within it is given up after it (in virtual time).
	CallTimeout time.Duration
	// Faults are the injected faults; nil for none.
	Faults []*config.Fault
	// Recovery is the recovery gate; nil for none.
	Recovery *config.Recovery
}

// SpecOf is the spec of one model of an agent test of suite s. The call
// timeout is the suite's performance.default_timeout_ms, else the recovery
// gate's max_detection_ms, else DefaultCallTimeout.
func SpecOf(s *config.Suite, a *config.AgentTest, m config.ModelRef) Spec {
	sp := Spec{
		Model: m.ID, Provider: m.Provider, Servers: a.Servers, System: a.SystemPrompt, Prompt: a.Prompt,
		MaxTurns: a.MaxTurns, MaxTokens: a.MaxTokens, TokenBudget: a.TokenBudget, MaxToolCalls: a.MaxToolCalls,
		TimeBudget: a.TimeBudget, Recovery: a.Recovery, CallTimeout: DefaultCallTimeout,
	}
	if a.Turns != nil {
		sp.Turns, sp.Simulate = a.Turns.Scripted, a.Turns.Simulate
	}
	switch {
	case s != nil && s.DefaultTimeoutMS > 0:
		sp.CallTimeout = time.Duration(s.DefaultTimeoutMS) * time.Millisecond
	case a.Recovery != nil && a.Recovery.MaxDetectionMS > 0:
		sp.CallTimeout = time.Duration(a.Recovery.MaxDetectionMS) * time.Millisecond
	}
	if s != nil {
		for _, name := range a.Inject {
			for _, f := range s.Faults {
				if f.Name == name {
					sp.Faults = append(sp.Faults, f)
				}
			}
		}
	}
	return sp
}

func (s *Spec) defaults() {
	if s.MaxTurns <= 0 {
		s.MaxTurns = config.DefaultAgentMaxTurns
	}
	if s.MaxTokens <= 0 {
		s.MaxTokens = config.DefaultAgentMaxTokens
	}
	if s.CallTimeout <= 0 {
		s.CallTimeout = DefaultCallTimeout
	}
	if s.Simulate != nil && s.Simulate.MaxTurns <= 0 {
		sim := *s.Simulate
		sim.MaxTurns = config.DefaultSimulateMaxTurns
		s.Simulate = &sim
	}
}
