#!/bin/sh
# Ignores SIGTERM and a closed stdin, so Close must escalate to SIGKILL.
trap '' TERM
echo "stubborn: ignoring SIGTERM" >&2
while :; do sleep 1; done
