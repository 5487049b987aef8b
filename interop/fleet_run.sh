#!/usr/bin/env bash
# The official clients against a fleet: several instances sharing one Redis, behind nginx round
# robin with no sticky routing, so consecutive requests of one session (and a stream's
# resumption) land on different instances.
#
#   interop/fleet_run.sh PATH/TO/conformance PATH/TO/tasks
#
# Starts, on free loopback ports, in a temporary directory:
#   the conformance fleet  redis-server (nothing saved), N instances of `conformance --http
#                          127.0.0.1:PORT --redis redis://127.0.0.1:RPORT/`, nginx in front;
#   the tasks fleet        the same with the tasks fixture (its own redis-server);
# then runs, each against the fleet's nginx URL:
#   1. the official conformance suite: `--suite all`, `--requirements 2025-11-25` and
#      `--requirements 2026-07-28`, each checked against conformance-baseline.yml
#      (conformance_suite.sh --url);
#   2. the Python SDK and both TypeScript SDKs over Streamable HTTP, every era, with
#      expectations/conformance.json (http_run.sh --url): handshake-era sessions whose requests
#      are spread over the instances, resumption, DELETE, and the 2026-07-28 stateless era;
#   3. the tasks clients (1.x SDK and ext-tasks) against the tasks fleet (tasks_run.sh --url);
# and checks that nginx spread the requests over every instance and that no instance died.
# Everything is stopped on exit (a trap); the instances' stderr and nginx's error log are printed
# when a step fails. Prints one line per step and `interop fleet: N passed, M failed`; exits 1 on
# any failure.
#
# Environment:
#   INTEROP_FLEET_INSTANCES  instances per fleet (default 3)
#   INTEROP_TIMEOUT          per-request timeout of the clients in seconds (default 30)
# Needs nginx and redis-server; installs nothing (run interop/setup.sh first).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
  echo "usage: interop/fleet_run.sh PATH/TO/conformance PATH/TO/tasks" >&2
  exit 2
}
[ $# -eq 2 ] || usage
conformance="$(realpath "$1")"
tasks="$(realpath "$2")"
for binary in "$conformance" "$tasks"; do
  [ -x "$binary" ] || { echo "interop/fleet_run.sh: no such server binary: $binary" >&2; exit 2; }
done
nginx=""
for candidate in /usr/sbin/nginx /usr/local/sbin/nginx /usr/bin/nginx; do
  [ -x "$candidate" ] && { nginx="$candidate"; break; }
done
[ -n "$nginx" ] || { echo "interop/fleet_run.sh: nginx is not installed (apt-get install nginx-light)" >&2; exit 2; }
command -v redis-server >/dev/null || { echo "interop/fleet_run.sh: redis-server is not installed" >&2; exit 2; }
if [ ! -x "$here/node/node_modules/node/bin/node" ] || [ ! -x "$here/python/.venv/bin/python" ]; then
  echo "interop/fleet_run.sh: the interop clients are not installed; run interop/setup.sh first" >&2
  exit 2
fi
instances="${INTEROP_FLEET_INSTANCES:-3}"

work="$(mktemp -d)"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null
  done
  for _ in $(seq 1 50); do
    local alive=0
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && alive=1
    done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT PID LOG: until something listens on PORT; fails (showing LOG) if PID exits first
# or after 30 s.
wait_port() {
  local port="$1" pid="$2" log="$3"
  for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "interop/fleet_run.sh: the process for port $port exited; its log:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "interop/fleet_run.sh: nothing listens on port $port after 30 s; the log:" >&2
  cat "$log" >&2
  return 1
}

# start_fleet NAME BINARY: Redis, $instances instances of BINARY, nginx; files in $work/NAME
# (instance-I.log, instance-I.port, instance-I.pid, redis.log, nginx error.log and access.log).
# Sets fleet_url to the nginx URL.
fleet_url=""
start_fleet() {
  local name="$1" binary="$2" dir="$work/$1" redis_port port i upstreams=""
  mkdir -p "$dir/redis"
  redis_port="$(free_port)"
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir/redis" \
    >"$dir/redis.log" 2>&1 &
  pids+=($!)
  wait_port "$redis_port" $! "$dir/redis.log" || return 1
  for i in $(seq 0 $((instances - 1))); do
    port="$(free_port)"
    "$binary" --http "127.0.0.1:$port" --redis "redis://127.0.0.1:$redis_port/" \
      >/dev/null 2>"$dir/instance-$i.log" &
    pids+=($!)
    echo "$!" >"$dir/instance-$i.pid"
    echo "$port" >"$dir/instance-$i.port"
    wait_port "$port" $! "$dir/instance-$i.log" || return 1
    upstreams+="        server 127.0.0.1:$port;"$'\n'
  done
  port="$(free_port)"
  # The manual's deployment snippet (mcp-runtime/docs/http.md), self-contained, plus an access
  # log saying which instance served each request.
  cat >"$dir/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 512; }
http {
    log_format placement '\$request_method \$upstream_addr \$status';
    access_log $dir/access.log placement;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    upstream mcp {
$upstreams    }
    server {
        listen 127.0.0.1:$port;
        location /mcp {
            proxy_pass http://mcp;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }
    }
}
EOF
  "$nginx" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" </dev/null >"$dir/nginx.out" 2>&1 &
  pids+=($!)
  wait_port "$port" $! "$dir/nginx.out" || { cat "$dir/error.log" >&2 2>/dev/null; return 1; }
  fleet_url="http://127.0.0.1:$port/mcp"
}

# show_logs NAME: what the fleet's processes wrote.
show_logs() {
  local dir="$work/$1" log
  for log in "$dir"/instance-*.log; do
    echo "---- $1 $(basename "$log" .log) (127.0.0.1:$(cat "${log%.log}.port")) stderr, last 4000 bytes ----"
    tail -c 4000 "$log"
  done
  echo "---- $1 nginx error.log ----"
  tail -c 3000 "$dir/error.log" 2>/dev/null
  echo "---- $1 redis log ----"
  tail -c 1000 "$dir/redis.log"
  echo "---- end of $1's logs ----"
}

passed=()
failed=()
# step NAME FLEET COMMAND...: runs COMMAND; on failure records it and shows the fleet's logs.
step() {
  local name="$1" fleet="$2"
  shift 2
  echo
  echo "######## fleet: $name"
  "$@"
  local rc=$?
  if [ "$rc" -eq 0 ]; then
    passed+=("$name")
  else
    failed+=("$name (exit $rc)")
    show_logs "$fleet"
  fi
}

# spread NAME: every instance of the fleet served requests through nginx, and is still running.
spread() {
  local dir="$work/$1" i port pid served bad=0 total
  total="$(wc -l <"$dir/access.log")"
  for i in $(seq 0 $((instances - 1))); do
    port="$(cat "$dir/instance-$i.port")"
    pid="$(cat "$dir/instance-$i.pid")"
    served="$(grep -cE " 127\.0\.0\.1:$port[, ]" "$dir/access.log")"
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "FAIL $1 instance $i (port $port) died"
      bad=1
    elif [ "$served" -eq 0 ]; then
      echo "FAIL $1 instance $i (port $port) served none of the $total requests through nginx"
      bad=1
    else
      echo "PASS $1 instance $i (port $port) served $served of the $total requests through nginx, and runs"
    fi
  done
  local errors
  errors="$(grep -c ' 50[0-9]$' "$dir/access.log")"
  if [ "$errors" -ne 0 ]; then
    echo "FAIL $1: $errors requests answered 5xx through nginx:"
    grep ' 50[0-9]$' "$dir/access.log" | head -20
    bad=1
  fi
  return "$bad"
}

started=$SECONDS
echo "== fleets of $instances instances behind nginx (no sticky routing), each fleet sharing a redis-server"
start_fleet conformance "$conformance" || { show_logs conformance; exit 1; }
conformance_url="$fleet_url"
echo "conformance fleet: $conformance_url"
start_fleet tasks "$tasks" || { show_logs tasks; exit 1; }
tasks_url="$fleet_url"
echo "tasks fleet: $tasks_url"

step "conformance suite (all; 2025-11-25 and 2026-07-28 requirements) through nginx" conformance \
  bash "$here/conformance_suite.sh" --url "$conformance_url"
step "Python and TypeScript SDKs over Streamable HTTP through nginx" conformance \
  bash "$here/http_run.sh" --url "$conformance_url" "$here/expectations/conformance.json"
step "every conformance instance served, none died" conformance spread conformance
step "tasks clients (1.x SDK, ext-tasks) over Streamable HTTP through nginx" tasks \
  bash "$here/tasks_run.sh" --url "$tasks_url"
step "every tasks instance served, none died" tasks spread tasks

echo
for name in "${passed[@]}"; do
  echo "PASS fleet: $name"
done
for name in "${failed[@]}"; do
  echo "FAIL fleet: $name"
done
echo "interop fleet: ${#passed[@]} passed, ${#failed[@]} failed ($((SECONDS - started)) s)"
[ ${#failed[@]} -eq 0 ]
