#!/bin/sh
# Prints non-JSON to stdout instead of answering initialize, then exits 7.
echo "Welcome to the server banner"
echo "{not json either"
echo "fatal: bad config" >&2
exit 7
