package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/mcptest/mcptest/sdk"
)

// digestMessage is a message as the inputs digest sees it: without the
// provider's call ids, which differ from run to run.
type digestMessage struct {
	Role    string       `json:"r"`
	Content string       `json:"c,omitempty"`
	Calls   []digestCall `json:"t,omitempty"`
}

type digestCall struct {
	Name string          `json:"n"`
	Args json.RawMessage `json:"a,omitempty"`
}

// inputsDigest fingerprints what the model had when it answered: the
// system prompt, the tools offered and the messages sent. Equal contexts
// give equal digests across runs, so a test can assert determinism.
func inputsDigest(system string, tools []sdk.ToolDef, msgs []sdk.Message) string {
	dm := make([]digestMessage, len(msgs))
	for i, m := range msgs {
		dm[i] = digestMessage{Role: m.Role, Content: m.Content}
		for _, c := range m.ToolCalls {
			dm[i].Calls = append(dm[i].Calls, digestCall{Name: c.Name, Args: compact(c.Arguments)})
		}
	}
	b, _ := json.Marshal(struct {
		S string          `json:"s"`
		T []sdk.ToolDef   `json:"t"`
		M []digestMessage `json:"m"`
	}{system, tools, dm})
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// compact re-encodes JSON without insignificant space; invalid JSON is
// kept as it is.
func compact(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, _ := json.Marshal(v)
	return b
}
