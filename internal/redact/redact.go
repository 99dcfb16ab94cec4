package redact

import (
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Mask replaces every secret in reports, logs, errors and cassettes.
const Mask = "[REDACTED]"

// MinLen is the length in bytes of the shortest secret the redactor masks.
// Shorter values are ignored: masking every "ab" or "x1" would shred the
// text around it and protect little. core/config refuses such values at
// load, so a suite never relies on a secret that could not be masked.
const MinLen = 4

// MaxDepth is how many JSON strings nested in one another a secret is
// looked for through: a report (1) holding a frame (2) whose tool result
// carries JSON text (3) that quotes JSON again (4), with one level to spare.
const MaxDepth = 5

// Redactor masks a set of secrets. It is safe for concurrent use, and Add
// may run while texts are being masked. A nil *Redactor masks nothing.
type Redactor struct {
	mu  sync.Mutex // serialises Add
	set atomic.Pointer[[]*secret]
}

// secret is one value to mask, in the forms the matcher needs.
type secret struct {
	raw    []byte
	anchor int // offset of the byte searched for first (anchor.go)
}

// New returns a redactor for secrets. Empty values, duplicates and values
// shorter than MinLen are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add registers one more secret, such as a freshly fetched OAuth access
// token. Values shorter than MinLen and known values are ignored.
func (r *Redactor) Add(value string) {
	if r == nil || len(value) < MinLen {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var cur []*secret
	if p := r.set.Load(); p != nil {
		cur = *p
	}
	for _, s := range cur {
		if string(s.raw) == value {
			return
		}
	}
	next := append(slices.Clip(cur), &secret{raw: []byte(value), anchor: anchorOf([]byte(value))})
	// Longest first: when one secret contains another, the longer one is
	// found whole; overlapping matches are merged anyway.
	slices.SortStableFunc(next, func(a, b *secret) int { return len(b.raw) - len(a.raw) })
	r.set.Store(&next)
}

// Len returns how many secrets the redactor masks.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	if p := r.set.Load(); p != nil {
		return len(*p)
	}
	return 0
}

func (r *Redactor) secrets() []*secret {
	if r == nil {
		return nil
	}
	if p := r.set.Load(); p != nil {
		return *p
	}
	return nil
}

// Bytes returns b with every secret masked. b itself is never modified;
// when nothing is masked, b is returned as is.
func (r *Redactor) Bytes(b []byte) []byte {
	ss := r.secrets()
	if len(ss) == 0 || len(b) < MinLen {
		return b
	}
	spans := find(b, ss)
	if len(spans) == 0 {
		return b
	}
	return apply(b, spans)
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	ss := r.secrets()
	if len(ss) == 0 || len(s) < MinLen {
		return s
	}
	// The scan only reads, so it may look at the string's bytes in place;
	// a copy is made only when something is masked.
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	spans := find(b, ss)
	if len(spans) == 0 {
		return s
	}
	return string(apply(b, spans))
}

// Contains reports whether text holds a secret in any encoding the
// redactor masks.
func (r *Redactor) Contains(text string) bool {
	ss := r.secrets()
	if len(ss) == 0 || len(text) < MinLen {
		return false
	}
	return len(find(unsafe.Slice(unsafe.StringData(text), len(text)), ss)) > 0
}
