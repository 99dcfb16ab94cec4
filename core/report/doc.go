// Package report drives reporter plugins: it fans run events out to every
// requested format, writes what each renders to its file or the terminal,
// and scrubs secrets from everything before a plugin sees it. A report file
// replaces an earlier one only once it is complete, and no reporter can
// hold up the run or the other reporters. The report's types themselves
// live in sdk/report so plugins share them.
package report
