// Command scorer is an external grader for the exec scorer's tests: it
// reads the {input, output, criteria, metadata} document from stdin and
// behaves as its first argument says.
//
//	grade      pass when output contains criteria (a string), score 1 or
//	           0; reasoning names the input, the working directory and
//	           $SCORER_MODE; cost_usd 0.25
//	null-cost  as grade, with cost_usd: null
//	no-score   a verdict without a score
//	bad-json   prints text that is not JSON
//	fail N     writes lines to stderr (the last names $SCORER_API_KEY) and
//	           exits with status N
//	hang FILE  starts a child (which stays in its process group and sleeps),
//	           writes "leader-pid child-pid" to FILE, and sleeps forever
//	flood      writes 3 MiB to stdout
//	sleep      sleeps forever (the child of hang)
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

type envelope struct {
	Input    any            `json:"input"`
	Output   any            `json:"output"`
	Criteria any            `json:"criteria"`
	Metadata map[string]any `json:"metadata"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: scorer MODE")
		os.Exit(64)
	}
	mode := os.Args[1]
	if mode == "sleep" {
		time.Sleep(time.Hour)
		return
	}
	raw, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	if err != nil {
		fmt.Fprintln(os.Stderr, "read stdin:", err)
		os.Exit(65)
	}
	var in envelope
	if err := json.Unmarshal(raw, &in); err != nil {
		fmt.Fprintf(os.Stderr, "stdin is not the envelope: %v\n", err)
		os.Exit(65)
	}
	switch mode {
	case "grade", "null-cost":
		out, _ := in.Output.(string)
		want, _ := in.Criteria.(string)
		pass := want != "" && strings.Contains(out, want)
		cwd, _ := os.Getwd()
		reply := map[string]any{
			"verdict":   map[bool]string{true: "pass", false: "fail"}[pass],
			"score":     map[bool]float64{true: 1, false: 0}[pass],
			"reasoning": fmt.Sprintf("input=%v cwd=%s mode=%s", in.Input, cwd, os.Getenv("SCORER_MODE")),
			"cost_usd":  0.25,
		}
		if mode == "null-cost" {
			reply["cost_usd"] = nil
		}
		_ = json.NewEncoder(os.Stdout).Encode(reply)
	case "no-score":
		fmt.Println(`{"verdict": "pass", "reasoning": "forgot the score"}`)
	case "bad-json":
		fmt.Println("Score: 9/10, looks fine to me")
	case "fail":
		code := 3
		if len(os.Args) > 2 {
			code, _ = strconv.Atoi(os.Args[2])
		}
		for i := 1; i <= 30; i++ {
			fmt.Fprintf(os.Stderr, "trace line %d\n", i)
		}
		fmt.Fprintf(os.Stderr, "vendor refused key %s\n", os.Getenv("SCORER_API_KEY"))
		os.Exit(code)
	case "hang":
		child := exec.Command(os.Args[0], "sleep")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "start child:", err)
			os.Exit(66)
		}
		if len(os.Args) > 2 {
			pids := fmt.Sprintf("%d %d", os.Getpid(), child.Process.Pid)
			_ = os.WriteFile(os.Args[2], []byte(pids), 0o644)
		}
		time.Sleep(time.Hour)
	case "flood":
		line := strings.Repeat("x", 1023) + "\n"
		for i := 0; i < 3*1024; i++ {
			fmt.Print(line)
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown mode %q\n", mode)
		os.Exit(64)
	}
}
