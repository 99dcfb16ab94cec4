package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// maxMetadataBytes bounds every metadata document and JSON answer the
// client reads: they are small, and a hostile server could send forever.
const maxMetadataBytes = 1 << 20

// ResourceMetadata is the protected-resource metadata of RFC 9728 §2, the
// fields mcptest uses.
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// ServerMetadata is the authorization server metadata of RFC 8414 §2 (and
// of OpenID Connect discovery), the fields mcptest uses.
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	// Fallback is true when no metadata was found and the endpoints are
	// the 2025-03-26 defaults at the server's origin.
	Fallback bool `json:"-"`
	// URL is where the document was read, "" for the fallback.
	URL string `json:"-"`
}

// statusError is a metadata request answered with a status other than 200.
type statusError struct {
	url    string
	status int
}

func (e *statusError) Error() string {
	return fmt.Sprintf("GET %s: HTTP %d %s", e.url, e.status, http.StatusText(e.status))
}

// getJSON fetches target and decodes its JSON body into v. A status other
// than 200 is a *statusError. The body is bounded by maxMetadataBytes.
func getJSON(ctx context.Context, client *http.Client, target string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", target, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	if err != nil {
		return fmt.Errorf("GET %s: reading the body: %w", target, err)
	}
	if resp.StatusCode != http.StatusOK {
		return &statusError{url: target, status: resp.StatusCode}
	}
	if len(body) > maxMetadataBytes {
		return fmt.Errorf("GET %s: the document is larger than %d bytes", target, maxMetadataBytes)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "" && !strings.Contains(mt, "json") {
		return fmt.Errorf("GET %s: Content-Type %q is not JSON", target, mt)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: the document is not valid JSON: %w", target, err)
	}
	return nil
}
