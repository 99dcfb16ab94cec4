package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// MethodDiscover opens every modern-era conversation.
const MethodDiscover = "server/discover"

// codeUnsupportedVersion is the modern-era error for a revision the server
// does not speak; its data lists the ones it does.
const codeUnsupportedVersion = -32022

// discoverResult is the part of a server/discover result the session
// reads.
type discoverResult struct {
	SupportedVersions []string        `json:"supportedVersions"`
	Capabilities      json.RawMessage `json:"capabilities"`
	Instructions      string          `json:"instructions"`
	// ServerInfo is read from the result itself and, as mcp-go servers
	// send it, from _meta.
	ServerInfo *implementation `json:"serverInfo"`
	Meta       struct {
		ServerInfo *implementation `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
}

// implementation is a name and a version, as serverInfo carries them.
type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// discover opens a modern-era session: it sends server/discover (with the
// protocol _meta, like every request) and records what the server said
// about itself. A server that does not speak the pinned revision fails
// the start with ErrRevisionUnsupported and what it answered; nothing
// falls back to initialize, since the revision is the caller's choice.
func (s *Session) discover(ctx context.Context) error {
	rev := s.opts.protocolVersion
	dctx, cancel := context.WithTimeout(ctx, s.opts.initTimeout)
	defer cancel()
	out, err := s.do(dctx, MethodDiscover, MethodDiscover, nil)
	prefix := fmt.Sprintf("server %q at protocol revision %s: %s", s.opts.name, rev, MethodDiscover)
	if err != nil {
		var exit *ServerExitError
		switch {
		case errors.As(err, &exit):
			return fmt.Errorf("%s: %w", prefix, err)
		case errors.Is(err, ErrTimeout) && ctx.Err() == nil:
			// A legacy stdio server may ignore a method it does not know.
			return fmt.Errorf("%s: %w%s (a server of the legacy era, which opens with initialize, may ignore the method)%s",
				prefix, err, s.opts.startLimit(), s.t.Detail())
		}
		return fmt.Errorf("%s: %w%s", prefix, err, s.t.Detail())
	}
	if e := out.RPCError; e != nil {
		return &revisionError{fmt.Sprintf("server %q does not speak protocol revision %s: %s answered %s%s",
			s.opts.name, rev, MethodDiscover, e.Error(), supportedHint(e, rev))}
	}
	var res discoverResult
	if err := json.Unmarshal(out.Result, &res); err != nil {
		return fmt.Errorf("%s: %w: the result is not a discover result: %v", prefix, ErrBadResponse, err)
	}
	if len(res.SupportedVersions) > 0 && !slices.Contains(res.SupportedVersions, rev) {
		return &revisionError{fmt.Sprintf("server %q does not speak protocol revision %s: its %s result lists supportedVersions %s",
			s.opts.name, rev, MethodDiscover, Sanitize(strings.Join(res.SupportedVersions, ", ")))}
	}
	d := &Discovery{SupportedVersions: res.SupportedVersions, Instructions: res.Instructions, Result: out.Result}
	if c := res.Capabilities; len(c) > 0 && string(c) != "null" {
		d.Capabilities = c
	}
	info := res.ServerInfo
	if info == nil {
		info = res.Meta.ServerInfo
	}
	if info != nil {
		s.serverName, s.serverVersion = info.Name, info.Version
	}
	s.discovery = d
	s.protocolVersion = rev
	return nil
}

// supportedHint renders the revisions an unsupported-version error lists,
// as "; the server speaks A, B", or "".
func supportedHint(e *RPCError, rev string) string {
	if e.Code != codeUnsupportedVersion || len(e.Data) == 0 {
		return ""
	}
	var data struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(e.Data, &data) != nil || len(data.Supported) == 0 {
		return ""
	}
	return fmt.Sprintf("; the server speaks %s, not %s", Sanitize(strings.Join(data.Supported, ", ")), rev)
}

// revisionError says that a server does not speak the pinned revision;
// errors.Is(err, ErrRevisionUnsupported) is true for it.
type revisionError struct{ msg string }

// Error implements error.
func (e *revisionError) Error() string { return e.msg }

// Is reports whether target is ErrRevisionUnsupported.
func (e *revisionError) Is(target error) bool { return target == ErrRevisionUnsupported }
