// Package initproj holds the files `mcptest init` scaffolds around a
// suite: an .env.example and CI workflows for GitHub Actions and GitLab CI
// that shard the run across parallel jobs and merge the shards' reports
// (the CI matrix is mcptest's distributed engine).
package initproj

import (
	"fmt"
	"sort"
	"strings"
)

// Paths of the scaffolded files, relative to the project directory.
const (
	SuitePath  = "mcptest.yml"
	EnvExample = ".env.example"
	GitHubPath = ".github/workflows/mcptest.yml"
	GitLabPath = ".gitlab-ci.yml"
)

// installSteps builds mcptest and its bundled plugins from source, since
// the plugins are separate binaries that must sit beside mcptest.
const installScript = `git clone --depth 1 https://github.com/mcptest/mcptest "$MCPTEST_SRC"
make -C "$MCPTEST_SRC" build`

// TemplateSuite is the suite written when no server is given: valid as it
// stands, with the server to fill in.
const TemplateSuite = `# yaml-language-server: $schema=https://mcptest.dev/schemas/v1.json
# A starter suite written by ` + "`mcptest init`" + `. Point the server at yours, or rerun
# ` + "`mcptest init --server CMD|URL --force`" + ` to generate a test per tool.
servers:
  server:
    command: ["./my-mcp-server"]

tools: []
`

// EnvFile lists the variables the project reads, one per line with an
// empty value, for people to copy to .env.
func EnvFile(vars []string) string {
	var b strings.Builder
	b.WriteString("# Variables mcptest reads (secrets such as tokens: never commit the real .env).\n")
	b.WriteString("# Copy this file to .env and fill in the values.\n")
	sort.Strings(vars)
	for i, v := range vars {
		if i > 0 && vars[i-1] == v {
			continue
		}
		fmt.Fprintf(&b, "%s=\n", v)
	}
	return b.String()
}

// GitHub returns a workflow that runs shards jobs and merges their
// reports; secrets are passed from repository secrets of the same names.
func GitHub(shards int, secrets []string) string {
	list := make([]string, shards)
	for i := range list {
		list[i] = fmt.Sprint(i + 1)
	}
	env := ""
	if len(secrets) > 0 {
		var b strings.Builder
		b.WriteString("        env:\n")
		for _, s := range secrets {
			fmt.Fprintf(&b, "          %s: ${{ secrets.%s }}\n", s, s)
		}
		env = b.String()
	}
	return fmt.Sprintf(`# Written by `+"`mcptest init`"+`: runs mcptest.yml in %[1]d parallel shards and merges
# their reports into one (JUnit for the test tab, markdown for the job summary).
name: mcptest
on: [push, pull_request]
env:
  MCPTEST_SRC: ${{ github.workspace }}/.mcptest-src
jobs:
  test:
    strategy:
      fail-fast: false
      matrix:
        shard: [%[2]s]
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with: {go-version: "1.26"}
      - name: install mcptest
        run: |
          %[3]s
          echo "$MCPTEST_SRC/bin" >> "$GITHUB_PATH"
      - name: run shard ${{ matrix.shard }} of %[1]d
%[4]s        run: mcptest run --shard ${{ matrix.shard }}/%[1]d --run-id ${{ github.run_id }} --reporter pretty --reporter json=out/shard-${{ matrix.shard }}.json mcptest.yml
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: mcptest-shard-${{ matrix.shard }}
          path: out/shard-${{ matrix.shard }}.json
  report:
    needs: test
    if: always()
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with: {go-version: "1.26"}
      - name: install mcptest
        run: |
          %[3]s
          echo "$MCPTEST_SRC/bin" >> "$GITHUB_PATH"
      - uses: actions/download-artifact@v4
        with: {pattern: mcptest-shard-*, merge-multiple: true, path: out}
      - run: mcptest report merge -o out/all.json out/shard-*.json
      - run: mcptest report --exit-code --format junit=out/junit.xml --format markdown out/all.json
`, shards, strings.Join(list, ", "), strings.ReplaceAll(installScript, "\n", "\n          "), env)
}

// GitLab returns a pipeline that runs shards parallel jobs and merges
// their reports; secrets come from CI/CD variables of the same names.
func GitLab(shards int) string {
	return fmt.Sprintf(`# Written by `+"`mcptest init`"+`: runs mcptest.yml in %[1]d parallel shards and merges
# their reports (JUnit and code quality reports for the merge request).
# Secrets come from CI/CD variables of the same names as in .env.example.
stages: [test, report]

variables:
  MCPTEST_SRC: $CI_PROJECT_DIR/.mcptest-src

.mcptest:
  image: golang:1.26
  before_script:
    - |
      %[2]s
    - export PATH="$MCPTEST_SRC/bin:$PATH"

mcptest:
  extends: .mcptest
  stage: test
  parallel: %[1]d
  script:
    - mcptest run --shard ${CI_NODE_INDEX}/${CI_NODE_TOTAL} --run-id ${CI_PIPELINE_ID} --reporter pretty --reporter json=out/shard-${CI_NODE_INDEX}.json mcptest.yml
  artifacts:
    when: always
    paths: [out/]

mcptest-report:
  extends: .mcptest
  stage: report
  needs: [mcptest]
  when: always
  script:
    - mcptest report merge -o out/all.json out/shard-*.json
    - mcptest report --exit-code --format junit=out/junit.xml --format gitlab=out/gl-code-quality.json out/all.json
  artifacts:
    when: always
    reports:
      junit: out/junit.xml
      codequality: out/gl-code-quality.json
`, shards, strings.ReplaceAll(installScript, "\n", "\n      "))
}
