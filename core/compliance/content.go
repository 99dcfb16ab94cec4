package compliance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/core/probe"
)

// contentProblems checks a content array (a tool result's content, a
// prompt message's content) against the block types of rev.
func contentProblems(rev string, raw json.RawMessage) []string {
	var blocks []json.RawMessage
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return []string{"content is not an array"}
	}
	var out []string
	for i, b := range blocks {
		if p := blockProblem(rev, b); p != "" {
			out = append(out, fmt.Sprintf("content[%d]: %s", i, p))
		}
	}
	return out
}

// blockProblem checks one content block, or returns "".
func blockProblem(rev string, raw json.RawMessage) string {
	m, ok := object(raw)
	if !ok {
		return "not an object"
	}
	typ, _ := str(m, "type")
	switch typ {
	case "text":
		if _, ok := str(m, "text"); !ok {
			return `a text block needs a string "text"`
		}
	case "image", "audio":
		if typ == "audio" && rev < probe.Rev20250326 {
			return "audio content does not exist in " + rev
		}
		if p := base64Problem(m, "data"); p != "" {
			return typ + " block: " + p
		}
		if mt, ok := str(m, "mimeType"); !ok || mt == "" {
			return typ + ` block needs a "mimeType"`
		}
	case "resource":
		res, ok := object(m["resource"])
		if !ok {
			return `an embedded resource block needs a "resource" object`
		}
		if p := resourceContentsProblem(res); p != "" {
			return "embedded resource: " + p
		}
	case "resource_link":
		if rev < probe.Rev20250618 {
			return "resource_link content does not exist in " + rev
		}
		for _, k := range []string{"uri", "name"} {
			if _, ok := str(m, k); !ok {
				return fmt.Sprintf("a resource_link needs a string %q", k)
			}
		}
	case "":
		return `missing "type"`
	default:
		return fmt.Sprintf("unknown content type %q", typ)
	}
	return ""
}

// resourceContentsProblem checks one resource contents object: a uri and
// exactly one of text or base64 blob.
func resourceContentsProblem(m map[string]json.RawMessage) string {
	if _, ok := str(m, "uri"); !ok {
		return `needs a string "uri"`
	}
	_, hasText := m["text"]
	_, hasBlob := m["blob"]
	switch {
	case hasText && hasBlob:
		return `has both "text" and "blob"`
	case hasText:
		if _, ok := str(m, "text"); !ok {
			return `"text" must be a string`
		}
	case hasBlob:
		return base64Problem(m, "blob")
	default:
		return `needs "text" or "blob"`
	}
	return ""
}

// base64Problem checks that a member is a standard base64 string.
func base64Problem(m map[string]json.RawMessage, key string) string {
	s, ok := str(m, key)
	if !ok {
		return fmt.Sprintf("%q must be a base64 string", key)
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return fmt.Sprintf("%q is not valid base64: %v", key, err)
	}
	return ""
}
