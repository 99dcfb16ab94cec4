// Package costcap is the run-wide spending cap of --max-cost: one object
// shared by every judge and scorer call of a run. A call is checked
// before it is made, against the most it can cost (an estimate of its
// prompt and its max_tokens at the model's price, the way core/budget
// checks agent runs), so a call that would cross the cap is never sent.
// Once settled, a call's estimate is replaced by what it really cost.
package costcap

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/sdk"
)

// ErrMaxCost: a call was not made because it could have crossed the
// --max-cost budget.
var ErrMaxCost = errors.New("the --max-cost budget would be exceeded")

// ErrUnpriced: a call under a cap is to a model without a known price,
// so the cap could not be enforced and the call was not made.
var ErrUnpriced = errors.New("no price is known for the model, so --max-cost cannot be enforced")

// Cap is a run's budget in US dollars. A nil *Cap is no cap at all: every
// method works on it and allows everything. It is safe for concurrent
// use.
type Cap struct {
	max float64

	mu      sync.Mutex
	spent   float64 // settled costs plus outstanding reservations
	stopped bool
}

// New returns a cap of maxUSD dollars.
func New(maxUSD float64) *Cap { return &Cap{max: maxUSD} }

// Reservation is an admitted call's estimate, to settle once the call is
// answered (or failed).
type Reservation struct {
	cap      *Cap
	estimate float64
	done     bool
}

// Estimate is the most req can cost at price p, in dollars: its prompt
// estimated at three bytes a token and its max_tokens as completion.
func Estimate(req sdk.ChatRequest, p sdk.ModelPrice) float64 {
	in, out := budget.EstimateTokens(req)
	return p.Cost(sdk.Usage{InputTokens: in, OutputTokens: out})
}

// Reserve admits a call that can cost up to estimate dollars, or refuses
// it with ErrMaxCost (and marks the cap stopped) when the money already
// spent or reserved plus the estimate would exceed the cap. priced is
// false when the model has no price: under a cap such a call is refused
// with ErrUnpriced.
func (c *Cap) Reserve(model string, estimate float64, priced bool) (*Reservation, error) {
	if c == nil {
		return &Reservation{}, nil
	}
	if !priced {
		return nil, fmt.Errorf("judge model %q: %w", model, ErrUnpriced)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.spent+estimate > c.max {
		c.stopped = true
		return nil, fmt.Errorf("%w: a call to %s could cost up to %s and %s of the %s budget is spent or reserved",
			ErrMaxCost, model, USD(estimate), USD(c.spent), USD(c.max))
	}
	c.spent += estimate
	return &Reservation{cap: c, estimate: estimate}, nil
}

// Settle replaces the reservation's estimate by the call's real cost
// (actual; nil when the call failed before costing anything or its cost
// is unknown, in which case the estimate stays counted, erring high).
// Settling twice is a no-op.
func (r *Reservation) Settle(actual *float64) {
	if r == nil || r.cap == nil || r.done {
		return
	}
	r.done = true
	if actual == nil {
		return
	}
	r.cap.mu.Lock()
	r.cap.spent += *actual - r.estimate
	r.cap.mu.Unlock()
}

// Release gives a reservation back whole: the call was never sent.
func (r *Reservation) Release() {
	zero := 0.0
	r.Settle(&zero)
}

// Add counts money spent outside a reservation (a scorer that reported
// its own cost after the fact).
func (c *Cap) Add(usd float64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.spent += usd
	c.mu.Unlock()
}

// Max is the budget in dollars; ok is false for a nil cap.
func (c *Cap) Max() (usd float64, ok bool) {
	if c == nil {
		return 0, false
	}
	return c.max, true
}

// Spent is the money spent so far, outstanding reservations included.
func (c *Cap) Spent() float64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.spent
}

// Stopped reports whether the cap refused a call.
func (c *Cap) Stopped() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

// USD writes an amount of dollars to four significant digits, so the
// sub-cent sums of single judge calls and small budgets stay readable
// ("$0.00001", not "$0.0000").
func USD(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	if err != nil {
		r = v
	}
	return "$" + strconv.FormatFloat(r, 'f', -1, 64)
}
