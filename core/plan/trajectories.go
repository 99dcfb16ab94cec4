package plan

import "github.com/mcptest/mcptest/core/config"

// KindTrajectory is one test of the trajectories block: its expect judges
// the tool calls of an intercept trace. It talks to no server.
const KindTrajectory = "trajectory"

// trajectories plans the trajectory tests of a suite.
func (b *builder) trajectories(s *config.Suite, names map[string]int, add func(*Test, map[string]bool)) {
	for _, tt := range s.Trajectories {
		opts := &config.TestOptions{Expect: tt.Expect, ExpectOptions: tt.ExpectOptions, Tags: tt.Tags, Profile: tt.Profile}
		add(&Test{ID: testID(s.File, "trajectories", tt.Name, names), Kind: KindTrajectory, Name: tt.Name,
			Trajectory: tt, Options: opts, Pos: tt.Pos}, nil)
	}
}
