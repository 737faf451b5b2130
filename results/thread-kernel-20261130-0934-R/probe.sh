#!/bin/bash
# waits for the ingestion JVM, 15 s more, then summarises its threads' system calls over 5 s
while ! pid=$(pgrep -f "io.streamlab.cli.Main ingest" | head -1) || [ -z "$pid" ]; do sleep 0.2; done
sleep 15
perf trace -s -p $pid -- sleep 5 > /tmp/r/sys/trace.txt 2>&1
