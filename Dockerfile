# addon-pair: the server on Node 20. Three stages, so the image holds only what runs:
#   build  - all dependencies, sources, `npm run build` → dist/main.mjs (migrations are inside the bundle)
#   deps   - production dependencies only (no esbuild, tsx, TypeScript or test tools)
#   final  - the bundle, the production dependencies and package.json, owned by root (read-only for the
#            server), and /app/data owned by the non-root user `node` (uid 1000) that the server runs as.
FROM node:20-bookworm-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
COPY migrations ./migrations
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim
# No demo data in the image, and (HOST beyond loopback) no start without ADMIN_PASSWORD: see docs/security.md.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/app/data DEMO=0
# scrypt needs 16 MB per hash on each libuv thread; two malloc arenas keep that from staying in RSS per thread.
ENV MALLOC_ARENA_MAX=2
# Large malloc blocks (compilers, compression) go back to the system when freed instead of staying in the heap.
ENV MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY package.json ./
COPY bin ./bin
COPY --from=deps /build/node_modules ./node_modules
COPY --from=build /build/dist ./dist
# The embedded database (used when DATABASE_URL is not set) lives in /app/data: the only folder the server
# may write. Mount a volume there to keep it.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/status').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The command line in a running container: docker compose exec app node dist/main.mjs help
# A 4 MB young generation (V8 grows it to 16 MB under load, ~35 MB more RSS for no measured gain): docs/operations.md.
CMD ["node", "--max-semi-space-size=4", "--enable-source-maps", "dist/main.mjs", "serve"]
