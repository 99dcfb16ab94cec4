package plugin

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// Bounds of a manifest-mismatch message: the description comes from the
// binary, which may say anything at any length.
const (
	diffFieldRunes = 40
	diffListItems  = 3
	diffMaxBytes   = 400
)

// describeDiff says, on one line of bounded length, how a plugin's own
// description differs from its manifest; "" when they agree on name,
// version and keys, and the binary declares every key reflexive that the
// manifest does.
func describeDiff(d sdk.Description, m *Manifest) string {
	var parts []string
	if d.Name != m.Name || d.Version != m.Version {
		parts = append(parts, fmt.Sprintf("the binary is %s@%s and the manifest says %s@%s",
			clip(d.Name), clip(d.Version), clip(m.Name), clip(m.Version)))
	}
	bin, man := componentSet(d.Components), componentSet(m.Components)
	if only := minus(bin, man); len(only) > 0 {
		parts = append(parts, "the binary also serves "+listOf(only))
	}
	if only := minus(man, bin); len(only) > 0 {
		parts = append(parts, "the binary does not serve "+listOf(only))
	}
	// A manifest promising reflexive keys the binary does not declare
	// would have the host pass assertions the binary may not pass
	// (reflexive.go); the other way round only costs a start.
	if only := minus(reflexiveSet(m.Capabilities), reflexiveSet(d.Capabilities)); len(only) > 0 {
		parts = append(parts, "the binary does not declare reflexive "+listOf(only))
	}
	msg := strings.Join(parts, "; ")
	if len(msg) > diffMaxBytes {
		msg = strings.ToValidUTF8(msg[:diffMaxBytes], "") + "…"
	}
	return msg
}

func componentSet(cs []sdk.Component) map[string]bool {
	out := map[string]bool{}
	for _, c := range cs {
		for _, k := range c.Keys {
			out[c.Kind+" "+k] = true
		}
	}
	return out
}

// reflexiveSet holds the matcher keys caps declares reflexive, in
// componentSet's form.
func reflexiveSet(caps []string) map[string]bool {
	out := map[string]bool{}
	for _, c := range caps {
		if key, ok := strings.CutPrefix(c, sdk.CapabilityReflexive); ok {
			out[sdk.KindMatcher+" "+key] = true
		}
	}
	return out
}

// minus lists the members of a missing from b, sorted.
func minus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// listOf renders at most diffListItems members and the count of the rest.
func listOf(items []string) string {
	var shown []string
	for i, it := range items {
		if i == diffListItems {
			shown = append(shown, fmt.Sprintf("and %d more", len(items)-i))
			break
		}
		kind, key, _ := strings.Cut(it, " ")
		shown = append(shown, clip(kind)+" "+clip(key))
	}
	return strings.Join(shown, ", ")
}

// clip makes one field of a plugin's description safe to print on one
// line: control characters and newlines escaped, long values cut.
func clip(s string) string {
	q := strconv.Quote(s)
	q = q[1 : len(q)-1]
	if r := []rune(q); len(r) > diffFieldRunes {
		q = string(r[:diffFieldRunes]) + "…"
	}
	return q
}
