package oauth

import (
	"fmt"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// readableAlgorithms are the JWS algorithms an access token may be signed
// with for checkAudience to read its claims. The signature is not checked:
// that is the resource server's job; the client only refuses a token that
// says openly it is for someone else.
var readableAlgorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA, jose.HS256, jose.HS384, jose.HS512,
}

// checkAudience refuses an access token that is a JWT whose aud names
// neither the resource requested nor the MCP server (RFC 8707 §2: the
// token is for that resource). Opaque tokens, and JWTs without aud, pass:
// the client cannot know their audience.
func checkAudience(accessToken, serverURL, resource string) error {
	if strings.Count(accessToken, ".") != 2 {
		return nil
	}
	tok, err := jwt.ParseSigned(accessToken, readableAlgorithms)
	if err != nil {
		return nil
	}
	var claims jwt.Claims
	if tok.UnsafeClaimsWithoutVerification(&claims) != nil || len(claims.Audience) == 0 {
		return nil
	}
	for _, aud := range claims.Audience {
		if aud == resource || CheckResource(serverURL, aud) == nil {
			return nil
		}
	}
	return fmt.Errorf("%w: the authorization server issued a token for %q, not for %s", ErrResourceMismatch, []string(claims.Audience), resource)
}
