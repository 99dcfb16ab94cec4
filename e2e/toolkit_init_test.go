package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/shlex"
	"gopkg.in/yaml.v3"
)

// TestInitPipelinesRun scaffolds a project against the demo and runs what
// its GitLab pipeline runs, job by job: each of the 3 shards (with the
// variables GitLab sets for parallel jobs), then the merge and re-render;
// the merged report holds every test of the suite once and passes. The
// GitHub workflow parses and names the same commands.
func TestInitPipelinesRun(t *testing.T) {
	dir := t.TempDir()
	r := mcptest(t, "init", dir, "--server", demoServer(), "--shards", "3")
	if r.code != 0 {
		t.Fatalf("init:\n%s", r)
	}
	type glJob struct {
		Parallel int      `yaml:"parallel"`
		Script   []string `yaml:"script"`
	}
	var gl map[string]yaml.Node
	raw, err := os.ReadFile(filepath.Join(dir, ".gitlab-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &gl); err != nil {
		t.Fatalf(".gitlab-ci.yml: %v", err)
	}
	var job, report glJob
	for name, into := range map[string]*glJob{"mcptest": &job, "mcptest-report": &report} {
		node := gl[name]
		if err := node.Decode(into); err != nil {
			t.Fatalf("job %s: %v", name, err)
		}
	}
	if job.Parallel != 3 || len(job.Script) != 1 || len(report.Script) != 2 {
		t.Fatalf("pipeline jobs: %+v %+v", job, report)
	}
	runCI := func(line string, vars map[string]string) result {
		t.Helper()
		argv, err := shlex.Split(os.Expand(line, func(k string) string { return vars[k] }))
		if err != nil || len(argv) == 0 || argv[0] != "mcptest" {
			t.Fatalf("script line %q: %v", line, err)
		}
		if strings.Contains(line, "out/shard-*.json") {
			matches, _ := filepath.Glob(filepath.Join(dir, "out", "shard-*.json"))
			var args []string
			for _, a := range argv[1:] {
				if a == "out/shard-*.json" {
					for _, m := range matches {
						args = append(args, strings.TrimPrefix(m, dir+"/"))
					}
					continue
				}
				args = append(args, a)
			}
			argv = append(argv[:1], args...)
		}
		return mcptestIn(t, dir, nil, argv[1:]...)
	}
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		vars := map[string]string{"CI_NODE_INDEX": string(rune('0' + i)), "CI_NODE_TOTAL": "3", "CI_PIPELINE_ID": "4242"}
		if res := runCI(job.Script[0], vars); res.code != 0 {
			t.Fatalf("shard %d:\n%s", i, res)
		}
	}
	for _, line := range report.Script {
		if res := runCI(line, nil); res.code != 0 {
			t.Fatalf("%s:\n%s", line, res)
		}
	}
	run, tests := toolkitRun(t, filepath.Join(dir, "out", "all.json"))
	whole := mcptestIn(t, dir, nil, "run", "mcptest.yml")
	if whole.code != 0 || run.Summary.Passed != len(tests) || run.Summary.Total < 8 || !strings.Contains(whole.stdout, "("+strconv.Itoa(run.Summary.Total)+" tests)") {
		t.Errorf("merged %+v; unsharded:\n%s", run.Summary, whole)
	}
	for _, p := range []string{"out/junit.xml", "out/gl-code-quality.json", ".env.example"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	var gh struct {
		Jobs map[string]struct {
			Strategy struct {
				Matrix struct{ Shard []int } `yaml:"matrix"`
			} `yaml:"strategy"`
			Steps []struct{ Run string } `yaml:"steps"`
		} `yaml:"jobs"`
	}
	raw, _ = os.ReadFile(filepath.Join(dir, ".github/workflows/mcptest.yml"))
	if err := yaml.Unmarshal(raw, &gh); err != nil {
		t.Fatalf("workflow: %v", err)
	}
	if got := gh.Jobs["test"].Strategy.Matrix.Shard; len(got) != 3 || got[2] != 3 {
		t.Errorf("matrix %v", got)
	}
	mustContain(t, "workflow", string(raw), "--shard ${{ matrix.shard }}/3", "mcptest report merge -o out/all.json out/shard-*.json")
	if r := mcptest(t, "init", dir); r.code != 2 || !strings.Contains(r.stderr, "--force") {
		t.Errorf("init over an existing project should exit 2:\n%s", r)
	}
}
