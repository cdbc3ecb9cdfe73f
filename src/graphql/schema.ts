import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers';

/** schema/*.graphql is the source of truth; read at start-up from src/ and dist/ alike. */
const SCHEMA_DIR = path.resolve(__dirname, '..', '..', 'schema');

export function buildSchema(): GraphQLSchema {
  const typeDefs = fs
    .readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8'));
  // The HTTP server and (later) the WebSocket server execute against this one schema object.
  return makeExecutableSchema({ typeDefs, resolvers });
}
