package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// TestCheckAudience: a JWT access token for another resource is refused;
// one for the server, one without aud and an opaque token pass.
func TestCheckAudience(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	token := func(aud ...string) string {
		s, err := jwt.Signed(signer).Claims(jwt.Claims{Subject: "u", Audience: aud}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const server = "https://mcp.example.com/mcp"
	cases := []struct {
		name, token string
		ok          bool
	}{
		{"for the server", token(server), true},
		{"for its origin", token("https://mcp.example.com"), true},
		{"one of several", token("https://other.example.com", server), true},
		{"for another resource", token("https://evil.example.com/mcp"), false},
		{"no aud", token(), true},
		{"opaque", "opaque-token-value", true},
	}
	for _, c := range cases {
		err := checkAudience(c.token, server, server)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrResourceMismatch)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
