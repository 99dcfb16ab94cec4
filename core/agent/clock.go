package agent

import (
	"sync"
	"time"
)

// clock is the run's time: real time since the start plus the virtual
// time that injected faults add. A hung call advances it by the timeout
// instead of waiting, so fault tests are deterministic and fast while
// durations, time_budget and the recovery gate see the time a real hang
// would have cost.
type clock struct {
	start   time.Time
	mu      sync.Mutex
	virtual time.Duration
}

func newClock() *clock { return &clock{start: time.Now()} }

// elapsed is the run time so far.
func (c *clock) elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Since(c.start) + c.virtual
}

// advance adds virtual time.
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.virtual += d
	c.mu.Unlock()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
