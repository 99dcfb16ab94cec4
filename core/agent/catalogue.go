package agent

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// prefixSep joins a server and a tool in the names the model sees when a
// run has more than one server.
const prefixSep = "__"

// catalogue is the merged tool list offered to the model and the way back
// from the names the model uses to servers and tools.
type catalogue struct {
	tools  []Tool
	defs   []sdk.ToolDef
	byName map[string]Tool
}

// newCatalogue merges the servers' tools. With more than one server every
// name is prefixed "<server>__" so equal names on two servers stay apart;
// with one server names are offered as listed.
func newCatalogue(servers []string, tools []Tool) (*catalogue, error) {
	prefix := len(servers) > 1
	c := &catalogue{tools: tools, byName: make(map[string]Tool, len(tools))}
	for _, t := range tools {
		name := t.Name
		if prefix {
			name = t.Server + prefixSep + t.Name
		}
		if prev, dup := c.byName[name]; dup {
			return nil, fmt.Errorf("%w: %q is offered twice (servers %q and %q)", ErrToolCatalogue, name, prev.Server, t.Server)
		}
		c.byName[name] = t
		c.defs = append(c.defs, sdk.ToolDef{Name: name, Description: t.Description, InputSchema: schemaOrEmpty(t.InputSchema)})
	}
	return c, nil
}

// resolve maps a name the model used to its tool. A model that drops the
// prefix of a multi-server run is still understood when exactly one
// server has the tool; a name nothing offers yields ok false and the bare
// name as far as it can be told.
func (c *catalogue) resolve(name string) (Tool, bool) {
	if t, ok := c.byName[name]; ok {
		return t, true
	}
	var found []Tool
	for _, t := range c.tools {
		if t.Name == name {
			found = append(found, t)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	if srv, tool, ok := strings.Cut(name, prefixSep); ok {
		return Tool{Server: srv, Name: tool}, false
	}
	return Tool{Name: name}, false
}

// schemaOrEmpty is the tool's input schema, or an empty object schema for
// a tool listed without one (providers reject a missing schema).
func schemaOrEmpty(s []byte) []byte {
	if len(s) == 0 || string(s) == "null" {
		return []byte(`{"type":"object"}`)
	}
	return s
}
