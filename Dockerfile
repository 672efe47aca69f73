# addon-pair: the server on Node 20, bundled with esbuild (a runtime dependency) and run by plain Node.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY migrations ./migrations
RUN npm run build
USER node
ENV HOST=0.0.0.0 PORT=8080
# scrypt needs 16 MB per hash on each libuv thread; two malloc arenas keep that from staying in RSS per thread.
ENV MALLOC_ARENA_MAX=2
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:8080/status').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/main.mjs", "serve"]
