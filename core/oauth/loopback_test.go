package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestBrowserLogin: Login hands the authorization URL to the Browser,
// whose redirect to the loopback URI completes the authorization; a
// redirect carrying another state is refused as forged.
func TestBrowserLogin(t *testing.T) {
	f := newFakeAS(t)
	var opened []string
	visit := func(tamper bool) Browser {
		return func(ctx context.Context, authURL string) error {
			opened = append(opened, authURL)
			if tamper {
				u, _ := url.Parse(authURL)
				q := u.Query()
				q.Set("state", "forged-state-value")
				u.RawQuery = q.Encode()
				authURL = u.String()
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			return resp.Body.Close()
		}
	}
	a := newTestAuthorizer(t, f, func(c *Config) { c.Browser = visit(false) })
	if err := a.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(opened) != 1 || !strings.HasPrefix(opened[0], f.srv.URL+"/authorize?") || !strings.Contains(opened[0], "code_challenge_method=S256") {
		t.Fatalf("browser opened %q", opened)
	}
	if h, _ := a.Authorization(context.Background()); h != "Bearer access-1-value" {
		t.Errorf("after login: %q", h)
	}
	b := newTestAuthorizer(t, f, func(c *Config) { c.Browser = visit(true) })
	if err := b.Login(context.Background()); !errors.Is(err, ErrAuthorization) || !strings.Contains(err.Error(), "state") {
		t.Errorf("a forged state: %v", err)
	}
}
