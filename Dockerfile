# syntax=docker/dockerfile:1
# Opsdeck container image: build the web console and the server bundle in one stage, install only the
# server's production dependencies in another, and copy just what `node server/dist/main.js` reads
# into a slim runtime that runs as the unprivileged `node` user.
#
#   docker build -t opsdeck .
#   docker run -p 8080:8080 -v opsdeck-data:/data opsdeck                 # embedded database
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://... opsdeck        # PostgreSQL
#
# server/test/deploy-dockerfile.test.ts parses this file and runs its steps (see docs/deployment.md):
# keep every RUN a plain shell command and every COPY a plain path.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: everything, dev dependencies included, then `npm run build` (web/dist, server/dist)
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY common/package.json common/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY common common
COPY server server
COPY web web
RUN npm run build

# ---- deps: the server workspace's production dependencies only (no dev, no web, no install scripts:
# ssh2's optional native speed-up is skipped, its JavaScript implementation is used)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY common/package.json common/
COPY server/package.json server/
COPY web/package.json web/
RUN npm ci --omit=dev --omit=optional --omit=peer --ignore-scripts --workspace=@opsdeck/server --no-audit --no-fund

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
# ping for the ICMP health check, git and ssh for the gitops playbook actions and git connections.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates iputils-ping git openssh-client && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
# glibc keeps freed large blocks (the health summary's ~8 MB answers) in its heap unless they are
# mmapped: with a fixed threshold they go back to the system once dropped (bench/README.md,
# health-summary-memory: 28 MB over the baseline after idle instead of 129-302 MB).
ENV MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/package.json package.json
COPY --from=build /app/server/package.json server/package.json
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/server/src/db/migrations server/src/db/migrations
COPY --from=build /app/server/demo server/demo
COPY --from=build /app/web/dist web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "server/dist/main.js"]
