package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	corereport "github.com/mcptest/mcptest/core/report"
)

// loginAS is an authorization server that wants a person: /authorize
// answers with a page whose "Approve" link a user must follow. It serves
// the protected MCP server (mcp-go) on /mcp too, and counts what it did.
type loginAS struct {
	t   *testing.T
	srv *httptest.Server
	mcp http.Handler

	mu                                    sync.Mutex
	pending                               map[string]url.Values // approval id -> authorization request
	codes                                 map[string]url.Values // code -> authorization request
	access, refresh                       map[string]bool
	issued                                []string // every token issued, to look for leaks
	authorizations, refreshes, registered int
}

func newLoginAS(t *testing.T) *loginAS {
	a := &loginAS{t: t, pending: map[string]url.Values{}, codes: map[string]url.Values{},
		access: map[string]bool{}, refresh: map[string]bool{}}
	ms := server.NewMCPServer("protected", "1.0", server.WithToolCapabilities(false))
	ms.AddTool(mcp.NewTool("whoami"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("authorized"), nil
	})
	// A careless server: it echoes the request's credentials back.
	ms.AddTool(mcp.NewTool("echo_auth"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		v := req.Header.Get("Authorization")
		quoted, _ := json.Marshal(map[string]string{"authorization": v})
		return mcp.NewToolResultText("you sent " + v + " " + string(quoted)), nil
	})
	a.mcp = server.NewStreamableHTTPServer(ms)
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", a.resourceMetadata)
	mux.HandleFunc("/.well-known/oauth-authorization-server", a.serverMetadata)
	mux.HandleFunc("/register", a.register)
	mux.HandleFunc("/authorize", a.authorize)
	mux.HandleFunc("/approve", a.approve)
	mux.HandleFunc("/token", a.token)
	mux.HandleFunc("/mcp", a.protected)
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	return a
}

func (a *loginAS) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (a *loginAS) resourceMetadata(w http.ResponseWriter, _ *http.Request) {
	a.writeJSON(w, 200, map[string]any{"resource": a.srv.URL + "/mcp", "authorization_servers": []string{a.srv.URL}, "scopes_supported": []string{"mcp"}})
}

func (a *loginAS) serverMetadata(w http.ResponseWriter, _ *http.Request) {
	u := a.srv.URL
	a.writeJSON(w, 200, map[string]any{"issuer": u, "authorization_endpoint": u + "/authorize", "token_endpoint": u + "/token",
		"registration_endpoint": u + "/register", "response_types_supported": []string{"code"},
		"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"}, "scopes_supported": []string{"mcp", "offline_access"}})
}

func (a *loginAS) register(w http.ResponseWriter, r *http.Request) {
	var reg struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	_ = json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&reg)
	a.mu.Lock()
	a.registered++
	a.mu.Unlock()
	a.writeJSON(w, 201, map[string]any{"client_id": "registered-client", "token_endpoint_auth_method": "none", "redirect_uris": reg.RedirectURIs})
}

// authorize shows the approval page: no redirect until a person approves.
func (a *loginAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") != a.srv.URL+"/mcp" ||
		!strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") {
		http.Error(w, "bad authorization request: "+r.URL.RawQuery, 400)
		return
	}
	a.mu.Lock()
	id := fmt.Sprintf("req%d", len(a.pending)+1)
	a.pending[id] = q
	a.mu.Unlock()
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, `<!doctype html><p>mcptest wants access.</p><a id="approve" href="/approve?id=%s">Approve</a>`, id)
}

func (a *loginAS) approve(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	q, ok := a.pending[r.URL.Query().Get("id")]
	code := fmt.Sprintf("code-%d-SECRETVALUE", len(a.codes)+1)
	if ok {
		a.codes[code] = q
		a.authorizations++
	}
	a.mu.Unlock()
	if !ok {
		http.Error(w, "unknown request", 400)
		return
	}
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token checks PKCE, the redirect URI and the resource, and issues
// tokens with refresh tokens.
func (a *loginAS) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	a.mu.Lock()
	defer a.mu.Unlock()
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		q, ok := a.codes[r.PostForm.Get("code")]
		delete(a.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != q.Get("code_challenge") ||
			r.PostForm.Get("redirect_uri") != q.Get("redirect_uri") || r.PostForm.Get("resource") != q.Get("resource") {
			a.writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		if !a.refresh[r.PostForm.Get("refresh_token")] {
			a.writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		a.refreshes++
	default:
		a.writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	n := len(a.issued) + 1
	at, rt := fmt.Sprintf("at-%d-SECRETVALUE", n), fmt.Sprintf("rt-%d-SECRETVALUE", n)
	a.access[at], a.refresh[rt] = true, true
	a.issued = append(a.issued, at, rt)
	// The first token expires within x/oauth2's early-expiry margin (10
	// s), so its first use refreshes it; the refreshed ones last.
	expires := 3600
	if n == 1 {
		expires = 5
	}
	a.writeJSON(w, 200, map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "expires_in": expires, "scope": "mcp offline_access"})
}

// protected serves MCP to requests with a token it issued.
func (a *loginAS) protected(w http.ResponseWriter, r *http.Request) {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	a.mu.Lock()
	ok := a.access[tok]
	a.mu.Unlock()
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+a.srv.URL+`/.well-known/oauth-protected-resource/mcp"`)
		a.writeJSON(w, 401, map[string]string{"error": "invalid_token"})
		return
	}
	a.mcp.ServeHTTP(w, r)
}

// counts returns what the server did so far.
func (a *loginAS) counts() (authorizations, refreshes, registered int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.authorizations, a.refreshes, a.registered
}

// browserScript is the browser stand-in: a user who opens the page and
// clicks "Approve". It notes the URL it was given in $BROWSER_LOG.
const browserScript = `#!/bin/sh
printf '%s\n' "$1" >> "$BROWSER_LOG"
page=$(curl -sf "$1") || exit 1
link=$(printf '%s' "$page" | sed -n 's/.*href="\([^"]*\)".*/\1/p' | head -n 1)
base=$(printf '%s' "$1" | sed 's#^\(http://[^/]*\).*#\1#')
curl -sf -L -o /dev/null "$base$link"
`

// TestOAuthInteractiveLogin drives `mcptest auth login` against an
// authorization server that wants a person, with a scripted browser: a
// run without a token stops and says to log in; login opens the browser
// (MCPTEST_BROWSER), registers, authorizes with PKCE and caches the token
// 0600; status shows it without secrets; the next run uses the cached
// token, refreshing it, with no new authorization; logout forgets it. No
// code, token or refresh token reaches any output.
func TestOAuthInteractiveLogin(t *testing.T) {
	if _, err := exec.LookPath("curl"); !need(t, "curl for the browser stand-in", err == nil) {
		return
	}
	as := newLoginAS(t)
	dir := t.TempDir()
	browser := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(browser, []byte(browserScript), 0o755); err != nil {
		t.Fatal(err)
	}
	configHome, browserLog := filepath.Join(dir, "config"), filepath.Join(dir, "browser.log")
	env := []string{"XDG_CONFIG_HOME=" + configHome, "MCPTEST_BROWSER=" + browser, "BROWSER_LOG=" + browserLog}
	suite := writeSuite(t, `
servers:
  api:
    url: "`+as.srv.URL+`/mcp"
    auth:
      oauth: {flow: authorization_code}
tools:
  - name: whoami answers once authorized
    server: api
    tool: whoami
    expect:
      - target: result.content
        matcher: {exact: [{type: text, text: authorized}]}
`)
	var outputs []string
	// Without a person, the run cannot pass the approval page.
	r := mcptestEnv(t, env, "run", "--no-color", suite)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 2 {
		t.Fatalf("a run before login: want exit 2:\n%s", r)
	}
	mustContain(t, "the run's error", r.stdout, "mcptest auth login")

	r = mcptestEnv(t, env, "auth", "login", "api", suite)
	outputs = append(outputs, r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("auth login:\n%s", r)
	}
	mustContain(t, "auth login", r.stdout, "logged in to api")
	if log, _ := os.ReadFile(browserLog); !strings.Contains(string(log), as.srv.URL+"/authorize?") {
		t.Fatalf("the browser stand-in was not opened on the authorization URL: %q", log)
	}
	if n, refreshes, _ := as.counts(); n != 1 || refreshes != 0 {
		t.Fatalf("after login: %d authorizations, %d refreshes; want 1, 0", n, refreshes)
	}
	cacheDir := filepath.Join(configHome, "mcptest", "oauth")
	files, _ := filepath.Glob(filepath.Join(cacheDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("want one cache file in %s, got %q", cacheDir, files)
	}
	for path, want := range map[string]os.FileMode{cacheDir: 0o700, files[0]: 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (%v)", path, fi.Mode().Perm(), want, err)
		}
	}

	r = mcptestEnv(t, env, "auth", "status")
	outputs = append(outputs, r.stdout, r.stderr)
	mustContain(t, "auth status", r.stdout, "api ("+as.srv.URL+"/mcp)", "refresh token: yes", "registered client")

	// The cached token has (nearly) expired: the run refreshes it, and
	// needs no new authorization.
	report := filepath.Join(dir, "run.json")
	r = mcptestEnv(t, env, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+report, suite)
	raw, _ := os.ReadFile(report)
	outputs = append(outputs, r.stdout, r.stderr, string(raw))
	if r.code != 0 {
		t.Fatalf("a run after login:\n%s", r)
	}
	if n, refreshes, _ := as.counts(); n != 1 || refreshes != 1 {
		t.Errorf("after the run: %d authorizations, %d refreshes; want 1, 1", n, refreshes)
	}
	cached, _ := os.ReadFile(files[0])
	if !strings.Contains(string(cached), "at-") || strings.Contains(string(cached), `"at-1-`) {
		t.Errorf("the cache does not hold the refreshed token")
	}

	// A server echoing the token in a failing test's result: the token is
	// masked in the terminal output and the report.
	echo := writeSuite(t, `
servers:
  api:
    url: "`+as.srv.URL+`/mcp"
    auth:
      oauth: {flow: authorization_code}
tools:
  - name: the server echoes the token
    server: api
    tool: echo_auth
    expect:
      - target: result.content
        matcher: {contains: "something else"}
`)
	report = filepath.Join(dir, "echo.json")
	r = mcptestEnv(t, env, "run", "--no-color", "--reporter", "pretty", "--reporter", "json="+report, echo)
	raw, _ = os.ReadFile(report)
	outputs = append(outputs, r.stdout, r.stderr, string(raw))
	if r.code != 1 {
		t.Fatalf("the echo run: want exit 1:\n%s", r)
	}
	mustContain(t, "the echo run", r.stdout, "you sent Bearer [REDACTED]")

	r = mcptestEnv(t, env, "auth", "logout", "api")
	outputs = append(outputs, r.stdout, r.stderr)
	mustContain(t, "auth logout", r.stdout, "logged out of api")
	if files, _ := filepath.Glob(filepath.Join(cacheDir, "*.json")); len(files) != 0 {
		t.Errorf("logout left %q", files)
	}
	for _, out := range outputs {
		if strings.Contains(out, "SECRETVALUE") {
			t.Errorf("a code or token reached mcptest's output:\n%s", out)
		}
	}
}

// TestOAuthFlag: a URL server without an auth block that answers 401
// fails with an error naming --oauth; with --oauth, mcptest discovers the
// authorization server and registers, and (this one wanting a person)
// says to log in.
func TestOAuthFlag(t *testing.T) {
	as := newLoginAS(t)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	suite := writeSuite(t, `
servers:
  api:
    url: "`+as.srv.URL+`/mcp"
tools:
  - name: whoami
    server: api
    tool: whoami
`)
	report := filepath.Join(t.TempDir(), "run.json")
	r := mcptestEnv(t, env, "run", "--no-color", "--reporter", "json="+report, suite)
	if r.code != 2 {
		t.Fatalf("without --oauth: want exit 2:\n%s", r)
	}
	run, err := corereport.ReadRun(report)
	if err != nil || len(run.Tests) != 1 || run.Tests[0].Error == nil {
		t.Fatalf("report: %v %+v", err, run)
	}
	mustContain(t, "the 401's error", run.Tests[0].Error.Message, "HTTP 401", "--oauth")
	if _, _, registered := as.counts(); registered != 0 {
		t.Errorf("registered %d clients without --oauth", registered)
	}
	r = mcptestEnv(t, env, "run", "--no-color", "--oauth", suite)
	if r.code != 2 {
		t.Fatalf("with --oauth: want exit 2:\n%s", r)
	}
	mustContain(t, "the error with --oauth", r.stdout, "a person must approve")
	if _, _, registered := as.counts(); registered != 1 {
		t.Errorf("registered %d clients with --oauth, want 1", registered)
	}
}
