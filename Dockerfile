# Build with the dev tools, then ship only the compiled server and its production dependencies.
FROM node:24-slim AS build
WORKDIR /app
# Dependencies first: this layer stays cached until package*.json change.
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# The browser code: built into dist/web (the spectator page, the explorer) with the server.
COPY web ./web
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
WORKDIR /app
# production: config.ts then listens on 0.0.0.0, as a container must.
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The SDL is read at start-up from <dist>/../schema.
COPY schema ./schema
USER node
EXPOSE 4000
CMD ["node", "dist/server/main.js"]
