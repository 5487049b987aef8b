# Sourced by the interop scripts that start a server over Streamable HTTP (tasks_run.sh,
# apps_run.sh): a work directory removed on exit, and the server started on a free loopback
# port and stopped. Needs `node22` (a Node binary, for finding a free port) and `script` (the
# caller's name, for messages) set before it is sourced.

work="$(mktemp -d)"
server_pid=""
stop_server() {
  [ -n "$server_pid" ] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null
    # The server's shutdown grace is short; make sure it is gone in any case.
    for _ in $(seq 1 50); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null
  fi
  wait "$server_pid" 2>/dev/null
  server_pid=""
}
cleanup() {
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  "$node22" -e '
    const s = require("net").createServer();
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => console.log(port)); });'
}

# Starts `COMMAND... --http 127.0.0.1:PORT ${after_http[@]}` on a free port (a few tries: the
# port may be taken between probe and bind); sets server_pid and url. Returns 1 if it never
# listens.
after_http=()
start_http_server() {
  local try port
  for try in 1 2 3 4 5; do
    port="$(free_port)" || return 1
    : >"$work/server.log"
    "$@" --http "127.0.0.1:$port" "${after_http[@]}" >/dev/null 2>"$work/server.log" &
    server_pid=$!
    for _ in $(seq 1 300); do
      if ! kill -0 "$server_pid" 2>/dev/null; then
        wait "$server_pid" 2>/dev/null
        server_pid=""
        break
      fi
      # The server says so on stderr once it accepts connections.
      if grep -q "listening on http://127.0.0.1:$port" "$work/server.log"; then
        url="http://127.0.0.1:$port/mcp"
        return 0
      fi
      sleep 0.1
    done
    stop_server
    echo "$script: the server did not listen on 127.0.0.1:$port (try $try):" >&2
    tail -c 2000 "$work/server.log" >&2
  done
  return 1
}

# After a failed check (`$1`, its exit status, not 0): the server's last words.
show_server_stderr() {
  [ "$1" -ne 0 ] || return 0
  echo "---- server stderr (last 3000 chars) ----"
  tail -c 3000 "$work/server.log"
  echo "---- end server stderr ----"
}
