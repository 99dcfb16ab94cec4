package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
)

// fakeAS is an authorization server and protected resource that approves
// every authorization at once; it records what the client sent.
type fakeAS struct {
	srv *httptest.Server
	// scopesSupported is the resource's scopes_supported.
	scopesSupported []string
	// resource overrides the resource its metadata names.
	resource string

	mu         sync.Mutex
	paths      []string     // every request's path, in order
	authScopes []string     // the scope of each authorization request
	secrets    []string     // codes, verifiers, states and tokens seen
	tokenForms []url.Values // every token request's form
}

func newFakeAS(t *testing.T) *fakeAS {
	f := &fakeAS{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// mcpURL is the protected resource's URL.
func (f *fakeAS) mcpURL() string { return f.srv.URL + "/mcp" }

func (f *fakeAS) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.paths = append(f.paths, r.URL.Path)
	f.mu.Unlock()
	js := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	switch r.URL.Path {
	case "/.well-known/oauth-protected-resource/mcp":
		res := f.resource
		if res == "" {
			res = f.mcpURL()
		}
		js(200, map[string]any{"resource": res, "authorization_servers": []string{f.srv.URL}, "scopes_supported": f.scopesSupported})
	case "/.well-known/oauth-authorization-server":
		js(200, map[string]any{"issuer": f.srv.URL, "authorization_endpoint": f.srv.URL + "/authorize",
			"token_endpoint": f.srv.URL + "/token", "registration_endpoint": f.srv.URL + "/register",
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"client_secret_post"}})
	case "/register":
		js(201, map[string]any{"client_id": "dyn-client", "client_secret": "dyn-secret-value"})
	case "/authorize":
		q := r.URL.Query()
		f.mu.Lock()
		n := len(f.authScopes) + 1
		f.authScopes = append(f.authScopes, q.Get("scope"))
		code := fmt.Sprintf("code-%d-value", n)
		f.secrets = append(f.secrets, code, q.Get("state"))
		f.mu.Unlock()
		back, _ := url.Parse(q.Get("redirect_uri"))
		back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case "/token":
		_ = r.ParseForm()
		f.mu.Lock()
		n := len(f.tokenForms) + 1
		f.tokenForms = append(f.tokenForms, r.PostForm)
		at, rt := fmt.Sprintf("access-%d-value", n), fmt.Sprintf("refresh-%d-value", n)
		f.secrets = append(f.secrets, r.PostForm.Get("code_verifier"), at, rt)
		scope := f.authScopes[len(f.authScopes)-1]
		f.mu.Unlock()
		js(200, map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "expires_in": 3600, "scope": scope})
	default:
		http.NotFound(w, r)
	}
}

// snapshot returns copies of what was recorded.
func (f *fakeAS) snapshot() (paths, scopes, secrets []string, forms []url.Values) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.paths...), append([]string(nil), f.authScopes...),
		append([]string(nil), f.secrets...), append([]url.Values(nil), f.tokenForms...)
}
