package plan

import (
	"github.com/mcptest/mcptest/core/config"
)

// KindAgent is one model of an agent test (agents block): a model drives
// the tools of the test's servers and expect judges the trace.
const KindAgent = "agent"

// Agent is a planned agent test for one model of its models: list.
type Agent struct {
	// Spec is the agent test as loaded.
	Spec *config.AgentTest
	// Model is the model this row runs.
	Model config.ModelRef
	// Servers are the test's servers, in order.
	Servers []*config.Server
}

// agents plans the agent tests of a suite: one test per model, the model
// in the test name so the rows of a matrix tell themselves apart.
func (b *builder) agents(s *config.Suite, names map[string]int, add func(*Test, map[string]bool)) {
	for _, a := range s.Agents {
		opts := &config.TestOptions{Expect: a.Expect, ExpectOptions: a.ExpectOptions, Tags: a.Tags, Profile: a.Profile}
		var srvs []*config.Server
		for _, name := range a.Servers {
			if srv := s.Servers[name]; srv != nil {
				srvs = append(srvs, srv)
			}
		}
		if len(srvs) == 0 || len(a.Models) == 0 {
			b.plan.Total++ // counted, though it cannot be planned (load reported why)
			continue
		}
		for _, m := range a.Models {
			name := a.Name + " [" + ModelLabel(m) + "]"
			add(&Test{ID: testID(s.File, "agents", name, names), Kind: KindAgent, Name: name,
				Agent: &Agent{Spec: a, Model: m, Servers: srvs}, Options: opts, Pos: a.Pos, Server: srvs[0]}, nil)
		}
	}
}

// ModelLabel names a model in test names and reports: the id, prefixed
// with its provider entry when it has one.
func ModelLabel(m config.ModelRef) string {
	if m.Provider != "" {
		return m.Provider + ": " + m.ID
	}
	return m.ID
}
