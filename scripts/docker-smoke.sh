#!/usr/bin/env bash
# Docker smoke test: the README's Docker steps, run for real against the test suite's fakes.
#
#   bash scripts/docker-smoke.sh          # needs a Docker engine and the project's venv (.venv, or PYTHON=...)
#
# 1. starts the fake Discord and fake Scryfall (scripts/smoke_fakes.py) on the Docker bridge gateway address,
#    so the container reaches them without any extra `docker run` flag;
# 2. in a scratch copy of the working tree (your own .env is never touched or sent to Docker): `cp .env.example
#    .env`, fills in DISCORD_TOKEN, DISCORD_API_BASE, SCRYFALL_API_BASE, SPELLBOOK_JSON_BASE and METRICS_PORT, then runs the README's
#    `docker build` and `docker run` lines exactly as written;
# 3. checks the image (non-root, no build leftovers, tests, .git or .env in it, no token in its history or
#    config), waits for the container to be healthy, has it answer /identity through the fake Discord, checks
#    the card cache is on the volume, then `docker restart`, and `docker stop` + `docker rm` + the same
#    `docker run` again: healthy each time, the cache kept (same card count, no second bulk download);
# 4. runs `sync-cards` (download of the cards and the combos) and `sync-cards --file` in one-off containers on the same volume;
# 5. a wrong .env (an empty DISCORD_TOKEN) with the same restart policy: one error line in `docker logs`, then
#    the container waits (no restarts) until `docker stop`, which ends it with exit code 2;
# 6. cleans up: the containers, the volume, the fakes and the scratch copy (the identity-bot image is kept).
#
# It refuses to run when a container `identity-bot` or a volume `identity-cache` already exists (it would
# otherwise replace them). Not part of .ci/run: CI has no Docker engine. Exit 0 when every check passed.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PYTHON:-$REPO/.venv/bin/python}
CARDS_FILE=${SHARED_DIR:-$REPO/../shared}/data/scryfall-cards.jsonl.gz   # the shared card data (never in the repo)
TIMEOUT=${SMOKE_TIMEOUT:-300}   # seconds to wait for each "healthy"
NAME=identity-bot
BAD=identity-bot-misconfigured   # the wrong-.env container of step 5
VOLUME=identity-cache
METRICS_PORT=9100
# The README's lines, verbatim (the script warns if the README says something else).
BUILD_CMD='docker build -t identity-bot .'
RUN_CMD='docker run -d --name identity-bot --restart unless-stopped --env-file .env -v identity-cache:/data identity-bot'

step() { printf '\n== %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
fail() { printf '   FAIL: %s\n' "$*" >&2; exit 1; }

# ------------------------------------------------------------------------------------------ preconditions
VENV_HINT="README, Development: python3 -m venv .venv && .venv/bin/pip install -c requirements.lock -e '.[test]'"
[ -x "$PY" ] || PY=$(command -v python3) || fail "no Python: create the project's venv ($VENV_HINT) or set PYTHON"
"$PY" -c 'import aiohttp, discord' 2>/dev/null || fail "$PY lacks the project's dependencies: create the venv ($VENV_HINT) or set PYTHON"
docker info >/dev/null 2>&1 || fail "no Docker engine answers 'docker info'"
for c in "$NAME" "$BAD"; do
  docker container inspect "$c" >/dev/null 2>&1 && fail "a container named $c exists; remove it first (docker rm -f $c)"
done
docker volume inspect "$VOLUME" >/dev/null 2>&1 && fail "a volume named $VOLUME exists; remove it first (docker volume rm $VOLUME)"
for cmd in "$BUILD_CMD" "$RUN_CMD"; do
  grep -qF -- "$cmd" "$REPO/README.md" || printf '   warning: README.md does not contain: %s\n' "$cmd" >&2
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/identity-smoke.XXXXXX")
FAKES_PID=""
cleanup() {
  status=$?
  step "cleanup"
  for c in "$NAME" "$BAD"; do
    if docker container inspect "$c" >/dev/null 2>&1; then docker rm -f "$c" >/dev/null && echo "   removed container $c"; fi
  done
  if docker volume inspect "$VOLUME" >/dev/null 2>&1; then docker volume rm "$VOLUME" >/dev/null && echo "   removed volume $VOLUME"; fi
  if [ -n "$FAKES_PID" ]; then kill "$FAKES_PID" 2>/dev/null || true; wait "$FAKES_PID" 2>/dev/null || true; echo "   stopped the fakes"; fi
  rm -rf "$WORK"
  if [ "$status" -eq 0 ]; then echo "SMOKE PASSED"; else echo "SMOKE FAILED (exit $status)" >&2; fi
}
trap cleanup EXIT

# Helpers -------------------------------------------------------------------------------------------------
control() { "$PY" - "$CONTROL$1" <<'EOF'
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r:
    print(r.read().decode())
EOF
}
field() { "$PY" -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
health() { docker inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$NAME"; }
last_probe() { docker inspect --format '{{range .State.Health.Log}}{{.ExitCode}} {{.Output}}{{end}}' "$NAME" | grep -v '^$' | tail -n 1; }

wait_healthy() {
  local start=$SECONDS state
  while :; do
    state=$(health)
    case "$state" in
      healthy) ok "healthy after $((SECONDS - start)) s; last probe: $(last_probe)"; return 0 ;;
      unhealthy) docker logs --tail 20 "$NAME" >&2 || true; fail "container unhealthy; last probe: $(last_probe)" ;;
    esac
    if [ "$(docker inspect --format '{{.State.Running}}' "$NAME")" != true ]; then
      docker logs --tail 30 "$NAME" >&2 || true
      fail "container is not running ($(docker inspect --format '{{.State.Status}} exit {{.State.ExitCode}}' "$NAME"))"
    fi
    [ $((SECONDS - start)) -lt "$TIMEOUT" ] || fail "not healthy after $TIMEOUT s (state $state; last probe: $(last_probe))"
    sleep 2
  done
}

cards_on_volume() {  # card rows in the cache file, read on the host through the volume's mount point
  "$PY" - "$MOUNT/cache.sqlite3" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=10)
print(con.execute("SELECT count(*) FROM cards").fetchone()[0])
EOF
}

answers_identity() {  # the bot, in its container, answers /identity through the fake Discord
  local reply title
  reply=$(control "/invoke?command=identity&card=Lightning%20Bolt&wait=60")
  title=$(field "$reply" title 2>/dev/null) || fail "/identity got no reply: $reply"
  [ "$title" = "Lightning Bolt" ] || fail "/identity answered $reply"
  ok "/identity card:Lightning Bolt answered with the embed \"$title\""
}

# ------------------------------------------------------------------------------------------ 1. the fakes
step "fakes on the Docker bridge gateway"
# The default bridge's gateway is the host as containers see it. IPAM lists it on most engines; otherwise
# it is the IPv4 address of the bridge interface (docker0).
GATEWAY=$(docker network inspect bridge --format '{{range .IPAM.Config}}{{.Gateway}}{{end}}')
if [ -z "$GATEWAY" ]; then
  BRIDGE_IF=$(docker network inspect bridge --format '{{index .Options "com.docker.network.bridge.name"}}')
  GATEWAY=$("$PY" - "${BRIDGE_IF:-docker0}" <<'EOF'
import fcntl, socket, struct, sys
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:  # SIOCGIFADDR: the interface's IPv4 address
    print(socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", sys.argv[1][:15].encode()))[20:24]))
EOF
  ) || GATEWAY=""
fi
[ -n "$GATEWAY" ] || fail "no address for the default bridge network (this script needs a Linux Docker engine)"
"$PY" "$REPO/scripts/smoke_fakes.py" --host "$GATEWAY" --info "$WORK/fakes.json" >"$WORK/fakes.log" 2>&1 &
FAKES_PID=$!
for _ in $(seq 120); do [ -s "$WORK/fakes.json" ] && break; kill -0 "$FAKES_PID" 2>/dev/null || break; sleep 0.5; done
[ -s "$WORK/fakes.json" ] || { cat "$WORK/fakes.log" >&2; fail "the fakes did not start"; }
INFO=$(cat "$WORK/fakes.json")
CONTROL=$(field "$INFO" control)
ok "$(cat "$WORK/fakes.log")"

# ------------------------------------------------------------------------------------------ 2. README steps
step "scratch copy of the working tree (without .git, .venv, .env)"
CTX="$WORK/identity-bot"
mkdir "$CTX"
tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude=./.env -cf - . | tar -C "$CTX" -xf -
cd "$CTX"
ok "$CTX"

step "cp .env.example .env, with the fakes' addresses"
cp .env.example .env
set_env() {  # KEY VALUE: replace the KEY= line (or a commented '# KEY=' line), or append one
  "$PY" - .env "$1" "$2" <<'EOF'
import re, sys
path, key, value = sys.argv[1:]
text = open(path, encoding="utf-8").read()
line = f"{key}={value}"
new, n = re.subn(rf"^(# ?)?{re.escape(key)}=.*$", lambda m: line, text, count=1, flags=re.M)
open(path, "w", encoding="utf-8").write(new if n else text.rstrip("\n") + "\n" + line + "\n")
EOF
}
for key in DISCORD_TOKEN DISCORD_API_BASE SCRYFALL_API_BASE SPELLBOOK_JSON_BASE; do set_env "$key" "$(field "$INFO" "$key")"; done
set_env METRICS_PORT "$METRICS_PORT"
TOKEN=$(field "$INFO" DISCORD_TOKEN)
grep -E '^(DISCORD_API_BASE|SCRYFALL_API_BASE|SPELLBOOK_JSON_BASE|METRICS_PORT|CACHE_PATH)=' .env | sed 's/^/   /'
grep -q '^CACHE_PATH=' .env && echo "   note: .env.example sets CACHE_PATH" || ok "CACHE_PATH is left at its default"

step "$BUILD_CMD"
start=$SECONDS
eval "$BUILD_CMD" >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log" >&2; fail "docker build failed"; }
ok "built in $((SECONDS - start)) s, $(docker image inspect --format '{{.Size}}' identity-bot | awk '{printf "%.0f MB", $1/1e6}')"

step "the image: non-root, clean, no secrets"
user=$(docker image inspect --format '{{.Config.User}}' identity-bot)
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || fail "the image runs as root"
ok "runs as user '$user'"
app=$(docker run --rm --entrypoint ls identity-bot -la /app)
printf '%s\n' "$app" | sed 's/^/   /'
printf '%s\n' "$app" | grep -q ' data -> /data$' || fail "/app/data is not a link to the /data volume"
extra=$(printf '%s\n' "$app" | grep -v -E '^total | \.\.?$| data -> /data$' || true)
[ -z "$extra" ] || fail "/app holds more than the data link: $extra"
# Outside the Python library directories: no project files at all; anywhere but Debian's own python3
# packages: no *.egg-info (what an in-tree setuptools build leaves behind); nothing left in /tmp.
leftovers=$(docker run --rm --user 0 --entrypoint sh identity-bot -c '
  ls -A /tmp
  find / -xdev -not -path "/proc/*" -not -path "*/site-packages/*" -not -path "*/dist-packages/*" \
    -not -path "/usr/lib/python3*" -not -path "/usr/local/lib/python3*" -not -path "/usr/share/*" \
    \( -name build -o -name tests -o -name bench -o -name .git -o -name ".env*" -o -name "*.sqlite3*" \
       -o -name pyproject.toml -o -name requirements.lock -o -name "*.egg-info" \) 2>/dev/null
  find / -xdev -name "*.egg-info" -not -path "/usr/lib/python3/*" 2>/dev/null
  true') || fail "could not list the image's files"
[ -z "$leftovers" ] || fail "the image holds files it should not: $leftovers"
ok "no build/, *.egg-info, tests, bench, .git, .env or cache file in the image"
if docker history --no-trunc identity-bot | grep -qF "$TOKEN" || docker image inspect identity-bot | grep -qF "$TOKEN"; then
  fail "the token is in the image's history or config"
fi
ok "the token is in neither 'docker history' nor 'docker image inspect'"

step "$RUN_CMD"
eval "$RUN_CMD" >/dev/null
[ "$(docker inspect --format '{{.HostConfig.RestartPolicy.Name}}' "$NAME")" = unless-stopped ] || fail "no restart policy"
ok "restart policy unless-stopped"
wait_healthy
answers_identity

step "the card cache is on the volume"
MOUNT=$(docker volume inspect --format '{{.Mountpoint}}' "$VOLUME")
docker exec "$NAME" sh -c 'echo "   CACHE_PATH=${CACHE_PATH:-(unset)}, cwd $(pwd), /app/data -> $(readlink -f /app/data)"; ls -la /data' | sed 's/^   //; s/^/   /'
[ -s "$MOUNT/cache.sqlite3" ] || fail "no cache.sqlite3 on the volume ($MOUNT)"
CARDS=$(cards_on_volume)
[ "$CARDS" -ge "$(field "$INFO" cards)" ] || fail "the cache on the volume holds $CARDS cards"
ok "$MOUNT/cache.sqlite3 holds $CARDS cards"
if docker logs "$NAME" 2>&1 | grep -qi 'in-memory'; then fail "the bot fell back to an in-memory cache"; fi
ok "no in-memory fallback in the log"
probe=$(docker exec -e METRICS_PORT= "$NAME" python -m bot healthcheck) || fail "cache probe: $probe"
ok "probe without METRICS_PORT: $probe"
for value in data/cache.sqlite3 ""; do  # an older .env's relative path, and `CACHE_PATH=` (empty = default)
  probe=$(docker run --rm -e DISCORD_TOKEN="$TOKEN" -e CACHE_PATH="$value" -e METRICS_PORT= -v "$VOLUME:/data" identity-bot healthcheck) || fail "CACHE_PATH='$value': $probe"
  case "$probe" in *"holds $CARDS cards"*) ok "CACHE_PATH='$value' in a one-off container: $probe" ;;
    *) fail "CACHE_PATH='$value' does not find the volume's cache: $probe" ;; esac
done
STATUS=$(control /status)
DOWNLOADS=$(field "$STATUS" bulk_downloads)
[ "$DOWNLOADS" -eq 1 ] || fail "expected one bulk download, saw $DOWNLOADS"
ok "one bulk download from the fake Scryfall"

step "docker restart $NAME"
docker restart "$NAME" >/dev/null
wait_healthy
answers_identity
[ "$(cards_on_volume)" -eq "$CARDS" ] || fail "card count changed after the restart"
[ "$(field "$(control /status)" bulk_downloads)" -eq "$DOWNLOADS" ] || fail "the bot downloaded the bulk data again"
ok "cache kept: $CARDS cards, no new bulk download"

step "docker stop + docker rm + the same docker run"
start=$SECONDS
docker stop "$NAME" >/dev/null
code=$(docker inspect --format '{{.State.ExitCode}}' "$NAME")
[ "$code" -eq 0 ] || { docker logs --tail 20 "$NAME" >&2; fail "docker stop: exit code $code (not a graceful stop)"; }
ok "graceful stop: exit code 0 after $((SECONDS - start)) s"
docker rm "$NAME" >/dev/null
eval "$RUN_CMD" >/dev/null
wait_healthy
answers_identity
[ "$(cards_on_volume)" -eq "$CARDS" ] || fail "card count changed in the new container"
[ "$(field "$(control /status)" bulk_downloads)" -eq "$DOWNLOADS" ] || fail "the new container downloaded the bulk data again"
ok "new container, same volume: $CARDS cards, no new bulk download"

step "docker run --rm -v identity-cache:/data --env-file .env identity-bot sync-cards"
out=$(docker run --rm -v identity-cache:/data --env-file .env identity-bot sync-cards 2>&1) \
  || { printf '%s\n' "$out" >&2; fail "sync-cards failed"; }
printf '%s\n' "$out" | tail -n 3 | sed 's/^/   /'
[ "$(field "$(control /status)" bulk_downloads)" -eq $((DOWNLOADS + 1)) ] || fail "sync-cards did not download the bulk file"
printf '%s\n' "$out" | grep -q "Commander Spellbook combos" || fail "sync-cards did not import the combos"
ok "sync-cards downloaded the bulk file from the (fake) Scryfall and the combos from the (fake) Spellbook"

step "docker run --rm -v identity-cache:/data -v \$CARDS_FILE:/import/cards.jsonl.gz:ro --env-file .env identity-bot sync-cards --file /import/cards.jsonl.gz"
out=$(docker run --rm -v identity-cache:/data -v "$CARDS_FILE:/import/cards.jsonl.gz:ro" \
  --env-file .env identity-bot sync-cards --file /import/cards.jsonl.gz 2>&1) \
  || { printf '%s\n' "$out" >&2; fail "sync-cards --file failed"; }
printf '%s\n' "$out" | tail -n 3 | sed 's/^/   /'
[ "$(cards_on_volume)" -ge "$CARDS" ] || fail "the cache lost cards"
[ "$(health)" = healthy ] || fail "the running bot became $(health)"
ok "imported the mounted file; the running bot stays healthy"

step "a wrong .env: an empty DISCORD_TOKEN, the same restart policy"
grep -v '^DISCORD_TOKEN=' .env >"$WORK/bad.env"
echo 'DISCORD_TOKEN=' >>"$WORK/bad.env"
docker run -d --name "$BAD" --restart unless-stopped --env-file "$WORK/bad.env" identity-bot >/dev/null
for _ in $(seq 60); do docker logs "$BAD" 2>&1 | grep -q '^waiting:' && break; sleep 1; done
logs=$(docker logs "$BAD" 2>&1)
printf '%s\n' "$logs" | sed 's/^/   /'
printf '%s\n' "$logs" | head -n 1 | grep -q '^error: DISCORD_TOKEN is not set' || fail "docker logs does not say the token is missing"
printf '%s\n' "$logs" | grep -q '^waiting:' || fail "the container does not say it is waiting"
sleep 5  # what a restart loop would show by now: restarts
[ "$(docker inspect --format '{{.RestartCount}} {{.State.Running}}' "$BAD")" = "0 true" ] \
  || fail "the misconfigured container restarted ($(docker inspect --format '{{.RestartCount}} restarts, running {{.State.Running}}' "$BAD"))"
ok "one error line in docker logs, no restarts, still running (waiting)"
docker stop "$BAD" >/dev/null
code=$(docker inspect --format '{{.State.ExitCode}} {{.RestartCount}}' "$BAD")
[ "$code" = "2 0" ] || fail "docker stop: exit code and restarts '$code', expected '2 0'"
ok "docker stop ends it with exit code 2 (a configuration error), not restarted"
docker rm "$BAD" >/dev/null

step "fake Discord"
STATUS=$(control /status)
[ "$(field "$STATUS" violations)" = "[]" ] || fail "Discord rule violations: $(field "$STATUS" violations)"
ok "$(field "$STATUS" identifies) gateway IDENTIFYs, commands $(field "$STATUS" commands), no rule violations"
