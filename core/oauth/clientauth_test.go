package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// TestClientAssertion: a PKCS #8 EC key read from PEM signs an ES256
// assertion whose claims RFC 7523 asks for, verifiable with the public key.
func TestClientAssertion(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	signer, err := ParsePrivateKey(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := clientAssertion(signer, "client-1", "https://as.example.com")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.ParseSigned(raw, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	var claims jwt.Claims
	if err := tok.Claims(&key.PublicKey, &claims); err != nil {
		t.Fatalf("signature: %v", err)
	}
	err = claims.Validate(jwt.Expected{Issuer: "client-1", Subject: "client-1", AnyAudience: jwt.Audience{"https://as.example.com"}, Time: time.Now()})
	if err != nil || claims.ID == "" {
		t.Errorf("claims %+v: %v", claims, err)
	}
	if _, err := ParsePrivateKey([]byte("not a key")); err == nil {
		t.Error("garbage was accepted as a key")
	}
}
