// Package discover finds out how to reach an MCP server from its URL: it
// reads the server's .well-known discovery document (a server card) when
// one is published, strictly, and probes the endpoint for its transports,
// the protocol revisions it accepts and the authorization it demands.
// `mcptest discover` prints the result as a servers: block for a suite.
package discover

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrCard is wrapped by the error of a discovery document that does not
// follow the format.
var ErrCard = errors.New("invalid discovery document")

// CardPaths are the .well-known paths tried, in order: the server card
// location of the discovery proposal, then the older single-file name.
var CardPaths = []string{"/.well-known/mcp/server-card.json", "/.well-known/mcp.json"}

// Card is a server's discovery document. It is decoded strictly: a field
// the format does not define is an error, so a typo in a published
// document is caught rather than silently ignored.
type Card struct {
	Schema           string          `json:"$schema,omitempty"`
	Version          string          `json:"version,omitempty"`
	ProtocolVersion  string          `json:"protocolVersion,omitempty"`
	ServerInfo       CardServerInfo  `json:"serverInfo"`
	Description      string          `json:"description,omitempty"`
	IconURL          string          `json:"iconUrl,omitempty"`
	DocumentationURL string          `json:"documentationUrl,omitempty"`
	Transport        CardTransport   `json:"transport"`
	Capabilities     json.RawMessage `json:"capabilities,omitempty"`
	Authentication   json.RawMessage `json:"authentication,omitempty"`
	Instructions     string          `json:"instructions,omitempty"`
	Tools            json.RawMessage `json:"tools,omitempty"`
	Resources        json.RawMessage `json:"resources,omitempty"`
	Prompts          json.RawMessage `json:"prompts,omitempty"`
	Meta             json.RawMessage `json:"_meta,omitempty"`
}

// CardServerInfo names the server.
type CardServerInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// CardTransport says how to reach the server.
type CardTransport struct {
	Type     string `json:"type"`
	Endpoint string `json:"endpoint,omitempty"`
}

// ParseCard decodes a discovery document strictly.
func ParseCard(b []byte) (*Card, error) {
	var c Card
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCard, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON document", ErrCard)
	}
	switch {
	case c.ServerInfo.Name == "":
		return nil, fmt.Errorf("%w: serverInfo.name is required", ErrCard)
	case c.ServerInfo.Version == "":
		return nil, fmt.Errorf("%w: serverInfo.version is required", ErrCard)
	case c.Transport.Type == "":
		return nil, fmt.Errorf("%w: transport.type is required", ErrCard)
	}
	switch c.Transport.Type {
	case "streamable-http", "streamableHttp", "sse", "stdio":
	default:
		return nil, fmt.Errorf("%w: transport.type %q is not streamable-http, sse or stdio", ErrCard, c.Transport.Type)
	}
	return &c, nil
}
