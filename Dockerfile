# Tollgate appliance image. Build: docker build -t tollgate .
# Runs `tollgate start` against DATABASE_URL and the networks in TOLLGATE_RPC_<NETWORK>
# (see compose.yaml). The Hardhat dev chain is a devDependency and is not in this image.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# patches/: fixes applied to dependencies at install (npm's postinstall runs patch-package).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    TOLLGATE_DATA_DIR=/var/lib/tollgate \
    TOLLGATE_HEALTH_PORT=8081
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY sql ./sql
COPY config ./config
RUN mkdir -p /var/lib/tollgate && chown node:node /var/lib/tollgate
USER node
# 8443: the API and dashboard; 9443: the mutual-TLS TRP listener, when TOLLGATE_TRP_PORT=9443;
# 8081: /healthz and /readyz over plain HTTP, for probes (any role; README, Monitoring).
EXPOSE 8443 9443 8081
VOLUME ["/var/lib/tollgate"]
# On the health listener: answered while the API port is flooded, and with TOLLGATE_TRUST_PROXY
# too (the API port then speaks plain HTTP and answers only its proxy).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s \
  CMD node -e "require('http').get({host:'127.0.0.1',port:process.env.TOLLGATE_HEALTH_PORT,path:'/healthz'},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["start"]
