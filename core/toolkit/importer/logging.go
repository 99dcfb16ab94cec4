package importer

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// loggingBlock is mcp-assert's assert_logging: set a level, call a tool,
// check the notifications/message that arrive during the call.
type loggingBlock struct {
	SetLevel string         `yaml:"set_level"`
	Tool     string         `yaml:"tool"`
	Args     map[string]any `yaml:"args"`
	Expect   struct {
		MinMessages   *int     `yaml:"min_messages"`
		MaxMessages   *int     `yaml:"max_messages"`
		ContainsLevel []string `yaml:"contains_level"`
		ContainsData  []string `yaml:"contains_data"`
	} `yaml:"expect"`
}

// logLevels are the syslog levels of MCP's logging/setLevel.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// logging turns assert_logging into a tool test with log_level, whose
// logs target holds the messages: min/max_messages count them,
// contains_level and contains_data look for a level and for text in a
// message's data. Unknown expect keys are refused, located.
func (c *converter) logging(path string, doc *yaml.Node, node *yaml.Node, t Test) bool {
	line := lineOf(doc, "assert_logging")
	var b loggingBlock
	if err := node.Decode(&b); err != nil {
		c.issue(path, line, false, "assert_logging: %v", err)
		return false
	}
	if exp := mapping(node, "expect"); exp != nil {
		for i := 0; i+1 < len(exp.Content); i += 2 {
			switch k := exp.Content[i].Value; k {
			case "min_messages", "max_messages", "contains_level", "contains_data":
			default:
				c.issue(path, exp.Content[i].Line, false, "assert_logging.expect.%s has no converter", k)
				return false
			}
		}
	}
	if b.Tool == "" {
		c.issue(path, line, false, "assert_logging without a tool: mcptest sets the level with a tool call")
		return false
	}
	known := false
	for _, l := range logLevels {
		known = known || l == b.SetLevel
	}
	if !known {
		c.issue(path, line, false, "assert_logging.set_level %q is not one of %s", b.SetLevel, strings.Join(logLevels, ", "))
		return false
	}
	t.Tool, t.Args, t.LogLevel = b.Tool, c.args(b.Args), b.SetLevel
	if t.Args == nil {
		t.Args = map[string]any{}
	}
	e := b.Expect
	if e.MinMessages != nil && *e.MinMessages > 0 {
		t.Expect = append(t.Expect, Assertion{Target: "logs", Matcher: map[string]any{"cel": fmt.Sprintf("value.size() >= %d", *e.MinMessages)}})
	}
	if e.MaxMessages != nil {
		t.Expect = append(t.Expect, Assertion{Target: "logs", Matcher: map[string]any{"cel": fmt.Sprintf("value.size() <= %d", *e.MaxMessages)}})
	}
	for _, l := range e.ContainsLevel {
		t.Expect = append(t.Expect, Assertion{Target: "logs", Matcher: map[string]any{"cel": "value.exists(m, m.level == " + lit(l) + ")"}})
	}
	for _, s := range e.ContainsData {
		// data is any JSON; text is what can contain text.
		t.Expect = append(t.Expect, Assertion{Target: "logs", Matcher: map[string]any{"cel": "value.exists(m, type(m.data) == string && m.data.contains(" + lit(s) + "))"}})
	}
	c.res.Suite.Tools = append(c.res.Suite.Tools, t)
	return true
}

// mapping returns the value of key in a mapping node, or nil.
func mapping(n *yaml.Node, key string) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			if v := n.Content[i+1]; v.Kind == yaml.MappingNode {
				return v
			}
		}
	}
	return nil
}
