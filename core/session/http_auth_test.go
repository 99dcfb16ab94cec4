//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

const testToken = "s3cret-token-value"

// requireAuth answers 401, echoing the credentials it got (as careless
// servers do), unless the request carries want.
func requireAuth(want string) func(w http.ResponseWriter, r *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") == want {
			return false
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcp", error="invalid_token"`)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, "unauthorized: got %q", r.Header.Get("Authorization"))
		return true
	}
}

// noSecret fails the test if text holds secret.
func noSecret(t *testing.T, what, text, secret string) {
	t.Helper()
	if strings.Contains(text, secret) {
		t.Errorf("%s leaks the secret: %s", what, text)
	}
}

func TestBearerTokenSent(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	p.setGate(requireAuth("Bearer " + testToken))
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u),
		Auth: Auth{BearerToken: testToken, BearerTokenEnv: "MCPTEST_TEST_TOKEN"}})
	// The server echoes the token back: frames must not show it.
	args, _ := json.Marshal(map[string]string{"message": "token is " + testToken})
	out := callTool(t, s, "echo", string(args))
	if got := toolText(t, out.Result); got != "token is "+testToken {
		t.Fatalf("echo = %q", got)
	}
	if got := out.RequestHeaders.Get("Authorization"); got != Redacted {
		t.Errorf("recorded Authorization = %q", got)
	}
	for _, f := range out.Frames {
		noSecret(t, "frame", f.Raw, testToken)
		if !strings.Contains(f.Raw, "token is "+Redacted) {
			t.Errorf("frame not scrubbed: %s", f.Raw)
		}
	}
	for _, r := range p.requests() {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			t.Errorf("%s without the token", r.Method)
		}
	}
}

func TestBearerTokenRejected(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	p.setGate(requireAuth("Bearer the-right-one"))
	_, err := StartHTTP(context.Background(), HTTPConfig{Name: "remote", URL: p.urlFor(t, u),
		Auth: Auth{BearerToken: testToken, BearerTokenEnv: "MCPTEST_TEST_TOKEN"}})
	if !isErr(err, ErrTransport) || !isErr(err, ErrAuth) {
		t.Fatalf("err = %v, want ErrTransport and ErrAuth", err)
	}
	msg := err.Error()
	for _, want := range []string{`initialize server "remote"`, "HTTP 401 Unauthorized", "$MCPTEST_TEST_TOKEN", `WWW-Authenticate: Bearer realm="mcp"`, Redacted} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	noSecret(t, "error", msg, testToken)
	var herr *HTTPError
	if !errors.As(err, &herr) || herr.Status != http.StatusUnauthorized {
		t.Errorf("not an *HTTPError with status 401: %#v", err)
	}

	// No credentials at all: the hint says so.
	_, err = StartHTTP(context.Background(), HTTPConfig{URL: p.urlFor(t, u)})
	if !isErr(err, ErrAuth) || !strings.Contains(err.Error(), "none are configured") {
		t.Errorf("without credentials: %v", err)
	}
}

func TestCustomHeaders(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	const apiKey = "key-from-the-environment"
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u), Headers: []Header{
		{Name: "X-Tenant", Value: "acme"},
		{Name: "X-Api-Key", Value: apiKey, Env: "ACME_API_KEY"},
		{Name: "User-Agent", Value: "gateway-approved/1.0"},
	}})
	out := callTool(t, s, "echo", `{"message":"h"}`)
	for _, r := range p.requests() {
		if r.Header.Get("X-Tenant") != "acme" || r.Header.Get("X-Api-Key") != apiKey || r.Header.Get("User-Agent") != "gateway-approved/1.0" {
			t.Errorf("%s headers: %v", r.Method, r.Header)
		}
	}
	if out.RequestHeaders.Get("X-Tenant") != "acme" || out.RequestHeaders.Get("X-Api-Key") != Redacted {
		t.Errorf("recorded headers: %v", out.RequestHeaders)
	}
	if out.RequestHeaders.Get("Authorization") != "" {
		t.Errorf("Authorization recorded without auth: %v", out.RequestHeaders)
	}
	for _, bad := range []Header{
		{Name: "Authorization", Value: "Bearer x"},
		{Name: "proxy-authorization", Value: "x"},
		{Name: "Mcp-Session-Id", Value: "x"},
		{Name: "X Bad", Value: "x"},
		{Name: "X-Split", Value: "a\r\nInjected: 1"},
	} {
		_, err := StartHTTP(context.Background(), HTTPConfig{URL: u, Headers: []Header{bad}})
		if err == nil {
			t.Errorf("header %q accepted", bad.Name)
		}
	}
	_, err := StartHTTP(context.Background(), HTTPConfig{URL: u, Headers: []Header{{Name: "Authorization", Value: "x"}}})
	if err == nil || !strings.Contains(err.Error(), "use auth") {
		t.Errorf("Authorization header: %v", err)
	}
}

// tokenServer is an OAuth token endpoint for the client credentials grant.
type tokenServer struct {
	*httptest.Server
	calls atomic.Int32
}

func newTokenServer(t *testing.T, id, secret, token string) *tokenServer {
	t.Helper()
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.calls.Add(1)
		if err := r.ParseForm(); err != nil || r.Form.Get("grant_type") != "client_credentials" {
			http.Error(w, `{"error":"unsupported_grant_type"}`, http.StatusBadRequest)
			return
		}
		gotID, gotSecret, ok := r.BasicAuth()
		if !ok {
			gotID, gotSecret = r.Form.Get("client_id"), r.Form.Get("client_secret")
		}
		w.Header().Set("Content-Type", "application/json")
		if gotID != id || gotSecret != secret {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":"invalid_client","error_description":"bad secret %s"}`, gotSecret)
			return
		}
		if r.Form.Get("scope") != "mcp:read mcp:invoke" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"invalid_scope","error_description":"scope %q"}`, r.Form.Get("scope"))
			return
		}
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, token)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestOAuthClientCredentials(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	const id, secret, token = "client-1", "client-secret-xyz", "issued-access-token-123"
	ts := newTokenServer(t, id, secret, token)
	p := newRecordingProxy(t, u, false)
	p.setGate(requireAuth("Bearer " + token))
	s := startURLSession(t, HTTPConfig{URL: p.urlFor(t, u), Auth: Auth{OAuth: &OAuthConfig{
		ClientID: id, ClientSecret: secret, ClientIDEnv: "MCPTEST_OAUTH_CLIENT_ID",
		TokenURL: ts.URL + "/token", Scopes: []string{"mcp:read", "mcp:invoke"},
	}}})
	var out *Outcome
	for range 3 {
		out = callTool(t, s, "echo", `{"message":"`+token+`"}`)
	}
	if n := ts.calls.Load(); n != 1 {
		t.Errorf("token endpoint called %d times; the token should be reused", n)
	}
	if got := out.RequestHeaders.Get("Authorization"); got != Redacted {
		t.Errorf("recorded Authorization = %q", got)
	}
	for _, f := range out.Frames {
		noSecret(t, "frame", f.Raw, token)
	}
}

func TestOAuthTokenRefused(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	const secret = "the-wrong-secret"
	ts := newTokenServer(t, "client-1", "right-secret", "tok")
	_, err := StartHTTP(context.Background(), HTTPConfig{Name: "remote", URL: u, Auth: Auth{OAuth: &OAuthConfig{
		ClientID: "client-1", ClientSecret: secret, ClientIDEnv: "MCPTEST_OAUTH_CLIENT_ID",
		TokenURL: ts.URL + "/token", Scopes: []string{"mcp:read", "mcp:invoke"},
	}}})
	if !isErr(err, ErrAuth) || !isErr(err, ErrTransport) {
		t.Fatalf("err = %v, want ErrAuth", err)
	}
	msg := err.Error()
	for _, want := range []string{"HTTP 401", "$MCPTEST_OAUTH_CLIENT_ID", "$MCPTEST_OAUTH_CLIENT_ID_SECRET", "/token", "invalid_client"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	noSecret(t, "error", msg, secret)
}

func TestAuthConfigErrors(t *testing.T) {
	cases := []struct {
		auth Auth
		want string
	}{
		{Auth{BearerTokenEnv: "EMPTY_TOKEN"}, "EMPTY_TOKEN is empty or unset"},
		{Auth{BearerToken: "x", OAuth: &OAuthConfig{}}, "not both"},
		{Auth{OAuth: &OAuthConfig{ClientIDEnv: "CID", TokenURL: "http://a/t"}}, "client id (from $CID)"},
		{Auth{OAuth: &OAuthConfig{ClientID: "c", ClientIDEnv: "CID", TokenURL: "http://a/t"}}, "$CID_SECRET"},
		{Auth{OAuth: &OAuthConfig{ClientID: "c", ClientSecret: "s", TokenURL: "/relative"}}, "token URL"},
	}
	for _, c := range cases {
		_, err := StartHTTP(context.Background(), HTTPConfig{URL: "http://127.0.0.1:1/mcp", Auth: c.auth})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.auth, err, c.want)
		}
	}
}

// A 401 whose body is JSON, an OAuth error or a JSON-RPC error, is still an
// authentication failure: the message gives the status, the
// WWW-Authenticate header and the configured credentials, and never calls
// the body a malformed JSON-RPC error object.
func TestUnauthorizedJSONBody(t *testing.T) {
	u, _ := startDemoURL(t, "--http")
	p := newRecordingProxy(t, u, false)
	for _, body := range []string{
		`{"error":"invalid_token","error_description":"Missing Authorization header"}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Unauthorized"}}`,
	} {
		p.setGate(func(w http.ResponseWriter, r *http.Request) bool {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://example.test/.well-known/oauth-protected-resource"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, body)
			return true
		})
		_, err := StartHTTP(context.Background(), HTTPConfig{Name: "remote", URL: p.urlFor(t, u),
			Auth: Auth{BearerToken: testToken, BearerTokenEnv: "MCPTEST_TEST_TOKEN"}})
		if !isErr(err, ErrAuth) {
			t.Fatalf("body %s: err = %v, want ErrAuth", body, err)
		}
		msg := err.Error()
		for _, want := range []string{"HTTP 401 Unauthorized", "WWW-Authenticate: Bearer resource_metadata=", "$MCPTEST_TEST_TOKEN"} {
			if !strings.Contains(msg, want) {
				t.Errorf("body %s: message lacks %q: %s", body, want, msg)
			}
		}
		if strings.Contains(msg, "malformed") {
			t.Errorf("body %s: %s", body, msg)
		}
	}
}
