package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"text/template"
)

//go:embed templates
var templates embed.FS

// Kinds are the component kinds a new plugin can start with.
var Kinds = []string{"matcher", "reporter", "provider", "scorer"}

// DefaultSDKVersion is the SDK module version a new go.mod requires.
const DefaultSDKVersion = "v0.1.0"

// ErrBadOptions is wrapped by every error about the options themselves
// (kind, name, module path, SDK folder), as opposed to file system errors.
var ErrBadOptions = errors.New("bad plugin scaffold options")

// ErrDirNotEmpty is returned when the target folder already holds files:
// scaffolding never overwrites anything.
var ErrDirNotEmpty = errors.New("target folder is not empty")

// nameRE is the plugin name rule of sdk.Plugin (kept equal to it).
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,62}$`) })

// moduleRE accepts the usual Go module paths; go itself checks the rest.
var moduleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~/-]*$`) })

// Options says what to write.
type Options struct {
	// Kind is one of Kinds.
	Kind string
	// Name is the plugin's name and its component key.
	Name string
	// Dir is the folder to create (it may exist if empty).
	Dir string
	// Module is the Go module path; the name when empty.
	Module string
	// SDKDir, when set, is a checkout's sdk/ folder: go.mod gets a replace
	// to it and go.sum starts from its checksums, so the module builds
	// before the SDK is published.
	SDKDir string
	// SDKVersion is the SDK version go.mod requires; DefaultSDKVersion when
	// empty.
	SDKVersion string
}

// data is what the templates see.
type data struct {
	Kind, Name, Module, SDKDir, SDKVersion string
}

// Write creates the plugin module and returns the paths it wrote, in order.
func Write(o Options) ([]string, error) {
	d, err := o.resolve()
	if err != nil {
		return nil, err
	}
	if err := ensureEmptyDir(o.Dir); err != nil {
		return nil, err
	}
	files := []struct{ tmpl, out string }{
		{"templates/go.mod.tmpl", "go.mod"},
		{"templates/" + d.Kind + "/main.go.tmpl", "main.go"},
		{"templates/" + d.Kind + "/main_test.go.tmpl", "main_test.go"},
		{"templates/Makefile.tmpl", "Makefile"},
		{"templates/gitignore.tmpl", ".gitignore"},
	}
	var wrote []string
	for _, f := range files {
		b, err := render(f.tmpl, d)
		if err != nil {
			return wrote, err
		}
		p := filepath.Join(o.Dir, f.out)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return wrote, fmt.Errorf("write %s: %w", p, err)
		}
		wrote = append(wrote, p)
	}
	if d.SDKDir != "" {
		// The SDK's own checksums cover everything the new module needs, so
		// `go build` works at once, with no network.
		sum, err := os.ReadFile(filepath.Join(d.SDKDir, "go.sum"))
		if err != nil {
			return wrote, fmt.Errorf("read the SDK's go.sum: %w", err)
		}
		p := filepath.Join(o.Dir, "go.sum")
		if err := os.WriteFile(p, sum, 0o644); err != nil {
			return wrote, fmt.Errorf("write %s: %w", p, err)
		}
		wrote = append(wrote, p)
	}
	return wrote, nil
}

// resolve checks the options and fills in the defaults.
func (o Options) resolve() (data, error) {
	d := data{Kind: o.Kind, Name: o.Name, Module: o.Module, SDKVersion: o.SDKVersion}
	if !slices.Contains(Kinds, o.Kind) {
		return d, fmt.Errorf("%w: kind %q: want one of %v", ErrBadOptions, o.Kind, Kinds)
	}
	if !nameRE().MatchString(o.Name) {
		return d, fmt.Errorf("%w: name %q: want lower-case letters, digits and '-', 2 to 63 characters, starting with a letter or digit", ErrBadOptions, o.Name)
	}
	if o.Dir == "" {
		return d, fmt.Errorf("%w: no target folder", ErrBadOptions)
	}
	if d.Module == "" {
		d.Module = o.Name
	}
	if !moduleRE().MatchString(d.Module) {
		return d, fmt.Errorf("%w: module path %q", ErrBadOptions, d.Module)
	}
	if d.SDKVersion == "" {
		d.SDKVersion = DefaultSDKVersion
	}
	if o.SDKDir != "" {
		abs, err := filepath.Abs(o.SDKDir)
		if err != nil {
			return d, fmt.Errorf("%w: --sdk %s: %w", ErrBadOptions, o.SDKDir, err)
		}
		if !isSDKModule(abs) {
			return d, fmt.Errorf("%w: --sdk %s is not the sdk/ folder of an mcptest checkout (no go.mod of module github.com/mcptest/mcptest/sdk)", ErrBadOptions, o.SDKDir)
		}
		d.SDKDir = filepath.ToSlash(abs)
	}
	return d, nil
}

// isSDKModule reports whether dir holds the SDK module's go.mod.
func isSDKModule(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	return string(bytes.TrimSpace(first)) == "module github.com/mcptest/mcptest/sdk"
}

// ensureEmptyDir creates dir, or accepts it when it exists and is empty.
func ensureEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("read %s: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("%s: %w", dir, ErrDirNotEmpty)
	}
	return nil
}

// render executes one template.
func render(name string, d data) ([]byte, error) {
	// {% %} delimiters: Go composite literals are full of {{ }}.
	t, err := template.New(filepath.Base(name)).Delims("{%", "%}").ParseFS(templates, name)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	return buf.Bytes(), nil
}
