// Package e2e builds the real binaries once (mcptest, the demo server, the
// bundled plugins and test fixtures) and drives them as a user would:
// real processes, real gRPC plugins, real MCP over stdio.
package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var (
	// root is the repository root; suites and commands run from there.
	root string
	// binDir holds mcptest, the demo server and mcptest-plugins/.
	binDir string
	// fixtures holds the fixture plugin binaries, by name.
	fixtures string
	// chaosServer is examples/servers/chaos, built apart from fixtures,
	// where the chaos fixture plugin has its name.
	chaosServer string
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("e2e: skipped in -short mode")
		os.Exit(0)
	}
	// server-everything's gzip tool downloads a GitHub URL when called
	// without data; no test may reach a host outside this machine, so every
	// server started from here (they inherit the environment) refuses it.
	os.Setenv("GZIP_ALLOWED_DOMAINS", "mcptest.invalid")
	code, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e setup:", err)
		os.Exit(1)
	}
	if code == 0 {
		code = m.Run()
	}
	os.RemoveAll(filepath.Dir(binDir))
	os.Exit(code)
}

func setup() (int, error) {
	_, file, _, _ := runtime.Caller(0)
	root = filepath.Dir(filepath.Dir(file))
	tmp, err := os.MkdirTemp("", "mcptest-e2e-")
	if err != nil {
		return 1, err
	}
	binDir = filepath.Join(tmp, "bin")
	fixtures = filepath.Join(tmp, "fixtures")
	bundle := exec.Command("go", "run", "./plugins/internal/bundle", "-bin", binDir)
	bundle.Dir = root
	if out, err := bundle.CombinedOutput(); err != nil {
		return 1, fmt.Errorf("bundle: %v\n%s", err, out)
	}
	build := exec.Command("go", "build", "-trimpath", "-o", fixtures+string(filepath.Separator), "./e2e/testdata/plugins/...")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return 1, fmt.Errorf("build fixtures: %v\n%s", err, out)
	}
	if err := buildExamplePlugins(); err != nil {
		return 1, err
	}
	chaosServer = filepath.Join(tmp, "servers", "chaos")
	build = exec.Command("go", "build", "-trimpath", "-o", chaosServer, "./examples/servers/chaos")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return 1, fmt.Errorf("build the chaos server: %v\n%s", err, out)
	}
	return 0, nil
}

// buildExamplePlugins builds each plugin under examples/plugins the way a
// team builds its own: as a separate Go module that requires only the SDK
// module (through the replace its go.mod carries), from its own folder.
func buildExamplePlugins() error {
	dirs, err := filepath.Glob(filepath.Join(root, "examples", "plugins", "*", "go.mod"))
	if err != nil || len(dirs) == 0 {
		return fmt.Errorf("no example plugin modules under examples/plugins (%v)", err)
	}
	for _, mod := range dirs {
		dir := filepath.Dir(mod)
		build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(fixtures, filepath.Base(dir)), ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("build example plugin module %s: %v\n%s", dir, err, out)
		}
	}
	return nil
}

// result is one finished mcptest invocation.
type result struct {
	code           int
	stdout, stderr string
}

// mcptest runs the built binary from the repository root with a clean
// plugin environment (no user or project plugins leak in).
func mcptest(t *testing.T, args ...string) result {
	t.Helper()
	return mcptestEnv(t, nil, args...)
}

func mcptestEnv(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return mcptestIn(t, root, env, args...)
}

// mcptestIn runs mcptest from dir.
func mcptestIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "mcptest"), args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("mcptest %v did not finish\nstdout:\n%s\nstderr:\n%s", args, stdout.String(), stderr.String())
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// cleanEnv is the environment without anything that would change plugin
// discovery or colour.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "MCPTEST_PLUGIN_PATH", "XDG_DATA_HOME", "NO_COLOR", "GITHUB_STEP_SUMMARY":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "XDG_DATA_HOME="+filepath.Join(filepath.Dir(binDir), "xdg"))
}

// writeSuite writes a suite into a temp dir; "DEMO" in the text becomes
// the demo server's absolute path.
func writeSuite(t *testing.T, text string) string {
	t.Helper()
	text = strings.ReplaceAll(text, "DEMO", filepath.Join(binDir, "mcptest-demo-server"))
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// readFile returns the file at path, failing the test when it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// itoa is strconv.Itoa for the non-negative counts the tests compare.
func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}
