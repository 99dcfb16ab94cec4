package vendor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
)

// excerptBytes bounds the body quoted in an error.
const excerptBytes = 300

// Sentinel errors of vendor failures.
var (
	// ErrAuth: the vendor refused the key (401 or 403).
	ErrAuth = errors.New("the vendor refused the key")
	// ErrVendor: the vendor answered with an HTTP error.
	ErrVendor = errors.New("the vendor answered with an error")
	// ErrMalformed: the vendor's reply could not be read.
	ErrMalformed = errors.New("malformed reply")
)

// Fail turns err, the error of an SDK call made with c's context, into the
// error a user reads: what the vendor said and what to do, with the key
// masked. family names the vendor ("anthropic").
func Fail(family string, ep sdk.Endpoint, c *Capture, err error) error {
	red := redact.New(ep.APIKey)
	status := c.Status()
	head := c.Head()
	var msg string
	var kind error
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", family, err)
	case status == 401 || status == 403:
		kind = ErrAuth
		msg = fmt.Sprintf("HTTP %d: %s; %s", status, vendorMessage(head), keyAdvice(ep))
	case status >= 400:
		kind = ErrVendor
		msg = fmt.Sprintf("HTTP %d: %s", status, vendorMessage(head))
		if n := c.Attempts(); n > 1 {
			msg += fmt.Sprintf(" (after %d attempts)", n)
		}
	case status >= 200 && status < 300:
		kind = ErrMalformed
		msg = fmt.Sprintf("reply could not be read (%s); body begins %s", firstLine(err.Error()), excerpt(head))
	default:
		// No reply at all: the connection failed.
		kind = ErrVendor
		msg = fmt.Sprintf("no reply from %s: %s", where(ep), firstLine(err.Error()))
	}
	return fmt.Errorf("%s: %w: %s", family, kind, red.String(msg))
}

// Malformed is the error of a reply that decoded but makes no sense (no
// choices, an unknown block), quoting the body.
func Malformed(family string, ep sdk.Endpoint, c *Capture, what string) error {
	red := redact.New(ep.APIKey)
	return fmt.Errorf("%s: %w: %s; body begins %s", family, ErrMalformed, what, red.String(excerpt(c.Head())))
}

// keyAdvice names the variable that supplied the refused key.
func keyAdvice(ep sdk.Endpoint) string {
	switch {
	case ep.KeyEnv != "":
		return fmt.Sprintf("check the key in %s (value masked)", ep.KeyEnv)
	case ep.Name != "":
		return fmt.Sprintf("provider %q sends no key (Bearer EMPTY); set api_key_env if the endpoint needs one", ep.Name)
	}
	return "no key was sent"
}

func where(ep sdk.Endpoint) string {
	if ep.BaseURL != "" {
		return ep.BaseURL
	}
	return "the vendor"
}

// vendorMessage is the error message in a vendor's error body, else an
// excerpt of the body.
func vendorMessage(body []byte) string {
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &doc) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(doc.Error, &inner) == nil && inner.Message != "":
			return clip(inner.Message)
		case json.Unmarshal(doc.Error, &s) == nil && s != "":
			return clip(s)
		case doc.Message != "":
			return clip(doc.Message)
		case json.Unmarshal(doc.Detail, &s) == nil && s != "":
			return clip(s)
		}
	}
	return "body " + excerpt(body)
}

// excerpt quotes the head of a body, bounded, control characters escaped.
func excerpt(b []byte) string {
	if len(b) == 0 {
		return `""`
	}
	s := string(b)
	cut := len(s) > excerptBytes
	if cut {
		s = s[:excerptBytes]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	q := fmt.Sprintf("%q", s)
	if cut {
		q += "…"
	}
	return q
}

func clip(s string) string {
	s = firstLine(s)
	if len(s) > excerptBytes {
		s = strings.ToValidUTF8(s[:excerptBytes], "") + "…"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Mask hides the endpoint's key in s.
func Mask(ep sdk.Endpoint, s string) string { return redact.New(ep.APIKey).String(s) }
