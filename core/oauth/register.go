package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client is the client's identity at one authorization server.
type Client struct {
	// ID is the client id: configured, a Client ID Metadata Document URL,
	// or issued by dynamic registration.
	ID string `json:"client_id"`
	// Secret is the client secret, "" for a public client.
	Secret string `json:"client_secret,omitempty"`
	// AuthMethod is the token endpoint authentication method the
	// registration settled, "" to choose from the server's metadata.
	AuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// Source says where the identity came from: "configured", "metadata
	// document" or "registered".
	Source string `json:"source,omitempty"`
}

// registration is the client metadata sent to a registration endpoint
// (RFC 7591 §2).
type registration struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	Scope                   string   `json:"scope,omitempty"`
	SoftwareID              string   `json:"software_id,omitempty"`
	SoftwareVersion         string   `json:"software_version,omitempty"`
}

// Register registers a client at the server's registration endpoint (RFC
// 7591) for the authorization code grant with the given redirect URI.
func Register(ctx context.Context, client *http.Client, md *ServerMetadata, redirectURI, clientName, version string, scopes []string) (*Client, error) {
	if md.RegistrationEndpoint == "" {
		return nil, fmt.Errorf("%w: the authorization server %s offers no dynamic client registration; configure a client id (auth.oauth.client_id_env) or a client metadata document (auth.oauth.client_metadata_url)",
			ErrRegistration, md.Issuer)
	}
	method := "none"
	for _, m := range md.TokenEndpointAuthMethodsSupported {
		if m == "client_secret_basic" || m == "client_secret_post" {
			method = m
			break
		}
	}
	if len(md.TokenEndpointAuthMethodsSupported) > 0 && method == "none" && !contains(md.TokenEndpointAuthMethodsSupported, "none") {
		method = md.TokenEndpointAuthMethodsSupported[0]
	}
	reg := registration{
		ClientName:              clientName,
		RedirectURIs:            []string{redirectURI},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: method,
		Scope:                   strings.Join(scopes, " "),
		SoftwareID:              "mcptest",
		SoftwareVersion:         version,
	}
	body, _ := json.Marshal(reg)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRegistration, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", ErrRegistration, md.RegistrationEndpoint, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
	if err != nil {
		return nil, fmt.Errorf("%w: POST %s: %w", ErrRegistration, md.RegistrationEndpoint, err)
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: POST %s: HTTP %d: %s", ErrRegistration, md.RegistrationEndpoint, resp.StatusCode, oauthErrorText(raw))
	}
	var c Client
	if err := json.Unmarshal(raw, &c); err != nil || c.ID == "" {
		return nil, fmt.Errorf("%w: POST %s: the answer has no client_id", ErrRegistration, md.RegistrationEndpoint)
	}
	if c.AuthMethod == "" && c.Secret == "" {
		c.AuthMethod = "none"
	}
	c.Source = "registered"
	return &c, nil
}

// oauthErrorText renders an OAuth error body ({"error", "error_description"})
// as one short line; other bodies are cut. It never holds secrets of ours:
// the body is the server's, and callers scrub the error anyway.
func oauthErrorText(body []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		if e.Description != "" {
			return cut(e.Error+": "+e.Description, 300)
		}
		return cut(e.Error, 300)
	}
	return cut(strings.Join(strings.Fields(string(body)), " "), 300)
}

// cut shortens s to n bytes, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
