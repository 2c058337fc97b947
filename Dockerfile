# OptionPilot in a container: `docker compose up -d` (compose.yaml), or by hand:
#   docker build -t optionpilot . && docker run -d --init -p 127.0.0.1:3000:3000 -v optionpilot-data:/data \
#     --env-file optionpilot.env optionpilot
# `npm run deploy:check-image` builds this image and checks it answers its health route (README, "Containers").

# --- build: compile the native modules (argon2, better-sqlite3) and bundle the server and web app ----------------
FROM node:20-bookworm-slim AS build
# node-gyp's tools, used when a native module has no prebuilt binary for this platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Manifests first, so `npm ci` stays cached until a dependency changes.
COPY package.json package-lock.json ./
COPY engine/package.json engine/
COPY server/package.json server/
COPY web/package.json web/
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -- --force
# Prove both native modules load here (a wrong ABI would otherwise surface only at the first sign-in).
RUN node -e "require('argon2'); new (require('better-sqlite3'))(':memory:').close()"

# --- runtime: the same slim base, no compilers, a non-root user ----------------------------------------------------
FROM node:20-bookworm-slim
RUN groupadd --system --gid 10001 optionpilot \
  && useradd --system --uid 10001 --gid optionpilot --home-dir /data --shell /usr/sbin/nologin optionpilot \
  && mkdir -p /data && chown optionpilot:optionpilot /data && chmod 0700 /data
WORKDIR /app
# The whole node_modules (dev dependencies too): the operator commands (`npm run backup`, `doctor`, `create-admin`,
# `restore`) run TypeScript through tsx, a dev dependency.
COPY --from=build --chown=root:root /app /app
# MALLOC_ARENA_MAX=1: argon2's 19 MiB blocks go back instead of staying in per-thread arenas; a 1 GiB old generation
# keeps V8's heap growth between major GCs at 1.6×, not 4× (both: deploy/optionpilot.service).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=1 \
    NODE_OPTIONS=--max-old-space-size=1024 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    npm_config_update_notifier=false \
    npm_config_cache=/tmp/npm-cache
USER optionpilot
VOLUME ["/data"]
EXPOSE 3000
# /api/health answers 503 when the database is down; Node's fetch keeps curl out of the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The bundle directly (not `npm start`, which would try to rebuild into the read-only /app). Run with an init
# (`--init`, compose's `init: true`) so SIGTERM reaches the server's graceful shutdown.
CMD ["node", "--enable-source-maps", "server/dist/main.js"]
