package budget

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mcptest/mcptest/core/config"
)

// ErrExceeded is wrapped by the error of a model call refused because it
// could cross a spend cap (an *ExceededError says which).
var ErrExceeded = errors.New("spend budget exceeded")

// Scope names of the caps, as the budget block spells them.
const (
	ScopeTest  = "per_test_usd_cents"
	ScopeSuite = "per_suite_usd_cents"
)

// ExceededError is a model call refused before it was sent: what was
// already spent (and reserved by calls in flight) plus the most this call
// can cost would be more than a cap.
type ExceededError struct {
	// Scope is the cap that would be crossed: ScopeTest or ScopeSuite.
	Scope string
	// LimitCents is the cap.
	LimitCents float64
	// SpentCents is what the scope had spent or reserved before the call.
	SpentCents float64
	// EstimateCents is the most the refused call could have cost.
	EstimateCents float64
	// Model is the model of the refused call.
	Model string
}

// Error says which cap, the figures, and that nothing was sent.
func (e *ExceededError) Error() string {
	return fmt.Sprintf("budget: %s %s would be crossed: %s spent so far, the next call to %s could cost up to %s; the call was not sent",
		e.Scope, fmtCents(e.LimitCents), fmtCents(e.SpentCents), e.Model, fmtCents(e.EstimateCents))
}

// Unwrap makes errors.Is(err, ErrExceeded) hold.
func (e *ExceededError) Unwrap() error { return ErrExceeded }

// fmtCents renders an amount of cents readably ("12.5¢" style, in words so
// any terminal shows it).
func fmtCents(c float64) string {
	return fmt.Sprintf("%.4g cents", c)
}

// meter counts the spend of one scope. Calls in flight hold a reservation
// of their estimate, so concurrent tests cannot each pass the check and
// together cross the suite cap.
type meter struct {
	scope    string
	limit    float64 // cents; 0 is no cap
	mu       sync.Mutex
	spent    float64
	reserved float64
}

// Suite meters the spend of one suite's agent runs. Its methods are safe
// for concurrent use. A nil *Suite has no caps.
type Suite struct {
	m       meter
	perTest float64
}

// NewSuite returns the meter of a suite's budget block; nil (no caps) when
// the block is absent or sets no cap.
func NewSuite(b *config.Budget) *Suite {
	if b == nil || (b.PerTestUSDCents <= 0 && b.PerSuiteUSDCents <= 0) {
		return nil
	}
	return &Suite{m: meter{scope: ScopeSuite, limit: float64(b.PerSuiteUSDCents)}, perTest: float64(b.PerTestUSDCents)}
}

// SpentCents is what the suite's finished calls cost.
func (s *Suite) SpentCents() float64 {
	if s == nil {
		return 0
	}
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	return s.m.spent
}

// Test starts the meter of one agent test (one model row): the per-test
// counter starts at zero for each. A nil Suite gives a nil Test, which has
// no caps.
func (s *Suite) Test() *Test {
	if s == nil {
		return nil
	}
	return &Test{suite: s, m: meter{scope: ScopeTest, limit: s.perTest}}
}

// Test meters the spend of one agent test within its suite.
type Test struct {
	suite *Suite
	m     meter
}

// SpentCents is what the test's finished calls cost.
func (t *Test) SpentCents() float64 {
	if t == nil {
		return 0
	}
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	return t.m.spent
}

// reserve books est cents in the test and the suite, or returns an
// *ExceededError naming the first cap it would cross and books nothing.
func (t *Test) reserve(est float64, model string) error {
	// Lock order: test, then suite (always), so two tests never deadlock.
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	s := &t.suite.m
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range []*meter{&t.m, s} {
		if m.limit > 0 && m.spent+m.reserved+est > m.limit {
			return &ExceededError{Scope: m.scope, LimitCents: m.limit, SpentCents: m.spent + m.reserved, EstimateCents: est, Model: model}
		}
	}
	t.m.reserved += est
	s.reserved += est
	return nil
}

// settle replaces a reservation of est cents by the call's real cost.
func (t *Test) settle(est, cost float64) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	s := &t.suite.m
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range []*meter{&t.m, s} {
		m.reserved -= est
		if m.reserved < 0 { // float rounding of many add/subtract pairs
			m.reserved = 0
		}
		m.spent += cost
	}
}
