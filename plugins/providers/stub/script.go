package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcptest/mcptest/sdk"
)

// ScriptEnv names a JSON file with the script used when a request's
// options carry none.
const ScriptEnv = "MCPTEST_STUB_SCRIPT"

// maxScriptBytes bounds a script file.
const maxScriptBytes = 4 << 20

// script is the scripted mode's input.
type script struct {
	Script []step `json:"script"`
}

// step is the answer to one request of a scripted conversation.
type step struct {
	Text       string     `json:"text"`
	ToolCalls  []toolCall `json:"tool_calls"`
	StopReason string     `json:"stop_reason"`
	Usage      *sdk.Usage `json:"usage"`
}

type toolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// errScript is wrapped by every problem with a script.
var errScript = errors.New("stub script")

// loadScript returns the script of req: from its options, else from the
// file ScriptEnv names; nil when there is none.
func (s *stub) loadScript(req sdk.ChatRequest) (*script, error) {
	if len(bytes.TrimSpace(req.Options)) > 0 && !bytes.Equal(bytes.TrimSpace(req.Options), []byte("null")) {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(req.Options, &probe); err != nil {
			return nil, fmt.Errorf("%w: options must be a JSON object: %w", errScript, err)
		}
		if raw, ok := probe["script"]; ok {
			return parseScript(raw, "options.script")
		}
	}
	path := os.Getenv(ScriptEnv)
	if path == "" {
		return nil, nil
	}
	raw, err := s.readFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s=%s: %w", errScript, ScriptEnv, path, err)
	}
	var doc struct {
		Script json.RawMessage `json:"script"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", errScript, path, err)
	}
	if doc.Script == nil {
		return nil, fmt.Errorf("%w: %s has no \"script\" array", errScript, path)
	}
	return parseScript(doc.Script, path)
}

func parseScript(raw json.RawMessage, where string) (*script, error) {
	var sc script
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc.Script); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", errScript, where, err)
	}
	for i, st := range sc.Script {
		for j, tc := range st.ToolCalls {
			if tc.Name == "" {
				return nil, fmt.Errorf("%w: %s[%d].tool_calls[%d] has no name", errScript, where, i, j)
			}
		}
	}
	return &sc, nil
}

// readScriptFile reads a regular file of bounded size.
func readScriptFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxScriptBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxScriptBytes {
		return nil, fmt.Errorf("larger than %d bytes", maxScriptBytes)
	}
	return b, nil
}

// answer is step n of the script for req.
func (sc *script) answer(req sdk.ChatRequest, n int) (sdk.ChatResponse, error) {
	if n >= len(sc.Script) {
		return sdk.ChatResponse{}, fmt.Errorf("%w: the conversation asks for step %d and the script has %d", errScript, n+1, len(sc.Script))
	}
	st := sc.Script[n]
	msg := sdk.Message{Role: "assistant", Content: st.Text}
	for j, tc := range st.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("stub-call-%d-%d", n+1, j+1)
		}
		args := tc.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		msg.ToolCalls = append(msg.ToolCalls, sdk.ToolCall{ID: id, Name: tc.Name, Arguments: args})
	}
	stop := st.StopReason
	if stop == "" {
		stop = sdk.StopEndTurn
		if len(msg.ToolCalls) > 0 {
			stop = sdk.StopToolUse
		}
	}
	resp := sdk.ChatResponse{Message: msg, StopReason: stop, Model: req.Model}
	if st.Usage != nil {
		resp.Usage = *st.Usage
	} else {
		resp.Usage = estimateUsage(req, msg)
	}
	return resp, nil
}
