package compliance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/core/probe"
)

// Severity is the level of the requirement a check enforces.
type Severity string

// The severities. A failed MUST check fails the run; a failed SHOULD check
// is a warning.
const (
	Must   Severity = "MUST"
	Should Severity = "SHOULD"
)

// Era is a protocol era: legacy revisions negotiate with initialize,
// modern ones (2026-07-28 on) are stateless.
type Era string

// The eras.
const (
	Legacy Era = "legacy"
	Modern Era = "modern"
)

// Transport is how the server is reached.
type Transport string

// The transports.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// Capability names a server capability a check depends on.
type Capability string

// The server capabilities checks depend on.
const (
	CapTools       Capability = "tools"
	CapResources   Capability = "resources"
	CapPrompts     Capability = "prompts"
	CapLogging     Capability = "logging"
	CapCompletions Capability = "completions"
)

// Check is one compliance check.
type Check struct {
	// ID is stable across releases; baselines and reports use it.
	ID string
	// Title says what is checked, in one line.
	Title string
	// Severity is the level of the requirement.
	Severity Severity
	// Section locates the requirement under docs/specification/<rev>/.
	Section string
	// Since is the first revision the requirement applies to; "" means
	// every revision.
	Since string
	// Eras lists the eras the check applies to; nil means both.
	Eras []Era
	// Transports lists the transports it applies to; nil means both.
	Transports []Transport
	// Needs lists capabilities of which the server must declare at least
	// one; nil means none.
	Needs []Capability
	// run does the probing and records findings on the Env. It returns
	// an error only when it could not carry the check out.
	run func(ctx context.Context, e *Env) error
}

// String names the check.
func (c *Check) String() string { return c.ID + " " + c.Title }

// Status is the outcome of a check.
type Status string

// The outcomes.
const (
	Pass          Status = "pass"
	Fail          Status = "fail"
	Warn          Status = "warn"
	NotApplicable Status = "not_applicable"
	Errored       Status = "error"
)

// errNotApplicable carries the reason a check does not apply to this
// server; checks return it through notApplicable.
type errNotApplicable struct{ reason string }

func (e *errNotApplicable) Error() string { return "not applicable: " + e.reason }

// notApplicable ends a check as not applicable.
func notApplicable(format string, args ...any) error {
	return &errNotApplicable{reason: fmt.Sprintf(format, args...)}
}

func asNotApplicable(err error) (string, bool) {
	var na *errNotApplicable
	if errors.As(err, &na) {
		return na.reason, true
	}
	return "", false
}

// registry holds every check, in report order, once loadRegistry has run.
var registry []*Check

// loadRegistry fills the registry on first use rather than in package
// initialisation: every mcptest process links this package, and most
// (a run, `mcptest version`) never look at a compliance check, so
// building some sixty checks before main was start-up time for nothing.
var loadRegistry = sync.OnceFunc(func() {
	registerCapabilities()
	registerHTTP()
	registerJSONRPC()
	registerLifecycle()
	registerPrompts()
	registerResources()
	registerSSE()
	registerStateless()
	registerTools()
	registerUtilities()
})

// register adds checks; each check group's file calls it from init.
func register(cs ...*Check) {
	for _, c := range cs {
		if c.run == nil || c.ID == "" || c.Title == "" || c.Section == "" || (c.Severity != Must && c.Severity != Should) {
			panic("compliance: incomplete check " + c.ID)
		}
		for _, o := range registry {
			if o.ID == c.ID {
				panic("compliance: duplicate check " + c.ID)
			}
		}
		registry = append(registry, c)
	}
	slices.SortStableFunc(registry, func(a, b *Check) int { return compareIDs(a.ID, b.ID) })
}

// groupOrder orders the check families as the research lists them.
const groupOrder = "JLCTRPUHS"

func compareIDs(a, b string) int {
	ga, gb := indexOf(a), indexOf(b)
	if ga != gb {
		return ga - gb
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func indexOf(id string) int {
	for i := range len(groupOrder) {
		if len(id) > 0 && id[0] == groupOrder[i] {
			return i
		}
	}
	return len(groupOrder)
}

// All returns every check, in report order.
func All() []*Check {
	loadRegistry()
	return slices.Clone(registry)
}

// Lookup returns the check with id.
func Lookup(id string) (*Check, bool) {
	loadRegistry()
	for _, c := range registry {
		if c.ID == id {
			return c, true
		}
	}
	return nil, false
}

// applies says why c does not apply to a run, or "" when it does.
func (c *Check) applies(rev string, tr Transport) string {
	era := eraOf(rev)
	if c.Eras != nil && !slices.Contains(c.Eras, era) {
		return fmt.Sprintf("a %s-era requirement; this run speaks %s", c.Eras[0], rev)
	}
	if c.Transports != nil && !slices.Contains(c.Transports, tr) {
		return fmt.Sprintf("applies to the %s transport only; this server is reached over %s", c.Transports[0], tr)
	}
	if c.Since != "" && rev < c.Since {
		return fmt.Sprintf("a requirement since %s; this run speaks %s", c.Since, rev)
	}
	return ""
}

// needs says why c does not apply given the server's declared
// capabilities, or "" when it does.
func (c *Check) needs(declared map[string]bool) string {
	if len(c.Needs) == 0 {
		return ""
	}
	for _, n := range c.Needs {
		if declared[string(n)] {
			return ""
		}
	}
	names := make([]string, len(c.Needs))
	for i, n := range c.Needs {
		names[i] = string(n)
	}
	if len(names) == 1 {
		return fmt.Sprintf("the server does not declare the %s capability", names[0])
	}
	return fmt.Sprintf("the server declares none of the capabilities %v", names)
}

// eraOf returns the era a revision belongs to.
func eraOf(rev string) Era {
	if probe.IsModern(rev) {
		return Modern
	}
	return Legacy
}

// Scope describes where a check applies, for listings: its eras,
// transports and first revision.
func Scope(c *Check) string {
	var parts []string
	if c.Eras != nil && len(c.Eras) == 1 {
		parts = append(parts, string(c.Eras[0]))
	}
	if c.Transports != nil && len(c.Transports) == 1 {
		parts = append(parts, string(c.Transports[0]))
	}
	if c.Since != "" {
		parts = append(parts, "since "+c.Since)
	}
	if len(parts) == 0 {
		return "all"
	}
	return strings.Join(parts, ", ")
}

// NeedsText lists the capabilities a check needs, one of which suffices.
func NeedsText(c *Check) string {
	if len(c.Needs) == 0 {
		return "-"
	}
	names := make([]string, len(c.Needs))
	for i, n := range c.Needs {
		names[i] = string(n)
	}
	return strings.Join(names, " | ")
}
