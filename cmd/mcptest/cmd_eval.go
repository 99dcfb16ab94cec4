package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/mcptest/mcptest/core/eval"
	"github.com/spf13/pflag"
)

// cmdEval is `mcptest eval`: the evals block, with run's flags, reporters,
// shards, trials and exit codes (runSuites), plus --explain.
func cmdEval(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runSuites(ctx, "eval", args, stdout, stderr)
}

// judgeFlags are the flags of model-graded checks, on run (agent eval:
// metrics) and eval.
type judgeFlags struct {
	// explain prints what each eval would grade and calls nothing (eval
	// only).
	explain bool
	// showJudging prints every judge prompt sent and reply parsed, masked.
	showJudging bool
	// maxCost is --max-cost in USD; negative when unset.
	maxCost float64
	// judgeModel and agentModel are --judge-model and --agent-model (eval
	// only): the default judge, and the model of live evals' agent runs.
	judgeModel string
	agentModel string
}

func (j *judgeFlags) register(fs *pflag.FlagSet, evalCmd bool) {
	fs.BoolVar(&j.showJudging, "show-judging", false, "print every judge prompt sent and every reply parsed (secrets masked) on stderr")
	fs.Float64Var(&j.maxCost, "max-cost", -1, "stop before a judge call that would take the run's model spend past USD (the grades not made end errored)")
	if !evalCmd {
		return
	}
	fs.BoolVar(&j.explain, "explain", false, "print what each eval would grade (rubric, candidate, judge model, judge calls, projected cost, prompts) and call no provider")
	fs.StringVar(&j.judgeModel, "judge-model", os.Getenv(eval.JudgeModelEnv), "judge model of evals whose judge: names none (also "+eval.JudgeModelEnv+"; default: the first family with a key)")
	fs.StringVar(&j.agentModel, "agent-model", os.Getenv(eval.AgentModelEnv), "model that drives live evals (no response:) as an agent (also "+eval.AgentModelEnv+"; default: the judge model)")
}

// check refuses a negative or non-finite --max-cost.
func (j *judgeFlags) check(cmd string, stderr io.Writer) bool {
	if j.maxCost != -1 && (j.maxCost < 0 || math.IsNaN(j.maxCost) || math.IsInf(j.maxCost, 0)) {
		fmt.Fprintf(stderr, "mcptest %s: --max-cost %v: give a budget in USD, 0 or more\n", cmd, j.maxCost)
		return false
	}
	return true
}

// maxCostUSD is the budget; ok is false when --max-cost was not given.
func (j *judgeFlags) maxCostUSD() (float64, bool) { return j.maxCost, j.maxCost >= 0 }
