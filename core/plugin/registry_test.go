package plugin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePlugin writes a plugin folder with a manifest and a dummy executable.
func writePlugin(t *testing.T, root, name, version string, components string) string {
	t.Helper()
	// t.TempDir honours the umask; under 002 root would be group writable
	// and its plugins refused.
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "mcptest-plugin-"+name)
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum, err := FileSHA256(exe)
	if err != nil {
		t.Fatal(err)
	}
	manifest := "manifest_version: 1\nname: " + name + "\nversion: " + version +
		"\nprotocol_versions: [1]\nexecutable: mcptest-plugin-" + name + "\nsha256: " + sum + "\ncomponents:\n" + components
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestSourcesOrder(t *testing.T) {
	env := map[string]string{PathEnv: "/env/a" + string(os.PathListSeparator) + "/env/b", "XDG_DATA_HOME": "/xdg"}
	srcs := Sources(SearchOptions{
		Dirs: []string{"/flag"}, Env: func(k string) string { return env[k] },
		WorkDir: "/proj", Executable: "/opt/mcptest/bin/mcptest",
	})
	var got []string
	for _, s := range srcs {
		got = append(got, s.Origin+"="+s.Dir)
	}
	want := []string{
		"--plugin-dir=/flag", "MCPTEST_PLUGIN_PATH=/env/a", "MCPTEST_PLUGIN_PATH=/env/b",
		"project=/proj/.mcptest/plugins", "user=/xdg/mcptest/plugins",
		"bundled=/opt/mcptest/bin/mcptest-plugins", "bundled=/opt/mcptest/lib/mcptest/plugins",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("sources:\n got %v\nwant %v", got, want)
	}
}

func TestRegistryShadowingConflictsAndSuggestions(t *testing.T) {
	high, low := t.TempDir(), t.TempDir()
	writePlugin(t, low, "reporters", "1.0.0", "  - {kind: reporter, keys: [json, junit]}\n")
	writePlugin(t, low, "text", "1.0.0", "  - {kind: matcher, keys: [exact, regex]}\n")
	writePlugin(t, high, "acme-junit", "2.0.0", "  - {kind: reporter, keys: [junit]}\n")
	writePlugin(t, high, "a-dup", "1.0.0", "  - {kind: matcher, keys: [money]}\n")
	writePlugin(t, high, "b-dup", "1.0.0", "  - {kind: matcher, keys: [money]}\n")
	reg := NewRegistry([]Source{{Dir: high, Priority: 0, Origin: "--plugin-dir"}, {Dir: low, Priority: 1, Origin: "bundled"}})
	if len(reg.Problems) != 0 {
		t.Fatalf("problems: %v", reg.Problems)
	}

	junit, err := reg.Resolve("reporter", "junit")
	if err != nil || junit.Manifest.Name != "acme-junit" {
		t.Fatalf("junit should resolve to the higher-priority plugin, got %v %v", junit, err)
	}
	json, err := reg.Resolve("reporter", "json")
	if err != nil || json.Manifest.Name != "reporters" {
		t.Fatalf("json: %v %v", json, err)
	}
	sh := reg.Shadows(junit)
	if len(sh) != 1 || sh[0].Key != "junit" || sh[0].Other.Manifest.Name != "reporters" {
		t.Fatalf("shadows = %+v", sh)
	}
	by := reg.ShadowedBy(json)
	if len(by) != 1 || by[0].Other.Manifest.Name != "acme-junit" {
		t.Fatalf("shadowed by = %+v", by)
	}

	if _, err := reg.Resolve("matcher", "money"); !errors.Is(err, ErrConflict) {
		t.Fatalf("same-priority duplicate should conflict, got %v", err)
	}

	_, err = reg.Resolve("matcher", "regx")
	if !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("want ErrUnknownKey, got %v", err)
	}
	for _, want := range []string{`unknown matcher "regx"`, `did you mean "regex"?`, high, low} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestRegistrySameNameHidesLowerPriority(t *testing.T) {
	high, low := t.TempDir(), t.TempDir()
	writePlugin(t, high, "text", "2.0.0", "  - {kind: matcher, keys: [exact]}\n")
	writePlugin(t, low, "text", "1.0.0", "  - {kind: matcher, keys: [exact, regex]}\n")
	reg := NewRegistry([]Source{{Dir: high, Priority: 0}, {Dir: low, Priority: 1}})
	if _, err := reg.Resolve("matcher", "regex"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("a hidden plugin's keys must not resolve: %v", err)
	}
	if len(reg.Hidden()) != 1 || reg.Hidden()[0].Manifest.Version != "1.0.0" {
		t.Fatalf("hidden = %v", reg.Hidden())
	}
}

func TestDiscoverReportsBadManifests(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "broken")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte("manifest_version: 1\nname: Bad Name\nversion: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "not-a-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry([]Source{{Dir: root}})
	if len(reg.Problems) != 1 {
		t.Fatalf("want one problem, got %v", reg.Problems)
	}
	msg := reg.Problems[0].Err.Error()
	for _, want := range []string{"/name", "/version", "missing propert"} {
		if !strings.Contains(msg, want) {
			t.Errorf("problem %q lacks %q", msg, want)
		}
	}
	if !errors.Is(reg.Problems[0].Err, ErrInvalidManifest) {
		t.Errorf("not ErrInvalidManifest: %v", reg.Problems[0].Err)
	}
}

func TestManifestRejectsEscapingExecutable(t *testing.T) {
	for _, exe := range []string{"../evil", "/bin/sh"} {
		_, err := ParseManifest([]byte("manifest_version: 1\nname: x1\nversion: 1.0.0\nprotocol_versions: [1]\nexecutable: " + exe +
			"\ncomponents: [{kind: matcher, keys: [a]}]\n"))
		if !errors.Is(err, ErrInvalidManifest) {
			t.Errorf("executable %q accepted: %v", exe, err)
		}
	}
}

func TestCheckExecutableRefusesSymlinkEscapeAndWorldWritable(t *testing.T) {
	root := t.TempDir()
	dir := writePlugin(t, root, "sneaky", "1.0.0", "  - {kind: matcher, keys: [a]}\n")
	reg := NewRegistry([]Source{{Dir: root}})
	f := reg.Plugins[0]
	if _, err := checkExecutable(f); err != nil {
		t.Fatalf("a plain executable was refused: %v", err)
	}
	exe := filepath.Join(dir, "mcptest-plugin-sneaky")
	if err := os.Chmod(exe, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := checkExecutable(f); !errors.Is(err, ErrUntrusted) {
		t.Errorf("world-writable executable accepted: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(outside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(exe); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, exe); err != nil {
		t.Fatal(err)
	}
	_, err := checkExecutable(f)
	if !errors.Is(err, ErrUnsafeExecutable) || !strings.Contains(err.Error(), "outside the plugin folder") {
		t.Errorf("symlink escape accepted: %v", err)
	}
}

func TestStderrRingRendersHclogAndKeepsTail(t *testing.T) {
	r := newStderrRing(3)
	_, _ = r.Write([]byte(`{"@level":"error","@message":"matcher panicked","key":"exact"}` + "\nplain line\n"))
	_, _ = r.Write([]byte("two\nthree\nfour"))
	got := r.Tail(3)
	if got != "two\nthree\nfour" {
		t.Fatalf("tail = %q", got)
	}
	r2 := newStderrRing(5)
	_, _ = r2.Write([]byte(`{"@level":"error","@message":"matcher panicked","key":"exact"}` + "\n"))
	if got := r2.Tail(1); got != "ERROR: matcher panicked key=exact" {
		t.Fatalf("rendered = %q", got)
	}
}
