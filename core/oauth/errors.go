package oauth

import "errors"

// Sentinel errors, for callers that tell the failures apart.
var (
	// ErrDiscovery is matched by failures to find or read the protected
	// resource's or the authorization server's metadata.
	ErrDiscovery = errors.New("oauth discovery failed")
	// ErrResourceMismatch is matched when the protected-resource metadata
	// names a resource other than the server mcptest connects to: the
	// token would be issued for someone else, so no authorization starts.
	ErrResourceMismatch = errors.New("the protected-resource metadata names another resource")
	// ErrRegistration is matched when the client has no identity: no
	// client id is configured and dynamic registration is impossible or
	// failed.
	ErrRegistration = errors.New("oauth client registration failed")
	// ErrAuthorization is matched by failures of the authorization step
	// (the redirect carried an error, a wrong state, or no code).
	ErrAuthorization = errors.New("oauth authorization failed")
	// ErrToken is matched when the token endpoint refused to issue a token.
	ErrToken = errors.New("oauth token request failed")
	// ErrRetryLimit is matched when the server kept refusing tokens after
	// the allowed number of authorizations.
	ErrRetryLimit = errors.New("oauth retry limit reached")
	// ErrConfig is matched by an incomplete or contradictory Config.
	ErrConfig = errors.New("invalid oauth configuration")
)
