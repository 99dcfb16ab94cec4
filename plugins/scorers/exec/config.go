package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcptest/mcptest/sdk"
)

// defaultTimeout is the per-call timeout of an entry that sets none (the
// host always sends one; this covers a hand-written request).
const defaultTimeout = 30 * time.Second

// entry is the scorers: entry as the host sends it: env already resolved,
// cwd absolute.
type entry struct {
	Name      string            `json:"name"`
	Command   []string          `json:"command"`
	Env       map[string]string `json:"env"`
	Cwd       string            `json:"cwd"`
	TimeoutMS int               `json:"timeout_ms"`
}

// parseEntry reads and checks an entry.
func parseEntry(raw []byte) (entry, error) {
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return e, sdk.InvalidArgument("scorer configuration: %v", err)
	}
	if len(e.Command) == 0 || e.Command[0] == "" {
		return e, sdk.InvalidArgument("an exec scorer needs command: [program, args...]")
	}
	if e.TimeoutMS < 0 {
		return e, sdk.InvalidArgument("timeout_ms %d is negative", e.TimeoutMS)
	}
	return e, nil
}

// timeout is the entry's per-call timeout.
func (e entry) timeout() time.Duration {
	if e.TimeoutMS == 0 {
		return defaultTimeout
	}
	return time.Duration(e.TimeoutMS) * time.Millisecond
}

// label names the entry's command in messages; the host adds the
// scorer's name.
func (e entry) label() string { return fmt.Sprintf("command %q", filepath.Base(e.Command[0])) }
