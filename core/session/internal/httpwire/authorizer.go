package httpwire

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// Authorizer supplies the credentials of a URL session and answers the
// server's challenges: core/oauth implements it with discovery, client
// registration and the OAuth grants. The session only calls it.
type Authorizer interface {
	// Authorization returns the Authorization header for the next
	// request, or "" to send none yet.
	Authorization(ctx context.Context) (string, error)
	// Challenge is called with a 401 or 403 answer to a request that
	// carried the Authorization header sent. It reports whether the
	// request should be sent again with the header Authorization then
	// returns; client is the session's client for token requests (its
	// TLS settings and timeout).
	Challenge(ctx context.Context, client *http.Client, status int, header http.Header, sent string) (bool, error)
	// Hint explains a refusal that stayed, in terms of the configuration,
	// naming variables, never values.
	Hint() string
}

// maxChallenges bounds the retries of one request; the Authorizer has its
// own, lower, limit on authorizations.
const maxChallenges = 4

// authorizerCredentials adapts an Authorizer to the session's credentials,
// registering every token it hands out with the session's redactor.
type authorizerCredentials struct {
	az     Authorizer
	redact *wire.Redactor
}

func (c authorizerCredentials) authorization(ctx context.Context) (string, error) {
	v, err := c.az.Authorization(ctx)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrAuth, err)
	}
	if _, tok, ok := strings.Cut(v, " "); ok {
		c.redact.Add(tok)
	}
	return v, nil
}

func (c authorizerCredentials) hint() string { return c.az.Hint() }

// challengeTransport sends a request again when the server's 401 or 403
// led the Authorizer to new credentials: the one place the session reacts
// to a challenge, below every transport (POST, GET stream, DELETE).
type challengeTransport struct {
	base   http.RoundTripper
	az     Authorizer
	client *http.Client
	redact *wire.Redactor
}

// RoundTrip implements http.RoundTripper.
func (t *challengeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	for tries := 0; err == nil && tries < maxChallenges &&
		(resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden); tries++ {
		if req.Body != nil && req.GetBody == nil {
			return resp, nil // the body cannot be sent twice
		}
		retry, cerr := t.az.Challenge(req.Context(), t.client, resp.StatusCode, resp.Header, req.Header.Get("Authorization"))
		if cerr != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("%w: %s", ErrAuth, t.redact.Scrub(cerr.Error()))
		}
		if !retry {
			return resp, nil
		}
		auth, aerr := t.az.Authorization(req.Context())
		if aerr != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("%w: %s", ErrAuth, t.redact.Scrub(aerr.Error()))
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		next := req.Clone(req.Context())
		if req.GetBody != nil {
			if next.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		next.Header.Del("Authorization")
		if auth != "" {
			if _, tok, ok := strings.Cut(auth, " "); ok {
				t.redact.Add(tok)
			}
			next.Header.Set("Authorization", auth)
		}
		req = next
		resp, err = t.base.RoundTrip(req)
	}
	return resp, err
}
