package wire

import (
	"net/http"

	"github.com/mcptest/mcptest/internal/redact"
)

// MaskMargin is how far past a cut a text is masked before it is cut
// (frames at FrameLimit, error excerpts): room for a secret encoded with
// escapes, several levels deep, that begins before the cut.
const MaskMargin = 16 << 10

// Redactor is a session's use of the program's one redactor
// (internal/redact): the secrets the session was configured with (bearer
// token, headers read from the environment, OAuth credentials and tokens)
// and the names of the headers whose values are secret. Server responses
// are not trusted: a server may echo a credential back in any JSON escape
// form, so every text that leaves the session through a frame or an error
// passes through Scrub. A nil *Redactor knows no secret.
type Redactor struct {
	r       *redact.Redactor
	headers []string // headers whose values are secret, besides Authorization
}

// NewRedactor returns a redactor for secrets (empty and too-short ones are
// ignored, see redact.MinLen) and the given secret header names, besides
// Authorization and Proxy-Authorization, which are always secret.
func NewRedactor(secrets []string, headers []string) *Redactor {
	return &Redactor{r: redact.New(secrets...), headers: headers}
}

// Add registers one more secret value, such as a freshly fetched OAuth
// access token.
func (r *Redactor) Add(secret string) { r.r.Add(secret) }

// Scrub returns s with every known secret replaced by redact.Mask.
func (r *Redactor) Scrub(s string) string {
	if r == nil {
		return s
	}
	return r.r.String(s)
}

// ScrubBytes is Scrub for bytes; b itself is not modified.
func (r *Redactor) ScrubBytes(b []byte) []byte {
	if r == nil {
		return b
	}
	return r.r.Bytes(b)
}

// Header returns a copy of h with the values of secret headers replaced by
// redact.Mask and every other value scrubbed.
func (r *Redactor) Header(h http.Header) http.Header {
	if r == nil {
		return (*redact.Redactor)(nil).Header(h)
	}
	return r.r.Header(h, r.headers...)
}
