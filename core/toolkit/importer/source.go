// Package importer converts suites written for other MCP test tools into
// one mcptest v1 suite. Today it reads mcp-assert's format: one assertion
// per YAML file, each with its own server block. Servers are
// deduplicated, each assertion becomes a tool, resource, prompt, list,
// completion or composition test, and every construct that has no
// faithful mcptest form is reported with its file and line instead of
// being dropped or approximated silently.
package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

// ErrUnsupported marks a file (or a part of one) that has no mcptest
// form; the Issue carrying it names the file and line.
var ErrUnsupported = errors.New("cannot convert")

// maxFile bounds one input file: mcp-assert files are a few hundred bytes.
const maxFile = 1 << 20

// assertFile is one mcp-assert assertion file.
type assertFile struct {
	Name          string           `yaml:"name"`
	Server        *serverBlock     `yaml:"server"`
	Timeout       string           `yaml:"timeout"`
	Skip          bool             `yaml:"skip"`
	SkipUnlessEnv string           `yaml:"skip_unless_env"`
	Setup         []step           `yaml:"setup"`
	Assert        *toolAssert      `yaml:"assert"`
	Resources     *resourceBlock   `yaml:"assert_resources"`
	Prompts       *promptBlock     `yaml:"assert_prompts"`
	Completion    *completionBlock `yaml:"assert_completion"`
	Logging       yaml.Node        `yaml:"assert_logging"`
	Sampling      yaml.Node        `yaml:"assert_sampling"`
	Notifications yaml.Node        `yaml:"assert_notifications"`
	Trace         yaml.Node        `yaml:"trace"`
	Trajectory    yaml.Node        `yaml:"trajectory"`
}

type serverBlock struct {
	Command            string            `yaml:"command"`
	Args               []string          `yaml:"args"`
	Env                map[string]string `yaml:"env"`
	Transport          string            `yaml:"transport"`
	URL                string            `yaml:"url"`
	Headers            map[string]string `yaml:"headers"`
	ClientCapabilities *clientCaps       `yaml:"client_capabilities"`
}

type clientCaps struct {
	Roots       []any          `yaml:"roots"`
	Sampling    map[string]any `yaml:"sampling"`
	Elicitation map[string]any `yaml:"elicitation"`
}

type step struct {
	Tool    string            `yaml:"tool"`
	Args    map[string]any    `yaml:"args"`
	Capture map[string]string `yaml:"capture"`
}

type toolAssert struct {
	Tool   string         `yaml:"tool"`
	Args   map[string]any `yaml:"args"`
	Expect yaml.Node      `yaml:"expect"`
}

type resourceBlock struct {
	List        yaml.Node `yaml:"list"`
	Read        yaml.Node `yaml:"read"`
	Subscribe   yaml.Node `yaml:"subscribe"`
	Unsubscribe yaml.Node `yaml:"unsubscribe"`
	Expect      yaml.Node `yaml:"expect"`
}

type completionBlock struct {
	Ref      map[string]string `yaml:"ref"`
	Argument map[string]string `yaml:"argument"`
	Context  map[string]any    `yaml:"context"`
	Expect   yaml.Node         `yaml:"expect"`
}

type promptBlock struct {
	List   yaml.Node  `yaml:"list"`
	Get    *promptGet `yaml:"get"`
	Expect yaml.Node  `yaml:"expect"`
}

type promptGet struct {
	Name      string         `yaml:"name"`
	Arguments map[string]any `yaml:"arguments"`
}

// readFile loads one mcp-assert file, keeping the document node for the
// lines of later issues.
func readFile(path string) (*assertFile, *yaml.Node, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", path)
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(raw) > maxFile {
		return nil, nil, fmt.Errorf("%s: larger than %d bytes", path, maxFile)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var a assertFile
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		return nil, nil, fmt.Errorf("%s: %w: %w", path, ErrUnsupported, err)
	}
	return &a, &doc, nil
}

// lineOf returns the line of key in the top-level mapping of doc (1 when
// absent), so an issue points at the construct it is about.
func lineOf(doc *yaml.Node, keys ...string) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, k := range keys {
		found := false
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					line = n.Content[i].Line
					n = n.Content[i+1]
					found = true
					break
				}
			}
		}
		if !found {
			break
		}
	}
	if line == 0 {
		line = 1
	}
	return line
}
