package contract

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Plugin describes everything one plugin binary serves.
type Plugin struct {
	// Name identifies the plugin; it must match ^[a-z0-9][a-z0-9-]{1,62}$.
	Name string
	// Version is the plugin's semantic version.
	Version string
	// Matchers maps matcher keys (as written in a suite) to implementations.
	Matchers map[string]Matcher
	// Reporters maps report format names to implementations.
	Reporters map[string]Reporter
	// Providers maps provider keys to implementations.
	Providers map[string]Provider
	// Scorers maps scorer types to implementations.
	Scorers map[string]Scorer
	// Prices is the price table of the models a provider plugin serves,
	// reported by Describe; the host uses it for spend budgets.
	Prices []ModelPrice
	// Capabilities lists optional features the plugin supports, reported by
	// Describe.
	Capabilities []string
	// Env lists host environment variables the plugin needs passed through.
	Env []string
	// TuneGC asks Serve to raise the garbage collector's target (GOGC 400)
	// and set a soft memory limit of 256 MiB, each unless the environment
	// already sets GOGC or GOMEMLIMIT. A matcher's live heap is small, so
	// the default target collects many times per 1,000-item batch; the
	// bundled plugins opt in. Off by default: the SDK leaves a plugin's
	// runtime settings alone unless asked.
	TuneGC bool
}

// Component is one kind of component a plugin serves, with its keys.
type Component struct {
	Kind string   `json:"kind"`
	Keys []string `json:"keys"`
}

// Description is a plugin's self-description: what `describe` prints and
// what the Describe RPC returns. The manifest caches it.
type Description struct {
	Name             string      `json:"name"`
	Version          string      `json:"version"`
	ProtocolVersions []int       `json:"protocol_versions"`
	ProtocolMinor    int         `json:"protocol_minor"`
	SDKVersion       string      `json:"sdk_version"`
	Components       []Component `json:"components"`
	Capabilities     []string    `json:"capabilities,omitempty"`
	Env              []string    `json:"env,omitempty"`
	MaxRecvBytes     int64       `json:"max_recv_bytes,omitempty"`
	// Prices is the plugin's model price table (provider plugins only).
	Prices []ModelPrice `json:"prices,omitempty"`
}

// capabilities returns the declared capabilities and, for every reporter
// made with FinalReporter, CapabilityFinalOnly with its format (and
// CapabilityCanonical too for one made with CanonicalReporter), sorted.
func (p *Plugin) capabilities() []string {
	out := slices.Clone(p.Capabilities)
	for key, r := range p.Reporters {
		switch r.(type) {
		case finalReporter:
			out = append(out, CapabilityFinalOnly+key)
		case canonicalReporter:
			out = append(out, CapabilityFinalOnly+key, CapabilityCanonical+key)
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// namePattern is the plugin name rule, as a regexp for messages. validName
// checks it by hand: Serve validates the plugin on every start, and the
// compiled regexp ({1,62} makes a large program) cost each plugin process
// ~0.2 ms before its handshake.
const namePattern = `^[a-z0-9][a-z0-9-]{1,62}$`

// validName reports whether name matches namePattern: 2 to 63 bytes of
// a-z, 0-9 and '-', not starting with '-'.
func validName(name string) bool {
	if len(name) < 2 || len(name) > 63 || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Describe returns the plugin's self-description, with keys sorted.
func (p *Plugin) Describe() Description {
	d := Description{
		Name:             p.Name,
		Version:          p.Version,
		ProtocolVersions: []int{ProtocolVersion},
		ProtocolMinor:    ProtocolMinor,
		SDKVersion:       Version,
		Capabilities:     p.capabilities(),
		Env:              p.Env,
		MaxRecvBytes:     MaxMessageBytes,
		Prices:           p.Prices,
	}
	add := func(kind string, keys []string) {
		if len(keys) > 0 {
			sort.Strings(keys)
			d.Components = append(d.Components, Component{Kind: kind, Keys: keys})
		}
	}
	add(KindMatcher, mapKeys(p.Matchers))
	add(KindReporter, mapKeys(p.Reporters))
	add(KindProvider, mapKeys(p.Providers))
	add(KindScorer, mapKeys(p.Scorers))
	return d
}

// Validate reports a plugin definition that cannot be served: a bad name,
// no version, no components. Serve refuses such a plugin before it starts.
func (p *Plugin) Validate() error {
	if !validName(p.Name) {
		return fmt.Errorf("plugin name %q must match %s", p.Name, namePattern)
	}
	if p.Version == "" {
		return fmt.Errorf("plugin %q has no version", p.Name)
	}
	if len(p.Matchers)+len(p.Reporters)+len(p.Providers)+len(p.Scorers) == 0 {
		return fmt.Errorf("plugin %q serves no components", p.Name)
	}
	// A reflexive declaration for a key the plugin does not serve would
	// let a host pass assertions no matcher of this plugin ever judged.
	for _, c := range p.Capabilities {
		if key, ok := strings.CutPrefix(c, CapabilityReflexive); ok {
			if _, serves := p.Matchers[key]; !serves {
				return fmt.Errorf("plugin %q declares %q but serves no matcher %q", p.Name, c, key)
			}
		}
	}
	return nil
}

func mapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
