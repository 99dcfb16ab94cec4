package config

import (
	"slices"
	"testing"
	"time"
)

// loadValid loads one valid testdata suite.
func loadValid(t *testing.T, name string) *Suite {
	t.Helper()
	s, err := LoadWith("testdata/valid/"+name, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTypedServers spot-checks that URL and cassette servers carry every
// field the transports need.
func TestTypedServers(t *testing.T) {
	s := loadValid(t, "servers_url.yml")
	tenant := s.Servers["tenant"]
	if tenant.Kind != URLServer || tenant.URL != "https://saas.example.com/mcp" || tenant.Auth != nil {
		t.Errorf("tenant = %+v", tenant)
	}
	if len(tenant.Headers) != 3 || tenant.Headers[1].Name != "X-Api-Key" || tenant.Headers[1].Env != "TENANT_API_KEY" ||
		tenant.Headers[2].Value != "nightly-42" {
		t.Errorf("headers = %+v %+v %+v", tenant.Headers[0], tenant.Headers[1], tenant.Headers[2])
	}
	want := HTTPOptions{Timeout: 45 * time.Second, ConnectTimeout: 3 * time.Second, MaxRedirects: 2,
		TLS: TLSOptions{CABundlePath: "/etc/pki/tenant-ca.pem", MinVersion: "1.3"}}
	if tenant.HTTP != want {
		t.Errorf("http = %+v", tenant.HTTP)
	}
	if h := s.Servers["hosted"]; h.Auth.BearerTokenEnv != "HOSTED_MCP_TOKEN" || h.WaitForReady != "https://tools.example.net/ready" || h.HTTP != defaultHTTP() {
		t.Errorf("hosted = %+v", h)
	}
	if o := s.Servers["oauth_api"].Auth.OAuth; o == nil || o.ClientIDEnv != "ORG_CLIENT_ID" || !slices.Equal(o.Scopes, []string{"tools:call", "tools:list"}) {
		t.Errorf("oauth = %+v", o)
	}
	c := loadValid(t, "servers_cassette.yml").Servers["replay_env"]
	if c.Kind != CassetteServer || c.Cassette != "./cassettes/other.json" {
		t.Errorf("cassette = %+v", c)
	}
}

func TestTypedAgents(t *testing.T) {
	s := loadValid(t, "agents.yml")
	if len(s.Agents) != 6 || len(s.Faults) != 4 || len(s.ProviderOrder) != 3 || s.Budget.PerSuiteUSDCents != 900 {
		t.Fatalf("agents %d faults %d providers %v budget %+v", len(s.Agents), len(s.Faults), s.ProviderOrder, s.Budget)
	}
	a := s.Agents[0]
	if !slices.Equal(a.Models, []ModelRef{{ID: "claude-sonnet-4-5"}, {Provider: "router", ID: "openai/gpt-4o"}}) ||
		a.TimeBudget != 45*time.Second || a.MaxTurns != 8 || a.TokenBudget != 40000 || len(a.Expect) != 4 {
		t.Errorf("agent 0 = %+v", a)
	}
	if tr := s.Agents[1].Turns; tr == nil || len(tr.Scripted) != 2 || s.Agents[1].MaxTurns != DefaultAgentMaxTurns {
		t.Errorf("scripted turns = %+v", tr)
	}
	if sim := s.Agents[2].Turns.Simulate; sim == nil || sim.MaxTurns != 5 || sim.Goal == "" {
		t.Errorf("simulation = %+v", sim)
	}
	ev := s.Agents[3].Eval
	if len(ev.Metrics) != 4 || ev.Metrics[0].Threshold != 0.6 || ev.Metrics[2].Threshold != DefaultMetricThreshold ||
		len(ev.Rubric.Criteria) != 2 || ev.Rubric.Criteria[0].Weight != 2 {
		t.Errorf("eval = %+v", ev)
	}
	if tree := s.Agents[4].Eval.Rubric.Tree; tree.Yes.No.Reason != "used the tool, no answer" || *tree.No.Score != 0 {
		t.Errorf("tree = %+v", tree)
	}
	if pr := s.Providers["vllm-local"].Prices; !slices.Equal(pr, []ModelPrice{{Model: "llama-3*"}, {Model: "mixtral-8x7b", InputPerMTok: 0.5, OutputPerMTok: 0.75}}) {
		t.Errorf("prices = %+v", pr)
	}
	if r := s.Agents[5].Recovery; r.MaxDetectionMS != 2500 || !r.RequireCleanTimeout || !slices.Equal(s.Agents[5].Inject, []string{"stuck-search", "wakes-up"}) {
		t.Errorf("recovery = %+v", r)
	}
	if f := s.Faults[1]; f.Kind != "slow" || f.DelayMS != 4000 || f.Server != "forecast" {
		t.Errorf("fault = %+v", f)
	}
}

func TestTypedEvals(t *testing.T) {
	s := loadValid(t, "evals.yml")
	if len(s.Evals) != 16 || s.RubricOrder[0] != "useful-and-honest" || len(s.Scorers) != 2 {
		t.Fatalf("evals %d rubrics %v scorers %d", len(s.Evals), s.RubricOrder, len(s.Scorers))
	}
	if e := s.Evals[0]; e.Rubric.Text == "" || e.Threshold != 0.65 {
		t.Errorf("free form = %+v", e)
	}
	if r := s.Evals[4].Rubric; r.Ref != "useful-and-honest" || *r.Threshold != 0.9 || !*r.Strict {
		t.Errorf("ref = %+v", r)
	}
	if r := s.Evals[9].Rubric; r.Aggregation != "min" || *r.Scale != (Scale{Kind: "likert", Min: 1, Max: 5}) {
		t.Errorf("scale = %+v", r)
	}
	if c := s.Evals[8].Rubric.Criteria; c[0].When.Contains != "error" || !c[0].Required || *c[0].Threshold != 0.85 || c[1].When.Regex == "" {
		t.Errorf("conditional = %+v %+v", c[0], c[1])
	}
	if j := s.Evals[12].Judge; !slices.Equal(j.Panel, []string{"claude-sonnet-4-5", "claude-haiku-4-5"}) || j.Aggregate != "majority" {
		t.Errorf("panel = %+v", j)
	}
	if m := s.Evals[15].Matrix; len(m.Models) != 2 || len(m.Prompts) != 2 || s.Evals[15].Profile != ProfileFull {
		t.Errorf("matrix = %+v", m)
	}
	if sc := s.Scorers[0]; sc.TimeoutMS != 20000 || sc.Env["SCORER_API_KEY"] != "" || sc.Command[0] != "python3" {
		t.Errorf("scorer = %+v", sc)
	}
}

func TestTypedHooksCompositionsExpect(t *testing.T) {
	h := loadValid(t, "hooks.yml").Hooks
	if len(h.BeforeAll) != 1 || !slices.Equal(h.BeforeAll[0].Command.Argv, []string{"./scripts/load-fixtures.sh", "--fresh"}) ||
		len(h.BeforeEach) != 2 || !h.BeforeEach[1].Context || h.AfterEach[0].Command.Argv[2] != "date >> /tmp/mcptest-hooks.log" {
		t.Errorf("hooks = %+v", h)
	}
	c := loadValid(t, "compositions.yml").Compositions[0]
	if len(c.Nodes) != 3 || !slices.Equal(c.Nodes[2].Needs, []string{"find", "meta"}) || c.Output != "doc" ||
		string(c.Nodes[1].Args) != `{"name":"${find.first.name}"}` {
		t.Errorf("composition = %+v", c)
	}
	tool := loadValid(t, "expect_long.yml").Tools[0]
	eo := tool.ExpectOptions
	if eo.MaxDurationMS != 750 || eo.MaxResponseTokens.Budget != 200 || len(eo.ResponseHeaders) != 5 ||
		*eo.ResponseHeaders[0].Equals != "application/json" || eo.ResponseHeaders[1].Regex == "" || !*eo.ResponseHeaders[3].Exists ||
		!slices.Equal(eo.ResponseHeadersAbsent, []string{"set-cookie", "x-debug"}) {
		t.Errorf("expect options = %+v", eo)
	}
	if tr := tool.Expect[1].Transform; tr == nil || !slices.Equal(tr.Argv, []string{"jq", "ascii_downcase"}) {
		t.Errorf("assertion transform = %+v", tr)
	}
	m := loadValid(t, "matchers.yml").Tools[0].Expect
	last := m[len(m)-1].Matcher
	if last.Key != "allOf" || len(last.Children) != 3 || last.Children[1].Key != "not" || last.Children[1].Children[0].Key != "contains" {
		t.Errorf("composition matcher = %+v", last)
	}
}

// TestOAuthFlows reads the auth.oauth shapes beside the classic one: the
// authorization code flow without a client (registration or a metadata
// document), client credentials with discovery and a signing key, and
// the identity assertion grant.
func TestOAuthFlows(t *testing.T) {
	s := loadValid(t, "oauth_flows.yml")
	app := s.Servers["public_app"].Auth.OAuth
	if app.Flow != "authorization_code" || app.ClientIDEnv != "" || app.ClientMetadataURL != "https://app.example.com/client.json" ||
		app.RedirectPort != 8765 || !app.Discovers() || app.Classic() {
		t.Errorf("public_app %+v", app)
	}
	m := s.Servers["machine"].Auth.OAuth
	if !m.Discover || m.TokenEndpointAuth != "private_key_jwt" || m.PrivateKeyFile != "keys/machine.pem" || !m.Discovers() || m.Classic() {
		t.Errorf("machine %+v", m)
	}
	e := s.Servers["enterprise"].Auth.OAuth
	if e.Flow != "identity_assertion" || e.IDTokenEnv != "IDP_ID_TOKEN" || e.IDPTokenURL != "https://idp.example.com/token" {
		t.Errorf("enterprise %+v", e)
	}
	if classic := loadValid(t, "servers_url.yml").Servers["oauth_api"].Auth.OAuth; !classic.Classic() || classic.Discovers() {
		t.Errorf("the classic block reads as %+v", classic)
	}
}
