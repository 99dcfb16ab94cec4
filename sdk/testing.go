package sdk

import "github.com/hashicorp/go-plugin"

// TestServerPluginSet returns both sides of the plugin set for p, for
// in-process tests (sdk/plugintest). Each entry serves p's services and
// builds the matching host-side client.
func TestServerPluginSet(p *Plugin) plugin.PluginSet {
	srv := newPluginServer(p, nil)
	set := plugin.PluginSet{}
	for name := range ClientPluginSet() {
		set[name] = &gplugin{kind: name, server: srv}
	}
	return set
}
