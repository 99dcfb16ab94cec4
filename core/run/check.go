package run

import (
	"context"
	"errors"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
)

// CheckArguments asks each matcher plugin to vet the arguments of its
// assertions before any server starts. Rejected arguments come back as
// located suite errors; a plugin that cannot vet them (it failed to start)
// is returned as it is.
func CheckArguments(ctx context.Context, host *plugin.Host, p *plan.Plan) error {
	var reqs []plugin.CheckRequest
	var specs []*config.Assertion
	for _, t := range p.Tests {
		for _, a := range t.Assertions {
			reqs = append(reqs, plugin.CheckRequest{Plugin: a.Plugin, Key: a.Spec.Matcher.Key, Argument: a.Spec.Matcher.Arg})
			specs = append(specs, a.Spec)
		}
	}
	var errs config.Errors
	var pluginErrs []error
	seen := map[string]bool{}
	for i, err := range host.Check(ctx, reqs) {
		if err == nil {
			continue
		}
		var pe *plugin.PluginError
		if errors.As(err, &pe) {
			if !seen[pe.Plugin] {
				seen[pe.Plugin] = true
				pluginErrs = append(pluginErrs, err)
			}
			continue
		}
		m := specs[i].Matcher
		errs = append(errs, &config.Error{
			File: m.Pos.File, Line: m.Pos.Line, Col: m.Pos.Col, Pointer: m.Pos.Pointer + "/" + m.Key,
			Msg: "invalid " + m.Key + " argument: " + err.Error(),
		})
	}
	if len(pluginErrs) > 0 {
		return errors.Join(pluginErrs...)
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
