package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The interop suite runs mcptest against real third-party MCP servers:
// the reference servers of the MCP project, installed from npm into
// .ci/npm by .ci/run. docs/interop.md lists what is covered.

// npmServer returns the absolute entry point of an MCP server package in
// .ci/npm. Without node or the package it skips, or fails in CI, where
// .ci/run installs both.
func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	entry := filepath.Join(root, ".ci", "npm", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(entry)
	need(t, "node and .ci/npm/node_modules/@modelcontextprotocol/"+pkg, nodeErr == nil && modErr == nil)
	return entry
}

// interopReport is the part of the json report the interop tests read.
type interopReport struct {
	Servers []struct {
		Name            string `json:"name"`
		Transport       string `json:"transport"`
		ProtocolVersion string `json:"protocol_version"`
		ServerName      string `json:"server_name"`
	} `json:"servers"`
	Tests []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Error  *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
		Stderr string `json:"stderr"`
	} `json:"tests"`
	Summary struct {
		Total, Passed, Failed, Errored, Skipped int
	} `json:"summary"`
}

// runInterop runs `mcptest run` with a pretty and a json report. Every
// server it starts inherits a marker variable; once mcptest has exited, no
// process may still carry it, nor may any process of the build folders.
func runInterop(t *testing.T, env []string, args ...string) (result, interopReport) {
	t.Helper()
	marker := fmt.Sprintf("MCPTEST_INTEROP_MARK=%s-%d", t.Name(), time.Now().UnixNano())
	jsonPath := filepath.Join(t.TempDir(), "report.json")
	full := append([]string{"run", "--no-color", "--no-cache", "--reporter", "pretty", "--reporter", "json=" + jsonPath}, args...)
	r := mcptestEnv(t, append(env, marker), full...)
	assertNoOrphans(t)
	assertNoProcessWithEnv(t, marker)
	var rep interopReport
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatalf("no json report: %v\n%s", err, r)
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("json report: %v\n%s", err, raw)
	}
	return r, rep
}

// assertNoProcessWithEnv fails when a live process has kv in its
// environment shortly after mcptest exited: the node servers are not under
// the build folders, so assertNoOrphans cannot see them.
func assertNoProcessWithEnv(t *testing.T, kv string) {
	t.Helper()
	want := []byte(kv)
	// A bounded poll of /proc: the servers were mcptest's children, so
	// their exit is no event this process can wait on.
	deadline := time.Now().Add(3 * time.Second)
	for {
		var left []string
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if e.Name()[0] < '0' || e.Name()[0] > '9' {
				continue
			}
			environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err != nil {
				continue
			}
			for _, v := range bytes.Split(environ, []byte{0}) {
				if bytes.Equal(v, want) {
					cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
					left = append(left, e.Name()+" "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
					break
				}
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server processes left behind:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wantAllPassed checks the exit code and the report's counts, so a run
// where tests were skipped or never selected does not pass by accident.
func wantAllPassed(t *testing.T, r result, rep interopReport, n int) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("want exit 0:\n%s", r)
	}
	s := rep.Summary
	if s.Total != n || s.Passed != n || s.Failed+s.Errored+s.Skipped != 0 {
		t.Fatalf("want %d of %d tests passed, got %+v\n%s", n, n, s, r)
	}
	mustContain(t, "output", r.stdout, fmt.Sprintf("%d passed, 0 failed, 0 errored, 0 skipped (%d tests)", n, n))
}

// wantServer checks what the report records about the one server.
func wantServer(t *testing.T, rep interopReport, transport, serverName string) {
	t.Helper()
	if len(rep.Servers) != 1 {
		t.Fatalf("want one server in the report, got %+v", rep.Servers)
	}
	s := rep.Servers[0]
	if s.Transport != transport || s.ServerName != serverName || s.ProtocolVersion != "2025-11-25" {
		t.Errorf("server record = %+v; want transport %q, server %q, protocol 2025-11-25", s, transport, serverName)
	}
}

// everythingSuite is the checked-in suite; its tests are counted here so
// that a test dropped from it is noticed.
const (
	everythingSuite = "examples/interop/everything.yml"
	everythingTests = 17
)

func TestInteropEverythingStdio(t *testing.T) {
	npmServer(t, "server-everything")
	r, rep := runInterop(t, nil, everythingSuite)
	wantAllPassed(t, r, rep, everythingTests)
	wantServer(t, rep, "stdio", "mcp-servers/everything")
}

// TestInteropEverythingStreamableHTTP runs the same suite, retargeted with
// --server-url at the server started in its streamableHttp mode. The
// legacy HTTP+SSE mode runs in interop_kinds_test.go.
func TestInteropEverythingStreamableHTTP(t *testing.T) {
	entry := npmServer(t, "server-everything")
	port := startHTTPServer(t, entry, "streamableHttp")
	url := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
	r, rep := runInterop(t, nil, "--server-url", "everything="+url, everythingSuite)
	wantAllPassed(t, r, rep, everythingTests)
	wantServer(t, rep, "streamable", "mcp-servers/everything")
}

// startHTTPServer starts server-everything in an HTTP mode on a free port,
// waits until the port accepts connections, and stops it at cleanup.
func startHTTPServer(t *testing.T, entry, mode string) int {
	t.Helper()
	port := freePort(t)
	cmd := exec.Command("node", entry, mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	startListening(t, cmd, port, "server-everything "+mode, 20*time.Second, func(cmd *exec.Cmd) { _ = cmd.Process.Kill() })
	return port
}

// TestInteropEverythingFailsHonestly guards against vacuous passes: a
// wrong expectation against the real server fails, and the failure shows
// what the server really said.
func TestInteropEverythingFailsHonestly(t *testing.T) {
	entry := npmServer(t, "server-everything")
	suite := writeSuite(t, `
servers:
  everything:
    command: ["node", "`+entry+`", "stdio"]
tools:
  - name: a wrong sum
    server: everything
    tool: get-sum
    args: {a: 40, b: 2}
    expect:
      - target: result.content[0].text
        matcher: {exact: "The sum of 40 and 2 is 43."}
  - name: a tool error is not a success
    server: everything
    tool: no-such-tool
resources:
  - name: a missing resource has no contents
    server: everything
    uri: "demo://nope/1"
    expect:
      - target: result.contents[0].text
        matcher: {contains: "Resource"}
`)
	r, rep := runInterop(t, nil, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	if s := rep.Summary; s.Total != 3 || s.Failed != 3 {
		t.Fatalf("want 3 failed, got %+v\n%s", s, r)
	}
	mustContain(t, "output", r.stdout, "The sum of 40 and 2 is 42.", "Tool no-such-tool not found", "Resource demo://nope/1 not found")
}

func TestInteropFilesystem(t *testing.T) {
	entry := npmServer(t, "server-filesystem")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("line one\nline two\nline three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "deep.md"), []byte("# deep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The server resolves symlinks in its allowed directories, and so
	// reports paths under the real one.
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	suite := writeSuite(t, strings.ReplaceAll(`
servers:
  fs:
    command: ["node", "`+entry+`", "ROOT"]
tools:
  - name: the allowed directory is the temp dir
    server: fs
    tool: list_allowed_directories
    expect:
      - target: result.content[0].text
        matcher: {contains: "ROOT"}
  - name: list the directory
    server: fs
    tool: list_directory
    args: {path: "ROOT"}
    expect:
      - target: result.structuredContent.content
        matcher: {exact: "[FILE] notes.txt\n[DIR] sub"}
      - target: result.content[0].text
        matcher: {exact: "[FILE] notes.txt\n[DIR] sub"}
  - name: read the file
    server: fs
    tool: read_text_file
    args: {path: "ROOT/notes.txt"}
    expect:
      - target: result.structuredContent
        matcher: {exact: {content: "line one\nline two\nline three\n"}}
  - name: read only the head of the file
    server: fs
    tool: read_text_file
    args: {path: "ROOT/notes.txt", head: 1}
    expect:
      - target: result.content[0].text
        matcher: {regex: "^line one\\n?$"}
  - name: find a file by pattern
    server: fs
    tool: search_files
    args: {path: "ROOT", pattern: "**/*.md"}
    expect:
      - target: result.content[0].text
        matcher: {contains: "ROOT/sub/deep.md"}
      - target: result.content[0].text
        matcher: {not: {contains: "notes.txt"}}
  - name: outside the allowed directory is refused
    server: fs
    tool: read_text_file
    args: {path: /etc/passwd}
    expect:
      - target: result.isError
        matcher: {exact: true}
      - target: result.content[0].text
        matcher: {starts-with: "Access denied - path outside allowed directories: /etc/passwd"}
  - name: a missing file is an isError result
    server: fs
    tool: read_text_file
    args: {path: "ROOT/missing.txt"}
    expect:
      - target: result
        matcher: {cel: "value.isError && value.content[0].text.contains('ENOENT')"}
`, "ROOT", real))
	r, rep := runInterop(t, nil, suite)
	wantAllPassed(t, r, rep, 7)
	wantServer(t, rep, "stdio", "secure-filesystem-server")
}

// TestInteropMemory builds a knowledge graph in one run, each call using
// what the previous one captured (which also orders them: the server
// loses concurrent updates to its file), then reads it back through a
// fresh server process in a second run, as a tool result and as a
// resource.
func TestInteropMemory(t *testing.T) {
	entry := npmServer(t, "server-memory")
	memFile := filepath.Join(t.TempDir(), "memory.jsonl")
	server := `
servers:
  mem:
    command: ["node", "` + entry + `"]
    env: {MEMORY_FILE_PATH: "` + memFile + `"}
`
	write := writeSuite(t, server+`
tools:
  - name: create two entities
    server: mem
    tool: create_entities
    args:
      entities:
        - {name: Ada Lovelace, entityType: person, observations: [wrote the first program]}
        - {name: Charles Babbage, entityType: person, observations: [designed the Analytical Engine]}
    capture: {who: "result.structuredContent.entities[0].name"}
    expect:
      - target: result.structuredContent.entities.length
        matcher: {exact: 2}
  - name: relate them, by the captured name
    server: mem
    tool: create_relations
    args: {relations: [{from: "${capture:who}", to: Charles Babbage, relationType: corresponded with}]}
    capture: {from: "result.structuredContent.relations[0].from"}
    expect:
      - target: result.structuredContent.relations
        matcher: {exact: [{from: Ada Lovelace, to: Charles Babbage, relationType: corresponded with}]}
  - name: add an observation
    server: mem
    tool: add_observations
    args: {observations: [{entityName: "${capture:from}", contents: [born 1815]}]}
    capture: {added: "result.structuredContent.results[0].entityName"}
    expect:
      - target: result.structuredContent.results
        matcher: {exact: [{entityName: Ada Lovelace, addedObservations: [born 1815]}]}
  - name: open the node
    server: mem
    tool: open_nodes
    args: {names: ["${capture:added}"]}
    expect:
      - target: result.structuredContent.entities
        matcher: {exact: [{name: Ada Lovelace, entityType: person, observations: [wrote the first program, born 1815]}]}
`)
	r, rep := runInterop(t, nil, write)
	wantAllPassed(t, r, rep, 4)
	wantServer(t, rep, "stdio", "memory-server")
	raw, err := os.ReadFile(memFile)
	if err != nil {
		t.Fatalf("the server wrote no memory file: %v", err)
	}
	mustContain(t, "memory file", string(raw), `"born 1815"`, `"relationType":"corresponded with"`)

	read := writeSuite(t, server+`
tools:
  - name: the graph persisted
    server: mem
    tool: read_graph
    expect:
      - target: result.structuredContent
        matcher:
          exact:
            entities:
              - {name: Ada Lovelace, entityType: person, observations: [wrote the first program, born 1815]}
              - {name: Charles Babbage, entityType: person, observations: [designed the Analytical Engine]}
            relations:
              - {from: Ada Lovelace, to: Charles Babbage, relationType: corresponded with}
  - name: search by an observation
    server: mem
    tool: search_nodes
    args: {query: Analytical}
    expect:
      - target: result.structuredContent.entities
        matcher: {cel: "value.size() == 1 && value[0].name == 'Charles Babbage'"}
resources:
  - name: the graph as a resource
    server: mem
    uri: "memory://knowledge-graph"
    expect:
      - target: result.contents[0].mimeType
        matcher: {exact: application/json}
      - target: result.contents[0].text
        matcher:
          is-json:
            schema:
              type: object
              required: [entities, relations]
              properties:
                entities:
                  type: array
                  minItems: 2
                  maxItems: 2
                  contains:
                    properties:
                      name: {const: Ada Lovelace}
                      observations: {contains: {const: born 1815}}
                    required: [name, observations]
                relations: {type: array, minItems: 1, maxItems: 1}
`)
	r, rep = runInterop(t, nil, read)
	wantAllPassed(t, r, rep, 3)
}
