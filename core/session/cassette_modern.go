package session

import (
	"encoding/json"
)

// discoverResponse is the answer to server/discover on a cassette: the
// recorded revision as the one supported version, with the recorded
// serverInfo and capabilities. A cassette recorded in the legacy era thus
// refuses a modern-era replay honestly, by not listing the revision.
func (t *cassetteTransport) discoverResponse(id json.RawMessage) []byte {
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

// withoutModernMeta removes the protocol _meta a modern-era request
// carries (and _meta itself when nothing else is in it), so that replay
// matches requests as they were recorded: by what the test asked, not by
// the revision or client it was asked from.
func withoutModernMeta(params json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(params, &fields) != nil || fields == nil {
		return params
	}
	raw, ok := fields["_meta"]
	if !ok {
		return params
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(raw, &meta) != nil || meta == nil {
		return params
	}
	for _, k := range []string{metaProtocolVersion, metaClientCapabilities, metaClientInfo} {
		delete(meta, k)
	}
	if len(meta) == 0 {
		delete(fields, "_meta")
	} else {
		fields["_meta"], _ = json.Marshal(meta)
	}
	if len(fields) == 0 {
		return nil
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return params
	}
	return out
}
