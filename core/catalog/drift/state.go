package drift

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/mcptest/mcptest/core/catalog"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/safefile"
)

// StateFormat is the value of a state file's "format" field.
const StateFormat = "mcptest-drift-state"

// StateVersion is the state format version this build reads and writes.
const StateVersion = 1

// The outcomes of a canary call.
const (
	OutcomeResult    = "result"
	OutcomeToolError = "tool_error"
	OutcomeRPCError  = "rpc_error"
)

// State is a server's catalog and its canaries' answers at one moment.
type State struct {
	Format     string           `json:"format"`
	Version    int              `json:"version"`
	CapturedAt string           `json:"capturedAt"`
	Catalog    *catalog.Catalog `json:"catalog"`
	Canaries   []CanaryResult   `json:"canaries"`
	source     string
}

// CanaryResult is one canary's call and its masked answer.
type CanaryResult struct {
	Canary
	// Outcome is result, tool_error (isError: true) or rpc_error.
	Outcome string `json:"outcome"`
	// Answer is the tools/call result (or the JSON-RPC error) with its
	// volatile fields masked (mask.go).
	Answer json.RawMessage `json:"answer"`
}

// Capture reads the catalog and calls every canary on an open session.
func Capture(ctx context.Context, s *session.Session, spec *Spec, label string, now time.Time) (*State, error) {
	cat, err := catalog.Capture(ctx, s, label, now)
	if err != nil {
		return nil, err
	}
	st := &State{Format: StateFormat, Version: StateVersion, CapturedAt: now.UTC().Format(time.RFC3339), Catalog: cat, Canaries: []CanaryResult{}, source: label}
	for _, c := range spec.Canaries {
		args := c.Arguments
		if args == nil {
			args = map[string]any{}
		}
		params, err := json.Marshal(map[string]any{"name": c.Tool, "arguments": args})
		if err != nil {
			return nil, fmt.Errorf("canary %s: %w", c.Name, err)
		}
		cctx, cancel := context.WithTimeout(ctx, spec.Timeout)
		out, err := s.Request(cctx, "tools/call", params)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("canary %s: tools/call %s: %w", c.Name, c.Tool, err)
		}
		r := CanaryResult{Canary: c}
		var raw json.RawMessage
		switch {
		case out.RPCError != nil:
			r.Outcome = OutcomeRPCError
			raw, _ = json.Marshal(map[string]any{"code": out.RPCError.Code, "message": out.RPCError.Message})
		default:
			r.Outcome = OutcomeResult
			var head struct {
				IsError bool `json:"isError"`
			}
			_ = json.Unmarshal(out.Result, &head)
			if head.IsError {
				r.Outcome = OutcomeToolError
			}
			raw = out.Result
		}
		if r.Answer, err = Mask(raw, c.Ignore); err != nil {
			return nil, fmt.Errorf("canary %s: the answer is not JSON: %w", c.Name, err)
		}
		st.Canaries = append(st.Canaries, r)
	}
	return st, nil
}

// Source names where the state came from.
func (s *State) Source() string { return s.source }

// WriteFile writes the state as indented JSON beside path and renames it
// into place; scrub (may be nil) masks secrets in the bytes first, since a
// canary's answer may echo a credential.
func (s *State) WriteFile(path string, scrub func([]byte) []byte) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	if scrub != nil {
		b = scrub(b)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// LoadState reads a state file strictly.
func LoadState(path string) (*State, error) {
	b, err := safefile.ReadFile(path, catalog.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("drift state: %w", err)
	}
	var st State
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("drift state %s: %w", path, err)
	}
	if st.Format != StateFormat || st.Version != StateVersion {
		return nil, fmt.Errorf("drift state %s: format %q version %d; this build reads %q version %d", path, st.Format, st.Version, StateFormat, StateVersion)
	}
	if st.Catalog == nil {
		return nil, fmt.Errorf("drift state %s: it has no catalog", path)
	}
	// The embedded catalog goes through the snapshot checks too.
	cb, _ := json.Marshal(st.Catalog)
	if st.Catalog, err = catalog.Parse(path+": catalog", cb); err != nil {
		return nil, err
	}
	st.source = path
	return &st, nil
}
