package plugin

import (
	"slices"

	"github.com/mcptest/mcptest/sdk"
)

// VetsPurely reports whether f declares that its verdicts on matcher
// arguments depend on nothing but the key and the argument
// (sdk.CapabilityVetPure in its manifest).
func (f *Found) VetsPurely() bool {
	return slices.Contains(f.Manifest.Capabilities, sdk.CapabilityVetPure)
}

// vetKeyOf returns the vetting cache key of r, or "" when its verdict may
// not be remembered: the plugin does not vet purely, its executable cannot
// be vouched for without hashing, the argument holds a secret, or the
// host has made maxVetLookups lookups already.
func (h *Host) vetKeyOf(r CheckRequest) string {
	if h.vetting == nil || h.vetting.path == "" || r.Private || !r.Plugin.VetsPurely() {
		return ""
	}
	id, ok := h.launcher.(identifier)
	if !ok {
		return ""
	}
	h.mu.Lock()
	if h.vetLookups >= maxVetLookups {
		h.mu.Unlock()
		return ""
	}
	h.vetLookups++
	identity, known := h.identities[r.Plugin]
	h.mu.Unlock()
	if !known {
		// A few stats, once per plugin and host.
		identity, _ = id.identity(r.Plugin)
		h.mu.Lock()
		if h.identities == nil {
			h.identities = map[*Found]string{}
		}
		h.identities[r.Plugin] = identity
		h.mu.Unlock()
	}
	if identity == "" {
		return ""
	}
	return vetKey(identity, sdk.KindMatcher, r.Key, r.Argument)
}

// Vouched reports whether f's executable is known to be the one its
// manifest names (its sha256) without starting or hashing anything: it
// passes the checks made before every exec and the digest cache vouches
// that it is unchanged since it was verified. A host that writes what a
// plugin declares it would (a canonical report) without starting it asks
// this first, so a tampered or rebuilt binary is still refused at launch.
// It also requires the plugin to be trusted.
func (h *Host) Vouched(f *Found) bool {
	if h == nil || f == nil || f.Untrusted != nil {
		return false
	}
	id, ok := h.launcher.(identifier)
	if !ok {
		return false
	}
	_, ok = id.identity(f)
	return ok
}
