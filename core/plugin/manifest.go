package plugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/schemas"
	"github.com/mcptest/mcptest/sdk"
)

// ManifestFile is the name of the manifest in every plugin folder.
const ManifestFile = "mcptest-plugin.yaml"

// Manifest is the parsed mcptest-plugin.yaml of one plugin folder.
type Manifest struct {
	ManifestVersion  int             `json:"manifest_version" yaml:"manifest_version"`
	Name             string          `json:"name" yaml:"name"`
	Version          string          `json:"version" yaml:"version"`
	ProtocolVersions []int           `json:"protocol_versions" yaml:"protocol_versions,flow"`
	Executable       string          `json:"executable" yaml:"executable"`
	SHA256           string          `json:"sha256,omitempty" yaml:"sha256,omitempty"`
	Components       []sdk.Component `json:"components" yaml:"components"`
	Capabilities     []string        `json:"capabilities,omitempty" yaml:"capabilities,omitempty"`
	Env              []string        `json:"env,omitempty" yaml:"env,omitempty"`
	// Prices is a provider plugin's model price table, copied from its
	// description at install so budgets are checked at plan time without
	// starting the plugin.
	Prices []sdk.ModelPrice `json:"prices,omitempty" yaml:"prices,omitempty"`
}

// ErrInvalidManifest is wrapped by every manifest read or validation error.
var ErrInvalidManifest = errors.New("invalid plugin manifest")

var manifestSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.PluginManifestV1))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("plugin-manifest.v1.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("plugin-manifest.v1.json")
})

// maxManifestSize bounds a manifest file; real ones are a few hundred bytes.
const maxManifestSize = 1 << 20

// ReadManifest reads and validates the manifest at path.
func ReadManifest(path string) (*Manifest, error) {
	// Bounded and non-blocking: a manifest is a small regular file, never
	// a FIFO or a device to wait on (internal/safefile).
	raw, _, err := readManifestFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ParseManifest parses and validates manifest bytes against
// schemas/plugin-manifest.v1.json.
func ParseManifest(raw []byte) (*Manifest, error) {
	var doc any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	js, err := json.Marshal(yamlToJSONValue(doc))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	sch, err := manifestSchema()
	if err != nil {
		return nil, fmt.Errorf("compile manifest schema: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidManifest, describeSchemaError(err))
	}
	var m Manifest
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	if err := checkExecutableName(m.Executable); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidManifest, err)
	}
	return &m, nil
}

// checkExecutableName refuses names that point outside the plugin folder
// before the filesystem is even consulted.
func checkExecutableName(exe string) error {
	if filepath.IsAbs(exe) {
		return fmt.Errorf("executable %q must be relative to the plugin folder", exe)
	}
	clean := filepath.Clean(exe)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Errorf("executable %q points outside the plugin folder", exe)
	}
	return nil
}

// Encode renders the manifest as YAML with a header comment.
func (m *Manifest) Encode() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("# Written by mcptest plugins install; the sha256 is checked before every launch.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// Keys returns the manifest's keys of one kind.
func (m *Manifest) Keys(kind string) []string {
	var out []string
	for _, c := range m.Components {
		if c.Kind == kind {
			out = append(out, c.Keys...)
		}
	}
	return out
}

// SpeaksProtocol reports whether the plugin speaks protocol version v.
func (m *Manifest) SpeaksProtocol(v int) bool {
	for _, p := range m.ProtocolVersions {
		if p == v {
			return true
		}
	}
	return false
}

// yamlToJSONValue converts yaml.v3's decoded maps to JSON-encodable ones.
func yamlToJSONValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = yamlToJSONValue(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = yamlToJSONValue(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = yamlToJSONValue(e)
		}
		return t
	}
	return v
}

// describeSchemaError flattens a validation error into one line per leaf
// cause, each naming the field.
func describeSchemaError(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var lines []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			lines = append(lines, fmt.Sprintf("%s: %s", loc, e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(lines)
	return strings.Join(lines, "; ")
}
