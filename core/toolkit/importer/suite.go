package importer

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Suite is the v1 suite the importer writes (only the parts it uses).
type Suite struct {
	Servers      map[string]*Server `yaml:"servers,omitempty"`
	Tools        []Test             `yaml:"tools,omitempty"`
	Resources    []Test             `yaml:"resources,omitempty"`
	Prompts      []Test             `yaml:"prompts,omitempty"`
	Lists        []Test             `yaml:"lists,omitempty"`
	Completions  []Test             `yaml:"completions,omitempty"`
	Compositions []Composition      `yaml:"compositions,omitempty"`
	Trajectories []Trajectory       `yaml:"trajectories,omitempty"`
}

// Server is one deduplicated server.
type Server struct {
	Command       []string          `yaml:"command,omitempty" json:"command,omitempty"`
	URL           string            `yaml:"url,omitempty" json:"url,omitempty"`
	Env           map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	Headers       map[string]string `yaml:"headers,omitempty" json:"headers,omitempty"`
	HTTP          map[string]any    `yaml:"http,omitempty" json:"http,omitempty"`
	Fixture       string            `yaml:"fixture,omitempty" json:"fixture,omitempty"`
	RestartPolicy string            `yaml:"restart_policy,omitempty" json:"restart_policy,omitempty"`
	Client        map[string]any    `yaml:"client,omitempty" json:"client,omitempty"`
}

// Test is a tool, resource, prompt or list test.
type Test struct {
	Name      string            `yaml:"name"`
	Server    string            `yaml:"server"`
	Tool      string            `yaml:"tool,omitempty"`
	URI       string            `yaml:"uri,omitempty"`
	Prompt    string            `yaml:"prompt,omitempty"`
	List      string            `yaml:"list,omitempty"`
	Args      map[string]any    `yaml:"args,omitempty"`
	Ref       map[string]string `yaml:"ref,omitempty"`
	Argument  map[string]string `yaml:"argument,omitempty"`
	Context   map[string]any    `yaml:"context,omitempty"`
	LogLevel  string            `yaml:"log_level,omitempty"`
	TimeoutMS int               `yaml:"timeout_ms,omitempty"`
	Tags      []string          `yaml:"tags,omitempty"`
	Expect    []Assertion       `yaml:"expect,omitempty"`
}

// Composition is setup steps and an assertion as a graph of calls.
type Composition struct {
	Name      string      `yaml:"name"`
	Server    string      `yaml:"server"`
	Nodes     []Node      `yaml:"nodes"`
	Output    string      `yaml:"output"`
	TimeoutMS int         `yaml:"-"`
	Tags      []string    `yaml:"tags,omitempty"`
	Expect    []Assertion `yaml:"expect,omitempty"`
}

// Node is one call of a composition.
type Node struct {
	ID    string         `yaml:"id"`
	Needs []string       `yaml:"needs,omitempty"`
	Tool  string         `yaml:"tool"`
	Args  map[string]any `yaml:"args,omitempty"`
}

// Assertion is one expect entry.
type Assertion struct {
	Target  string         `yaml:"target"`
	Matcher map[string]any `yaml:"matcher"`
}

// Marshal renders the suite with a header naming its origin.
func (s *Suite) Marshal(header string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# yaml-language-server: $schema=https://mcptest.sh/schema/v1.json\n# %s\n", header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("import: encode the suite: %w", err)
	}
	return b.Bytes(), nil
}
