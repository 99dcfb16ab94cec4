#!/bin/sh
# Prints non-JSON, then never answers. A child in the same process group
# writes its pid to $1 so the test can check that Close kills it too.
echo "starting up..."
sleep 600 &
echo $! > "$1"
wait
