package report

import (
	"bytes"
	"encoding/json"
	"sort"
)

// Mask replaces every secret in reports, logs and errors.
const Mask = "[REDACTED]"

// Redactor removes known secret values from bytes. The zero value redacts
// nothing.
type Redactor struct {
	needles [][]byte
}

// NewRedactor redacts the given secrets. Values shorter than 4 bytes are
// ignored: masking them would shred ordinary text without protecting much.
func NewRedactor(secrets []string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, s := range secrets {
		if len(s) < 4 || seen[s] {
			continue
		}
		seen[s] = true
		r.needles = append(r.needles, []byte(s))
		// Inside a JSON string the secret is escaped, and inside JSON text
		// carried in a JSON string (a tool returning JSON as text) it is
		// escaped twice; mask every level a report can hold.
		form := s
		for range 3 {
			enc, err := json.Marshal(form)
			if err != nil {
				break
			}
			inner := string(enc[1 : len(enc)-1])
			if inner == form {
				break
			}
			r.needles = append(r.needles, []byte(inner))
			form = inner
		}
	}
	// Longest first, so a secret containing another is masked whole.
	sort.Slice(r.needles, func(i, j int) bool { return len(r.needles[i]) > len(r.needles[j]) })
	return r
}

// Bytes returns b with every secret masked; b itself is not modified.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	for _, n := range r.needles {
		if bytes.Contains(b, n) {
			b = bytes.ReplaceAll(b, n, []byte(Mask))
		}
	}
	return b
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if r == nil || len(r.needles) == 0 {
		return s
	}
	return string(r.Bytes([]byte(s)))
}
