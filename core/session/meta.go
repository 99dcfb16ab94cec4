package session

import (
	"context"
	"encoding/json"
	"fmt"
)

// CallToolWithMeta calls a tool as CallTool does, sending meta, a JSON
// object such as {"progressToken": "t1"}, as the params' _meta.
func (s *Session) CallToolWithMeta(ctx context.Context, name string, args, meta json.RawMessage) (*Outcome, error) {
	meta = rawOrNil(meta)
	if meta != nil {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(meta, &m); err != nil {
			return nil, fmt.Errorf("tools/call %q: _meta is not a JSON object: %w", name, err)
		}
	}
	return s.callTool(ctx, name, args, meta)
}
