package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/core/eval"
	"github.com/mcptest/mcptest/core/judge"
	"github.com/mcptest/mcptest/core/judge/costcap"
	"github.com/mcptest/mcptest/core/judge/verdictcache"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
	rpt "github.com/mcptest/mcptest/sdk/report"
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
	// maxCost is --max-cost in USD.
	maxCost usdFlag
	// judgeModel and agentModel are --judge-model and --agent-model (eval
	// only): the default judge, and the model of live evals' agent runs.
	judgeModel string
	agentModel string
	// registered is false for a command without these flags (record):
	// then there is no budget.
	registered bool
}

func (j *judgeFlags) register(fs *pflag.FlagSet, evalCmd bool) {
	j.registered = true
	fs.BoolVar(&j.showJudging, "show-judging", false, "print every judge prompt sent and every reply parsed (secrets masked) on stderr")
	fs.Var(&j.maxCost, "max-cost", "stop before a judge or scorer call that could take the run's spend past USD (the grades it stops end errored)")
	if !evalCmd {
		return
	}
	fs.BoolVar(&j.explain, "explain", false, "print what each eval would grade (rubric, candidate, judge model, judge calls, projected cost, prompts) and call no provider")
	j.registerModels(fs)
}

// registerModels adds --judge-model and --agent-model (eval, record).
func (j *judgeFlags) registerModels(fs *pflag.FlagSet) {
	fs.StringVar(&j.judgeModel, "judge-model", os.Getenv(eval.JudgeModelEnv), "judge model of evals whose judge: names none (also "+eval.JudgeModelEnv+"; default: the first family with a key)")
	fs.StringVar(&j.agentModel, "agent-model", os.Getenv(eval.AgentModelEnv), "model that drives live evals (no response:) as an agent (also "+eval.AgentModelEnv+"; default: the judge model)")
}

// maxCostUSD is the budget; ok is false when --max-cost was not given.
func (j *judgeFlags) maxCostUSD() (float64, bool) {
	return j.maxCost.usd, j.registered && j.maxCost.set
}

// usdFlag is a --max-cost amount: unset until given, then a finite
// amount of US dollars, 0 or more.
type usdFlag struct {
	usd float64
	set bool
}

func (u *usdFlag) String() string {
	if !u.set {
		return ""
	}
	return strconv.FormatFloat(u.usd, 'f', -1, 64)
}

func (u *usdFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimPrefix(s, "$"), 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%q: give a budget in US dollars, 0 or more (such as 0.50)", s)
	}
	u.usd, u.set = v, true
	return nil
}

func (u *usdFlag) Type() string { return "USD" }

// evalRunner builds the run's eval runner: judge models through the
// router, the default judge (--judge-model, MCPTEST_JUDGE_MODEL, else
// the first family with a key), the verdict cache (--cache-dir's
// verdicts folder; none with --no-cache) and the --max-cost cap.
func (j *judgeFlags) evalRunner(router *models.Router, getenv func(string) string, redactor *redact.Redactor, noCache bool, cacheDir string, stderr io.Writer) *eval.Runner {
	r := &eval.Runner{Source: judge.RouterSource{Router: router}, Redactor: redactor, AgentModel: j.agentModel}
	r.DefaultModel = j.judgeModel
	if r.DefaultModel == "" {
		r.DefaultModel, r.DefaultModelErr = judge.DefaultModel(getenv)
	}
	if !noCache {
		r.Cache = verdictcache.New(cacheDir)
	}
	if usd, ok := j.maxCostUSD(); ok {
		r.Cap = costcap.New(usd)
	}
	if j.showJudging {
		r.ShowJudging = stderr
	}
	return r
}

// noteBudget records the --max-cost budget, and whether it stopped a
// call, in the report's costs.
func (j *judgeFlags) noteBudget(r *rpt.Run, c *costcap.Cap) {
	usd, ok := j.maxCostUSD()
	if !ok {
		return
	}
	if r.Costs == nil {
		r.Costs = &rpt.Costs{}
	}
	r.Costs.MaxUSD = &usd
	r.Costs.Stopped = c.Stopped()
}

// explainEvals is `mcptest eval --explain`: the dry run of every planned
// eval on stdout. It starts no plugin and no server and calls no model:
// the router it uses can only read prices from the manifests.
func explainEvals(p *plan.Plan, reg *plugin.Registry, j judgeFlags, stdout, stderr io.Writer) int {
	redactor := redact.New(suiteSecrets(p)...)
	router := models.New(models.Options{Backend: pricesOnly{reg: reg}, Providers: planProviders(p), Getenv: planGetenv(p), Redactor: redactor})
	r := j.evalRunner(router, planGetenv(p), redactor, true, "", stderr)
	if err := r.WriteExplain(stdout, p); err != nil {
		fmt.Fprintf(stderr, "mcptest eval: %v\n", err)
		return 2
	}
	return 0
}

// errExplainCall is what a model call would get during --explain: none
// may be made.
var errExplainCall = errors.New("mcptest eval --explain calls no model")

// pricesOnly is the model backend of --explain: prices from the plugin
// manifests, and no call.
type pricesOnly struct{ reg *plugin.Registry }

func (b pricesOnly) Complete(context.Context, string, sdk.Endpoint, sdk.ChatRequest) (sdk.ChatResponse, error) {
	return sdk.ChatResponse{}, errExplainCall
}

func (b pricesOnly) Embed(context.Context, string, sdk.Endpoint, sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	return sdk.EmbedResponse{}, errExplainCall
}

func (b pricesOnly) Prices(key string) ([]sdk.ModelPrice, error) {
	f, err := b.reg.Resolve(sdk.KindProvider, key)
	if err != nil {
		return nil, err
	}
	return f.Manifest.Prices, nil
}
