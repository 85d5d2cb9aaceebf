# Identity bot: docker build -t identity-bot . && docker run --env-file .env -v identity-cache:/data identity-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first (a layer that survives code changes), read from pyproject.toml.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# Then the bot itself. No secrets are copied (.dockerignore excludes .env); pass them at run time.
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps . \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin bot \
    && mkdir -p /data \
    && chown bot:bot /data

# The card cache (SQLite) lives on a volume so it survives restarts and upgrades.
ENV CACHE_PATH=/data/cache.sqlite3
VOLUME ["/data"]
USER bot

# Healthy when the card cache opens and, if METRICS_PORT is set, /healthz answers 200
# (the bot creates the cache on start, hence the start period).
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD python -c "import os, sqlite3; sqlite3.connect('file:' + os.environ['CACHE_PATH'] + '?mode=ro', uri=True, timeout=5).execute('select count(*) from sqlite_master').fetchone()" \
        && python -m bot.ops.healthcheck

# SIGTERM (docker stop) shuts the bot down gracefully.
STOPSIGNAL SIGTERM
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
