package oauth

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// BrowserEnv names the variable that overrides the browser mcptest opens
// for an interactive login: a command, run with the authorization URL as
// its last argument (or in place of %s). BROWSER is read when it is unset.
const BrowserEnv = "MCPTEST_BROWSER"

// Browser opens the authorization URL for the user.
type Browser func(ctx context.Context, authURL string) error

// SystemBrowser returns the Browser that runs $MCPTEST_BROWSER, else
// $BROWSER, else the platform's opener (xdg-open, open, rundll32). The
// command is started and left to finish; ctx ending kills it.
func SystemBrowser(getenv func(string) string) Browser {
	return func(ctx context.Context, authURL string) error {
		cmdline := getenv(BrowserEnv)
		if cmdline == "" {
			cmdline = getenv("BROWSER")
		}
		var argv []string
		if cmdline != "" {
			argv = strings.Fields(cmdline)
			replaced := false
			for i, a := range argv {
				if strings.Contains(a, "%s") {
					argv[i], replaced = strings.ReplaceAll(a, "%s", authURL), true
				}
			}
			if !replaced {
				argv = append(argv, authURL)
			}
		} else {
			switch runtime.GOOS {
			case "darwin":
				argv = []string{"open", authURL}
			case "windows":
				argv = []string{"rundll32", "url.dll,FileProtocolHandler", authURL}
			default:
				argv = []string{"xdg-open", authURL}
			}
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("opening a browser with %s: %w (set %s)", argv[0], err, BrowserEnv)
		}
		go func() { _ = cmd.Wait() }()
		return nil
	}
}
