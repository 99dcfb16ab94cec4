package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Dump writes the canonical form of a loaded suite as one YAML document:
// imports merged, defaultTest merged into the tests, strings as
// interpolated, defaults written out. Every $ in a string that is
// interpolated on load is written as $$, so loading the output again
// yields a Suite equal to s, apart from positions and provenance (File,
// Dir, Imports, Blocks, Warnings, Overrides and the options' KeyPos).
// Variables keep their declarations, so they resolve the same way in the
// same environment. The output holds the resolved values of variables:
// treat it like the environment it was loaded in.
func Dump(s *Suite) ([]byte, error) {
	root := newMap()
	servers := newMap()
	for _, name := range s.ServerOrder {
		servers.set(name, dumpServer(s.Servers[name]))
	}
	root.set("servers", servers.n)
	if len(s.Variables) > 0 {
		vars := newMap()
		for _, v := range s.Variables {
			vars.set(v.Name, dumpVariable(v))
		}
		root.set("variables", vars.n)
	}
	if s.DefaultTimeoutMS > 0 || s.P95LatencyMS > 0 {
		perf := newMap()
		perf.setInt("default_timeout_ms", s.DefaultTimeoutMS)
		perf.setInt("p95_latency_ms", s.P95LatencyMS)
		root.set("performance", perf.n)
	}
	if s.ModelCompatibility != nil {
		root.set("model_compatibility", strSeq(s.ModelCompatibility))
	}
	if s.TargetVersions != nil {
		root.set("target_versions", strSeq(s.TargetVersions))
	}
	dumpBlocks(root, s)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root.n); err != nil {
		return nil, fmt.Errorf("dump suite: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("dump suite: %w", err)
	}
	return buf.Bytes(), nil
}

// ymap builds a YAML mapping node.
type ymap struct{ n *yaml.Node }

func newMap() *ymap { return &ymap{n: &yaml.Node{Kind: yaml.MappingNode, Tag: tagMap}} }

func (m *ymap) set(key string, v *yaml.Node) {
	if v == nil {
		return
	}
	m.n.Content = append(m.n.Content, literal(key), v)
}

// setStr sets a string field, left out when empty.
func (m *ymap) setStr(key, v string) {
	if v != "" {
		m.set(key, str(v))
	}
}

// setInt sets an integer field, left out when 0.
func (m *ymap) setInt(key string, v int) {
	if v != 0 {
		m.set(key, intNode(v))
	}
}

// setTrue sets a boolean field that defaults to false.
func (m *ymap) setTrue(key string, v bool) {
	if v {
		m.set(key, boolNode(true))
	}
}

// setFloat sets an optional number.
func (m *ymap) setFloat(key string, v *float64) {
	if v != nil {
		m.set(key, floatNode(*v))
	}
}

// str is a string that is interpolated on load: its $ are doubled.
func str(s string) *yaml.Node { return literal(strings.ReplaceAll(s, "$", "$$")) }

// literal is a string written as is.
func literal(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tagStr, Value: s}
}

func intNode(v int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tagInt, Value: strconv.Itoa(v)}
}

func floatNode(v float64) *yaml.Node {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	tag := tagFloat
	if !strings.ContainsAny(s, ".eE") {
		tag = tagInt
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
}

func boolNode(v bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tagBool, Value: strconv.FormatBool(v)}
}

func durationNode(d time.Duration) *yaml.Node { return literal(formatDuration(d)) }

// strSeq is an array of interpolated strings.
func strSeq(list []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: tagSeq}
	for _, s := range list {
		n.Content = append(n.Content, str(s))
	}
	return n
}

// seqOf is an array of nodes.
func seqOf(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: tagSeq, Content: items}
}

// strMap is an object of interpolated strings, in key order.
func strMap(m map[string]string) *yaml.Node {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := newMap()
	for _, k := range keys {
		out.set(k, str(m[k]))
	}
	return out.n
}

// jsonNode converts a JSON value to YAML, doubling the $ of its strings
// (they are interpolated on load). JSON is YAML, so the parser does the
// conversion and keeps number literals as written.
func jsonNode(raw json.RawMessage) *yaml.Node {
	if len(raw) == 0 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tagNull, Value: "null"}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 {
		return literal(string(raw))
	}
	n := doc.Content[0]
	escapeStrings(n)
	return n
}

// escapeStrings doubles the $ of every string value under n.
func escapeStrings(n *yaml.Node) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == tagStr {
			n.Value = strings.ReplaceAll(n.Value, "$", "$$")
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			escapeStrings(n.Content[i])
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			escapeStrings(c)
		}
	}
}

// dumpVariable writes a variable's declaration, which is not
// interpolated.
func dumpVariable(v *Variable) *yaml.Node {
	m := newMap()
	if v.Value != nil {
		m.set("value", literal(*v.Value))
		return m.n
	}
	m.set("from_env", literal(v.FromEnv))
	if v.Default != nil {
		m.set("default", literal(*v.Default))
	}
	return m.n
}

// dumpServer writes one server in the shape of its kind.
func dumpServer(srv *Server) *yaml.Node {
	m := newMap()
	switch srv.Kind {
	case StdioServer:
		m.set("command", strSeq(srv.Command))
		if len(srv.Env) > 0 {
			m.set("env", strMap(srv.Env))
		}
	case CassetteServer:
		m.set("cassette", str(srv.Cassette))
	case URLServer:
		m.set("url", str(srv.URL))
		if a := srv.Auth; a != nil {
			am := newMap()
			am.setStr("bearer_token_env", a.BearerTokenEnv)
			if o := a.OAuth; o != nil {
				om := newMap()
				om.setStr("client_id_env", o.ClientIDEnv)
				om.setStr("authorization_url", o.AuthorizationURL)
				om.setStr("token_url", o.TokenURL)
				if o.Scopes != nil {
					om.set("scopes", strSeq(o.Scopes))
				}
				am.set("oauth", om.n)
			}
			m.set("auth", am.n)
		}
		if srv.Headers != nil {
			hm := newMap()
			for _, h := range srv.Headers {
				if h.Env != "" {
					em := newMap()
					em.set("env", str(h.Env))
					hm.set(h.Name, em.n)
				} else {
					hm.set(h.Name, str(h.Value))
				}
			}
			m.set("headers", hm.n)
		}
		hp := newMap()
		hp.set("timeout", durationNode(srv.HTTP.Timeout))
		hp.set("connect_timeout", durationNode(srv.HTTP.ConnectTimeout))
		hp.set("max_redirects", intNode(srv.HTTP.MaxRedirects))
		hp.set("user_agent_override", boolNode(srv.HTTP.UserAgentOverride))
		tm := newMap()
		tm.set("insecure_skip_verify", boolNode(srv.HTTP.TLS.InsecureSkipVerify))
		tm.setStr("ca_bundle_path", srv.HTTP.TLS.CABundlePath)
		tm.set("min_version", literal(srv.HTTP.TLS.MinVersion))
		hp.set("tls", tm.n)
		hp.setStr("transport", srv.HTTP.Transport)
		m.set("http", hp.n)
		m.setStr("wait_for_ready", srv.WaitForReady)
	}
	if srv.Client != nil {
		m.set("client", dumpClient(srv.Client))
	}
	m.setStr("restart_policy", srv.RestartPolicy)
	m.setStr("fixture", srv.Fixture)
	return m.n
}
