#!/usr/bin/env bash
# Conformance run: checks that fitiq-dev-server --response-shape spec answers as
# docs/contract/openapi.yaml says, with schemathesis (pinned) in a local venv.
#
# Usage: scripts/conformance/run.sh [PATH_TO_fitiq-dev-server|""] [PATH_TO_openapi.yaml|""] [schemathesis options...]
#   Without a binary, builds it with `swift build --scratch-path .build-devserver`.
#   Options after the second argument go to `st run` (e.g. --report junit --report-dir /abs/dir).
#   Environment: CONFORMANCE_MAX_EXAMPLES (default 40), CONFORMANCE_SEED (default fixed).
# Exits non-zero when schemathesis reports a failure.
set -euo pipefail

SCHEMATHESIS_VERSION="4.32.5"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
script_dir="$repo_root/scripts/conformance"
binary="${1:-}"
spec="${2:-$repo_root/docs/contract/openapi.yaml}"
extra_args=("${@:3}")
max_examples="${CONFORMANCE_MAX_EXAMPLES:-40}"
seed="${CONFORMANCE_SEED:-20261122}"
venv="$repo_root/.venv-conformance"

if [[ ! -f "$spec" ]]; then
    echo "conformance: spec not found at $spec (pass it as the second argument)" >&2
    exit 2
fi

# 1. schemathesis in a local venv, never the system's Python.
if [[ ! -x "$venv/bin/st" ]] || [[ "$("$venv/bin/st" --version 2>/dev/null)" != *"$SCHEMATHESIS_VERSION"* ]]; then
    echo "conformance: installing schemathesis $SCHEMATHESIS_VERSION into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# 2. The server binary.
if [[ -z "$binary" ]]; then
    echo "conformance: building fitiq-dev-server" >&2
    (cd "$repo_root" && swift build --scratch-path .build-devserver --product fitiq-dev-server >&2)
    binary="$(cd "$repo_root" && swift build --scratch-path .build-devserver --show-bin-path)/fitiq-dev-server"
fi

# 3. Start it on a free port with throw-away secrets; stop it on any exit.
work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

random_secret() { python3 -c 'import secrets; print(secrets.token_urlsafe(32))'; }
FITIQ_DEV_API_KEY="$(random_secret)"
FITIQ_DEV_JWT_SECRET="$(random_secret)"
export FITIQ_DEV_API_KEY FITIQ_DEV_JWT_SECRET
"$binary" --port 0 --response-shape spec --log-level warning >"$work/stdout" 2>"$work/stderr" &
server_pid=$!

base_url=""
for _ in $(seq 1 100); do
    if line="$(head -n 1 "$work/stdout" 2>/dev/null)" && [[ "$line" == "listening on "* ]]; then
        base_url="${line#listening on }"
        break
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    sleep 0.1
done
if [[ -z "$base_url" ]]; then
    echo "conformance: the server did not start" >&2
    cat "$work/stderr" >&2
    exit 1
fi
echo "conformance: server at $base_url" >&2

# 4. A signed-in account with a profile, so profile reads and writes can answer 200.
json_field() { python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][sys.argv[1]])' "$1"; }
password="$(random_secret)"
register_body="$(printf '{"email":"conformance-%s@example.com","password":"%s","name":"Conformance","date_of_birth":"1990-01-01"}' "$RANDOM$RANDOM" "$password")"
access_token="$(curl --silent --show-error --fail -X POST "$base_url/api/v1/auth/register" \
    -H @<(printf 'X-API-Key: %s\nContent-Type: application/json\n' "$FITIQ_DEV_API_KEY") \
    --data "$register_body" | json_field access_token)"
curl --silent --show-error --fail -o /dev/null -X POST "$base_url/api/v1/users/me" \
    -H @<(printf 'X-API-Key: %s\nAuthorization: Bearer %s\nContent-Type: application/json\n' "$FITIQ_DEV_API_KEY" "$access_token") \
    --data '{"name":"Conformance","preferred_unit_system":"metric"}'
export FITIQ_CONFORMANCE_API_KEY="$FITIQ_DEV_API_KEY"
export FITIQ_CONFORMANCE_ACCESS_TOKEN="$access_token"

# 5. schemathesis with every check; the exclusions, each with its reason, are in schemathesis.toml.
cd "$work"
"$venv/bin/st" --config-file "$script_dir/schemathesis.toml" run "$spec" \
    --url "$base_url" \
    --max-examples "$max_examples" \
    --seed "$seed" \
    --workers 2 \
    --request-timeout 10 \
    --no-color \
    "${extra_args[@]}"
