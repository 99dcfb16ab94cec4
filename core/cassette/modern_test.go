//go:build unix

package cassette

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

func TestModernCassetteRecordThenReplay(t *testing.T) {
	live := startDemo(t, func(c *session.StdioConfig) { c.ProtocolVersion = session.ModernProtocolVersion })
	rec := NewRecorder("demo", nil)
	call := cassetteCall{"tools/call", `{"name":"echo","arguments":{"message":"modern"}}`}
	out, err := callRaw(t, live, call)
	if err != nil {
		t.Fatal(err)
	}
	rec.Observe(live, call.method, json.RawMessage(call.params), out, err)
	cas := rec.Cassette()
	if cas.ProtocolVersion != session.ModernProtocolVersion || !bytes.Contains(cas.Capabilities, []byte(`"tools"`)) {
		t.Fatalf("cassette revision %q, capabilities %s", cas.ProtocolVersion, cas.Capabilities)
	}
	path := filepath.Join(t.TempDir(), "demo.json")
	if err := cas.WriteFile(path); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	replay, err := Start(ctx, Config{Name: "demo", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	if replay.ProtocolVersion() != session.ModernProtocolVersion || replay.Discovery() == nil {
		t.Errorf("replay revision %q, discovery %v", replay.ProtocolVersion(), replay.Discovery())
	}
	if name, _ := replay.ServerInfo(); name != "mcptest-demo" {
		t.Errorf("replayed serverInfo %q", name)
	}
	// The request carries the protocol _meta; replay matches without it.
	got, err := callRaw(t, replay, call)
	if err != nil || canon(t, got.Result) != canon(t, out.Result) {
		t.Errorf("replay: %v\n got %s\nwant %s", err, got.Result, out.Result)
	}
	if !strings.Contains(got.Frames[0].Raw, "io.modelcontextprotocol/protocolVersion") {
		t.Errorf("replayed request lacks the protocol _meta: %s", got.Frames[0].Raw)
	}

	// A cassette of the legacy era does not pretend to speak the modern one.
	cas.ProtocolVersion = session.DefaultProtocolVersion
	legacy := filepath.Join(t.TempDir(), "legacy.json")
	if err := cas.WriteFile(legacy); err != nil {
		t.Fatal(err)
	}
	_, err = Start(ctx, Config{Name: "old", Path: legacy, ProtocolVersion: session.ModernProtocolVersion})
	if !errors.Is(err, session.ErrRevisionUnsupported) || !strings.Contains(err.Error(), "supportedVersions 2025-11-25") {
		t.Errorf("legacy cassette at 2026-07-28: %v", err)
	}
}
