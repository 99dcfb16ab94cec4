package run

import (
	"context"
	"errors"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
)

// CheckArguments asks each matcher plugin to vet the arguments of its
// assertions before any server starts: plain assertions, every leaf of a
// composition and the members of assert-sets, so a bad argument deep in a
// composition is reported as it would be on its own. It also compiles the
// schemas of response header checks. Rejected arguments come back as
// located suite errors; a plugin that cannot vet them (it failed to start)
// is returned as it is.
func CheckArguments(ctx context.Context, host *plugin.Host, p *plan.Plan) error {
	var reqs []plugin.CheckRequest
	var specs []*config.Matcher
	var errs config.Errors
	seenHeaders := map[*config.HeaderCheck]bool{}
	for _, t := range p.Tests {
		for _, a := range t.Assertions {
			a.Leaves(func(l plan.Leaf) {
				reqs = append(reqs, plugin.CheckRequest{Plugin: l.Plugin, Key: l.Matcher.Key, Argument: l.Matcher.Arg})
				specs = append(specs, l.Matcher)
			})
		}
		if t.Options == nil || t.Options.ExpectOptions == nil {
			continue
		}
		for _, h := range t.Options.ExpectOptions.ResponseHeaders {
			if h.Schema == nil || seenHeaders[h] {
				continue
			}
			seenHeaders[h] = true
			if _, err := compileHeaderSchema(h); err != nil {
				errs = append(errs, &config.Error{File: h.Pos.File, Line: h.Pos.Line, Col: h.Pos.Col, Pointer: h.Pos.Pointer + "/schema",
					Msg: "invalid schema: " + err.Error()})
			}
		}
	}
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
		m := specs[i]
		errs = append(errs, &config.Error{
			File: m.Pos.File, Line: m.Pos.Line, Col: m.Pos.Col, Pointer: m.Pos.Pointer + "/" + m.Key,
			Msg: invalidArgumentText(err.Error()),
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
