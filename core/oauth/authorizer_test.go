package oauth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/internal/redact"
)

// challenge builds the header of a 401 or 403.
func challenge(v string) http.Header {
	h := http.Header{}
	h.Set("WWW-Authenticate", v)
	return h
}

func newTestAuthorizer(t *testing.T, f *fakeAS, mod func(*Config)) *Authorizer {
	t.Helper()
	cfg := Config{Server: "api", URL: f.mcpURL(), Flow: FlowAuthorizationCode, Redact: redact.New()}
	if mod != nil {
		mod(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestStepUpAndRetryLimit: a 401 authorizes with the challenge's scope;
// a 403 insufficient_scope authorizes again with the granted scopes and
// the new ones; after DefaultMaxAuthorizations the Authorizer stops and
// says why.
func TestStepUpAndRetryLimit(t *testing.T) {
	f := newFakeAS(t)
	a := newTestAuthorizer(t, f, nil)
	ctx, client := context.Background(), &http.Client{}
	if h, _ := a.Authorization(ctx); h != "" {
		t.Fatalf("credentials before any challenge: %q", h)
	}
	retry, err := a.Challenge(ctx, client, 401, challenge(`Bearer scope="read"`), "")
	if err != nil || !retry {
		t.Fatalf("401: retry %v, %v", retry, err)
	}
	first, _ := a.Authorization(ctx)
	if first != "Bearer access-1-value" {
		t.Fatalf("after the 401: %q", first)
	}
	retry, err = a.Challenge(ctx, client, 403, challenge(`Bearer error="insufficient_scope", scope="write"`), first)
	if err != nil || !retry {
		t.Fatalf("403: retry %v, %v", retry, err)
	}
	second, _ := a.Authorization(ctx)
	retry, _ = a.Challenge(ctx, client, 403, challenge(`Bearer error="insufficient_scope", scope="admin"`), second)
	if !retry {
		t.Fatal("the third authorization was refused")
	}
	third, _ := a.Authorization(ctx)
	retry, err = a.Challenge(ctx, client, 403, challenge(`Bearer error="insufficient_scope", scope="admin"`), third)
	if retry || err != nil {
		t.Fatalf("a fourth authorization: retry %v, %v", retry, err)
	}
	if !strings.Contains(a.Hint(), "stopped after 3 authorizations") {
		t.Errorf("hint %q", a.Hint())
	}
	_, scopes, _, _ := f.snapshot()
	want := []string{"read", "read write", "read write admin"}
	if strings.Join(scopes, "|") != strings.Join(want, "|") {
		t.Errorf("scopes requested %q, want %q", scopes, want)
	}
	// A 403 for another reason is no reason to authorize.
	if retry, _ := a.Challenge(ctx, client, 403, challenge(`Bearer error="invalid_token"`), third); retry {
		t.Error("a 403 without insufficient_scope led to a retry")
	}
}

// TestSecretsAreRegistered: the code, state, verifier, tokens and the
// registered client's secret all reach the redactor, and a token request
// authenticates as the metadata says, with the resource parameter.
func TestSecretsAreRegistered(t *testing.T) {
	f := newFakeAS(t)
	r := redact.New()
	a := newTestAuthorizer(t, f, func(c *Config) { c.Redact = r })
	if _, err := a.Challenge(context.Background(), &http.Client{}, 401, http.Header{}, ""); err != nil {
		t.Fatal(err)
	}
	_, _, secrets, forms := f.snapshot()
	secrets = append(secrets, "dyn-secret-value")
	for _, s := range secrets {
		if s == "" || r.String("x "+s+" y") != "x "+redact.Mask+" y" {
			t.Errorf("secret %q is not masked", s)
		}
	}
	form := forms[0]
	if form.Get("client_secret") != "dyn-secret-value" || form.Get("resource") != f.mcpURL() || form.Get("code_verifier") == "" {
		t.Errorf("token request %v", form)
	}
}

// TestDiscoveryOrder: without a resource_metadata in the challenge the
// path-based location comes first and the root one is not asked once
// that answered; scopes_supported is requested when the challenge has
// none.
func TestDiscoveryOrder(t *testing.T) {
	f := newFakeAS(t)
	f.scopesSupported = []string{"s1", "s2"}
	a := newTestAuthorizer(t, f, nil)
	if _, err := a.Challenge(context.Background(), &http.Client{}, 401, challenge(`Bearer error="invalid_token"`), ""); err != nil {
		t.Fatal(err)
	}
	paths, scopes, _, _ := f.snapshot()
	if paths[0] != "/.well-known/oauth-protected-resource/mcp" || paths[1] != "/.well-known/oauth-authorization-server" {
		t.Errorf("requests %q", paths)
	}
	for _, p := range paths {
		if p == "/.well-known/oauth-protected-resource" {
			t.Errorf("the root metadata was asked for: %q", paths)
		}
	}
	if scopes[0] != "s1 s2" {
		t.Errorf("scope %q, want the resource's scopes_supported", scopes[0])
	}
}

// TestResourceMismatchStopsBeforeAuthorizing: metadata naming another
// resource ends the attempt before any authorization request.
func TestResourceMismatchStopsBeforeAuthorizing(t *testing.T) {
	f := newFakeAS(t)
	f.resource = "https://evil.example.com/mcp"
	a := newTestAuthorizer(t, f, nil)
	_, err := a.Challenge(context.Background(), &http.Client{}, 401, http.Header{}, "")
	if !errors.Is(err, ErrResourceMismatch) {
		t.Fatalf("error %v", err)
	}
	if _, scopes, _, _ := f.snapshot(); len(scopes) != 0 {
		t.Errorf("%d authorization requests made", len(scopes))
	}
}

// TestConcurrentChallengesShareOneAuthorization: requests refused with
// the same credentials at once lead to one authorization; the others
// retry with its token.
func TestConcurrentChallengesShareOneAuthorization(t *testing.T) {
	f := newFakeAS(t)
	a := newTestAuthorizer(t, f, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if retry, err := a.Challenge(context.Background(), &http.Client{}, 401, http.Header{}, ""); !retry || err != nil {
				t.Errorf("retry %v, %v", retry, err)
			}
		}()
	}
	wg.Wait()
	if _, scopes, _, _ := f.snapshot(); len(scopes) != 1 {
		t.Errorf("%d authorizations, want 1", len(scopes))
	}
}
