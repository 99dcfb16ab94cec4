package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/url"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
)

// Token endpoint authentication methods (RFC 7591 §2, RFC 7523 §2.2).
const (
	AuthBasic      = "client_secret_basic"
	AuthPost       = "client_secret_post"
	AuthNone       = "none"
	AuthPrivateKey = "private_key_jwt"
)

// AuthMethods are the token endpoint authentication methods mcptest
// speaks.
var AuthMethods = []string{AuthBasic, AuthPost, AuthNone, AuthPrivateKey}

// assertionType is the client_assertion_type of a JWT client assertion.
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// chooseAuthMethod picks how the client authenticates at the token
// endpoint: the configured method, else the one the registration settled,
// else one the server supports that the client's credentials allow. An
// absent list means client_secret_basic (RFC 8414 §2).
func chooseAuthMethod(configured string, c *Client, hasKey bool, md *ServerMetadata) string {
	if configured != "" {
		return configured
	}
	if c.AuthMethod != "" {
		return c.AuthMethod
	}
	supported := md.TokenEndpointAuthMethodsSupported
	if hasKey && contains(supported, AuthPrivateKey) {
		return AuthPrivateKey
	}
	if c.Secret == "" {
		return AuthNone
	}
	switch {
	case len(supported) == 0, contains(supported, AuthBasic):
		return AuthBasic
	case contains(supported, AuthPost):
		return AuthPost
	case contains(supported, AuthNone):
		return AuthNone
	}
	return AuthBasic
}

// authStyle maps a method to how x/oauth2 sends the client's credentials.
// private_key_jwt and none send the client id in the body and no secret.
func authStyle(method string) oauth2.AuthStyle {
	if method == AuthBasic {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams
}

// ParsePrivateKey reads a PEM private key (PKCS #8, SEC 1 EC or PKCS #1
// RSA) for signing client assertions.
func ParsePrivateKey(pemText []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(pemText)
	if block == nil {
		return nil, fmt.Errorf("%w: the private key is not PEM", ErrConfig)
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		if s, ok := k.(crypto.Signer); ok {
			return s, nil
		}
		return nil, fmt.Errorf("%w: the private key's type %T cannot sign", ErrConfig, k)
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	return nil, fmt.Errorf("%w: the private key (PEM %q) is not PKCS #8, EC or RSA", ErrConfig, block.Type)
}

// signingAlgorithm returns the JWS algorithm for key.
func signingAlgorithm(key crypto.Signer) (jose.SignatureAlgorithm, error) {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
	case *rsa.PrivateKey:
		return jose.RS256, nil
	case ed25519.PrivateKey:
		return jose.EdDSA, nil
	}
	return "", fmt.Errorf("%w: no JWS algorithm for a %T key", ErrConfig, key)
}

// clientAssertion signs the JWT a private_key_jwt client sends (RFC 7523
// §2.2): issued by and about the client, for the authorization server,
// valid for five minutes, with a fresh id.
func clientAssertion(key crypto.Signer, clientID, audience string) (string, error) {
	alg, err := signingAlgorithm(key)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrConfig, err)
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	now := time.Now()
	claims := jwt.Claims{
		Issuer:    clientID,
		Subject:   clientID,
		Audience:  jwt.Audience{audience},
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now.Add(-30 * time.Second)),
		Expiry:    jwt.NewNumericDate(now.Add(5 * time.Minute)),
		ID:        hex.EncodeToString(id[:]),
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

// assertionParams are the body parameters of a private_key_jwt client.
func assertionParams(key crypto.Signer, clientID, audience string) (url.Values, error) {
	a, err := clientAssertion(key, clientID, audience)
	if err != nil {
		return nil, err
	}
	return url.Values{"client_assertion_type": {assertionType}, "client_assertion": {a}}, nil
}
