package cassette

import (
	"encoding/json"
)

// discoverResponse is the answer to server/discover on a cassette: the
// recorded revision as the one supported version, with the recorded
// serverInfo and capabilities. A cassette recorded in the legacy era thus
// refuses a modern-era replay honestly, by not listing the revision.
func (t *replay) discoverResponse(id json.RawMessage) []byte {
	caps := t.cas.Capabilities
	if len(caps) == 0 {
		caps = json.RawMessage(`{}`)
	}
	result, _ := json.Marshal(map[string]any{
		"resultType":        "complete",
		"supportedVersions": []string{t.cas.ProtocolVersion},
		"capabilities":      caps,
		"serverInfo":        t.cas.ServerInfo,
	})
	return response(id, result, nil)
}
