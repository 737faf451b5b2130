#!/bin/bash
# profile-hold.sh OUTDIR DELAY SECONDS: after DELAY s, profile every streamlab JVM (async-profiler,
# attached with jcmd) and the whole machine (perf, 99 Hz) for SECONDS s.
# The library: unzip -j ~/.m2/repository/tools/profiler/async-profiler/2.9/async-profiler-2.9.jar linux-x64/libasyncProfiler.so -d /tmp/ap/linux-x64
# (jcmd parses an option string with "=" as a named argument: the string is passed quoted, "\"start,...\"").
out=$1; delay=$2; secs=$3; lib=/tmp/ap/linux-x64/libasyncProfiler.so
mkdir -p "$out"; sleep "$delay"
declare -A label
for pid in $(pgrep -x java); do
  cmd=$(tr '\0' ' ' < /proc/$pid/cmdline)
  case "$cmd" in *kafka.Kafka*|*Kafka\ *) l=broker ;; *" ingest "*) l=ingest ;; *" run "*) l=run ;; *) continue ;; esac
  label[$pid]=$l
  jcmd $pid JVMTI.agent_load $lib "\"start,event=itimer,interval=2ms,threads\"" > "$out/$l.attach" 2>&1
done
echo "$(date -u +%T) started: ${label[*]}" > "$out/when"
perf record -a -F 99 -g -o "$out/perf.data" -- sleep "$secs" > "$out/perf.log" 2>&1
for pid in "${!label[@]}"; do
  jcmd $pid JVMTI.agent_load $lib "\"stop,file=$out/${label[$pid]}.collapsed,collapsed\"" >> "$out/${label[$pid]}.attach" 2>&1
done
echo "$(date -u +%T) stopped" >> "$out/when"
