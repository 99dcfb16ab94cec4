package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// ModernProtocolVersion is the first revision of the modern, stateless era
// (2026-07-28): there is no initialize handshake and no session; the
// client opens with server/discover and every request carries the
// revision, the client's capabilities and its identity in _meta.
const ModernProtocolVersion = "2026-07-28"

// modernVersions are the revisions of the stateless era.
var modernVersions = []string{ModernProtocolVersion}

// ProtocolVersions returns every revision a session can pin: the modern
// ones, then the legacy ones, newest first.
func ProtocolVersions() []string { return slices.Concat(modernVersions, legacyVersions) }

// IsModern reports whether rev belongs to the stateless era. Revisions are
// dates, so they compare as strings; an empty rev is the legacy default.
func IsModern(rev string) bool { return rev >= ModernProtocolVersion }

// The _meta keys every modern-era request carries.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
)

// ErrRevisionUnsupported is wrapped by the error of a modern-era start
// whose server does not speak the pinned revision: server/discover failed
// (a legacy server answers it as an unknown method, a modern one that
// lacks the revision with -32022) or its supportedVersions leave the
// revision out.
var ErrRevisionUnsupported = errors.New("protocol revision not spoken by the server")

// modern reports whether the session speaks the stateless era.
func (o options) modern() bool { return IsModern(o.protocolVersion) }

// Discovery is what a modern-era server said about itself in answer to
// server/discover.
type Discovery struct {
	// SupportedVersions are the revisions the server lists, as sent.
	SupportedVersions []string
	// Capabilities is the server's capabilities object, raw.
	Capabilities json.RawMessage
	// Instructions is the server's instructions text, if any.
	Instructions string
	// Result is the whole discover result, raw.
	Result json.RawMessage
}

// Discovery returns the server's answer to server/discover, or nil for a
// legacy-era session (which learns the same things from initialize).
func (s *Session) Discovery() *Discovery { return s.discovery }

// handshake opens the conversation at the pinned revision: initialize for
// the legacy era, server/discover for the modern one. There is no fallback
// from one to the other: the revision is what the caller chose.
func (s *Session) handshake(ctx context.Context) error {
	if s.opts.modern() {
		if caps := s.opts.client.Mocks.Capabilities().Union(s.opts.client.Declare); caps != (ClientCapabilities{}) {
			s.setupModernMocks()
		}
		return s.discover(ctx)
	}
	return s.initialize(ctx)
}

// clientInfoMeta is the clientInfo every modern request carries.
func (s *Session) clientInfoMeta() map[string]string {
	return map[string]string{"name": clientName, "version": s.opts.clientVersion}
}

// clientCapabilities is the capabilities object every modern request
// declares: the features the client mocks answer (setupModernMocks), as
// the legacy handshake declares them, or none.
func (s *Session) clientCapabilities() json.RawMessage {
	if s.clientCaps != nil {
		return s.clientCaps
	}
	return json.RawMessage(`{}`)
}

// withModernMeta returns params (nil, a JSON object or a value encoding to
// one) with the modern-era _meta merged in: the pinned revision, the
// client's capabilities and its identity. Other _meta members (a progress
// token) are kept; the three keys are always the session's, since they
// must agree with what the transport declares (the HTTP headers).
func (s *Session) withModernMeta(params any) (json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return nil, fmt.Errorf("encode params: %w", err)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 && string(t) != "null" {
			if err := json.Unmarshal(t, &fields); err != nil || fields == nil {
				return nil, fmt.Errorf("params must be a JSON object to carry the protocol _meta, not %s", wire.Cut(string(t), 60))
			}
		}
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := fields["_meta"]; ok && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &meta); err != nil || meta == nil {
			return nil, fmt.Errorf("params._meta must be a JSON object, not %s", wire.Cut(string(raw), 60))
		}
	}
	version, _ := json.Marshal(s.opts.protocolVersion)
	info, _ := json.Marshal(s.clientInfoMeta())
	meta[metaProtocolVersion] = version
	meta[metaClientCapabilities] = s.clientCapabilities()
	meta[metaClientInfo] = info
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("encode _meta: %w", err)
	}
	fields["_meta"] = b
	out, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("encode params: %w", err)
	}
	return out, nil
}

// WithoutModernMeta removes from params the protocol _meta that
// withModernMeta adds to every modern-era request (and _meta itself when
// nothing else is in it): what remains is what the caller asked, whatever
// revision or client it was asked from. A cassette replay matches
// requests on it.
func WithoutModernMeta(params json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(params, &fields) != nil || fields == nil {
		return params
	}
	raw, ok := fields["_meta"]
	if !ok {
		return params
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(raw, &meta) != nil || meta == nil {
		return params
	}
	for _, k := range []string{metaProtocolVersion, metaClientCapabilities, metaClientInfo} {
		delete(meta, k)
	}
	if len(meta) == 0 {
		delete(fields, "_meta")
	} else {
		fields["_meta"], _ = json.Marshal(meta)
	}
	if len(fields) == 0 {
		return nil
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return params
	}
	return out
}
