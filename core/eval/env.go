package eval

// JudgeModelEnv names the variable that sets the default judge model of
// evals whose judge: block names none (--judge-model reads it).
const JudgeModelEnv = "MCPTEST_JUDGE_MODEL"

// AgentModelEnv names the variable that sets the model driving a live
// eval's agent run (--agent-model reads it); without it the eval's judge
// model drives the run.
const AgentModelEnv = "MCPTEST_AGENT_MODEL"
