// Package proc keeps processes from outliving mcptest. It is the one copy
// of that mechanism: servers (core/session, core/probe), hooks (core/run)
// and plugins (core/plugin) all use it.
//
// Servers and hooks run in process groups of their own (SetGroup) that
// mcptest stops when it is done with them (StopGroup: stdin closed by the
// caller, a grace, SIGTERM, a grace, SIGKILL, then whatever is left in the
// group), or kills outright (KillGroup). A watchdog in a server's group
// (StartWatchdog) kills the group when mcptest dies without a chance to
// clean up. A grandchild that calls setsid leaves its group, and so
// escapes all of that: on Linux, BecomeSubreaper makes mcptest the parent
// such orphans are handed to, and KillOrphans, called as mcptest exits,
// kills and reaps whichever of them are still there. Elsewhere both do
// nothing and the process groups are all there is.
package proc
