// Package drift watches a server over time: a state bundles its catalog
// and the answers of a few canary tool calls; Check compares a baseline
// state with a current one and reports schema drift (through
// catalog.Diff) and behavioural drift (a canary whose answer changed
// beyond masked volatile fields). docs/catalog.md describes the files.
package drift

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/internal/safefile"
)

// ErrSpec is wrapped by the errors of a drift spec that cannot be used.
var ErrSpec = errors.New("bad drift spec")

// maxSpecBytes bounds a spec file.
const maxSpecBytes = 1 << 20

// Spec names the server to watch and its canary calls.
type Spec struct {
	// Server is a command line or an http(s):// URL, as --server takes.
	Server string `yaml:"server"`
	// Env adds variables to a stdio server's environment.
	Env map[string]string `yaml:"env"`
	// BearerTokenEnv names the variable holding a bearer token for a URL
	// server.
	BearerTokenEnv string `yaml:"bearer_token_env"`
	// Timeout bounds each call; zero means 30 s.
	Timeout  time.Duration `yaml:"timeout"`
	Canaries []Canary      `yaml:"canaries"`
	// file is where the spec was read from, for messages.
	file string
}

// Canary is one tool call whose answer is watched.
type Canary struct {
	Name      string         `yaml:"name" json:"name"`
	Tool      string         `yaml:"tool" json:"tool"`
	Arguments map[string]any `yaml:"arguments" json:"arguments"`
	// Ignore lists JSON pointers into the answer (the tools/call result)
	// whose values are volatile and masked before comparing.
	Ignore []string `yaml:"ignore" json:"ignore,omitempty"`
	line   int
}

// LoadSpec reads and checks a spec file strictly: an unknown field is an
// error naming its line.
func LoadSpec(path string) (*Spec, error) {
	b, err := safefile.ReadFile(path, maxSpecBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSpec, err)
	}
	var s Spec
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSpec, path, err)
	}
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) == nil {
		lineCanaries(&doc, s.Canaries)
	}
	s.file = path
	if s.Server == "" {
		return nil, fmt.Errorf("%w: %s: server: give the server's command line or URL", ErrSpec, path)
	}
	seen := map[string]bool{}
	for i, c := range s.Canaries {
		where := fmt.Sprintf("%s:%d: canaries[%d]", path, c.line, i)
		switch {
		case c.Name == "":
			return nil, fmt.Errorf("%w: %s: name is required", ErrSpec, where)
		case seen[c.Name]:
			return nil, fmt.Errorf("%w: %s: name %q is used twice", ErrSpec, where, c.Name)
		case c.Tool == "":
			return nil, fmt.Errorf("%w: %s (%s): tool is required", ErrSpec, where, c.Name)
		}
		seen[c.Name] = true
		for _, p := range c.Ignore {
			if p != "" && p[0] != '/' {
				return nil, fmt.Errorf("%w: %s (%s): ignore %q is not a JSON pointer (it starts with /)", ErrSpec, where, c.Name, p)
			}
		}
		if _, err := json.Marshal(c.Arguments); err != nil {
			return nil, fmt.Errorf("%w: %s (%s): arguments: %w", ErrSpec, where, c.Name, err)
		}
	}
	if s.Timeout < 0 {
		return nil, fmt.Errorf("%w: %s: timeout must be positive", ErrSpec, path)
	}
	if s.Timeout == 0 {
		s.Timeout = 30 * time.Second
	}
	return &s, nil
}

// lineCanaries records each canary's line for messages.
func lineCanaries(doc *yaml.Node, canaries []Canary) {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "canaries" && m.Content[i+1].Kind == yaml.SequenceNode {
			for j, n := range m.Content[i+1].Content {
				if j < len(canaries) {
					canaries[j].line = n.Line
				}
			}
		}
	}
}
