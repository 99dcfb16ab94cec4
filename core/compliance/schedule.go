package compliance

import (
	"slices"
	"sync"
)

// overlapsOverHTTP lists the checks that may run beside one another
// against an HTTP server: they send only well-formed requests a client
// could send, each on a session of its own, so they cannot disturb the
// server for another check. Every other check (malformed input, odd
// headers, protocol negotiation, the stateless era's probes) runs alone,
// so a server that stops answering is charged to the check that stopped
// it. Over stdio every check has a process of its own and all overlap.
var overlapsOverHTTP = map[string]bool{
	"J01": true, "J02": true, "J03": true, "J04": true,
	"L01": true, "L04": true, "L05": true,
	"C01": true, "C02": true,
	"T01": true, "T02": true, "T03": true, "T04": true, "T05": true, "T06": true, "T07": true,
	"R01": true, "R02": true, "R03": true,
	"P01": true,
	"U01": true, "U02": true, "U03": true, "U04": true,
}

// httpGate lets overlapping checks share an HTTP server while a check
// that must run alone waits for them and holds it.
type httpGate struct{ mu sync.RWMutex }

// enter admits c and returns the function that lets it out; the run
// enters in report order and may leave from another goroutine.
func (g *httpGate) enter(c *Check, t Transport) func() {
	switch {
	case t != HTTP:
		return func() {}
	case overlapsOverHTTP[c.ID]:
		g.mu.RLock()
		return g.mu.RUnlock
	}
	g.mu.Lock()
	return g.mu.Unlock
}

// slowStarters are the checks that may wait out a tool budget (a slow
// tool takes them 2 s); over stdio they start first, so that wait
// overlaps the rest of the run instead of trailing it.
var slowStarters = map[string]bool{"T05": true, "U03": true}

// startOrder returns the indexes of checks in the order they start. Over
// HTTP that is report order, which the gate relies on. Over stdio L04
// and C02, which watch their servers for a while, go first, then T05,
// which may take a slow tool's budget, then those that need a fresh
// server (each leaves one in the pool), then the ordinary ones, then the
// probes: by then the pool holds the servers the others left, so a probe
// that closes its server costs no start of its own. U03 goes last, as it
// waits for what T05 found. Results are still reported in report order.
func startOrder(checks []*Check, t Transport) []int {
	order := make([]int, len(checks))
	for i := range order {
		order[i] = i
	}
	if t != Stdio {
		return order
	}
	rank := func(c *Check) int {
		switch r := processRoles[c.ID]; {
		case c.ID == "L04" || c.ID == "C02":
			// They watch their servers for a while (l04Window, and C02
			// on discovery's), so of the checks that need a fresh server
			// they go first; C02 then hands discovery's server to T05.
			return 0
		case c.ID == "U03":
			// It waits for T05's slow tools (see slowTools).
			return 5
		case slowStarters[c.ID]:
			return 1
		case r == roleFresh:
			return 2
		case r == roleProbe:
			return 4
		}
		return 3
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(checks[a]) - rank(checks[b]) })
	return order
}
