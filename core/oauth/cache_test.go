package oauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCacheFiles: entries are written 0600 in a 0700 directory, read back
// by URL (whatever its case or fragment), listed, and deleted; the status
// line holds no secret.
func TestCacheFiles(t *testing.T) {
	c := &Cache{Dir: filepath.Join(t.TempDir(), "mcptest", "oauth")}
	e := &Entry{Server: "api", URL: "https://MCP.example.com/mcp", Issuer: "https://as.example.com", Flow: FlowAuthorizationCode,
		Client: Client{ID: "client-1", Secret: "client-secret-value", Source: "registered"}, AuthMethod: AuthBasic,
		AccessToken: "access-token-value", RefreshToken: "refresh-token-value", Expiry: time.Now().Add(time.Hour)}
	if err := c.Save(e); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{c.Dir: 0o700, c.path(e.URL): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, want %v (%v)", path, fi.Mode().Perm(), want, err)
		}
	}
	got, err := c.Load("https://mcp.example.com/mcp#x")
	if err != nil || got == nil || got.AccessToken != e.AccessToken || got.Client.Secret != e.Client.Secret {
		t.Fatalf("Load: %+v, %v", got, err)
	}
	status := got.Status(time.Now())
	for _, s := range []string{e.AccessToken, e.RefreshToken, e.Client.Secret} {
		if strings.Contains(status, s) {
			t.Errorf("status shows a secret: %s", status)
		}
	}
	if !strings.Contains(status, "refresh token: yes") || !strings.Contains(status, "valid for") {
		t.Errorf("status %q", status)
	}
	if list, _ := c.List(); len(list) != 1 {
		t.Errorf("List: %d entries", len(list))
	}
	if ok, err := c.Delete(e.URL); !ok || err != nil {
		t.Errorf("Delete: %v %v", ok, err)
	}
	if got, _ := c.Load(e.URL); got != nil {
		t.Error("the entry survived Delete")
	}
}
