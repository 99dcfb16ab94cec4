package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcptest/mcptest/internal/safefile"
)

// maxCacheBytes bounds a cache file: a token and a client fit many times.
const maxCacheBytes = 1 << 20

// Cache keeps tokens between runs, one file per server in a directory only
// the user can read (0700, files 0600).
type Cache struct {
	// Dir is the directory of the files.
	Dir string
}

// DefaultCache returns the cache in the user's configuration directory:
// $XDG_CONFIG_HOME/mcptest/oauth on Linux.
func DefaultCache() (*Cache, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return nil, fmt.Errorf("no configuration directory for the token cache: %w", err)
	}
	return &Cache{Dir: filepath.Join(dir, "mcptest", "oauth")}, nil
}

// Entry is the cached authorization of one server. It holds secrets: it is
// written 0600 and never printed.
type Entry struct {
	// Server is the server's name when it was saved; URL its endpoint.
	Server string `json:"server"`
	URL    string `json:"url"`
	// Resource is the resource indicator the token was issued for.
	Resource string `json:"resource"`
	// Issuer and TokenEndpoint are the authorization server's.
	Issuer        string `json:"issuer"`
	TokenEndpoint string `json:"token_endpoint"`
	// Client is the client's identity and AuthMethod how it authenticates.
	Client     Client `json:"client"`
	AuthMethod string `json:"auth_method"`
	// Flow is the grant that issued the token.
	Flow string `json:"flow"`
	// Scopes are the scopes granted.
	Scopes []string `json:"scopes,omitempty"`
	// AccessToken, RefreshToken, TokenType and Expiry are the token's.
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitempty"`
	// Saved is when the entry was written.
	Saved time.Time `json:"saved"`
}

// path returns the file of the server at serverURL.
func (c *Cache) path(serverURL string) string {
	sum := sha256.Sum256([]byte(CanonicalResource(serverURL)))
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:12])+".json")
}

// Load returns the entry of the server at serverURL, or nil when there is
// none.
func (c *Cache) Load(serverURL string) (*Entry, error) {
	raw, err := safefile.ReadFile(c.path(serverURL), maxCacheBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("token cache: %w", err)
	}
	var e Entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, fmt.Errorf("token cache %s: %w", c.path(serverURL), err)
	}
	if CanonicalResource(e.URL) != CanonicalResource(serverURL) {
		return nil, nil
	}
	return &e, nil
}

// Save writes e, replacing the server's previous entry atomically, 0600.
func (c *Cache) Save(e *Entry) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("token cache: %w", err)
	}
	e.Saved = time.Now().UTC()
	raw, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.WriteAtomic(c.path(e.URL), raw, 0o700); err != nil {
		return fmt.Errorf("token cache: %w", err)
	}
	return nil
}

// Delete removes the entry of the server at serverURL; it reports whether
// there was one.
func (c *Cache) Delete(serverURL string) (bool, error) {
	err := os.Remove(c.path(serverURL))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("token cache: %w", err)
	}
	return true, nil
}

// List returns every entry, by URL.
func (c *Cache) List() ([]*Entry, error) {
	files, err := filepath.Glob(filepath.Join(c.Dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*Entry
	for _, f := range files {
		raw, err := safefile.ReadFile(f, maxCacheBytes)
		if err != nil {
			continue
		}
		var e Entry
		if json.Unmarshal(raw, &e) == nil && e.URL != "" {
			out = append(out, &e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URL < out[j].URL })
	return out, nil
}

// loadCache takes the server's cached token, if any, as the current one.
// A token for another resource or issued by another grant is ignored.
func (a *Authorizer) loadCache() {
	if a.cfg.Cache == nil {
		return
	}
	e, err := a.cfg.Cache.Load(a.cfg.URL)
	if err != nil || e == nil || e.AccessToken == "" || e.Flow != a.cfg.Flow {
		return
	}
	if a.cfg.ClientID != "" && e.Client.ID != a.cfg.ClientID {
		return // the configured client changed
	}
	for _, s := range []string{e.AccessToken, e.RefreshToken, e.Client.Secret} {
		a.cfg.Redact.Add(s)
	}
	tok := &oauth2.Token{AccessToken: e.AccessToken, RefreshToken: e.RefreshToken, TokenType: e.TokenType, Expiry: e.Expiry}
	a.client = &e.Client
	a.method = e.AuthMethod
	a.resource = e.Resource
	a.granted = e.Scopes
	secret := ""
	if a.method == AuthBasic || a.method == AuthPost {
		secret = e.Client.Secret
	}
	conf := &oauth2.Config{ClientID: e.Client.ID, ClientSecret: secret,
		Endpoint: oauth2.Endpoint{TokenURL: e.TokenEndpoint, AuthStyle: authStyle(a.method)}}
	bg := context.WithValue(context.Background(), oauth2.HTTPClient, a.httpClient())
	a.ts = oauth2.ReuseTokenSource(nil, conf.TokenSource(bg, tok))
	a.current = tok.AccessToken
	a.stale = true
}

// saveCache writes the current token to the cache, when there is one.
// A failure to write costs a later run an authorization, nothing more.
func (a *Authorizer) saveCache(tok *oauth2.Token) {
	if a.cfg.Cache == nil || a.client == nil || a.as == nil && a.resource == "" {
		return
	}
	e := &Entry{Server: a.cfg.Server, URL: a.cfg.URL, Resource: a.resource, Client: *a.client,
		AuthMethod: a.method, Flow: a.cfg.Flow, Scopes: a.granted,
		AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.TokenType, Expiry: tok.Expiry}
	if a.as != nil {
		e.Issuer, e.TokenEndpoint = a.as.Issuer, a.as.TokenEndpoint
	} else if old, _ := a.cfg.Cache.Load(a.cfg.URL); old != nil {
		e.Issuer, e.TokenEndpoint = old.Issuer, old.TokenEndpoint
	}
	_ = a.cfg.Cache.Save(e)
}

// Status describes a cached entry without its secrets, for `mcptest auth
// status`.
func (e *Entry) Status(now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", e.Server, e.URL)
	fmt.Fprintf(&b, "  authorization server: %s\n", e.Issuer)
	fmt.Fprintf(&b, "  client: %s client, %s\n", e.Client.Source, e.AuthMethod)
	if len(e.Scopes) > 0 {
		fmt.Fprintf(&b, "  scopes: %s\n", strings.Join(e.Scopes, " "))
	}
	switch {
	case e.Expiry.IsZero():
		b.WriteString("  token: no expiry given\n")
	case e.Expiry.After(now):
		fmt.Fprintf(&b, "  token: valid for %s\n", e.Expiry.Sub(now).Round(time.Second))
	default:
		fmt.Fprintf(&b, "  token: expired %s ago\n", now.Sub(e.Expiry).Round(time.Second))
	}
	if e.RefreshToken != "" {
		b.WriteString("  refresh token: yes\n")
	} else {
		b.WriteString("  refresh token: no\n")
	}
	return b.String()
}
