package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// renderer is where a stream's events go: a reporter plugin's render
// (plugin.RenderStream), or the canonical document mcptest writes itself
// (canonicalRender).
type renderer interface {
	Send(eventJSON []byte) error
	Close() error
	Abort()
}

// writesCanonical reports whether o's reporter declares that it writes the
// canonical report document and nothing else (sdk.CanonicalReporter: the
// bundled json reporter) and its executable is vouched for without
// hashing: mcptest then writes the document itself instead of starting a
// process for it. The promise comes from the manifest, which install
// copies from the binary's own description; a binary that is not vouched
// for (rebuilt, changed, untrusted) goes the plugin's way and meets the
// checks of its launch.
func writesCanonical(host *plugin.Host, o Output) bool {
	if o.Plugin == nil || o.Plugin.Manifest == nil {
		return false
	}
	caps := o.Plugin.Manifest.Capabilities
	return slices.Contains(caps, sdk.CapabilityCanonical+o.Format) && slices.Contains(caps, sdk.CapabilityFinalOnly+o.Format) &&
		host.Vouched(o.Plugin)
}

// startCanonical makes s write the canonical report document itself: the
// stream reads only run_finished, as the plugin's would.
func (e *Emitter) startCanonical(s *stream) {
	s.setFinalOnly(true)
	s.setKnown()
	e.settleOwned()
	s.rs = &canonicalRender{write: func(b []byte) { e.write(s, pluginrpc.SinkPrimary, b) }}
}

// canonicalRender renders as sdk.CanonicalReporter does in its plugin:
// each event decoded as the SDK decodes it, the first run_finished with a
// report written by report.WriteCanonical, so the bytes are the plugin's.
type canonicalRender struct {
	write  func([]byte)
	events [][]byte
}

// Send keeps one encoded event (only run_finished reaches a final-only
// stream).
func (c *canonicalRender) Send(eventJSON []byte) error {
	c.events = append(c.events, eventJSON)
	return nil
}

// Close writes the document; without a run_finished report it fails as
// the plugin would.
func (c *canonicalRender) Close() error {
	for _, b := range c.events {
		var ev rpt.Event
		if err := json.Unmarshal(b, &ev); err != nil {
			return fmt.Errorf("decode event: %w", err)
		}
		if ev.Type == rpt.EventRunFinished && ev.Run != nil {
			var buf bytes.Buffer
			if err := rpt.WriteCanonical(&buf, ev.Run); err != nil {
				return err
			}
			c.write(buf.Bytes())
			return nil
		}
	}
	return sdk.ErrNoRunFinished
}

// Abort drops what was kept.
func (c *canonicalRender) Abort() { c.events = nil }
