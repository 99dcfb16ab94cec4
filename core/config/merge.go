package config

import (
	"maps"
	"slices"
)

// mergeFragments merges the fragments of a suite and its imports, given
// in merge order (imports first, the suite last), so that a later
// fragment overrides an earlier one:
//
//   - named entries (servers, providers, rubrics, fixture errors) are
//     replaced by name, keeping the place of the first declaration;
//   - lists of tests, faults, scorers and compositions are concatenated;
//   - model_compatibility and target_versions are concatenated without
//     duplicates;
//   - the fields of performance and budget, each hook phase,
//     fixtures.server and defaultTest are replaced when a later fragment
//     sets them.
func mergeFragments(frags []*Suite) *Suite {
	s := &Suite{Servers: map[string]*Server{}, Providers: map[string]*Provider{},
		Rubrics: map[string]*Rubric{}, Blocks: map[string]Pos{}}
	for _, f := range frags {
		s.ServerOrder = mergeNamed(s.Servers, s.ServerOrder, f.Servers, f.ServerOrder)
		s.ProviderOrder = mergeNamed(s.Providers, s.ProviderOrder, f.Providers, f.ProviderOrder)
		s.RubricOrder = mergeNamed(s.Rubrics, s.RubricOrder, f.Rubrics, f.RubricOrder)
		s.Tools = append(s.Tools, f.Tools...)
		s.Resources = append(s.Resources, f.Resources...)
		s.Prompts = append(s.Prompts, f.Prompts...)
		s.Lists = append(s.Lists, f.Lists...)
		s.Completions = append(s.Completions, f.Completions...)
		s.Agents = append(s.Agents, f.Agents...)
		s.Trajectories = append(s.Trajectories, f.Trajectories...)
		s.Faults = append(s.Faults, f.Faults...)
		s.Compliance = append(s.Compliance, f.Compliance...)
		s.Evals = append(s.Evals, f.Evals...)
		s.Scorers = append(s.Scorers, f.Scorers...)
		s.Compositions = append(s.Compositions, f.Compositions...)
		s.ModelCompatibility = appendNew(s.ModelCompatibility, f.ModelCompatibility)
		s.TargetVersions = appendNew(s.TargetVersions, f.TargetVersions)
		if f.DefaultTimeoutMS != 0 {
			s.DefaultTimeoutMS = f.DefaultTimeoutMS
		}
		if f.P95LatencyMS != 0 {
			s.P95LatencyMS = f.P95LatencyMS
		}
		if f.Budget != nil {
			if s.Budget == nil {
				s.Budget = &Budget{}
			}
			if f.Budget.PerTestUSDCents != 0 {
				s.Budget.PerTestUSDCents = f.Budget.PerTestUSDCents
			}
			if f.Budget.PerSuiteUSDCents != 0 {
				s.Budget.PerSuiteUSDCents = f.Budget.PerSuiteUSDCents
			}
		}
		s.Hooks = mergeHooks(s.Hooks, f.Hooks)
		s.Fixtures = mergeFixtures(s.Fixtures, f.Fixtures)
		if f.defaultTest != nil {
			s.defaultTest = f.defaultTest
		}
		maps.Copy(s.Blocks, f.Blocks)
	}
	return s
}

// mergeNamed copies the entries of src into dst, a later entry replacing
// an earlier one of the same name, and returns the updated name order.
func mergeNamed[T any](dst map[string]T, order []string, src map[string]T, srcOrder []string) []string {
	for _, name := range srcOrder {
		if _, ok := dst[name]; !ok {
			order = append(order, name)
		}
		dst[name] = src[name]
	}
	return order
}

// appendNew appends the elements of add that list does not hold yet.
func appendNew(list, add []string) []string {
	for _, v := range add {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// mergeHooks replaces each phase that later sets.
func mergeHooks(earlier, later *Hooks) *Hooks {
	if later == nil {
		return earlier
	}
	if earlier == nil {
		return later
	}
	h := *earlier
	h.Pos = later.Pos
	if later.BeforeAll != nil {
		h.BeforeAll = later.BeforeAll
	}
	if later.AfterAll != nil {
		h.AfterAll = later.AfterAll
	}
	if later.BeforeEach != nil {
		h.BeforeEach = later.BeforeEach
	}
	if later.AfterEach != nil {
		h.AfterEach = later.AfterEach
	}
	return &h
}

// mergeFixtures merges fixture errors by name and replaces the server.
func mergeFixtures(earlier, later *Fixtures) *Fixtures {
	if later == nil {
		return earlier
	}
	if earlier == nil {
		return later
	}
	f := &Fixtures{Server: earlier.Server, Errors: slices.Clone(earlier.Errors), Pos: later.Pos}
	if later.Server != "" {
		f.Server = later.Server
	}
	for _, e := range later.Errors {
		i := slices.IndexFunc(f.Errors, func(x *FixtureError) bool { return x.Name == e.Name })
		if i >= 0 {
			f.Errors[i] = e
		} else {
			f.Errors = append(f.Errors, e)
		}
	}
	return f
}
