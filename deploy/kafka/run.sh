#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft: broker and controller in one JVM) on 127.0.0.1 for
# development and CI. The broker's jars come from Maven Central through pom.xml beside this file.
#
#   deploy/kafka/run.sh up      resolve jars once, format storage once, start, wait until it answers
#   deploy/kafka/run.sh down    stop the broker started by `up`
#   deploy/kafka/run.sh status  exit 0 when the broker answers
#
# Environment: KAFKA_PORT (9092), KAFKA_HOME (<repo>/.cache/kafka): jars, data and logs live there.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
port="${KAFKA_PORT:-9092}"
cport="$((port + 1))"
home="${KAFKA_HOME:-$repo/.cache/kafka}"
libs="$home/libs"
data="$home/data-$port"
pidfile="$home/broker-$port.pid"
logfile="$home/broker-$port.log"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

answers() {
  # The broker answers when its client port accepts connections; when it was started here, its log
  # must also say that start-up finished (the port opens a little before the broker serves).
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || return 1
  if [ -f "$pidfile" ] && [ -f "$logfile" ]; then grep -q "Kafka Server started" "$logfile"; fi
}

resolve() {
  if [ -f "$libs/.resolved" ] && [ "$libs/.resolved" -nt "$here/pom.xml" ]; then return; fi
  echo "kafka: resolving broker jars from Maven Central into $libs"
  rm -rf "$libs"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$libs" -DincludeScope=runtime
  touch "$libs/.resolved"
}

configure() {
  mkdir -p "$data"
  cat >"$home/server-$port.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data/log
num.partitions=4
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
log.cleaner.enable=true
PROPS
  if [ ! -f "$data/log/meta.properties" ]; then
    local id
    id="$("$java" -cp "$libs/*" kafka.tools.StorageTool random-uuid)"
    "$java" -cp "$libs/*" -Dlog4j2.configurationFile="$here/log4j2.xml" \
      kafka.tools.StorageTool format -t "$id" -c "$home/server-$port.properties" >/dev/null
  fi
}

up() {
  if answers; then echo "kafka: already answering on 127.0.0.1:$port"; return; fi
  command -v "$java" >/dev/null || { echo "kafka: java not found (Java 17 is needed)" >&2; exit 1; }
  mkdir -p "$home"
  resolve
  configure
  echo "kafka: starting broker on 127.0.0.1:$port (log: $logfile)"
  nohup "$java" -Xms256m -Xmx768m -XX:+UseG1GC -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$here/log4j2.xml" \
    -cp "$libs/*" kafka.Kafka "$home/server-$port.properties" >"$logfile" 2>&1 &
  echo $! >"$pidfile"
  for _ in $(seq 1 120); do
    if answers; then echo "kafka: ready on 127.0.0.1:$port"; return; fi
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      echo "kafka: broker exited; last lines of $logfile:" >&2; tail -n 30 "$logfile" >&2; exit 1
    fi
    sleep 1
  done
  echo "kafka: broker did not answer within 120 s" >&2; tail -n 30 "$logfile" >&2; exit 1
}

down() {
  [ -f "$pidfile" ] || { echo "kafka: not started here"; return; }
  local pid; pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  rm -f "$pidfile"
  echo "kafka: stopped"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) answers ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
