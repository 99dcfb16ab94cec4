package assert

import (
	"encoding/json"

	"github.com/mcptest/mcptest/internal/jsonx"
)

// cutSlack is room for a truncation marker ("…[truncated: N bytes in
// total]", with JSON quoting) beyond a limit.
const cutSlack = 64

// boundFailure keeps a matcher's failure detail fit for a report: a field
// longer than jsonx.EmbedLimit, or nested deeper than jsonx.MaxEmbedDepth, becomes a
// string holding the start of its text. The plugin's output is untrusted,
// and may echo a huge or deeply nested server response in full.
func boundFailure(raw json.RawMessage) json.RawMessage {
	if len(raw) <= jsonx.EmbedLimit && jsonx.Embeddable(raw) {
		return raw
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		b, _ := json.Marshal(map[string]json.RawMessage{
			"note": json.RawMessage(`"the matcher's failure detail is too large or too deeply nested to show as JSON"`),
			"raw":  jsonx.EmbedText(raw, jsonx.EmbedLimit),
		})
		return b
	}
	for k, v := range fields {
		// cutSlack lets through a field the SDK already cut to its limit
		// (sdk.FailureValueLimit, the same size) with its marker, so the
		// marker naming the full length survives instead of being cut
		// again and replaced by one naming the cut length.
		if len(v) <= jsonx.EmbedLimit+cutSlack && jsonx.Depth(v) <= jsonx.MaxEmbedDepth {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			fields[k] = jsonx.EmbedText([]byte(s), jsonx.EmbedLimit) // a long string: cut its text, not its quoting
		} else {
			fields[k] = jsonx.EmbedText(v, jsonx.EmbedLimit)
		}
	}
	b, _ := json.Marshal(fields)
	return b
}
