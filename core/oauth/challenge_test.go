package oauth

import (
	"net/http"
	"slices"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	cases := []struct {
		name, header string
		want         Challenge
	}{
		{"all three", `Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource"`,
			Challenge{ResourceMetadata: "https://x/.well-known/oauth-protected-resource", Scope: []string{"a", "b"}, Error: "insufficient_scope"}},
		{"case and tokens", `bearer Error=invalid_token, SCOPE="read"`, Challenge{Error: "invalid_token", Scope: []string{"read"}}},
		{"escaped quote", `Bearer error_description="say \"no\"", scope="x"`, Challenge{Scope: []string{"x"}}},
		{"after another scheme", `Basic realm="r", Bearer scope="s1"`, Challenge{Scope: []string{"s1"}}},
		{"comma inside quotes", `Bearer error_description="a, b", scope="q"`, Challenge{Scope: []string{"q"}}},
		{"no bearer", `Basic realm="x"`, Challenge{}},
		{"empty", ``, Challenge{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.header != "" {
				h.Set("WWW-Authenticate", c.header)
			}
			got := ParseChallenge(h)
			if got.ResourceMetadata != c.want.ResourceMetadata || got.Error != c.want.Error || !slices.Equal(got.Scope, c.want.Scope) {
				t.Errorf("ParseChallenge(%q) = %+v, want %+v", c.header, got, c.want)
			}
		})
	}
}

func TestMetadataURLsOrder(t *testing.T) {
	got, err := MetadataURLs("https://as.example.com/tenant1/")
	want := []string{
		"https://as.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://as.example.com/.well-known/openid-configuration/tenant1",
		"https://as.example.com/tenant1/.well-known/openid-configuration",
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("with a path: %q, %v", got, err)
	}
	got, _ = MetadataURLs("https://as.example.com")
	want = []string{"https://as.example.com/.well-known/oauth-authorization-server", "https://as.example.com/.well-known/openid-configuration"}
	if !slices.Equal(got, want) {
		t.Errorf("without a path: %q", got)
	}
	if _, err := MetadataURLs("not a url"); err == nil {
		t.Error("a relative issuer was accepted")
	}
}

func TestCheckResource(t *testing.T) {
	cases := []struct {
		server, resource string
		ok               bool
	}{
		{"http://localhost:3000/mcp", "http://localhost:3000/mcp", true},
		{"http://localhost:3000/mcp", "http://localhost:3000/mcp/", true},
		{"http://localhost:3000/mcp", "http://localhost:3000", true},
		{"http://LOCALHOST:3000/mcp", "http://localhost:3000/", true},
		{"https://x.example.com/mcp", "https://x.example.com:443/mcp", true},
		{"http://localhost:3000/mcp", "https://evil.example.com/mcp", false},
		{"http://localhost:3000/mcp", "http://localhost:3001/mcp", false},
		{"http://localhost:3000/mcp", "http://localhost:3000/other", false},
		{"http://localhost:3000/mcpx", "http://localhost:3000/mcp", false},
		{"http://localhost:3000/mcp", "/mcp", false},
	}
	for _, c := range cases {
		if err := CheckResource(c.server, c.resource); (err == nil) != c.ok {
			t.Errorf("CheckResource(%q, %q) = %v, want ok=%v", c.server, c.resource, err, c.ok)
		}
	}
}

func TestChooseAuthMethod(t *testing.T) {
	secret := &Client{ID: "c", Secret: "s3cret-value"}
	public := &Client{ID: "c"}
	cases := []struct {
		name       string
		configured string
		client     *Client
		key        bool
		supported  []string
		want       string
	}{
		{"configured wins", AuthPost, secret, false, []string{AuthBasic}, AuthPost},
		{"registration settled it", "", &Client{ID: "c", Secret: "x", AuthMethod: AuthPost}, false, []string{AuthBasic, AuthPost}, AuthPost},
		{"absent list means basic", "", secret, false, nil, AuthBasic},
		{"post only", "", secret, false, []string{AuthPost}, AuthPost},
		{"public client", "", public, false, []string{AuthBasic, AuthNone}, AuthNone},
		{"a key and private_key_jwt", "", public, true, []string{AuthPrivateKey}, AuthPrivateKey},
	}
	for _, c := range cases {
		got := chooseAuthMethod(c.configured, c.client, c.key, &ServerMetadata{TokenEndpointAuthMethodsSupported: c.supported})
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
