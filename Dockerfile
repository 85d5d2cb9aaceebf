# Identity bot image (README, "Docker"):
#   docker build -t identity-bot .
#   docker run -d --name identity-bot --restart unless-stopped --env-file .env -v identity-cache:/data identity-bot
#   docker logs identity-bot    # a wrong .env: one `error: ...` line, and the container waits instead of restarting
#
# The card cache lives on the /data volume whatever CACHE_PATH says: the ENV below is /data/cache.sqlite3;
# the bot's own default (CACHE_PATH empty, as `--env-file` passes `CACHE_PATH=`) is the bot user's data
# directory, ~/.local/share/identity-bot, a symlink to /data; and a relative path such as an older .env's
# data/cache.sqlite3 resolves under the working directory /app, where `data` is a symlink to /data too.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# 1. Runtime dependencies only (not the test tools), pinned by requirements.lock: a layer that survives code
#    changes. Their names and ranges come from pyproject.toml; the lock is the constraint file.
COPY pyproject.toml requirements.lock /tmp/deps/
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/deps/pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/deps/runtime.txt \
    && python -m pip install -r /tmp/deps/runtime.txt -c /tmp/deps/requirements.lock \
    && rm -rf /tmp/deps

# 2. The bot itself, built outside the final tree so no build/ or *.egg-info stays behind. Only the package
#    sources are copied (never .env: secrets are passed at run time).
COPY pyproject.toml README.md /tmp/src/
COPY bot /tmp/src/bot
COPY cogs /tmp/src/cogs
RUN python -m pip install --no-deps /tmp/src \
    && rm -rf /tmp/src \
    && python -m pip check \
    && python -m bot --help >/dev/null \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin bot \
    && mkdir -p /data /app /home/bot/.local/share \
    && chown bot:bot /data /home/bot/.local /home/bot/.local/share \
    && ln -s /data /app/data \
    && ln -s /data /home/bot/.local/share/identity-bot

# The card cache (SQLite, WAL) on a volume, so it survives restarts, `docker rm` and upgrades. A new named
# volume starts as a copy of /data here, owned by the bot user.
ENV CACHE_PATH=/data/cache.sqlite3
VOLUME ["/data"]
WORKDIR /app
USER bot

# Healthy when /healthz answers 200 (METRICS_PORT set) or, without a metrics port, when the cache file opens
# read-only and holds card data. An unhealthy probe prints one line saying why (`docker inspect`
# .State.Health.Log). The start period covers the first bulk download of the card data.
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]

# `docker stop` sends SIGTERM: the bot finishes commands in flight (up to 8 s, inside Docker's default 10 s)
# and closes the gateway, the HTTP session and the cache.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
# A configuration error (no or a rejected DISCORD_TOKEN, a bad setting) is printed once (`docker logs`) and
# the process then waits for `docker stop` (exit code 2) instead of exiting: `--restart unless-stopped`
# would otherwise start the same error again and again.
CMD ["run", "--wait-on-config-error"]
