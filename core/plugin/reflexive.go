package plugin

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcptest/mcptest/sdk"
)

// Reflexive keys (sdk.CapabilityReflexive): a matcher plugin may declare
// that an actual value written byte for byte as a valid argument passes
// one of its keys (the text plugin's exact). The host then records such an
// assertion as passed by that plugin without starting it, and starts the
// plugin only for an assertion it must really judge. In a green run of
// exact assertions whose arguments were vetted before, the plugin process
// never starts: a cold start spares a whole process (its exec, runtime
// start, handshake and Describe), and the first match no longer waits for
// it.
//
// The promise is taken from the manifest, which is trusted as it is for
// vet-pure: the binary it describes is checked against its sha256 before
// any launch, and a plugin whose Describe disagrees with it is refused at
// its start (describediff.go). The spared verdict is exactly what the
// plugin returns for such an item (sdk.Pass(): no score, no failure) and
// carries the plugin's label, so no report changes.
//
// Only while the plugin has never been started: once it runs (the gate
// asked it, or an assertion needed it), it judges every assertion as
// before, so a long run pays nothing here once the process is up.

// maxReflexiveArgs and maxReflexiveArgBytes bound what the host keeps of
// the arguments vetted valid for reflexive keys (a few MB at most); an
// argument beyond them is simply judged by the plugin.
const (
	maxReflexiveArgs     = 10_000
	maxReflexiveArgBytes = 1 << 10
)

// reflexiveArgs records, per plugin, the arguments of reflexive keys that
// were vetted valid in this run (Check: asked or remembered), and whether
// the plugin was vetted anything the host cannot spare it for.
type reflexiveArgs struct {
	mu sync.Mutex
	// valid holds, per plugin and key, the valid arguments.
	valid map[*Found]map[string]map[string]struct{}
	n     int
	// needed is false for a plugin all of whose vetted arguments are
	// recorded in valid, true once one is not (another key, a rejected or
	// an unrecorded argument).
	needed map[*Found]bool
	// live counts the plugins in valid. A plugin leaves valid when it
	// starts (retire), so once every such plugin runs, a match pays one
	// atomic load here.
	live atomic.Int32
}

// declaresReflexive reports whether f's manifest declares any key
// reflexive.
func (f *Found) declaresReflexive() bool {
	for _, c := range f.Manifest.Capabilities {
		if strings.HasPrefix(c, sdk.CapabilityReflexive) {
			return true
		}
	}
	return false
}

// reflexiveKey reports whether f's manifest declares key reflexive.
func (f *Found) reflexiveKey(key string) bool {
	for _, c := range f.Manifest.Capabilities {
		if k, ok := strings.CutPrefix(c, sdk.CapabilityReflexive); ok && k == key {
			return true
		}
	}
	return false
}

// noteVetted records the verdicts of a Check: the valid arguments of
// reflexive keys, and which plugins were vetted something else. Nothing
// is kept for a plugin already started (unstarted says which are not):
// it judges everything itself.
func (r *reflexiveArgs) noteVetted(reqs []CheckRequest, verdicts []error, unstarted func(*Found) bool) {
	var skip map[*Found]bool
	for _, q := range reqs {
		if f := q.Plugin; f.declaresReflexive() {
			if _, seen := skip[f]; !seen {
				if skip == nil {
					skip = map[*Found]bool{}
				}
				skip[f] = !unstarted(f)
			}
		}
	}
	if len(skip) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, q := range reqs {
		f := q.Plugin
		if !f.declaresReflexive() || skip[f] {
			continue
		}
		if r.needed == nil {
			r.needed = map[*Found]bool{}
			r.valid = map[*Found]map[string]map[string]struct{}{}
		}
		if _, ok := r.needed[f]; !ok {
			r.needed[f] = false
		}
		if verdicts[i] != nil || !f.reflexiveKey(q.Key) || len(q.Argument) > maxReflexiveArgBytes {
			r.needed[f] = true
			continue
		}
		keys := r.valid[f]
		if keys == nil {
			keys = map[string]map[string]struct{}{}
			r.valid[f] = keys
			r.live.Add(1)
		}
		args := keys[q.Key]
		if args == nil {
			args = map[string]struct{}{}
			keys[q.Key] = args
		}
		if _, ok := args[string(q.Argument)]; ok {
			continue
		}
		if r.n >= maxReflexiveArgs {
			r.needed[f] = true
			continue
		}
		args[string(q.Argument)] = struct{}{}
		r.n++
	}
}

// spareable reports whether f may not need to start at all: it declares
// reflexive keys and every argument it was vetted is one of theirs,
// recorded valid.
func (r *reflexiveArgs) spareable(f *Found) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	needed, seen := r.needed[f]
	return seen && !needed
}

// passReflexive writes a pass for every request of idx (all for f) whose
// actual value is its argument's bytes under a reflexive key with an
// argument vetted valid, while f has never been started, and returns the
// requests left for the plugin (idx's memory, filtered in place).
func (h *Host) passReflexive(f *Found, reqs []MatchRequest, idx []int, out []MatchOutcome, label string) []int {
	r := &h.reflexive
	if r.live.Load() == 0 || !f.declaresReflexive() {
		return idx
	}
	// Not under r.mu: a start takes the plugin's lock, then r.mu.
	if !h.neverStarted(f) {
		r.retire(f) // in case it started while its arguments were noted
		return idx
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := r.valid[f]
	if keys == nil {
		return idx
	}
	left := idx[:0]
	for _, i := range idx {
		q := &reqs[i]
		if bytes.Equal(q.Actual, q.Argument) {
			if _, ok := keys[q.Key][string(q.Argument)]; ok {
				out[i] = MatchOutcome{Pass: true, Plugin: label}
				continue
			}
		}
		left = append(left, i)
	}
	return left
}

// retire forgets f's valid arguments: it is starting, and judges
// everything from now on. Called with f's proc lock held.
func (r *reflexiveArgs) retire(f *Found) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.valid[f]; ok {
		delete(r.valid, f)
		r.live.Add(-1)
	}
}

// neverStarted reports whether f has not been started in this run, nor is
// being started, nor failed to start, on an open host.
func (h *Host) neverStarted(f *Found) bool {
	h.mu.Lock()
	p, ok := h.procs[f.Manifest.Name]
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return false
	}
	if !ok {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last == nil && p.starting == nil && p.startErr == nil && p.dead == nil && !p.closed
}
