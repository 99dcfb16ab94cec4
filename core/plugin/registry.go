package plugin

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrUnknownKey is matched (errors.Is) when no plugin offers a requested key.
var ErrUnknownKey = errors.New("unknown plugin key")

// keyError carries a full message while matching a sentinel.
type keyError struct {
	msg      string
	sentinel error
}

func (e *keyError) Error() string        { return e.msg }
func (e *keyError) Is(target error) bool { return target == e.sentinel }

// ErrConflict is wrapped when two plugins of the same priority offer a key.
var ErrConflict = errors.New("conflicting plugins")

// Registry resolves (kind, key) pairs to plugins from manifests alone.
type Registry struct {
	Sources  []Source
	Plugins  []*Found
	Problems []Problem
	// byKey maps kind/key to the winning plugin.
	byKey map[string]*Found
	// shadowed maps kind/key to the plugins the winner hides, in priority
	// order.
	shadowed map[string][]*Found
	// conflicts maps kind/key to same-priority rivals of the winner.
	conflicts map[string][]*Found
	// hidden holds plugins whose name a higher-priority plugin took.
	hidden []*Found
}

// NewRegistry discovers plugins in the sources and resolves their keys.
func NewRegistry(sources []Source) *Registry {
	found, problems := Discover(sources)
	return buildRegistry(sources, found, problems)
}

func buildRegistry(sources []Source, found []*Found, problems []Problem) *Registry {
	r := &Registry{
		Sources: sources, Problems: problems,
		byKey: map[string]*Found{}, shadowed: map[string][]*Found{}, conflicts: map[string][]*Found{},
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Source.Priority < found[j].Source.Priority })
	names := map[string]*Found{}
	for _, f := range found {
		if prev, ok := names[f.Manifest.Name]; ok {
			if prev.Source.Priority == f.Source.Priority {
				r.Problems = append(r.Problems, Problem{Path: f.ManifestPath,
					Err: fmt.Errorf("%w: plugin name %q is used by both %s and %s", ErrConflict, f.Manifest.Name, prev.Dir, f.Dir)})
			}
			r.hidden = append(r.hidden, f)
			continue
		}
		names[f.Manifest.Name] = f
		r.Plugins = append(r.Plugins, f)
		for _, c := range f.Manifest.Components {
			for _, k := range c.Keys {
				id := c.Kind + "/" + k
				winner, ok := r.byKey[id]
				switch {
				case !ok:
					r.byKey[id] = f
				case winner.Source.Priority == f.Source.Priority:
					r.conflicts[id] = append(r.conflicts[id], f)
				default:
					r.shadowed[id] = append(r.shadowed[id], f)
				}
			}
		}
	}
	return r
}

// Resolve returns the plugin serving key for kind. An unknown key is an
// error wrapping ErrUnknownKey with a "did you mean" and the searched
// directories; a key two same-priority plugins offer wraps ErrConflict.
func (r *Registry) Resolve(kind, key string) (*Found, error) {
	id := kind + "/" + key
	f, ok := r.byKey[id]
	if !ok {
		msg := fmt.Sprintf("unknown %s %q", kind, key)
		if s := Suggest(key, r.Keys(kind)); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		if keys := r.Keys(kind); len(keys) > 0 {
			msg += fmt.Sprintf("; available: %s", strings.Join(keys, ", "))
		}
		msg += "; plugin directories searched:" + SearchedDirs(r.Sources)
		return nil, &keyError{msg: msg, sentinel: ErrUnknownKey}
	}
	if rivals := r.conflicts[id]; len(rivals) > 0 {
		dirs := []string{f.Dir}
		for _, x := range rivals {
			dirs = append(dirs, x.Dir)
		}
		return nil, fmt.Errorf("%w: %s %q is offered by several plugins in the same directory: %s; remove all but one",
			ErrConflict, kind, key, strings.Join(dirs, ", "))
	}
	if f.Untrusted != nil {
		// Falling back to a lower-priority plugin would quietly run
		// something else than the user's setup says; refuse instead.
		return nil, fmt.Errorf("%s %q is served by plugin %s, which is refused: %w", kind, key, f.Label(), f.Untrusted)
	}
	return f, nil
}

// Conflict is a key that several plugins of the same directory (the same
// priority) offer; no run may use it until all but one are removed.
type Conflict struct {
	Kind, Key string
	// Plugins offer the key, the one discovery met first at the head.
	Plugins []*Found
}

// Conflicts lists every conflicting key, sorted by kind and key.
func (r *Registry) Conflicts() []Conflict {
	var out []Conflict
	for id, rivals := range r.conflicts {
		kind, key, _ := strings.Cut(id, "/")
		out = append(out, Conflict{Kind: kind, Key: key, Plugins: append([]*Found{r.byKey[id]}, rivals...)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// ConflictsOf lists the conflicting keys f offers.
func (r *Registry) ConflictsOf(f *Found) []Conflict {
	var out []Conflict
	for _, c := range r.Conflicts() {
		for _, p := range c.Plugins {
			if p == f {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Untrusted lists the plugins refused by the ownership checks, in priority
// order, hidden ones excluded.
func (r *Registry) Untrusted() []*Found {
	var out []*Found
	for _, f := range r.Plugins {
		if f.Untrusted != nil {
			out = append(out, f)
		}
	}
	return out
}

// Keys lists every key of a kind, sorted.
func (r *Registry) Keys(kind string) []string {
	var out []string
	for id := range r.byKey {
		if k, ok := strings.CutPrefix(id, kind+"/"); ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Shadowing describes one key a plugin takes over from another.
type Shadowing struct {
	Kind, Key string
	// Other is the plugin whose key is hidden (in Shadows) or that hides
	// this plugin's key (in ShadowedBy).
	Other *Found
}

// Shadows lists the keys f takes over from lower-priority plugins, plus the
// plugins f hides entirely by name.
func (r *Registry) Shadows(f *Found) []Shadowing {
	var out []Shadowing
	for id, winner := range r.byKey {
		if winner != f {
			continue
		}
		kind, key, _ := strings.Cut(id, "/")
		for _, o := range r.shadowed[id] {
			out = append(out, Shadowing{Kind: kind, Key: key, Other: o})
		}
	}
	for _, h := range r.hidden {
		if h.Manifest.Name == f.Manifest.Name {
			out = append(out, Shadowing{Kind: "plugin", Key: h.Manifest.Name, Other: h})
		}
	}
	sortShadowings(out)
	return out
}

// ShadowedBy lists f's keys that higher-priority plugins take over.
func (r *Registry) ShadowedBy(f *Found) []Shadowing {
	var out []Shadowing
	for id, losers := range r.shadowed {
		for _, l := range losers {
			if l == f {
				kind, key, _ := strings.Cut(id, "/")
				out = append(out, Shadowing{Kind: kind, Key: key, Other: r.byKey[id]})
			}
		}
	}
	sortShadowings(out)
	return out
}

// Hidden lists plugins ignored because a higher-priority plugin has their
// name.
func (r *Registry) Hidden() []*Found { return r.hidden }

func sortShadowings(s []Shadowing) {
	sort.Slice(s, func(i, j int) bool {
		if s[i].Kind != s[j].Kind {
			return s[i].Kind < s[j].Kind
		}
		return s[i].Key < s[j].Key
	})
}
