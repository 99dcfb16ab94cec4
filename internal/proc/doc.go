// Package proc keeps processes from outliving mcptest.
//
// Servers, hooks and plugins run in process groups of their own that
// mcptest kills when it is done with them (core/session, core/run,
// core/plugin). A grandchild that calls setsid leaves its group, and so
// escapes that kill: on Linux, BecomeSubreaper makes mcptest the parent
// such orphans are handed to, and KillOrphans, called as mcptest exits,
// kills and reaps whichever of them are still there. Elsewhere both do
// nothing and the process groups are all there is.
package proc
